/**
 * DescribeClientQuotas filters (KIP-546) — mirrors ClientQuotasImage#describe, which the
 * broker answers from its metadata image in KRaft mode.
 *
 * Each component names an entity type and how its name must match:
 *  - EXACT(name): the entity has that type with exactly that (non-null) name;
 *  - DEFAULT: the entity has that type with the `<default>` (null) name;
 *  - SPECIFIED: the entity has that type with any name, *including* `<default>`.
 * `strict` additionally requires the entity to have no other types. An empty component list
 * matches everything, or nothing when strict. Names are compared as strings (the image is
 * keyed by the names as written), so a client id literally called `<default>` is not DEFAULT.
 *
 * Components are checked in order and the first problem fails the whole request, with the
 * same code and message as Kafka (INVALID_REQUEST / UNSUPPORTED_VERSION).
 */
import type { ConfiguredQuota, QuotaEntity, QuotaKey } from "../types";
import { QUOTA_ENTITY_TYPES } from "../types";
import { normalizeEntity } from "./entity";

export const QUOTA_MATCH_TYPES = ["EXACT", "DEFAULT", "SPECIFIED"] as const;
export type QuotaMatchType = (typeof QUOTA_MATCH_TYPES)[number];

export interface QuotaFilterComponent {
  entityType: string;
  /** A match type by name, or its wire code (0 EXACT, 1 DEFAULT, 2 SPECIFIED; others are rejected as Kafka does). */
  matchType: QuotaMatchType | number;
  match: string | null;
}

export interface QuotaFilter {
  components: readonly QuotaFilterComponent[];
  strict: boolean;
}

export interface DescribedQuotaEntry {
  entity: QuotaEntity;
  values: Partial<Record<QuotaKey, number>>;
}

export type DescribeQuotasResult =
  | { ok: true; entries: DescribedQuotaEntry[] }
  | { ok: false; error: "INVALID_REQUEST" | "UNSUPPORTED_VERSION"; message: string };

const invalid = (message: string): DescribeQuotasResult => ({ ok: false, error: "INVALID_REQUEST", message });

function matchTypeCode(m: QuotaMatchType | number): number {
  return typeof m === "number" ? m : QUOTA_MATCH_TYPES.indexOf(m);
}

/** Group configured quotas into entities (by exact names), in first-appearance order. */
export function groupByEntity(configured: readonly ConfiguredQuota[]): DescribedQuotaEntry[] {
  const byId = new Map<string, DescribedQuotaEntry>();
  for (const q of configured) {
    const entity = normalizeEntity(q.entity);
    const id = JSON.stringify(QUOTA_ENTITY_TYPES.map((t) => (t in entity ? [entity[t]] : [])));
    const entry = byId.get(id) ?? { entity, values: {} };
    entry.values[q.key] = q.value;
    byId.set(id, entry);
  }
  return [...byId.values()];
}

export function describeClientQuotas(
  configured: readonly ConfiguredQuota[],
  filter: QuotaFilter,
): DescribeQuotasResult {
  const exact = new Map<string, string | null>();
  const typeMatch = new Set<string>();
  for (const c of filter.components) {
    if (c.entityType === "") return invalid("Invalid empty entity type.");
    if (exact.has(c.entityType) || typeMatch.has(c.entityType))
      return invalid(`Entity type ${c.entityType} cannot appear more than once in the filter.`);
    if (!(QUOTA_ENTITY_TYPES as readonly string[]).includes(c.entityType))
      return { ok: false, error: "UNSUPPORTED_VERSION", message: `Unsupported entity type ${c.entityType}` };
    const code = matchTypeCode(c.matchType);
    if (code === 0) {
      if (c.match === null) return invalid("Request specified MATCH_TYPE_EXACT, but set match string to null.");
      exact.set(c.entityType, c.match);
    } else if (code === 1) {
      if (c.match !== null) return invalid("Request specified MATCH_TYPE_DEFAULT, but also specified a match string.");
      exact.set(c.entityType, null);
    } else if (code === 2) {
      if (c.match !== null)
        return invalid("Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.");
      typeMatch.add(c.entityType);
    } else {
      return invalid(`Unknown match type ${typeof c.matchType === "number" ? c.matchType : String(c.matchType)}`);
    }
  }
  const mentions = (t: string) => exact.has(t) || typeMatch.has(t);
  if (mentions("ip") && (mentions("user") || mentions("client-id")))
    return invalid(
      "Invalid entity filter component combination. IP filter component should not be used with user or " +
        "clientId filter component.",
    );

  const entries = groupByEntity(configured).filter(({ entity }) => {
    const types = QUOTA_ENTITY_TYPES.filter((t) => t in entity);
    if (filter.strict && types.length !== exact.size + typeMatch.size) return false;
    for (const [type, name] of exact) {
      if (!(type in entity) || entity[type as keyof QuotaEntity] !== name) return false;
    }
    for (const type of typeMatch) if (!(type in entity)) return false;
    return true;
  });
  return { ok: true, entries };
}
