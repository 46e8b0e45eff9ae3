/**
 * Placeholder blocks while part of a page is fetched in the browser. The region is `aria-busy` with a
 * spoken label; the blocks themselves are hidden from screen readers.
 */
export function Skeleton({
  label = "Loading",
  lines = 3,
  table = false,
}: {
  label?: string;
  lines?: number;
  table?: boolean;
}) {
  return (
    <div className="skeleton" role="status" aria-busy="true" aria-live="polite">
      <span className="sr-only">{label}…</span>
      <div aria-hidden="true">
        <div className="skeleton-block skeleton-title" />
        {Array.from({ length: lines }, (_, i) => (
          <div key={i} className="skeleton-block skeleton-line" style={{ width: `${90 - ((i * 17) % 40)}%` }} />
        ))}
        {table && (
          <div className="skeleton-table">
            {Array.from({ length: 6 }, (_, i) => (
              <div key={i} className="skeleton-block skeleton-row" />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
