import type { HTMLAttributes, ReactNode } from "react";

export interface Column<T> {
  /** Stable key of the column. */
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Class of the column's cells (e.g. "mono", "nowrap"). */
  className?: string;
  /** Render the cell as a row header (`<th scope="row">`). */
  rowHeader?: boolean;
}

/**
 * A server-renderable table: an accessible name, one header row, one `<tr>` per row. It
 * scrolls sideways inside its own box, so a wide table never makes the page scroll.
 * `rowProps` adds attributes to a row (`data-*` for tests, a class for highlighting).
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  empty,
  className,
}: {
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  className?: string;
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <TableScroll label={label}>
      <table className={["data", className ?? ""].filter(Boolean).join(" ")} aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.key} scope="row" className={c.className}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.key} className={c.className}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * The box a wide table scrolls in. It is focusable and named, so keyboard users can scroll
 * it too (axe: scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={`${label} (scrolls sideways)`} tabIndex={0}>
      {children}
    </div>
  );
}
