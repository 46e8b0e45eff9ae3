import Link from "@/components/link";
import type { MouseEvent } from "react";
import type { AclBinding } from "@/lib/policy";
import type { AclSortColumn } from "@/lib/schemas/acls";
import { TableScroll } from "@/components/ui/data-table";

/**
 * One ACL binding as a table row's cells, and its header row: the same seven columns in
 * the same order wherever the console lists bindings (the ACL list, lint findings, plans
 * and their results, resources). The ACL list adds sortable headers and a link to the
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
export const bindingRowKey = (b: AclBinding) => [b.resourceType, b.patternType, b.resourceName, b.principal, b.host, b.operation, b.permissionType].join("|");

/** The principal's page (`/principals/User%3Aalice`). */
export const principalHref = (principal: string) => `/principals/${encodeURIComponent(principal)}`;

/** The binding as the 7 cells; `linkPrincipal` makes the principal a link to its page. */
export function AclBindingCells({ acl, linkPrincipal = false }: { acl: AclBinding; linkPrincipal?: boolean }) {
  return (
    <>
      <td>
        <span className={`badge ${acl.permissionType}`}>{acl.permissionType}</span>
      </td>
      <td className="mono">{linkPrincipal ? <Link href={principalHref(acl.principal)}>{acl.principal}</Link> : acl.principal}</td>
      <td className="mono">{acl.operation}</td>
      <td className="mono">{acl.resourceType}</td>
      <td className="mono">{acl.patternType}</td>
      <td className="mono">{acl.resourceName}</td>
      <td className="mono">{acl.host}</td>
    </>
  );
}

/** How a sortable header row sorts: the current column and direction, a link per choice (works without JavaScript), and a click handler. */
export interface AclSortControl {
  column: AclSortColumn;
  order: "asc" | "desc";
  href: (column: AclSortColumn, order: "asc" | "desc") => string;
  onSort?: (column: AclSortColumn, order: "asc" | "desc", event: MouseEvent<HTMLAnchorElement>) => void;
}

/** The 7 header cells; with `sort`, each is a link that sorts by it (again: the other direction). */
export function AclBindingHeaders({ sort }: { sort?: AclSortControl }) {
  return (
    <>
      {ACL_COLUMNS.map(({ key, header }) => {
        if (sort === undefined) return <th key={key}>{header}</th>;
        const active = sort.column === key;
        const next = active && sort.order === "asc" ? "desc" : "asc";
        return (
          <th key={key} aria-sort={active ? (sort.order === "asc" ? "ascending" : "descending") : "none"}>
            <a
              href={sort.href(key, next)}
              className="sort-link"
              aria-label={`${header}: sort ${next === "asc" ? "ascending" : "descending"}`}
              onClick={sort.onSort ? (e) => sort.onSort!(key, next, e) : undefined}
              data-in-page={sort.onSort ? "" : undefined}
            >
              {header}
              {active ? (sort.order === "asc" ? " ▲" : " ▼") : ""}
            </a>
          </th>
        );
      })}
    </>
  );
}

/** A read-only table of bindings (plans: the bindings to create or delete). */
export function AclBindingsTable({ label, bindings }: { label: string; bindings: readonly AclBinding[] }) {
  return (
    <TableScroll label={label}>
      <table className="data" aria-label={label}>
        <thead>
          <tr>
            <AclBindingHeaders />
          </tr>
        </thead>
        <tbody>
          {bindings.map((b) => (
            <tr key={bindingRowKey(b)}>
              <AclBindingCells acl={b} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
