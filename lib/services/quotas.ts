/**
 * Client quotas as the signed-in viewer: the configured entities and the KIP-55 budget, which
 * quota Kafka applies to a connection, and one alteration (preview, then apply). Used by the
 * Quotas page and its server action and by /api/v1/quotas*.
 *
 * Everything starts from DescribeClientQuotas with no components, non-strict (every entity),
 * read as the viewer: Kafka needs DESCRIBE_CONFIGS on CLUSTER and its refusal comes back as a
 * readable failure. An alteration is checked twice before it is sent (Kafka's own validation,
 * then the console's KIP-55 rule), re-checked against a fresh read when applied, sent as the
 * viewer (ALTER_CONFIGS on CLUSTER), and every attempt is written to the audit trail.
 */
import "server-only";
import { alterClientQuotas, describeClientQuotas, type KafkaErrorInfo } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/actions/result";
import { kafkaErrorCode, toErrorResult } from "@/lib/actions/errors";
import { recordAudit, type AuditOutcome } from "@/lib/db/audit";
import { formatEntity, sameEntity, type ConfiguredQuota, type QuotaEntity, type QuotaKey } from "@/lib/policy";
import type { AppliedQuotaQuery, AppliedQuotaView, QuotaAlterationInput, QuotaAlterResult, QuotaPreview, QuotasOverview } from "@/lib/schemas/quotas";
import { appliedView, buildOverview, previewAlteration, toConfigured, type QuotaEntry } from "./quota-view";

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

export async function explainAppliedQuota(viewer: Viewer, query: AppliedQuotaQuery): Promise<ActionResult<AppliedQuotaView>> {
  const entries = await readQuotas(viewer);
  return entries.ok ? { ok: true, data: appliedView(toConfigured(entries.data), query) } : entries;
}

const kafkaFailure = (error: KafkaErrorInfo): Failure => ({ ok: false, code: kafkaErrorCode(error.code), message: error.message });

/**
 * The preview: the policy core's copy of Kafka's validation and the KIP-55 rule, then (when
 * both pass) Kafka's own validateOnly as the viewer, so a value Kafka refuses, or a missing
 * ALTER_CONFIGS, shows before anything is applied.
 */
async function previewWith(viewer: Viewer, configured: ConfiguredQuota[], input: QuotaAlterationInput): Promise<ActionResult<QuotaPreview>> {
  const preview = previewAlteration(configured, input);
  if (!preview.kafka.ok) return { ok: true, data: preview };
  let results;
  try {
    results = await alterClientQuotas(viewer.credential, [{ entity: input.entity, ops: [{ key: input.key, value: input.value }] }], true);
  } catch (error) {
    return toErrorResult(error, "validate a client quota change");
  }
  const error = results[0]?.error ?? null;
  if (error === null) return { ok: true, data: preview };
  if (kafkaErrorCode(error.code) !== "VALIDATION") return kafkaFailure(error);
  const message = error.kafkaMessage ?? error.message;
  return { ok: true, data: { ...preview, kafka: { ok: false, message }, allowed: false, summary: `Kafka would refuse this: ${message}` } };
}

export async function previewQuotaAlteration(viewer: Viewer, input: QuotaAlterationInput): Promise<ActionResult<QuotaPreview>> {
  const entries = await readQuotas(viewer);
  if (!entries.ok) return entries;
  return previewWith(viewer, toConfigured(entries.data), input);
}

function valuesOf(configured: readonly ConfiguredQuota[], entity: QuotaEntity): Partial<Record<QuotaKey, number>> {
  const out: Partial<Record<QuotaKey, number>> = {};
  for (const q of configured) if (sameEntity(q.entity, entity)) out[q.key] = q.value;
  return out;
}

export type QuotaAlterOutcome = ActionResult<QuotaAlterResult> & { preview?: QuotaPreview };

/**
 * Apply one alteration as the viewer: re-read, re-check (Kafka's rules and KIP-55), alter,
 * audit. With `dryRun` only the preview is returned (nothing is written, nothing audited).
 */
export async function alterQuota(viewer: Viewer, input: QuotaAlterationInput): Promise<QuotaAlterOutcome> {
  const target = formatEntity(input.entity);
  const request = { entity: input.entity, key: input.key, value: input.value };
  const audit = (outcome: AuditOutcome, extra: { before?: unknown; after?: unknown; kafkaError?: string | null; message: string }) =>
    recordAudit({ principal: viewer.principal, action: "quota.alter", target, request, outcome, ...extra });

  const entries = await readQuotas(viewer);
  if (!entries.ok) {
    if (!input.dryRun) await audit(entries.code === "DENIED" ? "denied" : "failure", { message: entries.message });
    return entries;
  }
  const configured = toConfigured(entries.data);
  const checked = await previewWith(viewer, configured, input);
  if (!checked.ok) {
    if (!input.dryRun) await audit(checked.code === "DENIED" ? "denied" : "failure", { message: checked.message });
    return checked;
  }
  const preview = checked.data;
  if (input.dryRun) return { ok: true, data: { applied: false, preview, message: preview.summary } };

  const before = valuesOf(configured, input.entity);
  if (!preview.kafka.ok) {
    await audit("failure", { before, kafkaError: "INVALID_REQUEST", message: preview.summary });
    return { ok: false, code: "VALIDATION", message: preview.summary, preview };
  }
  if (!preview.budget.ok) {
    await audit("failure", { before, message: preview.summary });
    return { ok: false, code: "CONFLICT", message: preview.summary, preview };
  }

  let results;
  try {
    results = await alterClientQuotas(viewer.credential, [{ entity: input.entity, ops: [{ key: input.key, value: input.value }] }]);
  } catch (error) {
    const failure = toErrorResult(error, "alter a client quota");
    await audit(failure.code === "DENIED" ? "denied" : "failure", { before, message: failure.message });
    return { ...failure, preview };
  }
  const error = results[0]?.error ?? null;
  if (error !== null) {
    const failure = kafkaFailure(error);
    await audit(failure.code === "DENIED" ? "denied" : "failure", { before, kafkaError: error.code, message: error.message });
    return { ...failure, preview };
  }
  const after: Partial<Record<QuotaKey, number>> = { ...before };
  if (input.value === null) delete after[input.key];
  else after[input.key] = input.value;
  const message =
    (input.value === null ? `Removed ${input.key} from ${target}.` : `Set ${input.key} of ${target} to ${input.value}.`) +
    (preview.budget.repairs.length > 0 ? " Allowed as a KIP-55 repair: the user is still over budget, but less than before." : "");
  await audit("success", { before, after, message });
  return { ok: true, data: { applied: true, preview, message } };
}
