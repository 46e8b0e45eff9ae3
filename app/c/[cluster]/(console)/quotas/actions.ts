"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm } from "@/lib/actions/form";
import type { ActionResult, ErrorCode } from "@/lib/schemas/result";
import { quotaAlterFormSchema, type QuotaAlterResult } from "@/lib/schemas/quotas";
import type { QuotaPlanView } from "@/lib/schemas/plans";
import { getPlanView } from "@/lib/services/plans";
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

const errorOf = (r: Extract<ActionResult<unknown>, { ok: false }>) => ({
  code: r.code,
  message: r.message,
  ...(r.fieldErrors ? { fieldErrors: r.fieldErrors } : {}),
});

/** The fields -> the input of a quota.alter plan (change plan.create). */
const quotaPlanForm = quotaAlterFormSchema.transform(({ entity, key, value }) => ({
  kind: "quota.alter" as const,
  entity,
  key,
  value,
}));

/**
 * Preview (the fields -> a sealed quota.alter plan) or Apply (change plan.apply: the plan id only; the fields are not
 * read).
 */
export async function quotaAlterAction(prev: QuotaEditState, formData: FormData): Promise<QuotaEditState> {
  const seq = (prev?.seq ?? 0) + 1;

  if (formData.get("intent") === "apply") {
    const planId = String(formData.get("planId") ?? "");
    const { viewer, result } = await changeFromForm("plan.apply", formData, {
      raw: () => undefined,
      params: { id: planId },
    });
    const view = await getPlanView<Omit<QuotaPlanView, "changes">>(viewer, planId);
    const plan = view.ok ? (view.data as QuotaPlanView) : (prev?.plan ?? null);
    const values = plan ? editFormValues(plan.entity, plan.key, plan.value) : (prev?.values ?? {});
    if (!result.ok) return { seq, values, plan, applied: null, error: errorOf(result) };
    revalidatePath("/quotas");
    return { seq, values, plan, applied: { message: (result.data as QuotaAlterResult).message }, error: null };
  }

  const { values, result } = await changeFromForm("plan.create", formData, {
    omit: ["intent", "planId"],
    schema: quotaPlanForm,
  });
  if (!result.ok) return { seq, values, plan: null, applied: null, error: errorOf(result) };
  return { seq, values, plan: result.data as QuotaPlanView, applied: null, error: null };
}
