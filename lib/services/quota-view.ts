/**
 * The Quotas area's views, pure (no I/O): configured entities grouped for people, the KIP-55
 * budget per user, "which quota applies" per key, and the preview of one alteration.
 *
 * The decisions themselves come from the policy core: resolveClientQuotas / resolveIpQuota
 * (what Kafka applies), validateQuotaAlteration (what Kafka accepts), checkBudgetChange /
 * userBudget / budgetFindings (the console's KIP-55 rule, which Kafka does not enforce).
 * This module only arranges them and writes them in words and units.
 */
import {
  CLIENT_QUOTA_KEYS,
  QUOTA_KEYS,
  budgetFindings,
  checkBudgetChange,
  formatEntity,
  resolveClientQuotas,
  resolveIpQuota,
  sameEntity,
  userBudget,
  validateQuotaAlteration,
  type BudgetViolation,
  type BudgetWarning,
  type ClientQuotaResolution,
  type ConfiguredQuota,
  type QuotaEntity,
  type QuotaKey,
} from "@/lib/policy";
import type {
  AppliedKeyView,
  AppliedQuotaQuery,
  AppliedQuotaView,
  BudgetViolationView,
  QuotaAlterationInput,
  QuotaGroup,
  QuotaPreview,
  QuotasOverview,
  UserBudgetView,
} from "@/lib/schemas/quotas";

export const DEFAULT_LABEL = "<default>";

/** What a KIP-55 finding is, every time one is shown. */
export const KIP55_RULE_LABEL = "console rule (KIP-55), Kafka does not enforce this";

export interface QuotaEntry {
  entity: QuotaEntity;
  values: Partial<Record<QuotaKey, number>>;
}

const isByteRate = (k: string) => k === "producer_byte_rate" || k === "consumer_byte_rate";

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;

/** 1048576 -> "1 MiB", 1536 -> "1.5 KiB", 1000 -> "1000 B" (binary units, at most 2 decimals). */
export function formatBytes(n: number): string {
  let v = n;
  let unit = 0;
  while (Math.abs(v) >= 1024 && unit < BYTE_UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  const shown = Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2)));
  return `${shown} ${BYTE_UNITS[unit]}`;
}

/** A value in the unit of its key: "1 MiB/s", "50% of a thread", "20 connections/s". */
export function formatQuotaValue(key: string, value: number | null): string {
  if (value === null) return "unlimited";
  if (isByteRate(key)) return `${formatBytes(value)}/s`;
  if (key === "request_percentage") return `${value}% of a thread`;
  if (key === "controller_mutation_rate") return `${value} partition mutations/s`;
  if (key === "connection_creation_rate") return `${value} connections/s`;
  return String(value);
}

/** Where an entity is listed: ip entities under ip, others with any `<default>` under defaults. */
export function entityGroup(entity: QuotaEntity): QuotaGroup {
  if (entity.ip !== undefined) return "ip";
  const user = entity.user;
  const client = entity["client-id"];
  if (user === null || client === null) return "defaults";
  if (user !== undefined && client !== undefined) return "user+client-id";
  return user !== undefined ? "user" : "client-id";
}

const GROUP_TITLES: Record<QuotaGroup, string> = {
  user: "Users",
  "user+client-id": "User + client id (sub-quotas)",
  "client-id": "Client ids",
  defaults: "Defaults",
  ip: "IP addresses",
};

export function toConfigured(entries: readonly QuotaEntry[]): ConfiguredQuota[] {
  const out: ConfiguredQuota[] = [];
  for (const e of entries) {
    for (const key of QUOTA_KEYS) {
      const value = e.values[key];
      if (value !== undefined) out.push({ entity: e.entity, key, value });
    }
  }
  return out;
}

const userLabel = (user: string | null) => (user === null ? DEFAULT_LABEL : user);

export function violationMessage(v: BudgetViolation): string {
  const who = v.user === null ? "the <default> user" : `user ${v.user}`;
  return (
    `The client sub-quotas of ${who} for ${v.key} sum to ${formatQuotaValue(v.key, v.sum)} ` +
    `(${v.sum}; ${v.clients.join(", ")}), ` +
    `more than the user's total of ${formatQuotaValue(v.key, v.total)} (${v.total ?? "unlimited"}).`
  );
}

const violationView = (v: BudgetViolation): BudgetViolationView => ({ ...v, message: violationMessage(v) });
const warningView = (w: BudgetWarning) => ({ ...w });

/** Users whose budget is shown: every user with a sub-quota, and `<default>` when it has any quota. */
export function budgetUsers(configured: readonly ConfiguredQuota[]): (string | null)[] {
  const named = new Set<string>();
  let withDefault = false;
  for (const q of configured) {
    if (q.entity.ip !== undefined || q.entity.user === undefined) continue;
    if (q.entity.user === null) withDefault = true;
    else if (q.entity["client-id"] !== undefined) named.add(q.entity.user);
  }
  const users: (string | null)[] = [...named].sort();
  if (withDefault) users.push(null);
  return users;
}

/** The KIP-55 budget of one user, only the keys that have a total, a sub-quota or a default sub-quota. */
export function userBudgetView(configured: readonly ConfiguredQuota[], user: string | null): UserBudgetView {
  const lines = userBudget(configured, user)
    .filter((l) => l.total !== null || l.clients.length > 0 || l.defaultClientQuota !== null)
    .map((l) => ({
      key: l.key,
      total: l.total,
      totalSource: l.totalSource,
      totalDisplay: formatQuotaValue(l.key, l.total),
      sum: l.sum,
      sumDisplay: formatQuotaValue(l.key, l.sum),
      remaining: l.remaining,
      remainingDisplay:
        l.remaining === null
          ? "unlimited"
          : l.remaining < 0
            ? `none (${formatQuotaValue(l.key, -l.remaining)} over)`
            : formatQuotaValue(l.key, l.remaining),
      usedPercent: l.total === null || l.total === 0 ? null : (l.sum / l.total) * 100,
      clients: l.clients.map((c) => ({ ...c, display: formatQuotaValue(l.key, c.value) })),
      defaultClientQuota: l.defaultClientQuota,
      overBudget: l.overBudget,
    }));
  return { user, label: userLabel(user), lines };
}

export function buildOverview(entries: readonly QuotaEntry[]): QuotasOverview {
  const configured = toConfigured(entries);
  const groups = (Object.keys(GROUP_TITLES) as QuotaGroup[]).map((group) => ({
    group,
    title: GROUP_TITLES[group],
    entities: entries
      .filter((e) => entityGroup(e.entity) === group)
      .map((e) => ({
        entity: e.entity,
        label: formatEntity(e.entity),
        values: QUOTA_KEYS.flatMap((key) => {
          const value = e.values[key];
          return value === undefined ? [] : [{ key, value, display: formatQuotaValue(key, value) }];
        }),
      }))
      .filter((e) => e.values.length > 0)
      .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)),
  }));
  const findings = budgetFindings(configured);
  return {
    groups,
    budgets: budgetUsers(configured).map((u) => userBudgetView(configured, u)),
    findings: {
      violations: findings.violations.map(violationView),
      warnings: findings.warnings.map(warningView),
      rule: KIP55_RULE_LABEL,
    },
  };
}

// ---- which quota applies ---------------------------------------------------------

const LEVEL_MEANING: Record<number, string> = {
  1: "this user with this client id has its own quota",
  2: "each client id of this user gets its own full quota",
  3: "the user's quota, shared by all its client ids without a more specific quota",
  4: "every user with this client id gets its own copy of the quota",
  5: "every (user, client id) pair gets its own copy of the quota",
  6: "the <default> user quota: each user gets one, shared by its client ids",
  7: "the client id's quota, shared by every user connecting with this client id",
  8: "the <default> client id quota: one per client id, shared across users",
};

function sharedWith(r: ClientQuotaResolution): string {
  if (r.level === null) return "no quota: nothing is shared, nothing is limited";
  const { user, "client-id": clientId } = r.metricTags;
  if (user !== "" && clientId !== "")
    return `its own bucket (user ${user}, client id ${clientId}): no other client shares it`;
  if (user !== "") return `bucket (user ${user}): shared by every client id of ${user} that falls to this quota`;
  return `bucket (client id ${clientId}): shared by every user connecting with client id ${clientId}`;
}

function clientKeyView(r: ClientQuotaResolution): AppliedKeyView {
  return {
    key: r.key,
    value: r.value,
    display: formatQuotaValue(r.key, r.value),
    level: r.level,
    levelLabel: r.level === null ? null : (r.candidates.find((c) => c.level === r.level)?.label ?? null),
    levelMeaning: r.level === null ? "no level configures this key: unlimited" : (LEVEL_MEANING[r.level] ?? ""),
    entity: r.entity,
    entityLabel: r.entity === null ? null : formatEntity(r.entity),
    bucket: r.level === null ? null : r.metricTags,
    sharedWith: sharedWith(r),
  };
}

function ipKeyView(configured: readonly ConfiguredQuota[], ip: string): AppliedKeyView {
  const r = resolveIpQuota(configured, ip);
  return {
    key: "connection_creation_rate",
    value: r.value,
    display: formatQuotaValue("connection_creation_rate", r.value),
    level: null,
    levelLabel: r.source === "ip" ? "<ip>" : r.source === "default" ? "<default ip>" : null,
    levelMeaning:
      r.source === "ip"
        ? "this IP address has its own quota"
        : r.source === "default"
          ? "the <default> IP quota: each IP address gets its own"
          : "no IP quota: unlimited",
    entity: r.entity,
    entityLabel: r.entity === null ? null : formatEntity(r.entity),
    bucket: null,
    sharedWith: r.source === null ? "no quota" : `connections from ${ip} only`,
  };
}

export function appliedView(configured: readonly ConfiguredQuota[], query: AppliedQuotaQuery): AppliedQuotaView {
  if (query.kind === "ip") return { query, keys: [ipKeyView(configured, query.ip)], budget: null };
  const resolved = resolveClientQuotas(configured, query.user, query.clientId);
  return {
    query,
    keys: CLIENT_QUOTA_KEYS.map((k) => clientKeyView(resolved[k])),
    budget: userBudgetView(configured, query.user),
  };
}

// ---- one alteration ---------------------------------------------------------------

/** Stand-ins for "any other" user, client id or IP when an entity is a `<default>` or partial one. */
const OTHER_USER = "(another user)";
const OTHER_CLIENT = "(a client id without a sub-quota)";
const OTHER_IP = "198.51.100.254";

/** The connection whose applied quota an alteration of `entity` changes, in words and as a question. */
export function representativeConnection(entity: QuotaEntity): { query: AppliedQuotaQuery; label: string } {
  if (entity.ip !== undefined) {
    const ip = entity.ip ?? OTHER_IP;
    return {
      query: { kind: "ip", ip },
      label: entity.ip === null ? "a connection from an IP without its own quota" : `a connection from ${ip}`,
    };
  }
  const user = entity.user === undefined || entity.user === null ? OTHER_USER : entity.user;
  const clientId =
    entity["client-id"] === undefined || entity["client-id"] === null ? OTHER_CLIENT : entity["client-id"];
  const who =
    entity.user === undefined
      ? "any user without a more specific quota"
      : entity.user === null
        ? "a user without its own quota"
        : `user ${entity.user}`;
  const client =
    entity["client-id"] === undefined || entity["client-id"] === null
      ? "a client id without a more specific quota"
      : `client id ${entity["client-id"]}`;
  return { query: { kind: "client", user, clientId }, label: `${who}, ${client}` };
}

function appliedFor(configured: readonly ConfiguredQuota[], entity: QuotaEntity, key: QuotaKey): AppliedKeyView[] {
  const isIp = entity.ip !== undefined;
  if (isIp !== (key === "connection_creation_rate")) return [];
  const { query } = representativeConnection(entity);
  return appliedView(configured, query).keys.filter((k) => k.key === key);
}

/** Query parameters that open the edit form filled in for one configured key (`edit_` + the form's field names). */
export const EDIT_PARAM_PREFIX = "edit_";

export function editLinkParams(entity: QuotaEntity, key: QuotaKey, value: number): URLSearchParams {
  return new URLSearchParams(
    Object.entries(editFormValues(entity, key, value)).map(([k, v]) => [EDIT_PARAM_PREFIX + k, v]),
  );
}

/** The Quotas page with its edit form filled in for exactly this alteration (`null`: remove the quota). */
export function quotaEditHref(entity: QuotaEntity, key: QuotaKey, value: number | null): string {
  const params = new URLSearchParams(
    Object.entries(editFormValues(entity, key, value)).map(([k, v]) => [EDIT_PARAM_PREFIX + k, v]),
  );
  return `/quotas?${params}#edit`;
}

/** The edit form's fields (as FormData gives them) that mean exactly this alteration; `null` ticks "remove". */
export function editFormValues(entity: QuotaEntity, key: QuotaKey, value: number | null): Record<string, string> {
  const kind =
    entity.ip !== undefined
      ? "ip"
      : entity.user !== undefined && entity["client-id"] !== undefined
        ? "user+client-id"
        : entity.user !== undefined
          ? "user"
          : "client-id";
  const fields: Record<string, string> = { kind, key, value: value === null ? "" : String(value) };
  if (value === null) fields.remove = "on";
  if (entity.user !== undefined) fields[entity.user === null ? "userDefault" : "user"] = entity.user ?? "on";
  if (entity["client-id"] !== undefined)
    fields[entity["client-id"] === null ? "clientIdDefault" : "clientId"] = entity["client-id"] ?? "on";
  if (entity.ip !== undefined) fields[entity.ip === null ? "ipDefault" : "ip"] = entity.ip ?? "on";
  return fields;
}

/** The edit form's initial fields from the page's query parameters. */
export function editFormInitial(params: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params))
    if (k.startsWith(EDIT_PARAM_PREFIX) && v !== undefined) out[k.slice(EDIT_PARAM_PREFIX.length)] = v;
  return out;
}

export function currentValue(
  configured: readonly ConfiguredQuota[],
  entity: QuotaEntity,
  key: QuotaKey,
): number | null {
  return configured.find((q) => q.key === key && sameEntity(q.entity, entity))?.value ?? null;
}

/** The alteration checked twice (Kafka's validation, the KIP-55 rule) with the applied quota before and after. */
export function previewAlteration(
  configured: readonly ConfiguredQuota[],
  input: Pick<QuotaAlterationInput, "entity" | "key" | "value">,
): QuotaPreview {
  const { entity, key, value } = input;
  const kafkaCheck = validateQuotaAlteration(entity, [{ key, value }]);
  const change = [{ entity, key, value }];
  const budget = checkBudgetChange(configured, change);
  const after = configured.filter((q) => !(q.key === key && sameEntity(q.entity, entity)));
  if (value !== null) after.push({ entity, key, value });
  const connection = representativeConnection(entity);
  const kafka = kafkaCheck.ok ? { ok: true, message: null } : { ok: false, message: kafkaCheck.message };
  const allowed = kafka.ok && budget.ok;
  const label = formatEntity(entity);
  let summary: string;
  if (!kafka.ok) summary = `Kafka would refuse this: ${kafka.message}`;
  else if (!budget.ok)
    summary =
      "Rejected by the console's KIP-55 rule, not by Kafka: Kafka does not enforce it, and Kafka itself would " +
      "accept this change. " +
      budget.violations.map(violationMessage).join(" ");
  else if (budget.repairs.length > 0)
    summary =
      `Allowed as a repair: the change moves an over-budget user toward the KIP-55 ` +
      `budget. ${budget.repairs.map(violationMessage).join(" ")}`;
  else
    summary =
      value === null
        ? `Kafka accepts removing ${key} from ${label}.`
        : `Kafka accepts this, and it keeps the KIP-55 budget.`;
  return {
    entity,
    entityLabel: label,
    key,
    value,
    current: currentValue(configured, entity, key),
    kafka,
    budget: {
      ok: budget.ok,
      violations: budget.violations.map(violationView),
      repairs: budget.repairs.map(violationView),
      warnings: budget.warnings.map(warningView),
    },
    connection: connection.label,
    before: appliedFor(configured, entity, key),
    after: appliedFor(after, entity, key),
    allowed,
    summary,
  };
}
