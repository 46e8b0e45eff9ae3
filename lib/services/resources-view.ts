/**
 * The Resources area laid out for people: pure (no Kafka, no env), so the grouping and
 * every sentence are unit-tested.
 *
 * - `groupApplicableAcls`: the ACLs that apply to one resource, grouped by why they
 *   apply (the exact LITERAL name, each PREFIXED pattern the name starts with, longest
 *   first, then LITERAL `*`);
 * - `buildResourceDetail`: those groups and the effective-permission matrix of the
 *   policy core (clients whose host no ACL names: only `*`-host ACLs count, with the
 *   named hosts where an answer differs), super users included;
 * - `buildSection`: one index section, filtered by name, with the ACL count per resource
 *   (one lookup in the authorizer index per resource; nothing is listed or sorted).
 */
import {
  WILDCARD_PRINCIPAL,
  WILDCARD_RESOURCE,
  effectiveForResource,
  SUPPORTED_OPERATIONS,
  type AclBinding,
  type AclIndex,
  type AclOperation,
  type MatchingRule,
  type ResourceType,
} from "@/lib/policy";
import { UNNAMED_HOST_WORDS, type AccessCheckAssumptions } from "@/lib/schemas/access-check";
import type { ApplicableGroup, ResourceDetail, ResourceSection } from "@/lib/schemas/resources";
import { describeRule } from "./access-check-explain";
import { resourceCells, unnamedHost } from "./effective-permissions";

/**
 * The host the matrix's Access check links ask about. The matrix answers for a client
 * whose address no ACL names (only `*`-host ACLs count), so the link must ask from such
 * an address too: a fixed one (127.0.0.1) made carol's READ on audit-log, granted from
 * 127.0.0.1 only, DENIED in the matrix and ALLOWED behind its link.
 */
export function matrixLinkHost(detail: Pick<ResourceDetail, "groups">): string {
  return unnamedHost(detail.groups.flatMap((g) => g.acls.map((a) => a.host)));
}

/** Does `acl` apply to the resource (Kafka's MATCH)? */
export function appliesTo(acl: AclBinding, resourceType: ResourceType, name: string): boolean {
  if (acl.resourceType !== resourceType) return false;
  if (acl.patternType === "LITERAL") return acl.resourceName === name || acl.resourceName === WILDCARD_RESOURCE;
  if (acl.patternType === "PREFIXED") return name.startsWith(acl.resourceName);
  return false;
}

const within = (a: AclBinding, b: AclBinding) =>
  (a.permissionType === b.permissionType ? 0 : a.permissionType === "DENY" ? -1 : 1) ||
  a.principal.localeCompare(b.principal) ||
  a.operation.localeCompare(b.operation) ||
  a.host.localeCompare(b.host);

/** The applicable ACLs (of the given ones) grouped by why they apply; DENY first within a group. */
export function groupApplicableAcls(
  resourceType: ResourceType,
  name: string,
  acls: readonly AclBinding[],
): ApplicableGroup[] {
  const literal: AclBinding[] = [];
  const wildcard: AclBinding[] = [];
  const prefixes = new Map<string, AclBinding[]>();
  for (const acl of acls) {
    if (!appliesTo(acl, resourceType, name)) continue;
    if (acl.patternType === "PREFIXED") {
      const list = prefixes.get(acl.resourceName) ?? [];
      list.push(acl);
      prefixes.set(acl.resourceName, list);
    } else if (acl.resourceName === name) {
      literal.push(acl);
    } else {
      wildcard.push(acl);
    }
  }
  const groups: ApplicableGroup[] = [];
  const copy = (list: AclBinding[]) => [...list].sort(within).map((a) => ({ ...a }));
  if (literal.length > 0) {
    groups.push({
      reason: "literal",
      pattern: name,
      label: `LITERAL "${name}": ACLs on exactly this name`,
      acls: copy(literal),
    });
  }
  for (const prefix of [...prefixes.keys()].sort((a, b) => b.length - a.length || a.localeCompare(b))) {
    groups.push({
      reason: "prefixed",
      pattern: prefix,
      label: `PREFIXED "${prefix}": the name starts with "${prefix}"`,
      acls: copy(prefixes.get(prefix)!),
    });
  }
  if (wildcard.length > 0) {
    groups.push({
      reason: "wildcard",
      pattern: WILDCARD_RESOURCE,
      label: `LITERAL "${WILDCARD_RESOURCE}": ACLs on every ${resourceType}`,
      acls: copy(wildcard),
    });
  }
  return groups;
}

/** What the matrix's User:* row stands for. */
export const WILDCARD_ROW_MEANING = "any other principal no ACL here names, super users aside";

/**
 * The detail: applicable ACLs by reason and the effective-permission matrix over them:
 * User:* (everyone else), each super user (every operation ALLOWED without ACLs), then
 * each principal the applicable ACLs name; each cell for a host no ACL names, with the
 * named hosts where the answer differs (as the principal page gives them).
 */
export function buildResourceDetail(
  resourceType: ResourceType,
  name: string,
  index: AclIndex,
  assumptions: AccessCheckAssumptions,
): ResourceDetail {
  const applicable = index.matching(resourceType, name);
  const config = {
    superUsers: new Set(assumptions.superUsers),
    allowEveryoneIfNoAclFound: assumptions.allowEveryoneIfNoAclFound,
  };
  const effective = effectiveForResource(index, resourceType, name, { config });
  const specificHosts = new Map(effective.rows.map((row) => [row.principal, row.specificHosts]));
  const [wildcard, ...named] = effective.rows.map((row) => row.principal);
  const supers = [...config.superUsers].filter((p) => p !== WILDCARD_PRINCIPAL).sort();
  const principals = [wildcard ?? WILDCARD_PRINCIPAL, ...supers, ...named.filter((p) => !config.superUsers.has(p))];
  const worded = (principal: string, operation: AclOperation, host: string) => ({
    principal,
    host,
    operation,
    resourceType,
    resourceName: name,
  });
  const ruleOf = (rule: MatchingRule) =>
    rule.kind === "acl" ? { kind: "acl" as const, acl: { ...rule.acl } } : { kind: rule.kind };
  return {
    resourceType,
    resourceName: name,
    groups: groupApplicableAcls(resourceType, name, applicable),
    operations: [...SUPPORTED_OPERATIONS[resourceType]],
    rows: principals.map((principal) => ({
      principal,
      superUser: config.superUsers.has(principal),
      cells: resourceCells(index, resourceType, name, principal, config).map((cell) => ({
        operation: cell.operation,
        decision: cell.decision,
        rule: ruleOf(cell.rule),
        reason: describeRule(cell, worded(principal, cell.operation, UNNAMED_HOST_WORDS), assumptions),
        via: [...cell.via],
        otherHosts: cell.otherHosts.map((o) => ({
          host: o.host,
          decision: o.decision,
          rule: ruleOf(o.rule),
          via: [...o.via],
        })),
      })),
      specificHosts: config.superUsers.has(principal) ? [] : (specificHosts.get(principal) ?? []),
    })),
    assumptions,
  };
}

/**
 * One index section: names matching the filter (case-insensitive fragment), with the count of ACLs that apply (null
 * without ACLs to count).
 */
export function buildSection(
  resourceType: ResourceType,
  names: readonly string[],
  filter: string,
  index: Pick<AclIndex, "countMatching"> | null,
): ResourceSection {
  const fragment = filter.toLowerCase();
  const shown = [...new Set(names)].filter((n) => fragment === "" || n.toLowerCase().includes(fragment)).sort();
  return {
    resourceType,
    resources: shown.map((name) => ({ name, acls: index ? index.countMatching(resourceType, name) : null })),
    error: null,
    note: null,
  };
}

/** The USER resources named by LITERAL ACLs (not `*`; a prefix names no one user). */
export function userResourcesOf(acls: readonly AclBinding[]): string[] {
  return [
    ...new Set(
      acls
        .filter((a) => a.resourceType === "USER" && a.patternType === "LITERAL" && a.resourceName !== WILDCARD_RESOURCE)
        .map((a) => a.resourceName),
    ),
  ].sort();
}

/** The same from a snapshot's store: its sorted distinct names, without looking at other ACLs. */
export function userResourcesOfSnapshot(snapshot: {
  resourceNames(type: "USER", patternType: "LITERAL"): string[];
}): string[] {
  return snapshot.resourceNames("USER", "LITERAL").filter((name) => name !== WILDCARD_RESOURCE);
}

/** The page's link to one resource's detail (names URL-encoded). */
export function resourceHref(resourceType: ResourceType, name: string): string {
  return `/resources?${new URLSearchParams({ type: resourceType, name })}`;
}

/** The Access check prefilled for one matrix cell, from `host` (see matrixLinkHost). */
export function accessCheckHref(
  principal: string,
  operation: string,
  resourceType: ResourceType,
  name: string,
  host: string,
): string {
  return `/access-check?${new URLSearchParams({ principal, operation, resourceType, resourceName: name, host })}`;
}
