"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm, type FormResult } from "@/lib/actions/form";
import type { ChangeId } from "@/lib/schemas/changes";
import type { ActionResult } from "@/lib/schemas/result";
import type { AclPlanApplyResult } from "@/lib/schemas/plans";
import type { BreakGlassReviewResult } from "@/lib/schemas/break-glass";

export type BreakGlassState = FormResult<AclPlanApplyResult> | null;

/**
 * A super user's apply of the plan the form carries without approval, on a cluster that needs
 * approvals (change plan.break-glass): the reason is required, recorded and flagged on the dashboard.
 */
export async function breakGlassAction(_prev: BreakGlassState, formData: FormData): Promise<BreakGlassState> {
  return changeOnPlan<AclPlanApplyResult>("plan.break-glass", formData, "No plan to apply.", ["/plans/{id}", "/acls"]);
}

export type BreakGlassReviewState = FormResult<BreakGlassReviewResult> | null;

/**
 * Someone else's after-the-fact review of a break-glass apply, with a comment (change
 * plan.break-glass-review): the dashboard stops flagging it.
 */
export async function reviewBreakGlassAction(
  _prev: BreakGlassReviewState,
  formData: FormData,
): Promise<BreakGlassReviewState> {
  return changeOnPlan<BreakGlassReviewResult>("plan.break-glass-review", formData, "No break-glass to review.", [
    "/plans/{id}/break-glass",
    "/",
  ]);
}

/** The change `id` (answering a T) on the plan the form names (its hidden `planId`); then its pages are fresh. */
async function changeOnPlan<T>(
  id: ChangeId,
  formData: FormData,
  noPlan: string,
  pages: string[],
): Promise<FormResult<T>> {
  const planId = formData.get("planId");
  if (typeof planId !== "string" || planId === "")
    return { ok: false, code: "VALIDATION", message: noPlan, values: {} };
  const { result, values } = await changeFromForm(id, formData, { omit: ["planId"], params: { id: planId } });
  for (const page of pages) revalidatePath(page.replace("{id}", planId));
  return { ...(result as ActionResult<T>), values: result.ok ? {} : values };
}
