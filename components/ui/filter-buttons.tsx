import Link from "@/components/link";

/** A filter form's buttons: Filter submits it, Clear is a link to `clearHref` (the page without its filters). */
export function FilterButtons({ clearHref }: { clearHref: string }) {
  return (
    <>
      <button className="btn" type="submit">
        Filter
      </button>
      <Link href={clearHref} className="btn secondary">
        Clear
      </Link>
    </>
  );
}
