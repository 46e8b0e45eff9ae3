/**
 * Browsing ACLs: the ACL list's query (page, API) as a query of the shared snapshot's
 * store (lib/policy/acl/acl-store.ts), which answers it from its indexes and pre-sorted
 * orders: a page costs in proportion to the ACLs it matches, not to all of them.
 *
 * - principal: exact, where a bare name means a user (`alice` is `User:alice`, as
 *   kafka-acls.sh users write `--allow-principal User:alice`); or a case-insensitive
 *   fragment (principalMatch=contains);
 * - resource name: the pattern's own name exactly (Kafka's filter with pattern ANY), names
 *   starting with it, or Kafka's MATCH: the patterns that apply to a resource of that name;
 * - sort: any column, then the browse order; desc reverses it.
 */
import type { AclListQuery } from "@/lib/schemas/acls";
import type { AclBindingFilter, AclStorePageRequest } from "@/lib/policy";

/** `alice` -> `User:alice`; a principal with a type (`Group:ops`, `User:*`) as it is. */
export function principalOf(input: string): string {
  return input === "" || input.includes(":") ? input : `User:${input}`;
}

export function toStoreQuery(q: AclListQuery): AclStorePageRequest {
  const name = q.resourceName === "" ? null : q.resourceName;
  const principal = q.principal === "" ? null : q.principal;
  return {
    resourceType: q.resourceType as AclBindingFilter["resourceType"],
    patternType: q.patternType as AclBindingFilter["patternType"],
    resourceName: q.nameMatch === "exact" ? name : null,
    resourceNamePrefix: q.nameMatch === "prefix" ? name : null,
    resourceNameMatch: q.nameMatch === "match" ? name : null,
    principal: principal !== null && q.principalMatch === "exact" ? principalOf(principal) : null,
    principalContains: q.principalMatch === "contains" ? principal : null,
    host: q.host === "" ? null : q.host,
    operation: q.operation as AclBindingFilter["operation"],
    permissionType: q.permissionType as AclBindingFilter["permissionType"],
    sort: q.sort,
    descending: q.order === "desc",
    page: q.page,
    pageSize: q.pageSize,
  };
}
