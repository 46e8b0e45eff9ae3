"use client";

import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
  type TableMeta,
} from "@tanstack/react-table";
import { useState } from "react";
import { DataTableView, type DataColumn, type DataTableProps } from "./data-table";

/**
 * A DataTable whose whole list is in the browser and sorted there: each header is a button
 * with `aria-sort` on its cell (the columns are TanStack accessors). `initialSorting` is
 * also the order of the server's HTML. `meta` reaches the cells as `table.options.meta`.
 */
export function SortableDataTable<T>({
  columns,
  rows,
  rowKey,
  initialSorting,
  meta,
  ...view
}: DataTableProps<T> & { columns: readonly DataColumn<T>[]; initialSorting: SortingState; meta?: TableMeta<T> }) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  // The React Compiler (not used here) could not memoise this; the table is rebuilt from props on each render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows as T[],
    columns: columns as DataColumn<T>[],
    state: { sorting },
    onSortingChange: setSorting,
    enableSortingRemoval: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: rowKey,
    meta,
  });
  return (
    <DataTableView
      table={table}
      {...view}
      header={(h) => {
        const sorted = h.column.getIsSorted();
        const name = String(h.column.columnDef.header);
        const next = h.column.getNextSortingOrder() === "desc" ? "descending" : "ascending";
        return {
          props: { "aria-sort": sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none" },
          content: (
            <button
              type="button"
              className="sort-button"
              onClick={h.column.getToggleSortingHandler()}
              aria-label={`${name}: sort ${next}`}
            >
              {flexRender(h.column.columnDef.header, h.getContext())}
              {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}
            </button>
          ),
        };
      }}
    />
  );
}
