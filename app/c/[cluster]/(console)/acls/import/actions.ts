"use server";

import { revalidatePath } from "next/cache";
import { CHECK_FIELDS, changeFromForm, formValues } from "@/lib/actions/form";
import type { ActionResult, ErrorCode } from "@/lib/schemas/result";
import { aclImportFormSchema } from "@/lib/schemas/acl-io";
import type { AclImportPlanView, AclPlanApplyResult } from "@/lib/schemas/plans";
import {
  decodeStrictUtf8,
  findUnsafeFormData,
  hasErrors,
  INVALID_UTF8_MESSAGE,
  InvalidUtf8Error,
} from "@/lib/schemas/safe-text";

type Failure = { code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> };

/**
 * The preview step's answer. `values` are the fields to show again; an uploaded file's
 * text comes back as `content` (a file input cannot be refilled), so a re-preview reads
 * the same file. `seq` counts answers.
 */
export type ImportPreviewState = {
  seq: number;
  values: Record<string, string>;
  plan: AclImportPlanView | null;
  error: Failure | null;
} | null;

/** The apply step's answer, for one plan. */
export type ImportApplyState = { planId: string; result: ActionResult<AclPlanApplyResult> } | null;

const failure = (r: Extract<ActionResult<unknown>, { ok: false }>): Failure => ({
  code: r.code,
  message: r.message,
  ...(r.fieldErrors ? { fieldErrors: r.fieldErrors } : {}),
});

/** The import form's fields -> the input of an acl.import plan (change plan.create); an empty file is refused here. */
const importPlanForm = aclImportFormSchema
  .refine((d) => d.content.trim() !== "", { path: ["content"], message: "Choose a file or paste its content." })
  .transform((d) => ({ kind: "acl.import" as const, ...d }));

/** The file (uploaded, else pasted), the mode and the scope -> a sealed plan of kind acl.import. */
export async function previewImportAction(prev: ImportPreviewState, formData: FormData): Promise<ImportPreviewState> {
  const seq = (prev?.seq ?? 0) + 1;
  const values = formValues(formData);
  const file = formData.get("file");
  if (file instanceof File && file.size > 0) {
    try {
      values.content = decodeStrictUtf8(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof InvalidUtf8Error)) throw error;
      const fieldErrors = { file: [INVALID_UTF8_MESSAGE] };
      return {
        seq,
        values,
        plan: null,
        error: { code: "VALIDATION", message: `The file ${file.name} is not UTF-8 text.`, fieldErrors },
      };
    }
    values.fileName = file.name;
  }
  // The file's text is checked like a field (changeFromForm checks the fields, not files).
  const unsafe = findUnsafeFormData(Object.entries(values));
  if (hasErrors(unsafe))
    return { seq, values, plan: null, error: { code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: unsafe } };
  const { result } = await changeFromForm("plan.create", formData, { raw: () => values, schema: importPlanForm });
  if (!result.ok) {
    const fieldErrors = result.fieldErrors?.scope
      ? { ...result.fieldErrors, resourcePrefix: result.fieldErrors.scope }
      : result.fieldErrors;
    return { seq, values, plan: null, error: failure({ ...result, ...(fieldErrors ? { fieldErrors } : {}) }) };
  }
  return { seq, values, plan: result.data as unknown as AclImportPlanView, error: null };
}

/** Apply (change plan.apply): the plan id only (the preview form's fields are not sent). */
export async function applyImportAction(_prev: ImportApplyState, formData: FormData): Promise<ImportApplyState> {
  const planId = String(formData.get("planId") ?? "");
  const { result } = await changeFromForm("plan.apply", formData, { raw: () => undefined, params: { id: planId } });
  revalidatePath("/acls");
  return { planId, result: result as ActionResult<AclPlanApplyResult> };
}
