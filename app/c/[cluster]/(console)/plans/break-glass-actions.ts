"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm, type FormResult } from "@/lib/actions/form";
import type { AclPlanApplyResult } from "@/lib/schemas/plans";
import type { BreakGlassReviewResult } from "@/lib/schemas/break-glass";
import type { ActionResult } from "@/lib/schemas/result";

export type BreakGlassState = FormResult<AclPlanApplyResult> | null;

/**
 * A super user's apply of the plan the form carries without approval, on a cluster that needs
 * approvals (change plan.break-glass): the reason is required, recorded and flagged on the dashboard.
 */
export async function breakGlassAction(_prev: BreakGlassState, formData: FormData): Promise<BreakGlassState> {
  const planId = formData.get("planId");
  if (typeof planId !== "string" || planId === "")
    return { ok: false, code: "VALIDATION", message: "No plan to apply.", values: {} };
  const { result, values } = await changeFromForm("plan.break-glass", formData, {
    omit: ["planId"],
    params: { id: planId },
  });
  revalidatePath(`/plans/${planId}`);
  revalidatePath("/acls");
  return { ...(result as ActionResult<AclPlanApplyResult>), values };
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
  const planId = formData.get("planId");
  if (typeof planId !== "string" || planId === "")
    return { ok: false, code: "VALIDATION", message: "No break-glass to review.", values: {} };
  const { result, values } = await changeFromForm("plan.break-glass-review", formData, {
    omit: ["planId"],
    params: { id: planId },
  });
  revalidatePath(`/plans/${planId}/break-glass`);
  revalidatePath("/");
  return { ...result, values: result.ok ? {} : values };
}
