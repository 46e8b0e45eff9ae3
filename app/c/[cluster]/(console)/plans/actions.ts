"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import type { AclPlanApplyResult } from "@/lib/schemas/plans";

export type ApplyPlanState = { result: ActionResult<AclPlanApplyResult> } | null;

/** Apply the plan whose id the form carries, and nothing else (change plan.apply). */
export async function applyPlanAction(_prev: ApplyPlanState, formData: FormData): Promise<ApplyPlanState> {
  const planId = formData.get("planId");
  if (typeof planId !== "string" || planId === "")
    return { result: { ok: false, code: "VALIDATION", message: "No plan to apply." } };
  const { result } = await changeFromForm("plan.apply", formData, { raw: () => undefined, params: { id: planId } });
  revalidatePath(`/plans/${planId}`);
  revalidatePath("/acls");
  return { result: result as ActionResult<AclPlanApplyResult> };
}
