/**
 * AlterClientQuotas validation — mirrors the KRaft controller's
 * metadata/.../controller/ClientQuotaControlManager.java (alterClientQuotas,
 * validateEntity, configKeysForEntityType, validateQuotaKeyValue), message for message.
 *
 * For one entity, in Kafka's order:
 *  1. a key given twice fails the entity ("Ignoring duplicate entity ...");
 *  2. the entity must be non-empty; each entry (in Java HashMap order) must be of type
 *     user / client-id / ip and must not have the empty name (null = `<default>`);
 *  3. ip cannot be combined with user or client-id; an ip name must be an address;
 *  4. each op with a value (HashMap order; removals are not validated): the key must belong
 *     to the entity kind, the value must be > 0, LONG/INT keys must fit and be integral
 *     (fractional part <= 1e-6, compared as Java's `value % 1.0`).
 *
 * IP names: Kafka accepts anything InetAddress.getByName resolves, which includes DNS host
 * names looked up by the controller at the time of the change. The policy core has no DNS,
 * so it accepts IP literals (in Java's literal syntax, see ./ip.ts) and treats every other
 * name as "not a valid IP or resolvable host" — Kafka's own message for unresolvable names.
 * This is stricter than Kafka for resolvable host names (a console rule: a quota keyed on a
 * name binds to whatever address DNS returned then). Callers that can resolve names may pass
 * `isResolvableHost` to accept them as Kafka would.
 */
import { CLIENT_QUOTA_KEYS, IP_QUOTA_KEYS } from "../types";
import { javaEntityString } from "./entity";
import { isIpLiteral } from "./ip";
import { javaHashMapOrder } from "./java-hash-map";

export interface QuotaAlterOp {
  key: string | null;
  /** null removes the key. */
  value: number | null;
}

export type QuotaAlterResult =
  { ok: true } | { ok: false; error: "INVALID_REQUEST" | "UNKNOWN_SERVER_ERROR"; message: string };

export interface QuotaAlterOptions {
  /** Return true for a host name Kafka's controller would resolve. Default: none. */
  isResolvableHost?: (host: string) => boolean;
}

type ValueType = "LONG" | "DOUBLE" | "INT";

const USER_CLIENT_KEY_TYPES: Record<string, ValueType> = {
  producer_byte_rate: "LONG",
  consumer_byte_rate: "LONG",
  request_percentage: "DOUBLE",
  controller_mutation_rate: "DOUBLE",
};
const IP_KEY_TYPES: Record<string, ValueType> = { connection_creation_rate: "INT" };

/** Java's Long.MAX_VALUE and Integer.MAX_VALUE as the doubles Kafka compares against. */
const LONG_MAX_AS_DOUBLE = 2 ** 63;
const INT_MAX = 2 ** 31 - 1;

const fail = (message: string): QuotaAlterResult => ({ ok: false, error: "INVALID_REQUEST", message });

/**
 * Would Kafka accept this AlterClientQuotas entry? `entity` maps entity type to name and may
 * hold any type (unknown ones are reported as Kafka reports them); its key order is the
 * order of the request's entity data.
 */
export function validateQuotaAlteration(
  entity: Readonly<Record<string, string | null>>,
  ops: readonly QuotaAlterOp[],
  options: QuotaAlterOptions = {},
): QuotaAlterResult {
  const entries = Object.entries(entity);
  const seen = new Set<string | null>();
  for (const op of ops) {
    if (seen.has(op.key)) return fail(`Ignoring duplicate entity ${javaEntityString(entries)}`);
    seen.add(op.key);
  }

  if (entries.length === 0) return fail("Invalid empty client quota entity");
  const names = new Map(entries);
  for (const type of javaHashMapOrder(
    entries.map(([t]) => t),
    entries.length,
  )) {
    if (type !== "user" && type !== "client-id" && type !== "ip")
      return fail(`Unhandled client quota entity type: ${type}`);
    if (names.get(type) === "") return fail(`Empty ${type} not supported`);
  }

  let keyTypes: Record<string, ValueType>;
  if (names.has("ip")) {
    if (names.has("user") || names.has("client-id"))
      return fail("Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId");
    const ip = names.get("ip") ?? null;
    if (ip !== null && !isIpLiteral(ip) && !(options.isResolvableHost?.(ip) ?? false))
      return fail(`${ip} is not a valid IP or resolvable host.`);
    keyTypes = IP_KEY_TYPES;
  } else {
    keyTypes = USER_CLIENT_KEY_TYPES;
  }

  const values = new Map(ops.map((op) => [op.key, op.value]));
  for (const key of javaHashMapOrder(
    ops.map((op) => op.key),
    ops.length,
  )) {
    const value = values.get(key) ?? null;
    if (value === null) continue;
    const type = key === null ? undefined : keyTypes[key];
    if (type === undefined) return fail(`Invalid configuration key ${key}`);
    if (value <= 0) return fail(`Quota ${key} must be greater than 0`);
    if (type === "DOUBLE") continue;
    if (type === "INT" && value > INT_MAX) return fail(`Proposed value for ${key} is too large for an INT.`);
    if (type === "LONG" && value > LONG_MAX_AS_DOUBLE)
      return fail(`Proposed value for ${key} is too large for a LONG.`);
    if (Math.abs(value % 1.0) > 1e-6) return fail(`${key} cannot be a fractional value.`);
  }
  return { ok: true };
}

/** The keys Kafka accepts for an entity of this shape (ip vs user/client-id). */
export function quotaKeysFor(entity: { ip?: unknown }): readonly string[] {
  return entity.ip !== undefined ? IP_QUOTA_KEYS : CLIENT_QUOTA_KEYS;
}
