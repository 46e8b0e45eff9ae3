/**
 * The dashboard: per viewer, what Kafka lets that viewer see, in numbers that each lead to
 * the list behind them (components/dashboard/links.ts).
 *
 * Every card is read as the viewer and answers on its own: a card Kafka refuses says so
 * (alice, who may not describe ACLs, gets "Kafka does not let you describe ACLs", not an
 * error page), the others still answer.
 *
 *   - ACL posture: from the shared ACL snapshot (acl-snapshot.ts), which Kafka answers all
 *     or nothing (DESCRIBE on CLUSTER), so everyone allowed sees the same numbers. They are
 *     computed once per snapshot version — the AclStore object, which a fetch that brings
 *     nothing new keeps — and kept beside it (a WeakMap), so at 300,000 ACLs a request
 *     costs a lookup, not a scan. Lint is the expensive part (about 1.5 s per 100,000
 *     ACLs): above LINT_ON_LOAD_LIMIT it runs only when asked, as on the ACLs page.
 *   - KIP-55: the configured quotas as the viewer reads them (DESCRIBE_CONFIGS on CLUSTER).
 *   - Tokens: those the viewer owns or renews (Kafka's describe, as the viewer).
 *   - Decisions: open token requests of others the viewer appears entitled to approve.
 *   - Recent changes: the audit trail through audit-view.ts (Kafka-decided visibility),
 *     sign-ins and sign-outs left out.
 *   - Super users: as configured (KAFKA_SUPER_USERS); a client cannot read super.users.
 *   - Requests and grants (#19): the cluster's requests waiting for a decision, its grants
 *     with time left (soonest first) and overdue ones (past the expiry, the removal retried),
 *     each a count and the first few from the (cluster, status, expiry) indexes, so 10,000
 *     live grants cost no more than ten.
 *   - Drift (#20): outside changes neither kept nor reverted, as drift.ts lets the viewer see them.
 *   - Break-glass: applies without approval on a four-eyes cluster in the last 30 days, from
 *     the audit trail as the viewer may read it (the (action, at) index).
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { RESOURCE_TYPES, type AclBinding, type AclStore, type Finding, type ResourceType } from "@/lib/policy";
import type { AuditEvent } from "@/lib/db/audit";
import { grantSummary, type StoredGrant } from "@/lib/db/access-grant";
import { countPending } from "@/lib/db/change-request";
import { breakGlassReviewsOf } from "@/lib/db/break-glass-review";
import type { BreakGlassReview } from "@/lib/schemas/break-glass";
import type { QuotasOverview } from "@/lib/schemas/quotas";
import type { TokenRequestLists, TokenView } from "@/lib/schemas/tokens";
import type {
  AclPosture,
  BreakGlassPosture,
  Dashboard,
  DashboardCard,
  DecisionPosture,
  DriftPosture,
  LintSummary,
  QuotaPosture,
  GrantLine,
  RecentChange,
  RequestPosture,
  TokenPosture,
} from "@/lib/schemas/dashboard";
import { getAclSnapshot } from "./acl-snapshot";
import { LINT_ON_LOAD_LIMIT, flaggedKeys, lintOf, type ClusterOfStore } from "./acls";
import { listAuditFor } from "./audit-view";
import { listDriftFor } from "./drift";
import { clusterIdOf, clusterOf } from "@/lib/clusters";
import { getClusterView } from "./cluster";
import { listQuotas } from "./quotas";
import { listTokenRequests } from "./token-requests";
import { listTokens } from "./tokens";
import { APPEARS_ENTITLED, matchesTokenFilter, tokenEndsAt, tokenRole, type TokenFilter } from "./token-view";

/** The viewer-independent part of the ACL posture: counts over one ACL set. */
export type AclCounts = Omit<AclPosture, "lint" | "snapshot">;

/** One pass over the ACLs: by type and permission, `User:*`, LITERAL `*`, PREFIXED. */
export function countAcls(acls: readonly AclBinding[]): AclCounts {
  const byType = new Map<ResourceType, { allow: number; deny: number }>(
    RESOURCE_TYPES.map((t) => [t, { allow: 0, deny: 0 }]),
  );
  const byPermission = { ALLOW: 0, DENY: 0 };
  const wildcardPrincipal = { allow: 0, deny: 0 };
  let wildcardResource = 0;
  let prefixed = 0;
  for (const b of acls) {
    const deny = b.permissionType === "DENY";
    const slot = byType.get(b.resourceType);
    if (slot) slot[deny ? "deny" : "allow"]++;
    byPermission[deny ? "DENY" : "ALLOW"]++;
    if (b.principal === "User:*") wildcardPrincipal[deny ? "deny" : "allow"]++;
    if (b.patternType === "LITERAL" && b.resourceName === "*") wildcardResource++;
    else if (b.patternType === "PREFIXED") prefixed++;
  }
  return {
    total: acls.length,
    byPermission,
    byType: RESOURCE_TYPES.map((resourceType) => ({ resourceType, ...byType.get(resourceType)! })),
    wildcardPrincipal,
    wildcardResource,
    prefixed,
  };
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

/**
 * Findings counted by severity and by code (most severe, then most frequent, first), with
 * how many ACLs each code's findings are about: what the ACL list filtered by that code holds.
 */
export function summariseLint(findings: readonly Finding[]): Extract<LintSummary, { state: "done" }> {
  const byCode = new Map<string, { code: string; severity: Finding["severity"]; count: number; acls: number }>();
  const bySeverity = { error: 0, warning: 0, info: 0 };
  const flagged = flaggedKeys(findings);
  for (const f of findings) {
    bySeverity[f.severity]++;
    const slot = byCode.get(f.code);
    if (slot) slot.count++;
    else byCode.set(f.code, { code: f.code, severity: f.severity, count: 1, acls: flagged.get(f.code)?.size ?? 0 });
  }
  const codes = [...byCode.values()].sort(
    (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count || (a.code < b.code ? -1 : 1),
  );
  return {
    state: "done",
    errors: bySeverity.error,
    warnings: bySeverity.warning,
    info: bySeverity.info,
    byCode: codes,
  };
}

interface StorePosture {
  counts: AclCounts;
  lint: Extract<LintSummary, { state: "done" }> | null;
}

/** Per snapshot version (the store object): computed once, dropped with the store. */
const postures = new WeakMap<AclStore, StorePosture>();

/**
 * The counts and (when small enough, or asked for) the lint summary of one ACL store,
 * computed on first use and kept for as long as the store lives.
 */
export function storePosture(
  store: AclStore,
  options: { lint?: boolean; lintLimit?: number; cluster?: ClusterOfStore } = {},
): { counts: AclCounts; lint: LintSummary } {
  let entry = postures.get(store);
  if (entry === undefined) {
    entry = { counts: countAcls(store.bindings()), lint: null };
    postures.set(store, entry);
  }
  const limit = options.lintLimit ?? LINT_ON_LOAD_LIMIT;
  if (entry.lint === null && (options.lint === true || store.size <= limit))
    entry.lint = summariseLint(lintOf(store, true, options.cluster) ?? []);
  return { counts: entry.counts, lint: entry.lint ?? { state: "onRequest", limit } };
}

/** The KIP-55 findings and one bar per (user, key) that has a total or sub-quotas. */
export function quotaPosture(overview: QuotasOverview): QuotaPosture {
  return {
    violations: overview.findings.violations.map((v) => ({ user: v.user, key: v.key, message: v.message })),
    budgets: overview.budgets.flatMap((b) =>
      b.lines
        .filter((l) => l.clients.length > 0)
        .map((l) => ({
          user: b.user,
          label: b.label,
          key: l.key,
          sum: l.sum,
          total: l.total,
          sumDisplay: l.sumDisplay,
          totalDisplay: l.totalDisplay,
          usedPercent: l.usedPercent,
          overBudget: l.overBudget,
        })),
    ),
    rule: overview.findings.rule,
  };
}

export const SHOWN_TOKENS = 50;

/**
 * The viewer's own tokens and those it renews, with what expires within 24 h and 7 days:
 * each count is matchesTokenFilter's, so the token list a number opens holds exactly those.
 */
export function tokenPosture(tokens: readonly TokenView[], principal: string, now: number): TokenPosture {
  const count = (filter: TokenFilter) => tokens.filter((t) => matchesTokenFilter(t, principal, filter, now)).length;
  const relevant = tokens
    .filter((t) => tokenRole(t, principal) !== null)
    .map((t) => ({
      tokenId: t.tokenId,
      owner: t.owner,
      role: tokenRole(t, principal)!,
      expiresAt: tokenEndsAt(t),
      renewableUntil: t.maxTimestamp,
      expired: t.status === "expired",
    }));
  return {
    now,
    owned: count({ role: "owner", expiring: null }),
    renewable: count({ role: "renewer", expiring: null }),
    expiring24h: count({ role: null, expiring: "24h" }),
    expiring7d: count({ role: null, expiring: "7d" }),
    expired: relevant.filter((t) => t.expired).length,
    tokens: relevant
      .sort((a, b) => a.expiresAt - b.expiresAt || (a.tokenId < b.tokenId ? -1 : 1))
      .slice(0, SHOWN_TOKENS)
      .map(({ expired: _expired, ...t }) => t),
  };
}

export const SHOWN_DECISIONS = 5;

/** Open requests of others the viewer appears entitled to approve; the viewer's own open ones. */
export function decisionPosture(lists: TokenRequestLists, principal: string): DecisionPosture {
  const decidable = lists.pending
    .filter((r) => r.status === "PENDING" && r.requester !== principal && APPEARS_ENTITLED.has(r.entitlement))
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return {
    pending: decidable.length,
    requests: decidable
      .slice(0, SHOWN_DECISIONS)
      .map((r) => ({ id: r.id, owner: r.owner, requester: r.requester, createdAt: r.createdAt })),
    myOpen: lists.mine.filter((r) => r.status === "PENDING" || r.status === "APPROVING").length,
  };
}

export const SHOWN_CHANGES = 8;
/** Audit rows read to find SHOWN_CHANGES changes among sign-ins (failed sign-ins are folded per client and hour). */
const RECENT_SCAN = 200;

/** The newest changes: every category but sign-ins and sign-outs. */
export function recentChanges(events: readonly AuditEvent[], limit = SHOWN_CHANGES): RecentChange[] {
  return events
    .filter((e) => e.category !== "session" && !e.action.startsWith("session."))
    .slice(0, limit)
    .map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      principal: e.principal,
      action: e.action,
      target: e.target,
      outcome: e.outcome,
      category: e.category,
      planId: e.planId,
    }));
}

export const SHOWN_GRANTS = 10;

/** One grant as the dashboard lists it: whom it is for, how many ACLs, when it ends. */
export function grantLine(g: StoredGrant): GrantLine {
  const { id, requester, approver, attempts, lastError, bindings } = g;
  const principals = [...new Set(bindings.map((b) => b.principal))];
  const status = g.status === "REMOVING" ? "REMOVING" : "LIVE";
  return {
    id,
    requester,
    approver,
    principals,
    acls: bindings.length,
    expiresAt: g.expiresAt.toISOString(),
    status,
    attempts,
    lastError,
  };
}

/** The requests card from its counts and first rows (see grantSummary). */
export function requestPosture(
  approvals: number,
  waiting: number,
  grants: Awaited<ReturnType<typeof grantSummary>>,
  tokens = 0,
): RequestPosture {
  return {
    approvals,
    waiting: waiting + tokens,
    tokens,
    live: grants.live,
    grants: grants.soonest.slice(0, SHOWN_GRANTS).map(grantLine),
    overdue: grants.overdue,
    overdueGrants: grants.oldestOverdue.slice(0, SHOWN_GRANTS).map(grantLine),
  };
}

export const BREAK_GLASS_DAYS = 30;
export const SHOWN_BREAK_GLASS = 10;

function reasonOf(e: AuditEvent): string | null {
  const reason = (e.request as { reason?: unknown } | null)?.reason;
  return typeof reason === "string" ? reason : null;
}

/** A break-glass row as the card shows it, with its review (null: not reviewed, so flagged). */
function breakGlassLine(e: AuditEvent, review: BreakGlassReview | null) {
  return {
    id: e.id,
    at: e.at.toISOString(),
    principal: e.principal,
    target: e.target,
    planId: e.planId,
    reason: reasonOf(e),
    review,
  };
}

/** Newest row first per plan (a failed break-glass retried is one apply to review). */
function onePerPlan(events: readonly AuditEvent[]): AuditEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    if (e.action !== "plan.break-glass") return false;
    const key = e.planId ?? `row ${e.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The break-glass card from two bounded reads (newest first, at most SHOWN_BREAK_GLASS + 1
 * each): the applies nobody has reviewed yet, however old (flagged), and those of the last
 * BREAK_GLASS_DAYS days, shown with their review when they have one.
 */
export function breakGlassPosture(
  unreviewed: readonly AuditEvent[],
  recent: readonly AuditEvent[] = [],
  reviews: ReadonlyMap<string, BreakGlassReview> = new Map(),
): BreakGlassPosture {
  const flagged = onePerPlan(unreviewed).filter((e) => e.planId === null || !reviews.has(e.planId));
  const shown = flagged.slice(0, SHOWN_BREAK_GLASS);
  const reviewed = onePerPlan(recent)
    .filter((e) => e.planId !== null && reviews.has(e.planId))
    .slice(0, SHOWN_BREAK_GLASS);
  return {
    days: BREAK_GLASS_DAYS,
    count: shown.length,
    more: flagged.length > SHOWN_BREAK_GLASS,
    events: shown.map((e) => breakGlassLine(e, null)),
    reviewed: reviewed.map((e) => breakGlassLine(e, reviews.get(e.planId!) ?? null)),
  };
}

async function breakGlassCard(viewer: Viewer, now: number): Promise<DashboardCard<BreakGlassPosture>> {
  const [unreviewed, recent] = await Promise.all([
    listAuditFor(viewer, { action: "plan.break-glass", unreviewedBreakGlass: true, limit: SHOWN_BREAK_GLASS + 1 }),
    listAuditFor(viewer, {
      action: "plan.break-glass",
      from: new Date(now - BREAK_GLASS_DAYS * 86_400_000),
      limit: SHOWN_BREAK_GLASS + 1,
    }),
  ]);
  if (!unreviewed.ok) return unavailable(unreviewed);
  if (!recent.ok) return unavailable(recent);
  try {
    const planIds = [...unreviewed.data.events, ...recent.data.events].flatMap((e) => (e.planId ? [e.planId] : []));
    const stored = await breakGlassReviewsOf([...new Set(planIds)]);
    const reviews = new Map(
      [...stored].map(([planId, r]) => [
        planId,
        { reviewer: r.reviewer, at: r.reviewedAt.toISOString(), comment: r.comment },
      ]),
    );
    return { ok: true, data: breakGlassPosture(unreviewed.data.events, recent.data.events, reviews) };
  } catch (error) {
    return unavailable(toErrorResult(error, "read the break-glass reviews"));
  }
}

export const SHOWN_DRIFT = 5;

/** Drift (#20): the open outside changes the viewer may see, counted, and the newest few. */
async function driftCard(viewer: Viewer): Promise<DashboardCard<DriftPosture>> {
  const page = await listDriftFor(viewer, { status: "open", limit: SHOWN_DRIFT });
  if (!page.ok) return unavailable(page);
  const p = page.data;
  return {
    ok: true,
    data: {
      open: p.open,
      more: p.openMore,
      newest: p.groups.flatMap((g) =>
        g.entries.map((e) => ({ id: e.id, what: e.what, summary: e.summary, window: g.window })),
      ),
      reading: p.reading.servicePrincipal && p.reading.intervalSeconds > 0,
    },
  };
}

type Failure = Extract<ActionResult<never>, { ok: false }>;
const unavailable = (f: Failure): DashboardCard<never> => ({ ok: false, code: f.code, message: f.message });

function cardOf<T, U>(result: ActionResult<T>, map: (data: T) => U): DashboardCard<U> {
  return result.ok ? { ok: true, data: map(result.data) } : unavailable(result);
}

async function aclCard(viewer: Viewer, lint: boolean): Promise<DashboardCard<AclPosture>> {
  const read = await getAclSnapshot(viewer);
  if (!read.ok) {
    if (read.code !== "DENIED") return unavailable(read);
    return {
      ok: false,
      code: "DENIED",
      message:
        "Kafka does not let you describe ACLs (DESCRIBE on CLUSTER kafka-cluster), so the console shows you no " +
        "ACL numbers.",
    };
  }
  const { counts, lint: lintSummary } = storePosture(read.snapshot.store, { lint, cluster: viewer.credential });
  return { ok: true, data: { ...counts, lint: lintSummary, snapshot: read.snapshot.info() } };
}

async function clusterCard(viewer: Viewer): Promise<Dashboard["cluster"]> {
  try {
    return { ok: true, data: await getClusterView(viewer) };
  } catch (error) {
    return unavailable(toErrorResult(error, "describe the cluster"));
  }
}

/**
 * The requests card: the requests for changes waiting, the token requests the viewer may decide
 * (`tokens`, read once for the dashboard's decisions card too; unknown when it failed: none), the grants.
 */
async function requestsCard(
  viewer: Viewer,
  now: number,
  tokens: Promise<ActionResult<TokenRequestLists>>,
): Promise<DashboardCard<RequestPosture>> {
  const clusterId = clusterIdOf(viewer.credential);
  try {
    const at = new Date(now);
    const [waiting, grants, lists] = await Promise.all([
      countPending(clusterId, at),
      grantSummary(clusterId, at, SHOWN_GRANTS),
      tokens,
    ]);
    const decidable = lists.ok ? decisionPosture(lists.data, viewer.principal).pending : 0;
    return {
      ok: true,
      data: requestPosture(clusterOf(viewer.credential).requests.approvals, waiting, grants, decidable),
    };
  } catch (error) {
    return unavailable(toErrorResult(error, "read the requests and grants"));
  }
}

/** Every card for this viewer, read in parallel as the viewer. */
export async function getDashboard(viewer: Viewer, options: { lint?: boolean; now?: number } = {}): Promise<Dashboard> {
  const now = options.now ?? Date.now();
  const config = clusterOf(viewer.credential).authorizer;
  const tokenRequests = listTokenRequests(viewer, now);
  const [cluster, acls, quotas, tokens, requests, audit, changeRequests, breakGlass, drift] = await Promise.all([
    clusterCard(viewer),
    aclCard(viewer, options.lint === true),
    listQuotas(viewer),
    listTokens(viewer, now),
    tokenRequests,
    listAuditFor(viewer, { limit: RECENT_SCAN }),
    requestsCard(viewer, now, tokenRequests),
    breakGlassCard(viewer, now),
    driftCard(viewer),
  ]);
  return {
    principal: viewer.principal,
    generatedAt: new Date(now).toISOString(),
    superUsers: {
      principals: config.superUsers,
      source: config.source,
      you: config.superUsers.includes(viewer.principal),
    },
    cluster,
    acls,
    quotas: cardOf(quotas, quotaPosture),
    tokens: cardOf(tokens, (t) => tokenPosture(t.tokens, viewer.principal, now)),
    decisions: cardOf(requests, (r) => decisionPosture(r, viewer.principal)),
    recent: cardOf(audit, (page) => ({ events: recentChanges(page.events) })),
    requests: changeRequests,
    breakGlass,
    drift,
  };
}
