/**
 * Quota entities: identity, display, and the strings Kafka prints for them.
 *
 * An entity is a map from entity type (`user`, `client-id`, `ip`) to a name, where `null` is
 * the `<default>` entity and an absent key is not part of the entity (docs/quotas.md). A client
 * id literally named `<default>` is an ordinary named entity, never the default
 * (ClientQuotasRequestTest.testClientQuotasWithDefaultName).
 */
import { QUOTA_ENTITY_TYPES } from "../types";
import type { QuotaEntity, QuotaEntityType } from "../types";
import { canonicalIp } from "./ip";
import { javaMapString } from "./java-hash-map";

/** How the UI and CLI write the default entity. */
export const DEFAULT_ENTITY_LABEL = "<default>";

export type EntityKind = "user" | "client-id" | "user+client-id" | "ip" | "invalid";

export function entityKind(entity: QuotaEntity): EntityKind {
  const has = (t: QuotaEntityType) => Object.prototype.hasOwnProperty.call(entity, t) && entity[t] !== undefined;
  const types = QUOTA_ENTITY_TYPES.filter(has);
  if (types.length === 1 && types[0] === "ip") return "ip";
  if (has("ip") || types.length === 0) return "invalid";
  if (has("user") && has("client-id")) return "user+client-id";
  return has("user") ? "user" : "client-id";
}

/**
 * A string that is equal for equal entities (IP names compared as addresses, like Kafka's
 * InetAddress-keyed map; a name that is not an IP literal is compared as text).
 */
export function entityId(entity: QuotaEntity): string {
  const parts: string[] = [];
  for (const t of QUOTA_ENTITY_TYPES) {
    const name = entity[t];
    if (name === undefined) continue;
    const shown = name === null ? "\u0000default" : t === "ip" ? (canonicalIp(name) ?? name) : name;
    parts.push(`${t}\u0001${shown}`);
  }
  return parts.join("\u0002");
}

export function sameEntity(a: QuotaEntity, b: QuotaEntity): boolean {
  return entityId(a) === entityId(b);
}

/** `user=alice, client-id=<default>` — how the console names an entity to people. */
export function formatEntity(entity: QuotaEntity): string {
  const parts = QUOTA_ENTITY_TYPES.filter((t) => entity[t] !== undefined).map(
    (t) => `${t}=${entity[t] ?? DEFAULT_ENTITY_LABEL}`,
  );
  return parts.length === 0 ? "(empty entity)" : parts.join(", ");
}

/** Only the keys that are part of the entity, in vocabulary order (for JSON output). */
export function normalizeEntity(entity: QuotaEntity): QuotaEntity {
  const out: QuotaEntity = {};
  for (const t of QUOTA_ENTITY_TYPES) if (entity[t] !== undefined) out[t] = entity[t];
  return out;
}

/**
 * `ClientQuotaEntity(entries={client-id=app, user=alice})`, as Kafka prints the entity in
 * AlterClientQuotas errors. The broker rebuilds the entity as `new HashMap<>(size)` from the
 * request, so the order is that HashMap's.
 */
export function javaEntityString(entries: ReadonlyArray<readonly [string, string | null]>): string {
  return `ClientQuotaEntity(entries=${javaMapString(entries, entries.length)})`;
}
