/**
 * Canonical keys of the security state the journal records (#20). Pure: no I/O, no clock.
 *
 * A key is the canonical JSON text of an array whose first element names its kind. JSON
 * (not a separator-joined string) so that no name — with commas, colons, NUL — can make two
 * things share a key. The value stored under a key is JSON too:
 *
 *   acl      ["acl", resourceType, patternType, resourceName, principal, host, operation, permissionType] -> true
 *   quota    ["quota", { user?, client-id?, ip? }, quotaKey]                                          -> number
 *   scram    ["scram", user, mechanism]                                                                -> iterations
 *   setting  ["setting", "superUsers" | "allowEveryoneIfNoAclFound" | "principalMapping"]             -> its value
 *
 * SCRAM keys carry the user name and mechanism, and the value the iteration count only:
 * never a salt, a hash or a password (Kafka's DescribeUserScramCredentials shows nothing
 * more, so a password change with the same iterations is invisible to the journal).
 */
import {
  PATTERN_TYPES,
  PERMISSION_TYPES,
  OPERATIONS,
  QUOTA_ENTITY_TYPES,
  QUOTA_KEYS,
  RESOURCE_TYPES,
  type AclBinding,
  type QuotaEntity,
  type QuotaKey,
} from "../types";

export const HISTORY_KINDS = ["acl", "quota", "scram", "setting"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export const SCRAM_MECHANISMS = ["SCRAM-SHA-256", "SCRAM-SHA-512"] as const;
export type HistoryScramMechanism = (typeof SCRAM_MECHANISMS)[number];

/** The console settings decisions depend on, journalled like the rest. */
export const HISTORY_SETTINGS = ["superUsers", "allowEveryoneIfNoAclFound", "principalMapping"] as const;
export type HistorySetting = (typeof HISTORY_SETTINGS)[number];

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** JSON with object keys sorted, so equal values have equal text. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly Json[]).map(canonicalJson).join(",")}]`;
  const o = value as { readonly [key: string]: Json };
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k]!)}`)
    .join(",")}}`;
}

export function aclKey(b: AclBinding): string {
  return JSON.stringify([
    "acl",
    b.resourceType,
    b.patternType,
    b.resourceName,
    b.principal,
    b.host,
    b.operation,
    b.permissionType,
  ]);
}

/** The entity with its parts in a fixed order (user, client-id, ip), absent parts left out. */
export function canonicalEntity(entity: QuotaEntity): QuotaEntity {
  const out: Record<string, string | null> = {};
  for (const t of QUOTA_ENTITY_TYPES) if (entity[t] !== undefined) out[t] = entity[t] ?? null;
  return out;
}

export function quotaKey(entity: QuotaEntity, key: QuotaKey): string {
  return JSON.stringify(["quota", canonicalEntity(entity), key]);
}

export function scramKey(user: string, mechanism: HistoryScramMechanism): string {
  return JSON.stringify(["scram", user, mechanism]);
}

export function settingKey(name: HistorySetting): string {
  return JSON.stringify(["setting", name]);
}

export type ParsedKey =
  | { kind: "acl"; binding: AclBinding }
  | { kind: "quota"; entity: QuotaEntity; quotaKey: QuotaKey }
  | { kind: "scram"; user: string; mechanism: HistoryScramMechanism }
  | { kind: "setting"; name: HistorySetting };

/** Thrown for a key that is not one this module makes (a corrupted row, a key from elsewhere). */
export class HistoryKeyError extends Error {
  override name = "HistoryKeyError";
}

const isString = (v: unknown): v is string => typeof v === "string";
const oneOf = <T extends string>(list: readonly T[], v: unknown): v is T => list.includes(v as T);

export function parseKey(key: string): ParsedKey {
  let parts: unknown;
  try {
    parts = JSON.parse(key);
  } catch {
    throw new HistoryKeyError(`Not a history key (not JSON): ${key.slice(0, 80)}`);
  }
  if (!Array.isArray(parts)) throw new HistoryKeyError(`Not a history key: ${key.slice(0, 80)}`);
  const [kind, ...rest] = parts as unknown[];
  if (kind === "acl" && rest.length === 7 && rest.every(isString)) {
    const [resourceType, patternType, resourceName, principal, host, operation, permissionType] = rest;
    if (
      resourceName !== undefined &&
      principal !== undefined &&
      host !== undefined &&
      oneOf(RESOURCE_TYPES, resourceType) &&
      oneOf(PATTERN_TYPES, patternType) &&
      oneOf(OPERATIONS, operation) &&
      oneOf(PERMISSION_TYPES, permissionType)
    )
      return {
        kind,
        binding: { resourceType, patternType, resourceName, principal, host, operation, permissionType },
      };
  }
  if (kind === "quota" && rest.length === 2 && oneOf(QUOTA_KEYS, rest[1])) {
    const entity = rest[0];
    if (
      entity !== null &&
      typeof entity === "object" &&
      Object.entries(entity).every(([t, v]) => oneOf(QUOTA_ENTITY_TYPES, t) && (v === null || isString(v)))
    )
      return { kind, entity: entity, quotaKey: rest[1] };
  }
  if (kind === "scram" && rest.length === 2 && isString(rest[0]) && oneOf(SCRAM_MECHANISMS, rest[1]))
    return { kind, user: rest[0], mechanism: rest[1] };
  if (kind === "setting" && rest.length === 1 && oneOf(HISTORY_SETTINGS, rest[0])) return { kind, name: rest[0] };
  throw new HistoryKeyError(`Not a history key: ${key.slice(0, 80)}`);
}

/**
 * The principal a key names, for finding a principal's entries: an ACL's principal (`User:*`
 * included), `User:<name>` of a SCRAM user or of a quota's (non-default) user; null otherwise.
 */
export function principalOfKey(key: string): string | null {
  const parsed = parseKey(key);
  switch (parsed.kind) {
    case "acl":
      return parsed.binding.principal;
    case "scram":
      return `User:${parsed.user}`;
    case "quota":
      return typeof parsed.entity.user === "string" ? `User:${parsed.entity.user}` : null;
    case "setting":
      return null;
  }
}

/** The kind of a key, without parsing the rest. */
export function kindOf(key: string): HistoryKind {
  const m = /^\["(acl|quota|scram|setting)"/.exec(key);
  if (!m) throw new HistoryKeyError(`Not a history key: ${key.slice(0, 80)}`);
  return m[1] as HistoryKind;
}
