/**
 * The KIP-55 sub-quota budget — a CONSOLE rule, not Kafka behaviour (docs/quotas.md).
 *
 * KIP-55 promised that "changes to user quotas and client sub-quotas will be validated to
 * ensure that the total quota of the user is not exceeded by the clients with sub-quotas";
 * Kafka never implemented it (ClientQuotaManagerTest.testQuotaConfigPrecedence configures a
 * 5000 sub-quota under a 4000 user quota). The console enforces it on its own changes:
 *
 * For every user entity U (a named user, or `<default>`) and client quota key K:
 *  - total(U,K): `{user:U}`'s value for K; a named user without one falls back to
 *    `{user:<default>}`'s; otherwise unlimited;
 *  - sum(U,K): the sum of K over the explicit sub-quotas `{user:U, client-id:C}`;
 *  - the budget holds when sum <= total (always, when total is unlimited).
 * A change is rejected when a pair it touches (whose total or sum it changes, or whose
 * entities it writes) is over budget afterwards — unless the change strictly reduces that
 * pair's excess (sum - total): a repair is always allowed.
 * `{user:U, client-id:<default>}` gives *each* other client of U its own full quota; it is
 * reported as a warning, never counted in the sum.
 *
 * Sums of DOUBLE keys (request_percentage, controller_mutation_rate) are compared with a
 * relative tolerance of 1e-9 so that 0.1 + 0.2 fits a total of 0.3.
 */
import { CLIENT_QUOTA_KEYS } from "../types";
import type { ClientQuotaKey, ConfiguredQuota, QuotaEntity } from "../types";
import { entityId, normalizeEntity } from "./entity";

export interface BudgetViolation {
  /** The user entity: a principal name, or null for `<default>`. */
  user: string | null;
  key: ClientQuotaKey;
  /** total(U,K); null = unlimited (never in a violation). */
  total: number | null;
  sum: number;
  /** Client ids with an explicit sub-quota for (U,K), in configuration order. */
  clients: string[];
}

export interface BudgetWarning {
  user: string | null;
  key: ClientQuotaKey;
  /** The `{user:U, client-id:<default>}` value each client without a sub-quota gets. */
  defaultClientQuota: number;
  message: string;
}

export interface QuotaChange {
  entity: QuotaEntity;
  key: ClientQuotaKey | "connection_creation_rate";
  /** null removes the key. */
  value: number | null;
}

export interface BudgetCheck {
  ok: boolean;
  violations: BudgetViolation[];
  /** Touched pairs still over budget that the change nevertheless improves. */
  repairs: BudgetViolation[];
  warnings: BudgetWarning[];
}

export interface UserBudgetLine {
  key: ClientQuotaKey;
  total: number | null;
  /** Where the total comes from: the user's own quota, the `<default>` user's, or nowhere. */
  totalSource: "user" | "default" | null;
  sum: number;
  /** total - sum (what is left for clients without a sub-quota); null when unlimited. */
  remaining: number | null;
  clients: { clientId: string; value: number }[];
  /** `{user:U, client-id:<default>}` for K, if configured (a warning). */
  defaultClientQuota: number | null;
  overBudget: boolean;
}

const isClientKey = (k: string): k is ClientQuotaKey => (CLIENT_QUOTA_KEYS as readonly string[]).includes(k);

const pairId = (user: string | null, key: ClientQuotaKey) => JSON.stringify([user, key]);

interface PairState {
  user: string | null;
  key: ClientQuotaKey;
  total: number | null;
  totalSource: "user" | "default" | null;
  sum: number;
  clients: { clientId: string; value: number }[];
  defaultClientQuota: number | null;
}

function fits(sum: number, total: number | null): boolean {
  if (total === null) return true;
  return sum <= total + Math.abs(total) * 1e-9;
}

function excess(p: PairState): number {
  return p.total === null ? 0 : Math.max(0, p.sum - p.total);
}

/** Every (user entity, key) pair that has a total, a sub-quota or a default sub-quota. */
function pairStates(configured: readonly ConfiguredQuota[]): Map<string, PairState> {
  const userTotals = new Map<string, number>();
  const users = new Set<string | null>();
  for (const q of configured) {
    if (!isClientKey(q.key) || q.entity.user === undefined || q.entity.ip !== undefined) continue;
    users.add(q.entity.user);
    if (q.entity["client-id"] === undefined) userTotals.set(pairId(q.entity.user, q.key), q.value);
  }
  const states = new Map<string, PairState>();
  const state = (user: string | null, key: ClientQuotaKey): PairState => {
    const id = pairId(user, key);
    let s = states.get(id);
    if (!s) {
      const own = userTotals.get(id);
      const fallback = user === null ? undefined : userTotals.get(pairId(null, key));
      s = {
        user,
        key,
        total: own ?? fallback ?? null,
        totalSource: own !== undefined ? "user" : fallback !== undefined ? "default" : null,
        sum: 0,
        clients: [],
        defaultClientQuota: null,
      };
      states.set(id, s);
    }
    return s;
  };
  for (const user of users) for (const key of CLIENT_QUOTA_KEYS) state(user, key);
  for (const q of configured) {
    if (!isClientKey(q.key) || q.entity.user === undefined || q.entity.ip !== undefined) continue;
    const clientId = q.entity["client-id"];
    if (clientId === undefined) continue;
    const s = state(q.entity.user, q.key);
    if (clientId === null) s.defaultClientQuota = q.value;
    else {
      s.sum += q.value;
      s.clients.push({ clientId, value: q.value });
    }
  }
  return states;
}

const toViolation = (p: PairState): BudgetViolation => ({
  user: p.user,
  key: p.key,
  total: p.total,
  sum: p.sum,
  clients: p.clients.map((c) => c.clientId),
});

function warningFor(p: PairState): BudgetWarning | null {
  if (p.defaultClientQuota === null) return null;
  const who = p.user === null ? "<default>" : p.user;
  return {
    user: p.user,
    key: p.key,
    defaultClientQuota: p.defaultClientQuota,
    message:
      `{user:${who}, client-id:<default>} gives every client of ${who} without a sub-quota its own ${p.key} ` +
      `of ${p.defaultClientQuota}; it is not counted against the user's total`,
  };
}

/**
 * `configured` with `change` applied: an existing (entity, key) keeps its position, new ones
 * are appended, null values remove.
 */
export function applyQuotaChange(
  configured: readonly ConfiguredQuota[],
  change: readonly QuotaChange[],
): ConfiguredQuota[] {
  const out = configured.map((q) => ({ ...q }));
  const slot = (entity: QuotaEntity, key: string) => `${entityId(entity)}\u0003${key}`;
  for (const c of change) {
    const i = out.findIndex((q) => slot(q.entity, q.key) === slot(c.entity, c.key));
    if (c.value === null) {
      if (i >= 0) out.splice(i, 1);
    } else if (i >= 0) out[i] = { ...out[i]!, value: c.value };
    else out.push({ entity: normalizeEntity(c.entity), key: c.key, value: c.value });
  }
  return out;
}

/** Check a proposed change against the KIP-55 budget rule. */
export function checkBudgetChange(configured: readonly ConfiguredQuota[], change: readonly QuotaChange[]): BudgetCheck {
  const before = pairStates(configured);
  const after = pairStates(applyQuotaChange(configured, change));
  const written = new Set<string>();
  for (const c of change) {
    if (
      isClientKey(c.key) &&
      c.entity.user !== undefined &&
      c.entity.ip === undefined &&
      c.entity["client-id"] !== null
    )
      written.add(pairId(c.entity.user, c.key));
  }
  const violations: BudgetViolation[] = [];
  const repairs: BudgetViolation[] = [];
  const warnings: BudgetWarning[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    const touched = !was || was.total !== now.total || was.sum !== now.sum || written.has(id);
    const w = warningFor(now);
    if (w && (touched || was?.defaultClientQuota !== now.defaultClientQuota)) warnings.push(w);
    if (!touched || fits(now.sum, now.total)) continue;
    if (was && excess(now) < excess(was)) repairs.push(toViolation(now));
    else violations.push(toViolation(now));
  }
  return { ok: violations.length === 0, violations, repairs, warnings };
}

/** Existing violations (made outside the console) and default-sub-quota warnings. */
export function budgetFindings(configured: readonly ConfiguredQuota[]): {
  violations: BudgetViolation[];
  warnings: BudgetWarning[];
} {
  const violations: BudgetViolation[] = [];
  const warnings: BudgetWarning[] = [];
  for (const p of pairStates(configured).values()) {
    if (!fits(p.sum, p.total)) violations.push(toViolation(p));
    const w = warningFor(p);
    if (w) warnings.push(w);
  }
  return { violations, warnings };
}

/** The per-user budget the UI shows: per client quota key, total, sum, what is left, and the clients. */
export function userBudget(configured: readonly ConfiguredQuota[], user: string | null): UserBudgetLine[] {
  const states = pairStates(configured);
  return CLIENT_QUOTA_KEYS.map((key) => {
    const p = states.get(pairId(user, key));
    const defaultTotal = user === null ? undefined : states.get(pairId(null, key));
    const total = p?.total ?? (defaultTotal?.totalSource === "user" ? defaultTotal.total : null);
    const totalSource = p?.totalSource ?? (total !== null ? "default" : null);
    const sum = p?.sum ?? 0;
    return {
      key,
      total,
      totalSource,
      sum,
      remaining: total === null ? null : total - sum,
      clients: p?.clients ?? [],
      defaultClientQuota: p?.defaultClientQuota ?? null,
      overBudget: !fits(sum, total),
    };
  });
}
