/**
 * ACL decisions, mirroring KRaft's StandardAuthorizer (StandardAuthorizerData.authorize,
 * findAclRule, checkSection, findResult) and the default
 * Authorizer.authorizeByResourceType.
 *
 * The contract of `authorize`, in precedence order:
 *   1. a principal listed in `super.users` (exact `Type:name`) is ALLOWED;
 *   2. any matching DENY ACL on the resource: DENIED;
 *   3. any matching ALLOW ACL (with ALLOW-only implication): ALLOWED;
 *   4. the resource has ACLs (for anyone, any operation, either permission): DENIED;
 *   5. otherwise `allow.everyone.if.no.acl.found` (default false: DENIED).
 * The ACLs "on" a resource are LITERAL ones with the same name, LITERAL `*`, and
 * PREFIXED ones whose prefix starts the name. An ACL matches when its principal is the
 * request principal or `User:*`, its host is the request host or `*`, and its operation
 * matches (ALL; the same operation; for ALLOW also the IMPLIES_DESCRIBE /
 * IMPLIES_DESCRIBE_CONFIGS implications).
 *
 * Which ACL is reported: Kafka scans the ACLs in StandardAcl order, first the section
 * of the resource name (stepping through REVERSE-sorted names: the name itself, then
 * the names that are its prefixes, jumping over the others), then the section of the
 * wildcard `*`. It stops at the first matching DENY and otherwise remembers the LAST
 * matching ALLOW. We scan in the same order, so the rule we report is the one Kafka's
 * audit log names. Worked example, TOPIC `foobar`, names in scan order:
 *
 *   foobar PREFIXED, foob LITERAL (skipped: literal, not equal), foo PREFIXED,
 *   fb PREFIXED (not a prefix: jump to the greatest name <= "f"), f PREFIXED
 *
 * A Kafka quirk we DO mirror, because Kafka answers deterministically: a LITERAL `*`
 * ACL is a prefix of every name that starts with `*`, so checkSection treats it as "a
 * literal that is only a prefix" and skips it. For GROUP `*orders` (topic names cannot
 * contain `*`; group, transactional-id, user and token names can) the wildcard LITERAL
 * ACLs — ALLOW and DENY — do not apply at all in StandardAuthorizer. We report what the
 * cluster does; lint warns about such names.
 *
 * Where Kafka throws instead of answering, we answer by the intended rule:
 * - an ACL whose principal has no colon (Kafka 4 refuses to create one; older clusters
 *   stored it, and StandardAcl.kafkaPrincipal() then throws on every authorization that
 *   reaches it) matches nobody here, but still counts as an ACL on its resource;
 * - a request made as the principal `User:*` itself (Kafka's Set.of(principal, User:*)
 *   throws on the duplicate) is matched by the `User:*` ACLs.
 *
 * A deviation on purpose: when the second pass meets a name that shares k >= 1 leading
 * characters with the resource without being a prefix of it, Kafka re-seeks to the
 * first k characters of the string "*" instead of the resource name. That only happens
 * for names starting with a character below `*` (space, `!"#$%&'()`), which GROUP and
 * TRANSACTIONAL_ID names may contain; Kafka then loops forever (k = 1) or throws
 * StringIndexOutOfBoundsException (k >= 2). We re-seek to the first k characters of
 * the resource name, the rule the first pass uses, which yields Kafka's intended result.
 */
import { WILDCARD_HOST, WILDCARD_PRINCIPAL, WILDCARD_RESOURCE, type ResourceType } from "../types";
import {
  AclIndex,
  idKey,
  resultOf,
  scanToPrefix,
  seekAtOrBelow,
  type AclGroup,
  type AclTable,
  type IndexedAcl,
  type TypeSection,
} from "./acl-index";
import type { AclBinding } from "../types";
import type {
  AuthorizationResult,
  AuthorizeByResourceTypeRequest,
  AuthorizeRequest,
  AuthorizerConfig,
  Decision,
} from "./model";
import { operationBit } from "./operations";

const SUPER_USER_RESULT: AuthorizationResult = Object.freeze({
  decision: "ALLOWED",
  rule: Object.freeze({ kind: "superUser" }),
});
const NO_ACL_MATCHED_RESULT: AuthorizationResult = Object.freeze({
  decision: "DENIED",
  rule: Object.freeze({ kind: "noAclMatched" }),
});
const DEFAULT_ALLOW_RESULT: AuthorizationResult = Object.freeze({
  decision: "ALLOWED",
  rule: Object.freeze({ kind: "default" }),
});
const DEFAULT_DENY_RESULT: AuthorizationResult = Object.freeze({
  decision: "DENIED",
  rule: Object.freeze({ kind: "default" }),
});

/** Something that looks at the ACL groups of a resource in Kafka's scan order. */
export interface GroupVisitor {
  /** Return true to stop the scan (Kafka returns on the first matching DENY). */
  visit(group: AclGroup): boolean;
}

/**
 * One pass of StandardAuthorizerData.checkSection, from position `start`. Returns true
 * when stopped. The stretch up to the first name that is a prefix of the resource name
 * is scanned as Kafka does; from there the pass follows that name's precomputed chain
 * (NameNode.down: the same names in the same order, without the seeks).
 */
function checkSection(section: TypeSection, resourceName: string, start: number, visitor: GroupVisitor): boolean {
  const names = section.names;
  const s = scanToPrefix(section, resourceName, start);
  // A LITERAL `*` passed on the way is visited where Kafka meets it: before the prefix.
  if ((s & 1) === 1 && visitor.visit(section.star!)) return true;
  const at = s >>> 1;
  if (at >= names.length) return false;
  let node = names[at]!;
  // A LITERAL that is only a prefix does not apply; the PREFIXED patterns of this name do.
  if (node.literal !== null && node.name.length === resourceName.length && visitor.visit(node.literal)) return true;
  if (node.prefixed !== null && visitor.visit(node.prefixed)) return true;
  for (;;) {
    if (node.starOnTheWay && visitor.visit(section.star!)) return true;
    if (node.down < 0) return false;
    node = names[node.down]!;
    // Shorter than the resource name: only its PREFIXED patterns apply.
    if (node.prefixed !== null && visitor.visit(node.prefixed)) return true;
  }
}

/** Visit the groups that apply to `resourceName` exactly in StandardAuthorizer's order (both passes). */
export function scanApplicableGroups(
  index: AclIndex,
  resourceType: ResourceType,
  resourceName: string,
  visitor: GroupVisitor,
): void {
  const section = index.section(resourceType);
  if (section.names.length === 0) return;
  const exact = section.positionByName.get(resourceName);
  const start = exact ?? seekAtOrBelow(section, resourceName, resourceName.length, 0);
  if (checkSection(section, resourceName, start, visitor)) return;
  checkSection(section, resourceName, section.wildcardStart, visitor);
}

/**
 * The mutable state of one decision (MatchingRuleBuilder). Not re-entrant, and nothing
 * it calls calls back into authorize, so one instance serves every decision.
 * The request's principal and host are looked up in the table of the groups' index once
 * (-1: named by no ACL there, so only `User:*` / `*` ACLs can match), again only if a
 * group of another index comes (plans mix two); each ACL is then compared as numbers.
 */
class RuleBuilder implements GroupVisitor {
  principal = "";
  host = "";
  private table: AclTable | null = null;
  private principalId = -1;
  private hostId = -1;
  bit = 0;
  hasResourceAcls = false;
  deny: IndexedAcl | null = null;
  allow: IndexedAcl | null = null;
  private groupDeny: IndexedAcl | null = null;
  private groupAllow: IndexedAcl | null = null;

  reset(principal: string, host: string, bit: number): void {
    this.principal = principal;
    this.host = host;
    this.table = null;
    this.bit = bit;
    this.hasResourceAcls = false;
    this.deny = null;
    this.allow = null;
  }

  /** Lets go of the last index's table (a replaced snapshot must be collectable). */
  release(): void {
    this.table = null;
  }

  visit(group: AclGroup): boolean {
    this.hasResourceAcls = true;
    this.groupDeny = null;
    this.groupAllow = null;
    const table = group.table;
    if (table !== this.table) {
      this.table = table;
      this.principalId = table.principals.get(this.principal) ?? -1;
      this.hostId = table.hosts.get(this.host) ?? -1;
    }
    if (group.byIds === null) this.scanSmall(group);
    else this.scanKeyed(table, group.byIds);
    if (this.groupDeny !== null) {
      this.deny = this.groupDeny;
      return true;
    }
    if (this.groupAllow !== null) this.allow = this.groupAllow;
    return false;
  }

  /** Small group: every ACL in rank order; the first matching DENY ends it. */
  private scanSmall(group: AclGroup): void {
    const bit = this.bit;
    const principalId = this.principalId;
    const hostId = this.hostId;
    const data = group.table.data;
    const base = group.at * 4;
    const end = base + group.entries.length * 4;
    for (let k = base; k < end; k += 4) {
      const deny = data[k + 3]!;
      if (((data[k + 2]! | deny) & bit) === 0) continue;
      const p = data[k]!;
      if (p !== principalId && p !== 0) continue;
      const h = data[k + 1]!;
      if (h !== hostId && h !== 0) continue;
      const e = group.entries[(k - base) >> 2]!;
      if ((deny & bit) !== 0) {
        this.groupDeny = e;
        return;
      }
      this.groupAllow = e;
    }
  }

  /** Large group: only the lists of (principal or `User:*`, host or `*`). */
  private scanKeyed(table: AclTable, byIds: ReadonlyMap<number, readonly IndexedAcl[]>): void {
    const p = this.principalId;
    const h = this.hostId;
    if (p >= 0) {
      if (h >= 0) this.scanList(byIds.get(idKey(table, p, h)));
      if (h !== 0) this.scanList(byIds.get(idKey(table, p, 0)));
    }
    if (p !== 0) {
      if (h >= 0) this.scanList(byIds.get(idKey(table, 0, h)));
      if (h !== 0) this.scanList(byIds.get(idKey(table, 0, 0)));
    }
  }

  private scanList(list: readonly IndexedAcl[] | undefined): void {
    if (list === undefined) return;
    const bit = this.bit;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if ((e.denyMask & bit) !== 0) {
        // Lists are in rank order: the first DENY is this list's earliest.
        if (this.groupDeny === null || e.rank < this.groupDeny.rank) this.groupDeny = e;
        return;
      }
      if ((e.allowMask & bit) !== 0 && (this.groupAllow === null || e.rank > this.groupAllow.rank)) this.groupAllow = e;
    }
  }
}

const builder = new RuleBuilder();

export function isSuperUser(principal: string, config: AuthorizerConfig | undefined): boolean {
  const su = config?.superUsers;
  if (su === undefined) return false;
  return "has" in su ? su.has(principal) : su.includes(principal);
}

function toIndex(source: AclIndex | readonly AclBinding[]): AclIndex {
  return source instanceof AclIndex ? source : AclIndex.build(source);
}

/**
 * Decide one request. A pure function of (ACLs, request, config); pass an AclIndex built
 * once when deciding many requests (an array is indexed on every call).
 */
export function authorize(
  source: AclIndex | readonly AclBinding[],
  request: AuthorizeRequest,
  config?: AuthorizerConfig,
): AuthorizationResult {
  if (isSuperUser(request.principal, config)) return SUPER_USER_RESULT;
  const index = toIndex(source);
  const b = builder;
  b.reset(request.principal, request.host, operationBit(request.operation));
  scanApplicableGroups(index, request.resourceType, request.resourceName, b);
  const deny = b.deny;
  const allow = b.allow;
  const hasResourceAcls = b.hasResourceAcls;
  b.deny = null;
  b.allow = null;
  b.release();
  if (deny !== null) return resultOf(deny);
  if (allow !== null) return resultOf(allow);
  if (hasResourceAcls) return NO_ACL_MATCHED_RESULT;
  return config?.allowEveryoneIfNoAclFound === true ? DEFAULT_ALLOW_RESULT : DEFAULT_DENY_RESULT;
}

/**
 * The groups StandardAuthorizer scans for a resource, in its order (pass one, then the
 * wildcard pass), collected once so many (principal, operation) questions about the same
 * resource can be answered without scanning again. Stopping at the first DENY of this
 * concatenation is exactly Kafka's "return on the first DENY of pass one, else of pass two".
 */
export function scanOrder(index: AclIndex, resourceType: ResourceType, resourceName: string): AclGroup[] {
  const groups: AclGroup[] = [];
  scanApplicableGroups(index, resourceType, resourceName, {
    visit(group) {
      groups.push(group);
      return false;
    },
  });
  return groups;
}

/** `authorize` over groups from `scanOrder` (same resource): same result, no scan. */
export function authorizeInScanOrder(
  groups: readonly AclGroup[],
  request: Omit<AuthorizeRequest, "resourceType" | "resourceName">,
  config?: AuthorizerConfig,
): AuthorizationResult {
  if (isSuperUser(request.principal, config)) return SUPER_USER_RESULT;
  const b = builder;
  b.reset(request.principal, request.host, operationBit(request.operation));
  for (let i = 0; i < groups.length; i++) if (b.visit(groups[i]!)) break;
  const deny = b.deny;
  const allow = b.allow;
  b.deny = null;
  b.allow = null;
  b.release();
  if (deny !== null) return resultOf(deny);
  if (allow !== null) return resultOf(allow);
  if (groups.length > 0) return NO_ACL_MATCHED_RESULT;
  return config?.allowEveryoneIfNoAclFound === true ? DEFAULT_ALLOW_RESULT : DEFAULT_DENY_RESULT;
}

/** What matchMasksInScanOrder found: the operation bits some matching ALLOW / DENY ACL decides. */
export interface MatchMasks {
  allow: number;
  deny: number;
}

/**
 * Every operation's decision at once for one principal and host over groups from
 * `scanOrder`: the union of the allow and deny masks of the ACLs that match the principal
 * (or `User:*`) and host (or `*`). For an operation with bit `b`: DENIED when `deny & b`
 * (a matching DENY ends Kafka's scan wherever it is), else ALLOWED when `allow & b`, else
 * no ACL matched. One pass instead of one per operation; `out` is filled and returned.
 * Super users are the caller's to handle.
 */
export function matchMasksInScanOrder(
  groups: readonly AclGroup[],
  principal: string,
  host: string,
  out: MatchMasks,
): MatchMasks {
  let allow = 0;
  let deny = 0;
  let table: AclTable | null = null;
  let p = -1;
  let h = -1;
  const fromList = (list: readonly IndexedAcl[] | undefined) => {
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      allow |= list[i]!.allowMask;
      deny |= list[i]!.denyMask;
    }
  };
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    if (group.table !== table) {
      table = group.table;
      p = table.principals.get(principal) ?? -1;
      h = table.hosts.get(host) ?? -1;
    }
    const byIds = group.byIds;
    if (byIds === null) {
      const data = table.data;
      const end = (group.at + group.entries.length) * 4;
      for (let k = group.at * 4; k < end; k += 4) {
        const ep = data[k]!;
        if (ep !== p && ep !== 0) continue;
        const eh = data[k + 1]!;
        if (eh !== h && eh !== 0) continue;
        allow |= data[k + 2]!;
        deny |= data[k + 3]!;
      }
      continue;
    }
    if (p >= 0) {
      if (h >= 0) fromList(byIds.get(idKey(table, p, h)));
      if (h !== 0) fromList(byIds.get(idKey(table, p, 0)));
    }
    if (p !== 0) {
      if (h >= 0) fromList(byIds.get(idKey(table, 0, h)));
      if (h !== 0) fromList(byIds.get(idKey(table, 0, 0)));
    }
  }
  out.allow = allow;
  out.deny = deny;
  return out;
}

/** The dummy resource name Authorizer.authorizeByResourceType authorizes first. */
export const HARDCODE_RESOURCE_NAME = "hardcode";

/**
 * "May this principal do this operation on at least one resource of this type?" —
 * Kafka's default Authorizer.authorizeByResourceType, which StandardAuthorizer uses:
 *   1. authorize the dummy LITERAL resource `hardcode` (super users, the no-ACL default,
 *      and ACLs that happen to apply to `hardcode`): ALLOWED if that is allowed;
 *   2. otherwise consider only the ACLs of this type for the principal (or `User:*`)
 *      and host (or `*`) whose operation is exactly the requested one or ALL — no
 *      implication here, unlike authorize;
 *   3. a LITERAL `*` DENY: DENIED; a LITERAL `*` ALLOW: ALLOWED;
 *   4. ALLOWED if some allowed LITERAL name is not denied as the same LITERAL name,
 *      or some allowed LITERAL or PREFIXED name, and no denied PREFIXED pattern is one
 *      of its non-empty prefixes (a PREFIXED `""` DENY dominates nothing, as in
 *      Kafka); else DENIED.
 */
export function authorizeByResourceType(
  source: AclIndex | readonly AclBinding[],
  request: AuthorizeByResourceTypeRequest,
  config?: AuthorizerConfig,
): { decision: Decision } {
  const index = toIndex(source);
  if (authorize(index, { ...request, resourceName: HARDCODE_RESOURCE_NAME }, config).decision === "ALLOWED") {
    return { decision: "ALLOWED" };
  }
  const denyLiteral = new Set<string>();
  const denyPrefixed = new Set<string>();
  const allowLiteral = new Set<string>();
  const allowPrefixed = new Set<string>();
  let hasWildcardAllow = false;
  const principals =
    request.principal === WILDCARD_PRINCIPAL ? [request.principal] : [request.principal, WILDCARD_PRINCIPAL];
  for (const principal of principals) {
    for (const e of index.aclsOfPrincipal(principal)) {
      const b = e.binding;
      if (b.resourceType !== request.resourceType) continue;
      if (b.host !== request.host && b.host !== WILDCARD_HOST) continue;
      if (b.operation !== request.operation && b.operation !== "ALL") continue;
      const wildcard = b.patternType === "LITERAL" && b.resourceName === WILDCARD_RESOURCE;
      if (b.permissionType === "DENY") {
        if (wildcard) return { decision: "DENIED" };
        (b.patternType === "LITERAL" ? denyLiteral : denyPrefixed).add(b.resourceName);
      } else if (wildcard) {
        hasWildcardAllow = true;
      } else {
        (b.patternType === "LITERAL" ? allowLiteral : allowPrefixed).add(b.resourceName);
      }
    }
  }
  if (hasWildcardAllow) return { decision: "ALLOWED" };
  // Kafka tries every non-empty prefix of the allowed name; only the lengths of denied
  // prefixes can hit, so try just those.
  const deniedLengths = [...new Set([...denyPrefixed].map((p) => p.length))].filter((l) => l > 0);
  const dominated = (name: string): boolean => {
    for (const len of deniedLengths) {
      if (len <= name.length && denyPrefixed.has(name.slice(0, len))) return true;
    }
    return false;
  };
  for (const name of allowLiteral) {
    if (!denyLiteral.has(name) && !dominated(name)) return { decision: "ALLOWED" };
  }
  for (const name of allowPrefixed) {
    if (!dominated(name)) return { decision: "ALLOWED" };
  }
  return { decision: "DENIED" };
}
