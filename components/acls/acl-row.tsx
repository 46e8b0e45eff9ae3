import Link from "@/components/link";
import type { MouseEvent, ReactNode } from "react";
import type { AclBinding } from "@/lib/policy";
import type { AclSortColumn } from "@/lib/schemas/acls";
import { Badge, decisionTone } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";

/**
 * One ACL binding as DataTable columns: the same seven columns in the same order wherever
 * the console lists bindings (the ACL list, lint findings, plans and their results,
 * resources, the access check). The ACL list adds sortable headers and a link to the
 * principal's page.
 */

/** The columns, in display order, named by the list's sort keys. */
export const ACL_COLUMNS: readonly { key: AclSortColumn; header: string }[] = [
  { key: "permissionType", header: "Permission" },
  { key: "principal", header: "Principal" },
  { key: "operation", header: "Operation" },
  { key: "resourceType", header: "Resource type" },
  { key: "patternType", header: "Pattern" },
  { key: "resourceName", header: "Resource name" },
  { key: "host", header: "Host" },
];

/** One key per binding (all seven fields). */
export const bindingRowKey = (b: AclBinding) =>
  [b.resourceType, b.patternType, b.resourceName, b.principal, b.host, b.operation, b.permissionType].join("|");

/** The principal's page (`/principals/User%3Aalice`). */
export const principalHref = (principal: string) => `/principals/${encodeURIComponent(principal)}`;

/**
 * How a sortable header row sorts: the current column and direction, a link per choice (works without JavaScript), and
 * a click handler.
 */
export interface AclSortControl {
  column: AclSortColumn;
  order: "asc" | "desc";
  href: (column: AclSortColumn, order: "asc" | "desc") => string;
  onSort?: (column: AclSortColumn, order: "asc" | "desc", event: MouseEvent<HTMLAnchorElement>) => void;
}

/** A header that sorts by its column (again: the other direction), as a link. */
function SortHeader({ column, header, sort }: { column: AclSortColumn; header: string; sort: AclSortControl }) {
  const active = sort.column === column;
  const next = active && sort.order === "asc" ? "desc" : "asc";
  return (
    <a
      href={sort.href(column, next)}
      className="sort-link"
      aria-label={`${header}: sort ${next === "asc" ? "ascending" : "descending"}`}
      onClick={sort.onSort ? (e) => sort.onSort!(column, next, e) : undefined}
      data-in-page={sort.onSort ? "" : undefined}
    >
      {header}
      {active ? (sort.order === "asc" ? " ▲" : " ▼") : ""}
    </a>
  );
}

const ariaSort = (sort: AclSortControl, column: AclSortColumn) =>
  sort.column !== column ? "none" : sort.order === "asc" ? "ascending" : "descending";

/**
 * The 7 binding columns of rows `T` (`binding` reads a row's binding): `linkPrincipal`
 * makes the principal a link to its page; with `sort`, each header is a link that sorts by it.
 */
export function aclColumns<T>(
  binding: (row: T) => AclBinding,
  { linkPrincipal = false, sort }: { linkPrincipal?: boolean; sort?: AclSortControl } = {},
): Column<T>[] {
  const cell: Record<AclSortColumn, (acl: AclBinding) => ReactNode> = {
    permissionType: (acl) => <Badge tone={decisionTone(acl.permissionType)}>{acl.permissionType}</Badge>,
    principal: (acl) =>
      linkPrincipal ? <Link href={principalHref(acl.principal)}>{acl.principal}</Link> : acl.principal,
    operation: (acl) => acl.operation,
    resourceType: (acl) => acl.resourceType,
    patternType: (acl) => acl.patternType,
    resourceName: (acl) => acl.resourceName,
    host: (acl) => acl.host,
  };
  return ACL_COLUMNS.map(({ key, header }) => ({
    key,
    header: sort ? <SortHeader column={key} header={header} sort={sort} /> : header,
    className: key === "permissionType" ? undefined : "mono",
    headerProps: sort ? { "aria-sort": ariaSort(sort, key) } : undefined,
    cell: (row: T) => cell[key](binding(row)),
  }));
}

/** A read-only table of bindings (plans: the bindings to create or delete). */
export function AclBindingsTable({ label, bindings }: { label: string; bindings: readonly AclBinding[] }) {
  return <DataTable label={label} columns={aclColumns((b: AclBinding) => b)} rows={bindings} rowKey={bindingRowKey} />;
}
