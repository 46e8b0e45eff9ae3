"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import type { ActionResult } from "@/lib/schemas/result";
import type { AclPlanApplyResult } from "@/lib/schemas/plans";
import { applyPlan } from "@/lib/services/plans";

export type ApplyPlanState = { result: ActionResult<AclPlanApplyResult> } | null;

/** Apply the plan whose id the form carries (and nothing else). */
export async function applyPlanAction(_prev: ApplyPlanState, formData: FormData): Promise<ApplyPlanState> {
  const viewer = await requireViewer();
  const planId = formData.get("planId");
  if (typeof planId !== "string" || planId === "") return { result: { ok: false, code: "VALIDATION", message: "No plan to apply." } };
  const result = await applyPlan<Omit<AclPlanApplyResult, "plan">>(viewer, planId);
  revalidatePath(`/plans/${planId}`);
  revalidatePath("/acls");
  return { result };
}
