/**
 * What one quota alteration does to every connection the console knows, and the basis a
 * quota plan is sealed on. Pure (no I/O); the policy core decides (resolveClientQuota,
 * resolveIpQuota, userBudget), this module enumerates and compares.
 *
 * The (user, client-id) pairs the console knows, for key K:
 * - every named user and every named client id of any user / client-id entity (any key),
 *   and those of the change itself;
 * - their cross product when it has at most PAIR_LIMIT pairs, else only the configured
 *   sub-quota pairs (and `truncated` says so);
 * - stand-ins for everyone else: each named user with "another client id", each named
 *   client id with "another user", and "another user" with "another client id". A
 *   stand-in is a name no entity configures, so it resolves like every such name.
 * A pair is affected when the changed entity is one of its eight candidate levels (it
 * could apply to it, even if a more specific level wins), when the quota Kafka applies to
 * it changes, or when its user's KIP-55 budget for K changes. For `<default>` changes that
 * is every pair the default reaches. IP quotas: each named IP and "another IP".
 *
 * The basis (quotaBasis) is a SHA-256 over exactly what the preview was computed from:
 * the affected pairs (or IPs), whether Kafka's tag shortcut applies to K (one entity kind),
 * and every entry for K that can apply to an affected pair or counts in an affected
 * user's budget (their own entities and sub-quotas, the `<default>` user's total, and the
 * `<default>`/client-id levels of the affected client ids). A change to any of those —
 * made through the console or not — changes the basis; quotas of other users and other
 * keys do not, so unrelated edits elsewhere do not invalidate a plan.
 */
import { createHash } from "node:crypto";
import {
  CLIENT_QUOTA_KEYS,
  applyQuotaChange,
  entityId,
  formatEntity,
  normalizeEntity,
  resolveClientQuota,
  resolveIpQuota,
  userBudget,
  QuotaIndex,
  type ClientQuotaKey,
  type ConfiguredQuota,
  type QuotaEntity,
  type QuotaKey,
} from "@/lib/policy";
import type {
  QuotaAppliedLevelView,
  QuotaImpactView,
  QuotaPairBudgetView,
  QuotaPairImpact,
} from "@/lib/schemas/quotas";
import { formatQuotaValue } from "./quota-view";

/** The alteration a quota plan carries out, exactly. */
export interface QuotaPlanPayload {
  entity: QuotaEntity;
  key: QuotaKey;
  value: number | null;
}

/** Above this many named user x client id pairs, only configured sub-quota pairs are listed. */
export const PAIR_LIMIT = 2000;

// Names no Kafka entity carries (the console refuses NUL in names), standing for "everyone else".
const OTHER_USER = "\u0000another user";
const OTHER_CLIENT = "\u0000another client id";
const OTHER_IP = "198.51.100.254";

const isClientKey = (k: string): k is ClientQuotaKey => (CLIENT_QUOTA_KEYS as readonly string[]).includes(k);

interface Universe {
  pairs: { user: string; clientId: string }[];
  truncated: boolean;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The (user, client-id) pairs the console knows (see the top of this file). */
export function knownPairs(configured: readonly ConfiguredQuota[], change: QuotaPlanPayload): Universe {
  const users = new Set<string>();
  const clients = new Set<string>();
  const subPairs = new Map<string, { user: string; clientId: string }>();
  const add = (e: QuotaEntity) => {
    if (e.ip !== undefined) return;
    if (typeof e.user === "string") users.add(e.user);
    if (typeof e["client-id"] === "string") clients.add(e["client-id"]);
    if (typeof e.user === "string" && typeof e["client-id"] === "string")
      subPairs.set(JSON.stringify([e.user, e["client-id"]]), { user: e.user, clientId: e["client-id"] });
  };
  for (const q of configured) add(q.entity);
  add(change.entity);
  const u = [...users].sort(cmp);
  const c = [...clients].sort(cmp);
  const truncated = u.length * c.length > PAIR_LIMIT;
  const pairs: { user: string; clientId: string }[] = [];
  if (truncated)
    pairs.push(...[...subPairs.values()].sort((a, b) => cmp(a.user, b.user) || cmp(a.clientId, b.clientId)));
  else for (const user of u) for (const clientId of c) pairs.push({ user, clientId });
  for (const user of u) pairs.push({ user, clientId: OTHER_CLIENT });
  for (const clientId of c) pairs.push({ user: OTHER_USER, clientId });
  pairs.push({ user: OTHER_USER, clientId: OTHER_CLIENT });
  return { pairs, truncated };
}

/** Does `entity` sit at one of the eight levels of (user, clientId)? */
function reaches(entity: QuotaEntity, user: string, clientId: string): boolean {
  if (entity.ip !== undefined) return false;
  const u = entity.user;
  const c = entity["client-id"];
  if (u === undefined && c === undefined) return false;
  return (u === undefined || u === null || u === user) && (c === undefined || c === null || c === clientId);
}

function levelView(configured: QuotaIndex, user: string, clientId: string, key: ClientQuotaKey): QuotaAppliedLevelView {
  const r = resolveClientQuota(configured, user, clientId, key);
  return {
    value: r.value,
    display: formatQuotaValue(key, r.value),
    level: r.level,
    levelLabel: r.level === null ? null : (r.candidates.find((x) => x.level === r.level)?.label ?? null),
    entityLabel: r.entity === null ? null : formatEntity(r.entity),
  };
}

/** The KIP-55 budget of the user entity a pair's user falls under (a stand-in user: the `<default>` user's). */
function budgetView(
  configured: readonly ConfiguredQuota[],
  user: string | null,
  key: ClientQuotaKey,
): QuotaPairBudgetView {
  const line = userBudget(configured, user).find((l) => l.key === key)!;
  return {
    user,
    total: line.total,
    totalDisplay: formatQuotaValue(key, line.total),
    sum: line.sum,
    sumDisplay: formatQuotaValue(key, line.sum),
    remaining: line.remaining,
    remainingDisplay:
      line.remaining === null
        ? "unlimited"
        : line.remaining < 0
          ? `none (${formatQuotaValue(key, -line.remaining)} over)`
          : formatQuotaValue(key, line.remaining),
    overBudget: line.overBudget,
  };
}

const sameLevel = (a: QuotaAppliedLevelView, b: QuotaAppliedLevelView) =>
  a.value === b.value && a.level === b.level && a.entityLabel === b.entityLabel;
const sameBudget = (a: QuotaPairBudgetView, b: QuotaPairBudgetView) => a.total === b.total && a.sum === b.sum;

const budgetUserOf = (user: string) => (user === OTHER_USER ? null : user);

interface ClientImpact {
  pairs: (QuotaPairImpact & { rawUser: string; rawClient: string })[];
  truncated: boolean;
}

function clientImpact(
  configured: readonly ConfiguredQuota[],
  change: QuotaPlanPayload & { key: ClientQuotaKey },
): ClientImpact {
  const after = applyQuotaChange(configured, [change]);
  const beforeIndex = new QuotaIndex(configured);
  const afterIndex = new QuotaIndex(after);
  const universe = knownPairs(configured, change);
  const budgets = new Map<string, { before: QuotaPairBudgetView; after: QuotaPairBudgetView }>();
  const budgetOf = (user: string | null) => {
    const id = JSON.stringify(user);
    let b = budgets.get(id);
    if (!b) {
      b = { before: budgetView(configured, user, change.key), after: budgetView(after, user, change.key) };
      budgets.set(id, b);
    }
    return b;
  };
  const pairs: ClientImpact["pairs"] = [];
  for (const { user, clientId } of universe.pairs) {
    const before = levelView(beforeIndex, user, clientId, change.key);
    const afterView = levelView(afterIndex, user, clientId, change.key);
    const budget = budgetOf(budgetUserOf(user));
    const changed = !sameLevel(before, afterView);
    const budgetChanged = !sameBudget(budget.before, budget.after);
    if (!changed && !budgetChanged && !reaches(change.entity, user, clientId)) continue;
    pairs.push({
      user: user === OTHER_USER ? null : user,
      userLabel: user === OTHER_USER ? "another user" : user,
      clientId: clientId === OTHER_CLIENT ? null : clientId,
      clientLabel: clientId === OTHER_CLIENT ? "another client id" : clientId,
      changed,
      budgetChanged,
      before,
      after: afterView,
      budgetBefore: budget.before,
      budgetAfter: budget.after,
      rawUser: user,
      rawClient: clientId,
    });
  }
  // Changed first, then the budget-only ones, then those a more specific level shields; stable otherwise.
  const rank = (p: QuotaPairImpact) => (p.changed ? 0 : p.budgetChanged ? 1 : 2);
  pairs.sort((a, b) => rank(a) - rank(b));
  return { pairs, truncated: universe.truncated };
}

function ipImpact(configured: readonly ConfiguredQuota[], change: QuotaPlanPayload): QuotaImpactView["ips"] {
  const after = applyQuotaChange(configured, [change]);
  const ips = new Set<string>();
  for (const q of [...configured, { entity: change.entity }]) if (typeof q.entity.ip === "string") ips.add(q.entity.ip);
  const rows: QuotaImpactView["ips"] = [];
  for (const ip of [...[...ips].sort(cmp), OTHER_IP]) {
    const view = (c: readonly ConfiguredQuota[]): QuotaAppliedLevelView => {
      const r = resolveIpQuota(c, ip);
      return {
        value: r.value,
        display: formatQuotaValue("connection_creation_rate", r.value),
        level: null,
        levelLabel: r.source === "ip" ? "<ip>" : r.source === "default" ? "<default ip>" : null,
        entityLabel: r.entity === null ? null : formatEntity(r.entity),
      };
    };
    const before = view(configured);
    const afterView = view(after);
    const changed = !sameLevel(before, afterView);
    const named = ip !== OTHER_IP;
    const matches = change.entity.ip === null || (named && change.entity.ip === ip);
    if (!changed && !matches) continue;
    rows.push({ ip: named ? ip : null, label: named ? ip : "another IP", changed, before, after: afterView });
  }
  return rows;
}

/** Every affected connection of the console's universe, before and after (see the top of this file). */
export function quotaImpact(configured: readonly ConfiguredQuota[], change: QuotaPlanPayload): QuotaImpactView {
  if (change.entity.ip !== undefined || !isClientKey(change.key)) {
    const ips =
      change.entity.ip !== undefined && change.key === "connection_creation_rate" ? ipImpact(configured, change) : [];
    return {
      key: change.key,
      pairs: [],
      ips,
      truncated: false,
      counts: { affected: ips.length, changed: ips.filter((r) => r.changed).length, budgetChanged: 0 },
    };
  }
  const { pairs, truncated } = clientImpact(configured, change as QuotaPlanPayload & { key: ClientQuotaKey });
  return {
    key: change.key,
    pairs: pairs.map(({ rawUser: _u, rawClient: _c, ...p }) => p),
    ips: [],
    truncated,
    counts: {
      affected: pairs.length,
      changed: pairs.filter((p) => p.changed).length,
      budgetChanged: pairs.filter((p) => p.budgetChanged).length,
    },
  };
}

/** The fingerprint a quota plan is sealed on (see the top of this file). */
export function quotaBasis(configured: readonly ConfiguredQuota[], change: QuotaPlanPayload): string {
  const key = change.key;
  const ofKey = configured.filter((q) => q.key === key);
  // Kafka's tag shortcut: with at most one entity kind configured for the key, that kind decides the bucket; with more,
  // the ladder.
  const kindSet = new Set(
    ofKey
      .filter((q) => q.entity.ip === undefined)
      .map((q) => (q.entity.user !== undefined ? "u" : "") + (q.entity["client-id"] !== undefined ? "c" : "")),
  );
  const kinds = kindSet.size <= 1 ? [...kindSet] : ["ladder"];
  let affected: string[];
  let relevant: ConfiguredQuota[];
  if (change.entity.ip !== undefined || !isClientKey(key)) {
    const rows = ipImpact(configured, change);
    const ips = new Set(rows.map((r) => r.ip));
    affected = rows.map((r) => JSON.stringify(r.ip));
    relevant = ofKey.filter((q) => q.entity.ip !== undefined && (q.entity.ip === null || ips.has(q.entity.ip)));
  } else {
    const { pairs } = clientImpact(configured, change as QuotaPlanPayload & { key: ClientQuotaKey });
    const users = new Set<string | null>(pairs.map((p) => budgetUserOf(p.rawUser)));
    const clients = new Set<string>(pairs.map((p) => p.rawClient));
    affected = pairs.map((p) => JSON.stringify([p.rawUser, p.rawClient]));
    relevant = ofKey.filter((q) => {
      const u = q.entity.user;
      const c = q.entity["client-id"];
      if (q.entity.ip !== undefined) return false;
      if (u !== undefined && users.has(u)) return true;
      if (u === null && c === undefined) return true;
      if (u === null || u === undefined) return c === null || (c !== undefined && clients.has(c));
      return false;
    });
  }
  const entries = relevant.map((q) => `${entityId(normalizeEntity(q.entity))}\u0003${q.value}`).sort(cmp);
  const text = JSON.stringify({
    v: 1,
    key,
    entity: entityId(change.entity),
    kinds,
    affected: [...affected].sort(cmp),
    entries,
  });
  return createHash("sha256").update(text).digest("hex");
}
