/**
 * The sealed plan of a quota edit (kind `quota.alter`), for lib/services/plans.ts: the
 * Quotas page's Preview and POST /api/v1/quotas with dryRun make one, Apply takes only its
 * id (POST /api/v1/plans/{id}/apply, the page's Apply button).
 *
 * - payload: exactly { entity, key, value } — what Apply sends, nothing else.
 * - preview: Kafka's validation (validateOnly as the viewer), the KIP-55 check, every
 *   affected (user, client-id) pair with the quota Kafka applies and the user's budget
 *   before and after (quota-impact.ts), and the kafka-configs.sh command.
 * - basis: quotaBasis of the quotas read for the preview. plans.ts compares it with a
 *   fresh read before executing; execute compares it again INSIDE applyQuotaAlteration's
 *   per-user lock (expectedBasis), right before the alteration is sent, so a change made
 *   in between — by another console instance, kafka-configs.sh or anyone — is a 409
 *   ("The quotas changed since this preview; preview again.") with nothing sent.
 * - a plan Kafka or the KIP-55 rule refuses is kept and shown, but not applicable.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { kafkaConfigOf } from "@/lib/kafka";
import { normalizeEntity } from "@/lib/policy";
import type { QuotaAlterResult, QuotaPlanPreview } from "@/lib/schemas/quotas";
import { quotaCommand } from "./cli-equivalent";
import type { PlanKind } from "./plan-kind";
import { quotaBasis, quotaImpact, type QuotaPlanPayload } from "./quota-impact";
import { QUOTA_PLAN_STALE_MESSAGE, applyQuotaAlteration, previewForPlan, readConfiguredQuotas } from "./quotas";

export const QUOTA_PLAN_KIND = "quota.alter";

export const quotaAlterPlanKind: PlanKind<QuotaPlanPayload, QuotaPlanPayload, QuotaPlanPreview, QuotaAlterResult> = {
  kind: QUOTA_PLAN_KIND,
  area: "quota",

  async prepare(viewer: Viewer, input: QuotaPlanPayload) {
    const payload: QuotaPlanPayload = { entity: normalizeEntity(input.entity), key: input.key, value: input.value };
    const read = await previewForPlan(viewer, payload);
    if (!read.ok) return read;
    const { preview, configured } = read.data;
    const bootstrap = kafkaConfigOf(viewer.credential).bootstrapServers.join(",");
    const view: QuotaPlanPreview = {
      ...preview,
      impact: quotaImpact(configured, payload),
      cli: [quotaCommand(payload.entity, payload.key, payload.value, bootstrap)],
    };
    return {
      ok: true,
      data: {
        payload,
        preview: view,
        basis: quotaBasis(configured, payload),
        notApplicable: preview.allowed ? null : preview.summary,
      },
    } as const;
  },

  async currentBasis(viewer: Viewer, payload: QuotaPlanPayload): Promise<ActionResult<string>> {
    const configured = await readConfiguredQuotas(viewer);
    return configured.ok ? { ok: true, data: quotaBasis(configured.data, payload) } : configured;
  },

  staleMessage: () => QUOTA_PLAN_STALE_MESSAGE,

  async execute(viewer, plan) {
    const { preview: _preview, ...result } = await applyQuotaAlteration(viewer, plan.payload, {
      planId: plan.id,
      expectedBasis: plan.basis,
    });
    return { result, changed: result.ok };
  },
};
