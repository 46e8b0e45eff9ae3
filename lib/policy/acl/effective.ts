/**
 * Effective permissions: the authorizer's answers laid out for people.
 *
 * - effectiveForResource: for one resource, every principal that appears in the ACLs
 *   that apply to it (plus `User:*`, standing for "anyone else"), and for each operation
 *   valid on the resource type, the decision and the rule, exactly as `authorize` gives.
 * - effectiveForPrincipal: for one principal, every resource pattern it has ACLs on
 *   (its own or `User:*`), by operation, with the DENYs that carve exceptions out of
 *   prefixed and wildcard grants visible.
 *
 * Without a host, the answers are for a client whose address no host-specific ACL
 * names: only `*`-host ACLs count; the specific hosts that would change the answer are
 * listed beside it.
 */
import {
  WILDCARD_HOST,
  WILDCARD_PRINCIPAL,
  WILDCARD_RESOURCE,
  type AclBinding,
  type AclOperation,
  type PatternType,
  type ResourceType,
} from "../types";
import { candidates, type AclIndex, type IndexedAcl } from "./acl-index";
import { authorize, authorizeInScanOrder, scanOrder } from "./authorize";
import type { AuthorizerConfig, Decision, MatchingRule } from "./model";
import { SUPPORTED_OPERATIONS, operationBit } from "./operations";

/** A host no ACL names: only `*`-host ACLs match it. */
const UNSPECIFIED_HOST = "\u0000";
/** Appended to a prefix to stand for "a name under this prefix that no LITERAL ACL names". */
const UNDER_PREFIX = "\u0000";

export interface EffectiveOptions {
  host?: string;
  config?: AuthorizerConfig;
}

export interface EffectiveCell {
  operation: AclOperation;
  decision: Decision;
  rule: MatchingRule;
}

export interface EffectiveRow {
  principal: string;
  operations: EffectiveCell[];
  /** Hosts named by this principal's applicable ACLs (other than `*`): answers may differ from them. */
  specificHosts: string[];
}

export interface ResourceEffective {
  resourceType: ResourceType;
  resourceName: string;
  host: string | null;
  /** The ACLs StandardAuthorizer considers for this resource, in input order. */
  acls: AclBinding[];
  rows: EffectiveRow[];
}

export function effectiveForResource(
  index: AclIndex,
  resourceType: ResourceType,
  resourceName: string,
  options: EffectiveOptions = {},
): ResourceEffective {
  const host = options.host ?? UNSPECIFIED_HOST;
  const groups = scanOrder(index, resourceType, resourceName);
  const seen = new Set<IndexedAcl>();
  for (const g of groups) for (const e of g.entries) seen.add(e);
  const entries = [...seen].sort((a, b) => a.order - b.order);
  const principals = new Set<string>([WILDCARD_PRINCIPAL]);
  const hostsByPrincipal = new Map<string, Set<string>>();
  for (const e of entries) {
    principals.add(e.binding.principal);
    if (e.binding.host !== WILDCARD_HOST) {
      const hosts = hostsByPrincipal.get(e.binding.principal) ?? new Set<string>();
      hosts.add(e.binding.host);
      hostsByPrincipal.set(e.binding.principal, hosts);
    }
  }
  const ordered = [...principals].sort((a, b) =>
    a === WILDCARD_PRINCIPAL ? -1 : b === WILDCARD_PRINCIPAL ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
  const ops = SUPPORTED_OPERATIONS[resourceType];
  const rows = ordered.map((principal): EffectiveRow => {
    const specific = new Set<string>(hostsByPrincipal.get(principal) ?? []);
    if (principal !== WILDCARD_PRINCIPAL)
      for (const h of hostsByPrincipal.get(WILDCARD_PRINCIPAL) ?? []) specific.add(h);
    return {
      principal,
      operations: ops.map((operation) => {
        const { decision, rule } = authorizeInScanOrder(groups, { principal, host, operation }, options.config);
        return { operation, decision, rule };
      }),
      specificHosts: options.host === undefined ? [...specific].sort() : [],
    };
  });
  return { resourceType, resourceName, host: options.host ?? null, acls: entries.map((e) => e.binding), rows };
}

// ---- per principal --------------------------------------------------------------

export interface PrincipalCell {
  operation: AclOperation;
  /** The answer for a resource matched by this pattern and by no narrower ACL. */
  decision: Decision;
  rule: MatchingRule;
  /** DENY ACLs that take this operation away from some of the names the pattern covers. */
  exceptions: AclBinding[];
}

export interface PrincipalPatternRow {
  resourceType: ResourceType;
  patternType: PatternType;
  resourceName: string;
  /** This principal's and `User:*`'s ACLs on exactly this pattern. */
  acls: AclBinding[];
  operations: PrincipalCell[];
  specificHosts: string[];
}

export interface PrincipalEffective {
  principal: string;
  host: string | null;
  superUser: boolean;
  patterns: PrincipalPatternRow[];
}

/** A resource name standing for the pattern: itself, or a name under the prefix, or any name. */
export function representativeName(patternType: PatternType, resourceName: string): string {
  if (patternType === "PREFIXED") return resourceName + UNDER_PREFIX;
  return resourceName === WILDCARD_RESOURCE ? UNDER_PREFIX : resourceName;
}

/** Whether a DENY on pattern `d` applies to some, but maybe not all, names of the row pattern. */
function overlapsNarrower(row: { patternType: PatternType; resourceName: string }, d: AclBinding): boolean {
  if (row.patternType === "LITERAL" && row.resourceName !== WILDCARD_RESOURCE) return false;
  if (row.patternType === "LITERAL") return true;
  return (
    d.resourceName.startsWith(row.resourceName) &&
    !(d.patternType === "LITERAL" && d.resourceName === WILDCARD_RESOURCE)
  );
}

export function effectiveForPrincipal(
  index: AclIndex,
  principal: string,
  host?: string,
  config?: AuthorizerConfig,
): PrincipalEffective {
  const requestHost = host ?? UNSPECIFIED_HOST;
  const own = [
    ...index.aclsOfPrincipal(principal),
    ...(principal === WILDCARD_PRINCIPAL ? [] : index.aclsOfPrincipal(WILDCARD_PRINCIPAL)),
  ].filter((e) => host === undefined || e.binding.host === host || e.binding.host === WILDCARD_HOST);
  own.sort((a, b) => a.order - b.order);
  const rows = new Map<string, { row: PrincipalPatternRow; mask: number }>();
  for (const e of own) {
    const b = e.binding;
    const key = `${b.resourceType}\u0000${b.patternType}\u0000${b.resourceName}`;
    let slot = rows.get(key);
    if (slot === undefined) {
      slot = {
        row: {
          resourceType: b.resourceType,
          patternType: b.patternType,
          resourceName: b.resourceName,
          acls: [],
          operations: [],
          specificHosts: [],
        },
        mask: 0,
      };
      rows.set(key, slot);
    }
    slot.row.acls.push(b);
    slot.mask |= e.allowMask | e.denyMask;
    if (b.host !== WILDCARD_HOST && host === undefined && !slot.row.specificHosts.includes(b.host))
      slot.row.specificHosts.push(b.host);
  }
  const superUser =
    authorize(
      index,
      { principal, host: requestHost, operation: "ALL", resourceType: "CLUSTER", resourceName: "kafka-cluster" },
      config,
    ).rule.kind === "superUser";
  const patterns: PrincipalPatternRow[] = [];
  for (const { row, mask } of rows.values()) {
    const ops = SUPPORTED_OPERATIONS[row.resourceType].filter((op) => (mask & operationBit(op)) !== 0);
    for (const b of row.acls) if (b.operation !== "ALL" && !ops.includes(b.operation)) ops.push(b.operation);
    row.operations = ops.map((operation): PrincipalCell => ({
      operation,
      ...patternDecision(
        index,
        {
          principal,
          host: requestHost,
          operation,
          resourceType: row.resourceType,
          resourceName: row.resourceName,
          patternType: row.patternType,
        },
        host ?? null,
        config,
      ),
    }));
    patterns.push(row);
  }
  return { principal, host: host ?? null, superUser, patterns };
}

interface PatternRequest {
  principal: string;
  host: string;
  operation: AclOperation;
  resourceType: ResourceType;
  resourceName: string;
  patternType: PatternType;
}

function patternDecision(
  index: AclIndex,
  request: PatternRequest,
  exceptionHost: string | null,
  config: AuthorizerConfig | undefined,
): { decision: Decision; rule: MatchingRule; exceptions: AclBinding[] } {
  const name = representativeName(request.patternType, request.resourceName);
  const { decision, rule } = authorize(index, { ...request, resourceName: name }, config);
  if (
    decision === "DENIED" ||
    rule.kind === "superUser" ||
    (request.patternType === "LITERAL" && request.resourceName !== WILDCARD_RESOURCE)
  ) {
    return { decision, rule, exceptions: [] };
  }
  const bit = operationBit(request.operation);
  const prefix = request.patternType === "PREFIXED" ? request.resourceName : "";
  const exceptions: AclBinding[] = [];
  for (const g of index.groupsTouchingPrefix(request.resourceType, prefix)) {
    for (const e of candidates(g, request.principal, exceptionHost)) {
      if ((e.denyMask & bit) !== 0 && overlapsNarrower(request, e.binding)) exceptions.push(e.binding);
    }
  }
  return { decision, rule, exceptions };
}

/**
 * Whether `principal` may do `operation` on every resource the pattern covers: the
 * decision for a name under it (that no narrower ACL names), and the DENYs that take it
 * away from some of the names.
 */
export function authorizePattern(
  index: AclIndex,
  request: PatternRequest,
  config?: AuthorizerConfig,
): { decision: Decision; rule: MatchingRule; exceptions: AclBinding[] } {
  return patternDecision(index, request, request.host, config);
}
