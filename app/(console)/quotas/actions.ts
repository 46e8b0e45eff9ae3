"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf } from "@/lib/actions/result";
import { quotaAlterFormSchema } from "@/lib/schemas/quotas";
import { findUnsafeFormData, hasErrors } from "@/lib/schemas/safe-text";
import { alterQuota, type QuotaAlterOutcome } from "@/lib/services/quotas";

/** The edit form's state: the outcome (preview or apply) and the fields as submitted, to refill the form. */
export type QuotaEditState = (QuotaAlterOutcome & { values: Record<string, string> }) | null;

export async function quotaAlterAction(_prev: QuotaEditState, formData: FormData): Promise<QuotaEditState> {
  const viewer = await requireViewer();
  const values: Record<string, string> = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$")) values[k] = v;
  // NUL, control characters or lone surrogates: refused before Kafka or the audit trail sees them.
  const unsafe = findUnsafeFormData(formData.entries());
  if (hasErrors(unsafe)) return { ok: false, code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: unsafe, values };
  const parsed = quotaAlterFormSchema.safeParse(values);
  if (!parsed.success) {
    return { ok: false, code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error.issues), values };
  }
  const outcome = await alterQuota(viewer, parsed.data);
  if (outcome.ok && outcome.data.applied) revalidatePath("/quotas");
  return { ...outcome, values };
}
