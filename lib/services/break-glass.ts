/**
 * The after-the-fact review of a break-glass apply (#19). A super user may apply their own
 * plan without approval on a four-eyes cluster (requests.ts breakGlassApply: the reason is
 * audited as plan.break-glass before the apply). The dashboard flags it until someone else
 * reviews it, however old it is:
 *
 *   - not the super user who applied it (nor anyone who break-glassed the same plan);
 *   - entitled to make that change: the policy core's answer over the cluster's ACLs, as
 *     for an approval short of the count (change-entitlement.ts; super users are);
 *   - with a comment, stored (break_glass_review) and audited plan.break-glass-review in
 *     one transaction;
 *   - once: two reviewers at once, one review is stored and the other is told who won.
 */
import { utcText } from "@/lib/utc-text";
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import { clusterIdOf } from "@/lib/clusters";
import { listAudit, type AuditEvent } from "@/lib/db/audit";
import { breakGlassReviewOf, saveBreakGlassReview, type StoredBreakGlassReview } from "@/lib/db/break-glass-review";
import type { BreakGlassReviewResult, BreakGlassView } from "@/lib/schemas/break-glass";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { listAuditFor } from "./audit-view";
import { entitledToChange } from "./change-entitlement";

const NOT_FOUND = "There is no break-glass apply of this plan on this cluster that you may see.";
/** A plan's rows are a handful (the break-glass, its ACL or quota rows, the review); enough to show them all. */
const PLAN_ROWS = 200;

function reasonOf(e: AuditEvent): string | null {
  const reason = (e.request as { reason?: unknown } | null)?.reason;
  return typeof reason === "string" ? reason : null;
}

/** The plan kind a break-glass row was for (recorded with it; older rows: from its category). */
function kindOf(e: AuditEvent): string {
  const kind = (e.request as { kind?: unknown } | null)?.kind;
  if (typeof kind === "string") return kind;
  return e.category === "quota" ? "quota.alter" : "acl.change";
}

function reviewView(r: StoredBreakGlassReview) {
  return { reviewer: r.reviewer, at: r.reviewedAt.toISOString(), comment: r.comment };
}

/** Why the viewer may not review it (null: they may), checking their right only when nothing else refuses. */
async function whyNot(
  viewer: Viewer,
  appliers: readonly string[],
  review: StoredBreakGlassReview | null,
  kind: string,
): Promise<{ code: "DENIED" | "CONFLICT"; message: string } | null> {
  if (review !== null)
    return {
      code: "CONFLICT",
      message: `It was reviewed already, by ${review.reviewer} at ${utcText(review.reviewedAt)}: ${review.comment}`,
    };
  if (appliers.includes(viewer.principal))
    return {
      code: "DENIED",
      message: "You applied this plan by break-glass: someone else must review it after the fact.",
    };
  const entitled = await entitledToChange(viewer, kind, "review this break-glass");
  return entitled.ok ? null : { code: "DENIED", message: entitled.message };
}

/** The break-glass apply of a plan as the viewer may see it, its review, and whether they may review it. */
export async function getBreakGlass(viewer: Viewer, planId: string): Promise<ActionResult<BreakGlassView>> {
  const page = await listAuditFor(viewer, { planId, limit: PLAN_ROWS });
  if (!page.ok) return page;
  const rows = page.data.events;
  const glass = rows.filter((e) => e.action === "plan.break-glass");
  const first = glass[glass.length - 1];
  if (first === undefined) return { ok: false, code: "NOT_FOUND", message: NOT_FOUND };
  try {
    const review = await breakGlassReviewOf(planId);
    const why = await whyNot(viewer, [...new Set(glass.map((e) => e.principal))], review, kindOf(first));
    return {
      ok: true,
      data: {
        planId,
        appliedBy: first.principal,
        at: first.at.toISOString(),
        reason: reasonOf(first),
        category: first.category,
        changes: rows
          .filter((e) => e.action !== "plan.break-glass" && e.action !== "plan.break-glass-review")
          .reverse()
          .map((e) => ({ action: e.action, target: e.target, outcome: e.outcome, at: e.at.toISOString() })),
        review: review === null ? null : reviewView(review),
        you: { mayReview: why === null, why: why?.message ?? null },
      },
    };
  } catch (error) {
    return toErrorResult(error, "read the break-glass review");
  }
}

/** Records the viewer's after-the-fact review of the break-glass apply of `planId`, with a comment. */
export async function reviewBreakGlass(
  viewer: Viewer,
  planId: string,
  comment: string,
): Promise<ActionResult<BreakGlassReviewResult>> {
  const text = comment.trim();
  if (text === "")
    return {
      ok: false,
      code: "VALIDATION",
      message: "Say what you checked: a comment is required.",
      fieldErrors: { comment: ["A comment is required"] },
    };
  const clusterId = clusterIdOf(viewer.credential);
  // Every break-glass row of the plan on this cluster, whoever may read them: who applied it decides.
  const glass = (await listAudit({ clusterId, planId, action: "plan.break-glass", limit: 50 })).events;
  const first = glass[glass.length - 1];
  if (first === undefined) return { ok: false, code: "NOT_FOUND", message: NOT_FOUND };
  const appliers = [...new Set(glass.map((e) => e.principal))];
  const kind = kindOf(first);
  const refused = await whyNot(viewer, appliers, await breakGlassReviewOf(planId), kind);
  if (refused !== null) return { ok: false, code: refused.code, message: `${refused.message} Nothing was changed.` };
  const message = `Reviewed after the fact: the break-glass apply of plan ${planId} by ${first.principal}. ${text}`;
  const saved = await saveBreakGlassReview(
    { clusterId, planId, appliedBy: first.principal, reviewer: viewer.principal, comment: text },
    {
      principal: viewer.principal,
      action: "plan.break-glass-review",
      category: first.category,
      target: `plan ${planId}`,
      request: { planId, comment: text },
      outcome: "success",
      message,
      subjects: appliers,
      planId,
      clusterId,
    },
  );
  if (saved === null) {
    const winner = await breakGlassReviewOf(planId);
    return {
      ok: false,
      code: "CONFLICT",
      message:
        `It was reviewed a moment ago${winner ? ` by ${winner.reviewer}: ${winner.comment}` : ""}. ` +
        `Your review was not recorded.`,
    };
  }
  const view = await getBreakGlass(viewer, planId);
  if (!view.ok) return view;
  return { ok: true, data: { breakGlass: view.data, message } };
}
