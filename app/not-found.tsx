import Link from "@/components/link";

export const metadata = { title: "Not found" };

/** Not found outside the console's frame (the console's own pages use app/c/[cluster]/(console)/not-found.tsx). */
export default function NotFound() {
  return (
    <main className="signin-wrap">
      <div className="card signin state-page">
        <h1>Not found</h1>
        <p>There is no such page in the console.</p>
        <p>
          <Link href="/">Go to the start page</Link>
        </p>
      </div>
    </main>
  );
}
