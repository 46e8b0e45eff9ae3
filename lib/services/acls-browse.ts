/**
 * Browsing ACLs: the filters of the ACLs page applied in memory to every ACL Kafka
 * returned (pure, so 100,000 ACLs are filtered, sorted and paged on the server without
 * a round trip per filter). The exact filters are Kafka's own AclBindingFilter
 * semantics (filterAcls: pattern ANY means "this exact name, any pattern type"); the
 * principal may also be matched as a case-insensitive fragment.
 */
import { filterAcls, type AclBinding, type AclBindingFilter } from "@/lib/policy";
import { ACL_PAGE_SIZE, type AclListQuery, type AclListResult } from "@/lib/schemas/acls";

export function toAclFilter(q: AclListQuery): AclBindingFilter {
  return {
    resourceType: q.resourceType as AclBindingFilter["resourceType"],
    resourceName: q.resourceName === "" ? null : q.resourceName,
    patternType: q.patternType as AclBindingFilter["patternType"],
    principal: q.principal === "" || q.principalMatch === "contains" ? null : q.principal,
    host: null,
    operation: q.operation as AclBindingFilter["operation"],
    permissionType: q.permissionType as AclBindingFilter["permissionType"],
  };
}

/** The sort key: resource type, name, pattern, then principal, operation, permission, host (NUL sorts before every name character). */
function sortKey(a: AclBinding): string {
  return `${a.resourceType}\u0000${a.resourceName}\u0000${a.patternType}\u0000${a.principal}\u0000${a.operation}\u0000${a.permissionType}\u0000${a.host}`;
}

/** Sorted by sortKey; the keys are built once (a comparator building them would cost seconds at 100,000 ACLs). */
export function sortAcls(acls: readonly AclBinding[]): AclBinding[] {
  const keyed = acls.map((acl) => ({ key: sortKey(acl), acl }));
  keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return keyed.map((k) => k.acl);
}

export function browseAcls(all: readonly AclBinding[], q: AclListQuery, pageSize = ACL_PAGE_SIZE): AclListResult {
  let matching = filterAcls(all, toAclFilter(q));
  if (q.principalMatch === "contains" && q.principal !== "") {
    const fragment = q.principal.toLowerCase();
    matching = matching.filter((a) => a.principal.toLowerCase().includes(fragment));
  }
  matching = sortAcls(matching);
  const pages = Math.max(1, Math.ceil(matching.length / pageSize));
  const page = Math.min(q.page, pages);
  return {
    acls: matching.slice((page - 1) * pageSize, page * pageSize),
    total: all.length,
    matching: matching.length,
    page,
    pageSize,
    pages,
  };
}
