import {
  createTable,
  flexRender,
  getCoreRowModel,
  type ColumnDef,
  type Header,
  type RowData,
  type Table,
  type TableOptions,
} from "@tanstack/react-table";
import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/** Attributes a cell or row may carry besides React's: `data-*` for tests and styles. */
type DataAttributes = Record<`data-${string}`, string | undefined>;
export type CellProps = TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;
export type RowProps = HTMLAttributes<HTMLTableRowElement | HTMLTableSectionElement> & DataAttributes;

declare module "@tanstack/react-table" {
  // The console's column options (TanStack's `meta`): how a column's cells are rendered.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the names must match TanStack's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Class of the column's body cells (e.g. "mono"). */
    className?: string;
    /** Render the body cells as row headers (`<th scope="row">`). */
    rowHeader?: boolean;
    /** More attributes of a body cell (data-*, a class that depends on the row; a colSpan covers the next cells). */
    cellProps?: (row: TData) => CellProps;
    /** Attributes of the header cell (a class, `aria-sort` of a list the server sorts). */
    headerProps?: ThHTMLAttributes<HTMLTableCellElement>;
    /** Keep the column in view at the right (row actions), over the `.sticky-actions` CSS. */
    sticky?: boolean;
    /** Class of the column's `<col>` (widths); with one on any column the table gets a `<colgroup>`. */
    colClassName?: string;
  }
}

/** Any column of rows `T` (accessor or display). */
// TanStack's own ColumnDef<T, any> idiom: the columns of one table differ in value type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataColumn<T> = ColumnDef<T, any>;

/**
 * A column as the console writes most of them: a key, a header, the cell from the row,
 * TanStack's meta inline. DataTable turns it into a TanStack ColumnDef (`toColumnDef`);
 * a list sorted in the browser gives SortableDataTable TanStack accessor columns directly.
 */
export interface Column<T> extends NonNullable<DataColumn<T>["meta"]> {
  /** Stable key of the column. */
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
}

export function toColumnDef<T>({ key, header, cell, ...meta }: Column<T>): DataColumn<T> {
  const head = typeof header === "string" ? header : () => header;
  return { id: key, header: head, cell: ({ row }) => cell(row.original), meta };
}

/** What every DataTable takes besides its columns. */
export interface DataTableProps<T> {
  /** The table's accessible name (and, with " (scrolls sideways)", its scroll region's). */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Attributes of a row (`data-*` for tests, a class for highlighting); on its `<tbody>` with `rowDetail`. */
  rowProps?: (row: T) => RowProps;
  /**
   * A full-width second row under a row (a form that belongs to it). With it, each row is
   * its own `<tbody>` so the pair stays together.
   */
  rowDetail?: (row: T) => ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** More classes of the `<table>` (besides "data"). */
  className?: string;
  /** Attributes of the `<table>` (a test id). */
  tableProps?: HTMLAttributes<HTMLTableElement> & DataAttributes;
  /** false: no scroll region of its own (the table sits in a box that already scrolls). */
  scroll?: boolean;
}

/**
 * The console's one table, over TanStack Table: an accessible name, one header row, one
 * `<tr>` per row. It scrolls sideways inside its own box, so a wide table never makes the
 * page scroll. Renders on the server (TanStack's core row model needs no hooks); a list
 * sorted in the browser uses SortableDataTable, which renders through the same markup.
 */
export function DataTable<T>({ columns, ...props }: DataTableProps<T> & { columns: readonly Column<T>[] }) {
  const table = staticTable({
    data: props.rows as T[],
    columns: columns.map(toColumnDef),
    getCoreRowModel: getCoreRowModel(),
    getRowId: props.rowKey,
  });
  return <DataTableView table={table} {...props} />;
}

/** A TanStack table without React state (server components may not use hooks). */
function staticTable<T>(options: Omit<TableOptions<T>, "state" | "onStateChange" | "renderFallbackValue">): Table<T> {
  const table = createTable<T>({ ...options, state: {}, onStateChange: () => {}, renderFallbackValue: null });
  table.setOptions((prev) => ({ ...prev, state: table.initialState }));
  return table;
}

/**
 * The markup of a DataTable from a TanStack table instance (built on the server, or by
 * `useReactTable` in the browser). `header` renders a header cell's content (sort buttons).
 */
export function DataTableView<T>({
  table,
  label,
  rowProps,
  rowDetail,
  empty,
  className,
  tableProps,
  scroll = true,
  header,
}: Omit<DataTableProps<T>, "rows" | "rowKey"> & {
  table: Table<T>;
  header?: (h: Header<T, unknown>) => { content: ReactNode; props?: ThHTMLAttributes<HTMLTableCellElement> };
}) {
  const rows = table.getRowModel().rows;
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const leaves = table.getVisibleLeafColumns();
  const width = leaves.length;
  const bodyRow = (row: (typeof rows)[number], attrs?: RowProps) => {
    // A cell whose `cellProps` give it a colSpan covers the cells after it (a row that says one thing).
    let covered = 0;
    return (
      <tr key={row.id} {...attrs}>
        {row.getVisibleCells().map((cell) => {
          if (covered > 0) {
            covered -= 1;
            return null;
          }
          const meta = cell.column.columnDef.meta;
          const extra = meta?.cellProps?.(row.original);
          covered = (extra?.colSpan ?? 1) - 1;
          const cls = classes(meta?.className, meta?.sticky ? "sticky-actions" : undefined, extra?.className);
          const content = flexRender(cell.column.columnDef.cell, cell.getContext());
          return meta?.rowHeader ? (
            <th key={cell.id} scope="row" {...extra} className={cls}>
              {content}
            </th>
          ) : (
            <td key={cell.id} {...extra} className={cls}>
              {content}
            </td>
          );
        })}
      </tr>
    );
  };
  const markup = (
    <table className={classes("data", className)} aria-label={label} {...tableProps}>
      {leaves.some((c) => c.columnDef.meta?.colClassName) && (
        <colgroup>
          {leaves.map((c) => (
            <col key={c.id} className={c.columnDef.meta?.colClassName} />
          ))}
        </colgroup>
      )}
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((h) => {
              const meta = h.column.columnDef.meta;
              const custom = header?.(h);
              const content = custom ? custom.content : flexRender(h.column.columnDef.header, h.getContext());
              const cls = classes(meta?.headerProps?.className, meta?.sticky ? "sticky-actions" : undefined);
              return (
                <th key={h.id} scope="col" {...meta?.headerProps} {...custom?.props} className={cls}>
                  {content}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      {rowDetail ? (
        rows.map((row) => {
          const detail = rowDetail(row.original);
          return (
            <tbody key={row.id} {...rowProps?.(row.original)}>
              {bodyRow(row)}
              {detail != null && detail !== false && (
                <tr>
                  <td colSpan={width}>{detail}</td>
                </tr>
              )}
            </tbody>
          );
        })
      ) : (
        <tbody>{rows.map((row) => bodyRow(row, rowProps?.(row.original)))}</tbody>
      )}
    </table>
  );
  return scroll ? <TableScroll label={label}>{markup}</TableScroll> : markup;
}

const classes = (...names: (string | undefined)[]) => names.filter(Boolean).join(" ") || undefined;

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
