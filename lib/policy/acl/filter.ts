/**
 * AclBindingFilter semantics (ResourcePatternFilter.matches,
 * AccessControlEntryFilter.matches), as used by DescribeAcls, DeleteAcls and
 * `kafka-acls --list`:
 * - resource type ANY matches every type; a null name matches every name;
 * - pattern type ANY: any pattern type, but the name must be EQUAL (a filter for `foo`
 *   does not return the `*` or prefixed ACLs that also apply to `foo`);
 * - pattern type MATCH: every pattern that applies to the named resource — LITERAL equal,
 *   LITERAL `*`, PREFIXED where the name starts with the prefix;
 * - LITERAL / PREFIXED: that pattern type and the exact name;
 * - principal and host: null or the exact string (`User:alice` does not return `User:*`
 *   ACLs); operation and permission: ANY or equal.
 */
import { WILDCARD_RESOURCE, type AclBinding, type AclBindingFilter } from "../types";

export function matchesPatternFilter(binding: AclBinding, filter: AclBindingFilter): boolean {
  if (filter.resourceType !== "ANY" && filter.resourceType !== binding.resourceType) return false;
  if (filter.patternType !== "ANY" && filter.patternType !== "MATCH" && filter.patternType !== binding.patternType)
    return false;
  const name = filter.resourceName;
  if (name === null) return true;
  if (filter.patternType !== "MATCH") return name === binding.resourceName;
  return binding.patternType === "LITERAL"
    ? name === binding.resourceName || binding.resourceName === WILDCARD_RESOURCE
    : name.startsWith(binding.resourceName);
}

export function matchesEntryFilter(binding: AclBinding, filter: AclBindingFilter): boolean {
  if (filter.principal !== null && filter.principal !== binding.principal) return false;
  if (filter.host !== null && filter.host !== binding.host) return false;
  if (filter.operation !== "ANY" && filter.operation !== binding.operation) return false;
  return filter.permissionType === "ANY" || filter.permissionType === binding.permissionType;
}

/** AclBindingFilter.matches. */
export function matchesFilter(binding: AclBinding, filter: AclBindingFilter): boolean {
  return matchesPatternFilter(binding, filter) && matchesEntryFilter(binding, filter);
}

/** The bindings the filter matches, in input order (duplicates kept as given). */
export function filterAcls(acls: readonly AclBinding[], filter: AclBindingFilter): AclBinding[] {
  return acls.filter((b) => matchesFilter(b, filter));
}

/** AclBindingFilter.ANY. */
export const ANY_ACL_FILTER: AclBindingFilter = Object.freeze({
  resourceType: "ANY",
  resourceName: null,
  patternType: "ANY",
  principal: null,
  host: null,
  operation: "ANY",
  permissionType: "ANY",
});
