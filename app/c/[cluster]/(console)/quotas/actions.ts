"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf, type ActionResult, type ErrorCode } from "@/lib/schemas/result";
import { quotaAlterFormSchema, type QuotaAlterResult } from "@/lib/schemas/quotas";
import type { QuotaPlanView } from "@/lib/schemas/plans";
import { findUnsafeFormData, hasErrors } from "@/lib/schemas/safe-text";
import { applyPlan, createPlan, getPlanView, type PlanHeader } from "@/lib/services/plans";
import { editFormValues } from "@/lib/services/quota-view";

/**
 * The edit form's state. `values` are the fields to show: as submitted for a preview, and
 * the plan's own values (what was previewed, hence what Apply sent) after an apply.
 * `plan` is the latest preview, kept through an apply or a refusal. `seq` counts answers.
 */
export type QuotaEditState = {
  seq: number;
  values: Record<string, string>;
  plan: QuotaPlanView | null;
  applied: { message: string } | null;
  error: { code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> } | null;
} | null;

const errorOf = (r: Extract<ActionResult<unknown>, { ok: false }>) => ({ code: r.code, message: r.message, ...(r.fieldErrors ? { fieldErrors: r.fieldErrors } : {}) });

/** Preview (the fields -> a sealed quota.alter plan) or Apply (the plan id only: the fields are not read). */
export async function quotaAlterAction(prev: QuotaEditState, formData: FormData): Promise<QuotaEditState> {
  const viewer = await requireViewer();
  const seq = (prev?.seq ?? 0) + 1;

  if (formData.get("intent") === "apply") {
    const planId = String(formData.get("planId") ?? "");
    const applied = await applyPlan<QuotaAlterResult>(viewer, planId);
    const view = await getPlanView<Omit<QuotaPlanView, "changes">>(viewer, planId);
    const plan = view.ok ? (view.data as QuotaPlanView) : (prev?.plan ?? null);
    const values = plan ? editFormValues(plan.entity, plan.key, plan.value) : (prev?.values ?? {});
    if (!applied.ok) return { seq, values, plan, applied: null, error: errorOf(applied) };
    revalidatePath("/quotas");
    return { seq, values, plan, applied: { message: applied.data.message }, error: null };
  }

  const values: Record<string, string> = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$") && k !== "intent" && k !== "planId") values[k] = v;
  // NUL, control characters or lone surrogates: refused before Kafka or the audit trail sees them.
  const unsafe = findUnsafeFormData(formData.entries());
  if (hasErrors(unsafe)) return { seq, values, plan: null, applied: null, error: { code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: unsafe } };
  const parsed = quotaAlterFormSchema.safeParse(values);
  if (!parsed.success) {
    return { seq, values, plan: null, applied: null, error: { code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error.issues) } };
  }
  const { entity, key, value } = parsed.data;
  const plan = await createPlan<Omit<QuotaPlanView, keyof PlanHeader>>(viewer, "quota.alter", { entity, key, value });
  if (!plan.ok) return { seq, values, plan: null, applied: null, error: errorOf(plan) };
  return { seq, values, plan: plan.data as QuotaPlanView, applied: null, error: null };
}
