/**
 * Client quotas (KIP-546) as the signed-in user: DescribeClientQuotas needs
 * DESCRIBE_CONFIGS on CLUSTER, AlterClientQuotas ALTER_CONFIGS on CLUSTER. Entities use
 * the policy shape: `{ user: "alice" }`, `{ user: null }` = `<default>` user,
 * `{ user: "svc", "client-id": "api" }`, `{ ip: "10.0.0.1" }`.
 */
import {
  alterClientQuotasV1,
  ClientQuotaMatchTypes,
  type Admin,
  type describeClientQuotasV1,
} from "@platformatic/kafka";
import type { QuotaFilterComponent } from "@/lib/policy/quota/filter";
import type { QuotaEntity, QuotaEntityType } from "@/lib/policy/types";
import { QUOTA_ENTITY_TYPES, QUOTA_KEYS } from "@/lib/policy/types";
import { anyBrokerConnection, principalOf, withAdmin } from "./client";
import { errorInfoFor, kafkaErrorName, partialResponse, toKafkaOperationError, type KafkaErrorInfo } from "./errors";
import { settle } from "./settle";
import type { AlterClientQuotaResult, KafkaCredential, QuotaAlteration, QuotaEntry, QuotaValues } from "./types";

type WireEntity = { entityType: QuotaEntityType; entityName: string | null };

export function entityToWire(entity: QuotaEntity): WireEntity[] {
  return QUOTA_ENTITY_TYPES.filter((t) => t in entity && entity[t] !== undefined).map((t) => ({
    entityType: t,
    entityName: entity[t] ?? null,
  }));
}

export function entityFromWire(parts: { entityType: string; entityName?: string | null | undefined }[]): QuotaEntity {
  const entity: QuotaEntity = {};
  for (const part of parts) {
    if (!(QUOTA_ENTITY_TYPES as readonly string[]).includes(part.entityType)) {
      throw new Error(`Kafka returned an unknown quota entity type ${JSON.stringify(part.entityType)}.`);
    }
    entity[part.entityType as QuotaEntityType] = part.entityName ?? null;
  }
  return entity;
}

/** A stable string for an entity: its types in a fixed order, `<default>` as null. */
export function entityKey(entity: QuotaEntity): string {
  return JSON.stringify(QUOTA_ENTITY_TYPES.filter((t) => entity[t] !== undefined).map((t) => [t, entity[t]]));
}

const MATCH_TYPE_WIRE: Record<string, number> = {
  EXACT: ClientQuotaMatchTypes.EXACT,
  DEFAULT: ClientQuotaMatchTypes.DEFAULT,
  SPECIFIED: ClientQuotaMatchTypes.ANY,
};

/** The policy core's filter component (lib/policy/quota/filter.ts) on the wire; Kafka judges its validity. */
function componentToWire(c: QuotaFilterComponent): describeClientQuotasV1.DescribeClientQuotasRequestComponent {
  const matchType = typeof c.matchType === "number" ? c.matchType : (MATCH_TYPE_WIRE[c.matchType] ?? -1);
  // The client's types only allow well-formed components; malformed ones go through as-is
  // so the broker answers them with its own INVALID_REQUEST, as the policy core mirrors.
  return {
    entityType: c.entityType,
    matchType,
    match: c.match,
  } as unknown as describeClientQuotasV1.DescribeClientQuotasRequestComponent;
}

function exactComponents(entity: QuotaEntity): describeClientQuotasV1.DescribeClientQuotasRequestComponent[] {
  return entityToWire(entity).map((part) =>
    part.entityName === null
      ? { entityType: part.entityType, matchType: ClientQuotaMatchTypes.DEFAULT }
      : { entityType: part.entityType, matchType: ClientQuotaMatchTypes.EXACT, match: part.entityName },
  );
}

/**
 * The configured quota entities matching the filter. `strict` = the entity has exactly the
 * filter's entity types; non-strict with no components returns every entity.
 */
export async function describeClientQuotas(
  cred: KafkaCredential,
  filter: { components: readonly QuotaFilterComponent[]; strict?: boolean },
): Promise<QuotaEntry[]> {
  return withAdmin(cred, "DescribeClientQuotas", async (admin) => {
    const entries = await admin.describeClientQuotas({
      components: filter.components.map(componentToWire),
      strict: filter.strict ?? false,
    });
    return entries.map((e) => {
      const values: QuotaValues = {};
      for (const v of e.values) {
        if ((QUOTA_KEYS as readonly string[]).includes(v.key)) values[v.key] = v.value;
      }
      return { entity: entityFromWire(e.entity), values };
    });
  });
}

type AlterResponse = Awaited<ReturnType<typeof alterClientQuotasV1.api.async>>;

/**
 * Failures after which Kafka may or may not have applied the change: the answer was lost
 * (the broker went down or the connection broke mid-request) or the broker's forward to
 * the controller timed out (the controller failing over). The controller may have
 * committed it before the loss.
 */
const OUTCOME_UNKNOWN = new Set([
  "BROKER_UNAVAILABLE",
  "UNKNOWN",
  "REQUEST_TIMED_OUT",
  "NETWORK_EXCEPTION",
  "UNKNOWN_SERVER_ERROR",
]);

/** How long a change whose answer was lost is looked for: a controller election takes a few seconds. */
export const LOST_ANSWER_WAIT_MS = 10_000;

/** Whether Kafka now shows the alteration (every set key with its value, every removed key gone). */
async function shows(admin: Admin, a: QuotaAlteration): Promise<boolean> {
  const [current] = await admin.describeClientQuotas({ components: exactComponents(a.entity), strict: true });
  const values = new Map((current?.values ?? []).map((v) => [v.key as string, v.value]));
  return a.ops.every((op) => (op.value === null ? !values.has(op.key) : values.get(op.key) === op.value));
}

/** Sets (number) or removes (null) quota keys per entity; `validateOnly` checks without applying. */
export async function alterClientQuotas(
  cred: KafkaCredential,
  alterations: QuotaAlteration[],
  validateOnly = false,
): Promise<AlterClientQuotaResult[]> {
  if (alterations.length === 0) return [];
  const ctx = { api: "AlterClientQuotas", principal: principalOf(cred) };
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const entries = alterations.map((a) => ({
      entities: entityToWire(a.entity),
      ops: a.ops.map((op) =>
        op.value === null
          ? { key: op.key, remove: true as const }
          : { key: op.key, value: op.value, remove: false as const },
      ),
    }));
    let response: AlterResponse | null = null;
    let lost: KafkaErrorInfo | null = null;
    try {
      response = await alterClientQuotasV1.api.async(connection, entries, validateOnly);
    } catch (error) {
      response = partialResponse<AlterResponse>(error);
      if (!response) {
        const converted = toKafkaOperationError(error, ctx);
        if (validateOnly || !OUTCOME_UNKNOWN.has(converted.code)) throw error;
        lost = converted.toJSON();
      }
    }
    // The controller answers from a map keyed by entity: match entries by entity, not by position.
    const byEntity = new Map((response?.entries ?? []).map((r) => [entityKey(entityFromWire(r.entity)), r]));
    const results: AlterClientQuotaResult[] = alterations.map((a) => {
      if (lost) return { entity: a.entity, error: lost };
      const r = byEntity.get(entityKey(a.entity));
      return {
        entity: a.entity,
        error: !r || r.errorCode === 0 ? null : errorInfoFor(kafkaErrorName(r.errorCode), r.errorMessage, ctx),
      };
    });
    if (validateOnly) return results;
    const applied = alterations.filter((_a, i) => results[i]?.error === null);
    await settle(async () => {
      for (const a of applied) if (!(await shows(admin, a))) return false;
      return true;
    });
    // Unknown outcomes: what Kafka shows once the cluster answers again decides.
    for (const [i, a] of alterations.entries()) {
      const error = results[i]?.error;
      if (!error || !OUTCOME_UNKNOWN.has(error.code)) continue;
      const visible = await settle(() => shows(admin, a), LOST_ANSWER_WAIT_MS);
      results[i] = visible
        ? { entity: a.entity, error: null }
        : { entity: a.entity, error: notShownAfterLoss(error), outcomeUnknown: true };
    }
    return results;
  });
}

/**
 * Kafka's own check of alterations, applying nothing (AlterClientQuotas with validateOnly):
 * the preview's last word, so it is a read, outside the audit (lib/kafka/writes.ts).
 */
export function validateClientQuotas(
  cred: KafkaCredential,
  alterations: QuotaAlteration[],
): Promise<AlterClientQuotaResult[]> {
  return alterClientQuotas(cred, alterations, true);
}

/** The error of a change whose answer was lost and that a re-read does not show. */
function notShownAfterLoss(error: KafkaErrorInfo): KafkaErrorInfo {
  const cause =
    error.code === "BROKER_UNAVAILABLE"
      ? "the connection to the broker closed or timed out mid-request"
      : error.message.replace(/\.$/, "");
  return {
    ...error,
    message:
      `The quota change may not have been applied: Kafka's answer was lost (${cause}), and reading the quotas again ` +
      `for ${LOST_ANSWER_WAIT_MS / 1000} s did not show it. Read the quotas again before retrying.`,
  };
}
