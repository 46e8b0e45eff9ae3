/**
 * Two clusters side by side: the ACLs and client quotas of a principal, or under a
 * resource-name prefix, on the cluster the viewer is on ("here") and on another ("there"),
 * read as the viewer's own session on each (lib/auth/current.ts getViewerOn), so each
 * side shows only what Kafka lets that session see.
 *
 * The scope is the import's sync scope (lib/policy PlanScope): principals and/or a
 * resource-name prefix, both given both hold. The plan that makes "there" like "here" is
 * the import's: acl.import in sync mode on the other cluster, its file being here's ACLs in
 * the scope, so its preview, basis check (409 when either side moved) and apply are the
 * import's own. Where here has nothing in the scope, sync refuses an empty file (it would
 * delete everything there), and the plan is acl.delete of there's ACLs in the scope.
 * Quotas are compared for the entities the scope names (a principal's `User:` name as
 * user; a prefix on user and client-id names); each difference is one quota.alter plan.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import {
  bindingKey,
  distinctBindings,
  formatEntity,
  inPlanScope,
  parsePrincipal,
  type AclBinding,
  type ConfiguredQuota,
  type PlanScope,
  type QuotaEntity,
  type QuotaKey,
} from "@/lib/policy";
import { aclsToJson, sortForExport } from "./acl-io";
import { getAclSnapshot } from "./acl-snapshot";
import { readConfiguredQuotas } from "./quotas";

export interface CompareScope {
  principal: string | null;
  prefix: string | null;
}

export type CompareSide = "both" | "here" | "there";

export interface AclComparisonRow {
  binding: AclBinding;
  side: CompareSide;
}

export interface QuotaComparisonRow {
  entity: QuotaEntity;
  entityLabel: string;
  key: QuotaKey;
  here: number | null;
  there: number | null;
}

export interface ClusterComparison {
  acls: AclComparisonRow[];
  /** ACLs in the scope on each side. */
  counts: { here: number; there: number; both: number };
  quotas: QuotaComparisonRow[];
  /** Reads that failed on one side (the other side is still shown). */
  problems: string[];
  /** The plan that makes there like here, or null when the ACLs already agree. */
  aclPlan:
    | { kind: "acl.import"; input: Record<string, unknown> }
    | { kind: "acl.delete"; input: { bindings: AclBinding[] } }
    | null;
}

export function planScopeOf(scope: CompareScope): PlanScope {
  const s: PlanScope = {};
  if (scope.principal) s.principals = [scope.principal];
  if (scope.prefix) s.resourcePrefix = scope.prefix;
  return s;
}

/** Whether a quota entity falls in the scope: the principal's user name; names starting with the prefix. */
export function quotaInScope(entity: QuotaEntity, scope: CompareScope): boolean {
  if (entity.ip !== undefined) return false;
  if (scope.principal) {
    const p = parsePrincipal(scope.principal);
    if (p === null || p.type !== "User" || entity.user !== p.name) return false;
  }
  if (scope.prefix) {
    const names = [entity.user, entity["client-id"]].filter((n): n is string => typeof n === "string");
    if (!names.some((n) => n.startsWith(scope.prefix!))) return false;
  }
  return scope.principal !== null || scope.prefix !== null;
}

/** The comparison of ACL sets and quotas already read (pure; compareClusters reads them). */
export function compareRead(
  here: readonly AclBinding[],
  there: readonly AclBinding[],
  quotasHere: readonly ConfiguredQuota[],
  quotasThere: readonly ConfiguredQuota[],
  scope: CompareScope,
  exportedAt: string = new Date().toISOString(),
): Omit<ClusterComparison, "problems"> {
  const planScope = planScopeOf(scope);
  const mine = sortForExport(distinctBindings(here.filter((b) => inPlanScope(b, planScope))));
  const theirs = sortForExport(distinctBindings(there.filter((b) => inPlanScope(b, planScope))));
  const theirKeys = new Set(theirs.map(bindingKey));
  const myKeys = new Set(mine.map(bindingKey));
  const rows: AclComparisonRow[] = mine.map((b) => ({
    binding: b,
    side: theirKeys.has(bindingKey(b)) ? "both" : "here",
  }));
  for (const b of theirs) if (!myKeys.has(bindingKey(b))) rows.push({ binding: b, side: "there" });
  const both = rows.filter((r) => r.side === "both").length;
  const counts = { here: myKeys.size, there: theirKeys.size, both };

  const quotaKey = (q: ConfiguredQuota) => `${formatEntity(q.entity)}\u0000${q.key}`;
  const byKey = new Map<string, QuotaComparisonRow>();
  for (const [side, list] of [
    ["here", quotasHere],
    ["there", quotasThere],
  ] as const) {
    for (const q of list) {
      if (!quotaInScope(q.entity, scope)) continue;
      const k = quotaKey(q);
      const row = byKey.get(k) ?? {
        entity: q.entity,
        entityLabel: formatEntity(q.entity),
        key: q.key,
        here: null,
        there: null,
      };
      row[side] = q.value;
      byKey.set(k, row);
    }
  }
  const quotas = [...byKey.values()].sort(
    (a, b) => a.entityLabel.localeCompare(b.entityLabel) || a.key.localeCompare(b.key),
  );

  const differs = rows.some((r) => r.side !== "both");
  let aclPlan: ClusterComparison["aclPlan"] = null;
  if (differs) {
    aclPlan =
      mine.length > 0
        ? {
            kind: "acl.import",
            input: {
              content: aclsToJson(mine, { exportedAt }),
              format: "json",
              fileName: null,
              mode: "sync",
              scope: { principals: planScope.principals ?? [], resourcePrefix: planScope.resourcePrefix ?? "" },
            },
          }
        : { kind: "acl.delete", input: { bindings: theirs } };
  }
  return { acls: rows, counts, quotas, aclPlan };
}

/** Reads both sides as the viewer's session on each and compares them. */
export async function compareClusters(
  here: Viewer,
  there: Viewer,
  scope: CompareScope,
): Promise<ActionResult<ClusterComparison>> {
  // The snapshot's indexes answer the scope (an exact principal, a name prefix): work in proportion to the answer.
  const inScope = async (viewer: Viewer): Promise<ActionResult<AclBinding[]>> => {
    const read = await getAclSnapshot(viewer);
    return read.ok
      ? { ok: true, data: read.snapshot.all({ principal: scope.principal, resourceNamePrefix: scope.prefix }) }
      : read;
  };
  const [aclsHere, aclsThere, quotasHere, quotasThere] = await Promise.all([
    inScope(here),
    inScope(there),
    readConfiguredQuotas(here),
    readConfiguredQuotas(there),
  ]);
  if (!aclsHere.ok) return aclsHere;
  if (!aclsThere.ok) return aclsThere;
  const problems: string[] = [];
  if (!quotasHere.ok) problems.push(`Quotas here could not be read: ${quotasHere.message}`);
  if (!quotasThere.ok) problems.push(`Quotas on the other cluster could not be read: ${quotasThere.message}`);
  const compared = compareRead(
    aclsHere.data,
    aclsThere.data,
    quotasHere.ok ? quotasHere.data : [],
    quotasThere.ok ? quotasThere.data : [],
    scope,
  );
  return { ok: true, data: { ...compared, problems } };
}
