"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf, type ActionResult, type ErrorCode } from "@/lib/schemas/result";
import { aclImportFormSchema } from "@/lib/schemas/acl-io";
import type { AclImportPlanView, AclPlanApplyResult } from "@/lib/schemas/plans";
import { decodeStrictUtf8, findUnsafeFormData, hasErrors, INVALID_UTF8_MESSAGE, InvalidUtf8Error } from "@/lib/schemas/safe-text";
import { applyPlan, createPlan } from "@/lib/services/plans";

type Failure = { code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> };

/**
 * The preview step's answer. `values` are the fields to show again; an uploaded file's
 * text comes back as `content` (a file input cannot be refilled), so a re-preview reads
 * the same file. `seq` counts answers.
 */
export type ImportPreviewState = { seq: number; values: Record<string, string>; plan: AclImportPlanView | null; error: Failure | null } | null;

/** The apply step's answer, for one plan. */
export type ImportApplyState = { planId: string; result: ActionResult<AclPlanApplyResult> } | null;

const failure = (r: Extract<ActionResult<unknown>, { ok: false }>): Failure => ({ code: r.code, message: r.message, ...(r.fieldErrors ? { fieldErrors: r.fieldErrors } : {}) });

/** The file (uploaded, else pasted), the mode and the scope -> a sealed plan of kind acl.import. */
export async function previewImportAction(prev: ImportPreviewState, formData: FormData): Promise<ImportPreviewState> {
  const viewer = await requireViewer();
  const seq = (prev?.seq ?? 0) + 1;
  const values: Record<string, string> = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$")) values[k] = v;

  const file = formData.get("file");
  if (file instanceof File && file.size > 0) {
    try {
      values.content = decodeStrictUtf8(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof InvalidUtf8Error)) throw error;
      return { seq, values, plan: null, error: { code: "VALIDATION", message: `The file ${file.name} is not UTF-8 text.`, fieldErrors: { file: [INVALID_UTF8_MESSAGE] } } };
    }
    values.fileName = file.name;
  }
  const unsafe = findUnsafeFormData(Object.entries(values));
  if (hasErrors(unsafe)) return { seq, values, plan: null, error: { code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: unsafe } };
  const parsed = aclImportFormSchema.safeParse(values);
  if (!parsed.success) return { seq, values, plan: null, error: { code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error.issues) } };
  if (parsed.data.content.trim() === "") {
    return { seq, values, plan: null, error: { code: "VALIDATION", message: "Choose a file or paste its content.", fieldErrors: { content: ["Choose a file or paste its content."] } } };
  }
  const plan = await createPlan(viewer, "acl.import", parsed.data);
  if (!plan.ok) {
    const fieldErrors = plan.fieldErrors?.scope ? { ...plan.fieldErrors, resourcePrefix: plan.fieldErrors.scope } : plan.fieldErrors;
    return { seq, values, plan: null, error: failure({ ...plan, ...(fieldErrors ? { fieldErrors } : {}) }) };
  }
  return { seq, values, plan: plan.data as unknown as AclImportPlanView, error: null };
}

/** Apply: the plan id only (the preview form's fields are not sent). */
export async function applyImportAction(_prev: ImportApplyState, formData: FormData): Promise<ImportApplyState> {
  const viewer = await requireViewer();
  const planId = String(formData.get("planId") ?? "");
  const result = await applyPlan<Omit<AclPlanApplyResult, "plan">>(viewer, planId);
  revalidatePath("/acls");
  return { planId, result };
}
