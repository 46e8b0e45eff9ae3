/**
 * Client quotas as the signed-in viewer: the configured entities and the KIP-55 budget, which
 * quota Kafka applies to a connection, and one alteration (preview, then apply). Used by the
 * Quotas page and its server action and by /api/v1/quotas*.
 *
 * Everything starts from DescribeClientQuotas with no components, non-strict (every entity),
 * read as the viewer: Kafka needs DESCRIBE_CONFIGS on CLUSTER and its refusal comes back as a
 * readable failure. An alteration is checked twice before it is sent (Kafka's own validation,
 * then the console's KIP-55 rule), re-checked against a fresh read when applied, sent as the
 * viewer (ALTER_CONFIGS on CLUSTER), and every attempt is written to the audit trail
 * (auditedMutation: the intent before Kafka is asked, the outcome after). Alterations that
 * touch a user's budget are serialised per user entity across console instances: see
 * "serialising alterations" below. The page and the API's dryRun preview a sealed plan
 * (quota-plans.ts); its apply passes the plan's basis as `expectedBasis`, compared with the
 * fresh read inside the lock (QUOTA_PLAN_STALE_MESSAGE when it differs, nothing sent).
 */
import "server-only";
import { describeClientQuotas, validateClientQuotas, type KafkaErrorInfo } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { kafkaErrorCode, toErrorResult } from "@/lib/kafka/error-result";
import {
  DEFAULT_LOCK_WAIT_MS,
  LockBusyError,
  LockUnavailableError,
  withConsoleLocks,
  type LockGuard,
  type LockRequest,
} from "@/lib/db/locks";
import { formatEntity, sameEntity, type ConfiguredQuota, type QuotaEntity, type QuotaKey } from "@/lib/policy";
import type {
  AppliedQuotaQuery,
  AppliedQuotaView,
  QuotaAlterationInput,
  QuotaAlterResult,
  QuotaPreview,
  QuotasOverview,
} from "@/lib/schemas/quotas";
import { appliedView, buildOverview, previewAlteration, toConfigured, type QuotaEntry } from "./quota-view";
import { auditedMutation, failureOutcome, type MutationOutcome } from "./audited-mutation";
import { clusterIdFor } from "./kafka-cluster-id";
import { quotaBasis } from "./quota-impact";

type Failure = Extract<ActionResult<never>, { ok: false }>;

async function readQuotas(viewer: Viewer): Promise<ActionResult<QuotaEntry[]>> {
  try {
    return { ok: true, data: await describeClientQuotas(viewer.credential, { components: [], strict: false }) };
  } catch (error) {
    return toErrorResult(error, "describe the client quotas");
  }
}

export async function listQuotas(viewer: Viewer): Promise<ActionResult<QuotasOverview>> {
  const entries = await readQuotas(viewer);
  return entries.ok ? { ok: true, data: buildOverview(entries.data) } : entries;
}

export async function explainAppliedQuota(
  viewer: Viewer,
  query: AppliedQuotaQuery,
): Promise<ActionResult<AppliedQuotaView>> {
  const entries = await readQuotas(viewer);
  return entries.ok ? { ok: true, data: appliedView(toConfigured(entries.data), query) } : entries;
}

const kafkaFailure = (error: KafkaErrorInfo): Failure => ({
  ok: false,
  code: kafkaErrorCode(error.code),
  message: error.message,
});

/**
 * The preview: the policy core's copy of Kafka's validation and the KIP-55 rule, then (when
 * both pass) Kafka's own validateOnly as the viewer, so a value Kafka refuses, or a missing
 * ALTER_CONFIGS, shows before anything is applied.
 */
async function previewWith(
  viewer: Viewer,
  configured: ConfiguredQuota[],
  input: QuotaAlterationInput,
): Promise<ActionResult<QuotaPreview>> {
  const preview = previewAlteration(configured, input);
  if (!preview.kafka.ok) return { ok: true, data: preview };
  let results;
  try {
    const ops = [{ key: input.key, value: input.value }];
    results = await validateClientQuotas(viewer.credential, [{ entity: input.entity, ops }]);
  } catch (error) {
    return toErrorResult(error, "validate a client quota change");
  }
  const error = results[0]?.error ?? null;
  if (error === null) return { ok: true, data: preview };
  if (kafkaErrorCode(error.code) !== "VALIDATION") return kafkaFailure(error);
  const message = error.kafkaMessage ?? error.message;
  return {
    ok: true,
    data: { ...preview, kafka: { ok: false, message }, allowed: false, summary: `Kafka would refuse this: ${message}` },
  };
}

export async function previewQuotaAlteration(
  viewer: Viewer,
  input: QuotaAlterationInput,
): Promise<ActionResult<QuotaPreview>> {
  const entries = await readQuotas(viewer);
  if (!entries.ok) return entries;
  return previewWith(viewer, toConfigured(entries.data), input);
}

/** Every configured quota, read from Kafka now as the viewer (a quota plan's basis is computed from it). */
export async function readConfiguredQuotas(viewer: Viewer): Promise<ActionResult<ConfiguredQuota[]>> {
  const entries = await readQuotas(viewer);
  return entries.ok ? { ok: true, data: toConfigured(entries.data) } : entries;
}

/**
 * A quota plan's preview (lib/services/quota-plans.ts): the checks of previewQuotaAlteration
 * and the quotas they were made against, from one read.
 */
export async function previewForPlan(
  viewer: Viewer,
  input: Pick<QuotaAlterationInput, "entity" | "key" | "value">,
): Promise<ActionResult<{ preview: QuotaPreview; configured: ConfiguredQuota[] }>> {
  const configured = await readConfiguredQuotas(viewer);
  if (!configured.ok) return configured;
  const preview = await previewWith(viewer, configured.data, { ...input, dryRun: true });
  return preview.ok ? { ok: true, data: { preview: preview.data, configured: configured.data } } : preview;
}

/** Apply's answer when a quota plan's basis changed between its preview and its apply. */
export const QUOTA_PLAN_STALE_MESSAGE = "The quotas changed since this preview; preview again.";

function valuesOf(configured: readonly ConfiguredQuota[], entity: QuotaEntity): Partial<Record<QuotaKey, number>> {
  const out: Partial<Record<QuotaKey, number>> = {};
  for (const q of configured) if (sameEntity(q.entity, entity)) out[q.key] = q.value;
  return out;
}

export type QuotaAlterOutcome = ActionResult<QuotaAlterResult> & { preview?: QuotaPreview };

// ---- serialising alterations: the KIP-55 budget under concurrency -------------------------
//
// The budget check is a read-check-write: read every quota, check the user's sum against its
// total, alter. Two alterations that each fit alone can together break it (total 1000, two
// sub-quotas of 400 checked against the same 400 already used), and Kafka, which does not
// know the rule, applies both. So every alteration that can change a budget runs, on every
// console instance sharing the database, one at a time per user entity:
//
//   1. the intent is recorded (auditedMutation), outside the lock;
//   2. the locks of quotaLockPlan are taken: PostgreSQL advisory locks (lib/db/locks.ts) on a
//      dedicated session, behind an in-process queue, keyed on Kafka's cluster id (so
//      instances configured with different bootstrap lists for one cluster still meet) and
//      the user entity;
//   3. inside them the quotas are read from Kafka again, Kafka's validation and the KIP-55
//      budget are checked against that fresh read, and the alteration is sent; Kafka's
//      answer comes once the controller committed it, and alterClientQuotas waits (up to
//      SETTLE_TIMEOUT_MS) until a describe shows it, so the next holder reads it;
//   4. the locks are released, then the outcome is recorded.
//
// Lock keys (for cluster C):
//   - a change to {user:U} or {user:U, client-id:*}: shared ["quota-budget", C] and
//     exclusive ["quota-budget", C, U]. Changes of different users run side by side across
//     instances; the same user's wait for each other.
//   - {user:<default>, client-id:*}: the same with U = <default> (its sub-quotas count
//     against the <default> user's own total).
//   - {user:<default>} (the default total): exclusive ["quota-budget", C]. It is the total
//     of every user without one of its own, so it waits for every budget change in the
//     cluster and they wait for it.
//   - entities without a user ({client-id}, {ip}) are not part of any budget: no lock.
// The shared lock is always taken before the user's, so two holders never wait crosswise.
// Within one process all budget changes of a cluster queue on one in-process lock (on the
// embedded database that queue is what excludes, lib/db/locks.ts). A lock not granted within
// QUOTA_LOCK_WAIT_MS answers CONFLICT ("try again"); nothing was sent. If the lock's database
// connection dies while held, the database has released the lock: the alteration is not
// sent (LockGuard.assertHeld right before it).

export const QUOTA_LOCK_WAIT_MS = DEFAULT_LOCK_WAIT_MS;

const lockKey = (clusterId: string, user?: string | null) =>
  JSON.stringify(user === undefined ? ["quota-budget", clusterId] : ["quota-budget", clusterId, user]);

/** The advisory locks an alteration of `entity` takes, in the order it takes them (see above). */
export function quotaLockPlan(clusterId: string, entity: QuotaEntity): LockRequest[] {
  if (entity.ip !== undefined || entity.user === undefined) return [];
  if (entity.user === null && entity["client-id"] === undefined)
    return [{ key: lockKey(clusterId), mode: "exclusive" }];
  return [
    { key: lockKey(clusterId), mode: "shared" },
    { key: lockKey(clusterId, entity.user), mode: "exclusive" },
  ];
}

/** Runs `fn` holding the budget locks of `entity` (none needed: runs at once, with a no-op guard). */
async function withQuotaBudgetLock<T>(
  viewer: Viewer,
  entity: QuotaEntity,
  fn: (guard: LockGuard) => Promise<T>,
): Promise<T> {
  if (entity.ip !== undefined || entity.user === undefined) return fn({ assertHeld: async () => {} });
  const clusterId = await clusterIdFor(viewer);
  return withConsoleLocks(lockKey(clusterId), quotaLockPlan(clusterId, entity), fn, QUOTA_LOCK_WAIT_MS);
}

function lockFailure(error: LockBusyError | LockUnavailableError, target: string): Failure {
  if (error instanceof LockBusyError) {
    return {
      ok: false,
      code: "CONFLICT",
      message:
        `Nothing was changed: other quota changes for ${target} were still in progress ` +
        `after ${QUOTA_LOCK_WAIT_MS / 1000} s. Try again.`,
    };
  }
  console.error(`[console] quota lock for ${target}: ${error.message}`);
  return {
    ok: false,
    code: "INTERNAL",
    message:
      "Nothing was changed: the console could not take its quota lock in its database (database unavailable). " +
      "Try again when the database is back.",
  };
}

/** Options of an apply: the sealed plan it carries out, if any (recorded on the audit event). */
export interface QuotaApplyOptions {
  planId?: string | null;
  /**
   * The plan's basis (quotaBasis of the quotas it was previewed on). Checked inside the
   * lock against the fresh read, right before the alteration is sent: when it differs,
   * nothing is sent and the answer is CONFLICT (QUOTA_PLAN_STALE_MESSAGE).
   */
  expectedBasis?: string | null;
}

/**
 * Apply one alteration as the viewer: re-read, re-check (Kafka's rules and KIP-55), alter,
 * audit. With `dryRun` only the preview is returned (nothing is written, nothing audited,
 * no lock).
 */
export async function alterQuota(
  viewer: Viewer,
  input: QuotaAlterationInput,
  options: QuotaApplyOptions = {},
): Promise<QuotaAlterOutcome> {
  if (input.dryRun) {
    const entries = await readQuotas(viewer);
    if (!entries.ok) return entries;
    const checked = await previewWith(viewer, toConfigured(entries.data), input);
    if (!checked.ok) return checked;
    return { ok: true, data: { applied: false, preview: checked.data, message: checked.data.summary } };
  }
  return applyQuotaAlteration(viewer, { entity: input.entity, key: input.key, value: input.value }, options);
}

/**
 * The apply path: exactly this entity, key and value (null removes the key), serialised per
 * user entity (see above), checked inside the lock against a fresh read, audited through
 * auditedMutation. A failure carries the preview it was refused on, when there was one.
 */
export async function applyQuotaAlteration(
  viewer: Viewer,
  input: Pick<QuotaAlterationInput, "entity" | "key" | "value">,
  options: QuotaApplyOptions = {},
): Promise<QuotaAlterOutcome> {
  const target = formatEntity(input.entity);
  const request = { entity: input.entity, key: input.key, value: input.value };
  let preview: QuotaPreview | undefined;

  const result = await auditedMutation<QuotaAlterResult>(
    { viewer, action: "quota.alter", category: "quota", target, request, planId: options.planId ?? null },
    async (kafka) => {
      let locked: MutationOutcome<QuotaAlterResult>;
      try {
        locked = await withQuotaBudgetLock(viewer, input.entity, async (guard) => {
          const entries = await readQuotas(viewer);
          if (!entries.ok) return { result: entries, audit: failureOutcome(entries) };
          const configured = toConfigured(entries.data);
          if (options.expectedBasis != null && quotaBasis(configured, request) !== options.expectedBasis) {
            const failure: Failure = { ok: false, code: "CONFLICT", message: QUOTA_PLAN_STALE_MESSAGE };
            return {
              result: failure,
              audit: { ...failureOutcome(failure), before: valuesOf(configured, input.entity) },
            };
          }
          const checked = await previewWith(viewer, configured, { ...input, dryRun: false });
          if (!checked.ok) return { result: checked, audit: failureOutcome(checked) };
          preview = checked.data;
          const before = valuesOf(configured, input.entity);
          if (!preview.kafka.ok) {
            return {
              result: { ok: false, code: "VALIDATION", message: preview.summary },
              audit: { outcome: "failure", before, kafkaError: "INVALID_REQUEST", message: preview.summary },
            };
          }
          if (!preview.budget.ok) {
            return {
              result: { ok: false, code: "CONFLICT", message: preview.summary },
              audit: { outcome: "failure", before, message: preview.summary },
            };
          }

          await guard.assertHeld();
          const ops = [{ key: input.key, value: input.value }];
          const results = await kafka.alterClientQuotas(viewer.credential, [{ entity: input.entity, ops }]);
          const error = results[0]?.error ?? null;
          if (error !== null) {
            const failure = kafkaFailure(error);
            // A lost answer the re-read did not settle: the trail says "unknown", not "failure".
            const outcome = results[0]?.outcomeUnknown ? { outcome: "unknown" as const } : {};
            return {
              result: failure,
              audit: { ...failureOutcome(failure, error.code), ...outcome, before, message: error.message },
            };
          }
          const after: Partial<Record<QuotaKey, number>> = { ...before };
          if (input.value === null) delete after[input.key];
          else after[input.key] = input.value;
          const message =
            (input.value === null
              ? `Removed ${input.key} from ${target}.`
              : `Set ${input.key} of ${target} to ${input.value}.`) +
            (preview.budget.repairs.length > 0
              ? " Allowed as a KIP-55 repair: the user is still over budget, but less than before."
              : "");
          return {
            result: { ok: true, data: { applied: true, preview, message } },
            audit: { outcome: "success", before, after, message },
          };
        });
      } catch (error) {
        if (!(error instanceof LockBusyError || error instanceof LockUnavailableError)) throw error;
        const failure = lockFailure(error, target);
        locked = { result: failure, audit: failureOutcome(failure) };
      }
      return locked;
    },
  );
  return !result.ok && preview ? { ...result, preview } : result;
}
