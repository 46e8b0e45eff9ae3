import Link from "@/components/link";

export const metadata = { title: "Not found" };

/**
 * A page or object that does not exist, inside the console's frame (a page calls
 * `notFound()` for an unknown plan, principal or resource).
 */
export default function ConsoleNotFound() {
  return (
    <section className="state-page" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Not found</h1>
      <p>
        There is no such page or object in the console, or it no longer exists (plans expire, tokens are removed when
        they expire).
      </p>
      <p>
        <Link href="/">Go to the start page</Link> or pick an area from the menu.
      </p>
    </section>
  );
}
