/**
 * Which client quota Kafka applies to a connection, per quota key — mirrors the default
 * quota callback of core/src/main/scala/kafka/server/ClientQuotaManager.scala.
 *
 * Precedence, most specific first; the first level whose entity configures *this key* wins
 * (an entity that lacks the key does not shadow the levels below it):
 *
 *   1 <user, client-id>   2 <user, default client-id>   3 <user>
 *   4 <default user, client-id>   5 <default user, default client-id>   6 <default user>
 *   7 <client-id>   8 <default client-id>                 nothing -> unlimited
 *
 * So `<default user>` (6) beats an explicit `client-id=C` (7)
 * (ClientQuotaManagerTest.testQuotaConfigPrecedence).
 *
 * Kafka resolves in two steps, and both are mirrored because they differ at the edges:
 *  a) metric tags `{ user, client-id }` — the bucket the client's usage is recorded in, so
 *     clients with equal tags share one quota. Levels 1,2,4,5 tag (U, C); 3,6 tag (U, "");
 *     7,8 tag ("", C). When only one kind of entity (user / client-id / user+client-id) is
 *     configured for the key, Kafka skips the ladder and tags by that kind alone.
 *  b) the limit is looked up from the tags alone: (U, C) tries levels 1,2,4,5; (U, "")
 *     tries 3,6; ("", C) tries 7,8. With a normal (non-empty) user and client id this
 *     always finds the entity of step a); with an empty client id (allowed by Kafka) a
 *     `<user, default client-id>` quota tags (U, "") and then does NOT apply.
 * The `user` tag is the principal name URL-encoded as Kafka's Sanitizer does (`a b` -> `a%20b`).
 *
 * Kafka enables the tag shortcut per key and never disables it until a restart; here the
 * configured set is taken as the state after a restart.
 *
 * IP connection-rate quotas (SocketServer ConnectionQuotas.connectionRateForIp): the per-IP
 * override, else `ip=<default>`, else unlimited. IPs are compared as addresses.
 */
import { CLIENT_QUOTA_KEYS } from "../types";
import type { ClientQuotaKey, ConfiguredQuota, QuotaEntity, QuotaKey } from "../types";
import { entityId, normalizeEntity } from "./entity";
import { canonicalIp } from "./ip";
import { utf8 } from "../crypto/sha512";

export type QuotaLevelNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
/** Which tags a level's bucket carries: both, user only, client id only. */
type TagShape = "user+client-id" | "user" | "client-id";

export interface QuotaLevel {
  level: QuotaLevelNumber;
  label: string;
  entity: (user: string, clientId: string) => QuotaEntity;
  tags: TagShape;
}

/** The eight levels, most specific first. */
export const QUOTA_LEVELS: readonly QuotaLevel[] = [
  { level: 1, label: "<user, client-id>", entity: (u, c) => ({ user: u, "client-id": c }), tags: "user+client-id" },
  {
    level: 2,
    label: "<user, default client-id>",
    entity: (u) => ({ user: u, "client-id": null }),
    tags: "user+client-id",
  },
  { level: 3, label: "<user>", entity: (u) => ({ user: u }), tags: "user" },
  {
    level: 4,
    label: "<default user, client-id>",
    entity: (_u, c) => ({ user: null, "client-id": c }),
    tags: "user+client-id",
  },
  {
    level: 5,
    label: "<default user, default client-id>",
    entity: () => ({ user: null, "client-id": null }),
    tags: "user+client-id",
  },
  { level: 6, label: "<default user>", entity: () => ({ user: null }), tags: "user" },
  { level: 7, label: "<client-id>", entity: (_u, c) => ({ "client-id": c }), tags: "client-id" },
  { level: 8, label: "<default client-id>", entity: () => ({ "client-id": null }), tags: "client-id" },
];

export interface QuotaMetricTags {
  user: string;
  "client-id": string;
}

export interface QuotaCandidate {
  level: QuotaLevelNumber;
  label: string;
  entity: QuotaEntity;
  /** What this level's entity configures for the key; null = not configured. */
  value: number | null;
}

export interface ClientQuotaResolution {
  key: ClientQuotaKey;
  /** The limit Kafka enforces; null = unlimited. */
  value: number | null;
  /** The configured entity that decided, or null when unlimited. */
  entity: QuotaEntity | null;
  level: QuotaLevelNumber | null;
  /** The bucket: clients with equal tags share one quota. */
  metricTags: QuotaMetricTags;
  /** All eight levels for this (user, client-id), for a "why" view. */
  candidates: QuotaCandidate[];
}

export interface IpQuotaResolution {
  value: number | null;
  entity: QuotaEntity | null;
  source: "ip" | "default" | null;
}

/** Configured quotas indexed by (entity, key); later entries replace earlier ones. */
export class QuotaIndex {
  private readonly values = new Map<string, ConfiguredQuota>();
  private readonly kindsByKey = new Map<QuotaKey, Set<TagShape>>();

  constructor(configured: readonly ConfiguredQuota[]) {
    for (const q of configured) {
      this.values.set(QuotaIndex.slot(q.entity, q.key), q);
      const hasUser = q.entity.user !== undefined;
      const hasClient = q.entity["client-id"] !== undefined;
      if (q.entity.ip !== undefined || (!hasUser && !hasClient)) continue;
      const kind: TagShape = hasUser && hasClient ? "user+client-id" : hasUser ? "user" : "client-id";
      const kinds = this.kindsByKey.get(q.key) ?? new Set<TagShape>();
      kinds.add(kind);
      this.kindsByKey.set(q.key, kinds);
    }
  }

  private static slot(entity: QuotaEntity, key: QuotaKey): string {
    return `${entityId(entity)}\u0003${key}`;
  }

  get(entity: QuotaEntity, key: QuotaKey): number | null {
    return this.values.get(QuotaIndex.slot(entity, key))?.value ?? null;
  }

  /** The configured quota for (entity, key), with the entity as it was configured. */
  entry(entity: QuotaEntity, key: QuotaKey): ConfiguredQuota | null {
    return this.values.get(QuotaIndex.slot(entity, key)) ?? null;
  }

  /** Kafka's `quotaTypesEnabled` for the key's quota manager. */
  enabledKinds(key: QuotaKey): ReadonlySet<TagShape> {
    return this.kindsByKey.get(key) ?? new Set();
  }
}

const asIndex = (configured: readonly ConfiguredQuota[] | QuotaIndex) =>
  configured instanceof QuotaIndex ? configured : new QuotaIndex(configured);

/** Kafka's Sanitizer.sanitize: URLEncoder (UTF-8) with `*` -> %2A and space -> %20. */
export function sanitizeUser(name: string): string {
  let out = "";
  for (const ch of name) {
    if (/^[A-Za-z0-9.\-_]$/.test(ch)) out += ch;
    else if (ch === "*") out += "%2A";
    else if (ch === " ") out += "%20";
    else
      out += Array.from(utf8(ch))
        .map((b) => "%" + b.toString(16).toUpperCase().padStart(2, "0"))
        .join("");
  }
  return out;
}

function tagsOf(shape: TagShape, user: string, clientId: string): QuotaMetricTags {
  const u = sanitizeUser(user);
  if (shape === "user") return { user: u, "client-id": "" };
  if (shape === "client-id") return { user: "", "client-id": clientId };
  return { user: u, "client-id": clientId };
}

/** Step a): the bucket (DefaultQuotaCallback.quotaMetricTags). */
function metricTagsFor(
  index: QuotaIndex,
  user: string,
  clientId: string,
  key: ClientQuotaKey,
): { tags: QuotaMetricTags; shape: TagShape } {
  const kinds = index.enabledKinds(key);
  if (kinds.size <= 1) {
    // Single-kind shortcut; nothing configured behaves like client-id-only.
    const shape: TagShape = [...kinds][0] ?? "client-id";
    return { tags: tagsOf(shape, user, clientId), shape };
  }
  const winner = QUOTA_LEVELS.find((l) => index.get(l.entity(user, clientId), key) !== null);
  const shape = winner?.tags ?? "client-id";
  return { tags: tagsOf(shape, user, clientId), shape };
}

/** Step b): the limit from the tags alone (DefaultQuotaCallback.quotaLimit). */
function limitFor(
  index: QuotaIndex,
  user: string,
  clientId: string,
  tags: QuotaMetricTags,
  key: ClientQuotaKey,
): QuotaCandidate | null {
  const hasUser = tags.user !== "";
  const hasClient = tags["client-id"] !== "";
  const shape: TagShape | null =
    hasUser && hasClient ? "user+client-id" : hasUser ? "user" : hasClient ? "client-id" : null;
  if (shape === null) return null;
  for (const l of QUOTA_LEVELS) {
    if (l.tags !== shape) continue;
    const entity = l.entity(user, clientId);
    const value = index.get(entity, key);
    if (value !== null) return { level: l.level, label: l.label, entity: normalizeEntity(entity), value };
  }
  return null;
}

/** The quota Kafka applies to `(user, clientId)` for one key. `user` is the principal name. */
export function resolveClientQuota(
  configured: readonly ConfiguredQuota[] | QuotaIndex,
  user: string,
  clientId: string,
  key: ClientQuotaKey,
): ClientQuotaResolution {
  const index = asIndex(configured);
  const { tags } = metricTagsFor(index, user, clientId, key);
  const decided = limitFor(index, user, clientId, tags, key);
  const candidates = QUOTA_LEVELS.map((l) => {
    const entity = normalizeEntity(l.entity(user, clientId));
    return { level: l.level, label: l.label, entity, value: index.get(entity, key) };
  });
  return {
    key,
    value: decided?.value ?? null,
    entity: decided?.entity ?? null,
    level: decided?.level ?? null,
    metricTags: tags,
    candidates,
  };
}

/** The connection-creation-rate limit Kafka applies to connections from `ip`. */
export function resolveIpQuota(configured: readonly ConfiguredQuota[] | QuotaIndex, ip: string): IpQuotaResolution {
  const index = asIndex(configured);
  const address = canonicalIp(ip) ?? ip;
  const own = index.entry({ ip: address }, "connection_creation_rate");
  if (own !== null) return { value: own.value, entity: normalizeEntity(own.entity), source: "ip" };
  const fallback = index.entry({ ip: null }, "connection_creation_rate");
  if (fallback !== null) return { value: fallback.value, entity: { ip: null }, source: "default" };
  return { value: null, entity: null, source: null };
}

/** resolveClientQuota for every client quota key. */
export function resolveClientQuotas(
  configured: readonly ConfiguredQuota[] | QuotaIndex,
  user: string,
  clientId: string,
): Record<ClientQuotaKey, ClientQuotaResolution> {
  const index = asIndex(configured);
  return Object.fromEntries(
    CLIENT_QUOTA_KEYS.map((key) => [key, resolveClientQuota(index, user, clientId, key)]),
  ) as Record<ClientQuotaKey, ClientQuotaResolution>;
}

/**
 * The quota `user` of a connection: the principal's *name* (`User:alice` -> `alice`), as
 * KafkaPrincipal#getName gives it to the quota callback. Unauthenticated clients are `ANONYMOUS`.
 */
export function quotaUserOf(principal: string): string {
  const i = principal.indexOf(":");
  return i < 0 ? principal : principal.slice(i + 1);
}
