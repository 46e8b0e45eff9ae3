"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf, type ActionResult } from "@/lib/actions/result";
import { aclBindingFormSchema, aclBindingsSchema, aclTemplateFormSchema, type AclApplyResult, type AclPreview } from "@/lib/schemas/acls";
import { createAclsAudited, deleteAclsAudited, previewAcls } from "@/lib/services/acls";
import { expandTemplate } from "@/lib/services/acls-templates";
import { findUnsafeFormData, findUnsafeText, hasErrors } from "@/lib/schemas/safe-text";

/** The last step's answer, and the form values to show again. */
export type AclChangeState =
  | { step: "preview"; result: ActionResult<AclPreview>; values: Record<string, string> }
  | { step: "apply"; result: ActionResult<AclApplyResult>; values: Record<string, string> }
  | null;

const CHECK_FIELDS = "Check the highlighted fields.";

function formValues(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$") && k !== "bindings" && k !== "acl") out[k] = v;
  return out;
}

/** NUL, control characters or lone surrogates in any field: refused before anything else happens. */
function unsafeFields(formData: FormData): ActionResult<never> | null {
  const fieldErrors = findUnsafeFormData(formData.entries());
  return hasErrors(fieldErrors) ? { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors } : null;
}

/**
 * The bindings a previewed change carries in its hidden field. JSON escapes can spell what
 * the form field itself cannot carry (a lone surrogate): checked again once parsed.
 */
function previewedBindings(formData: FormData) {
  let raw: unknown;
  try {
    raw = JSON.parse(String(formData.get("bindings") ?? ""));
  } catch {
    raw = null;
  }
  const unsafe = findUnsafeText(raw);
  if (hasErrors(unsafe)) return { success: false as const, fieldErrors: { bindings: [...new Set(Object.values(unsafe).flat())] } };
  const parsed = aclBindingsSchema.safeParse(raw);
  return parsed.success ? parsed : { success: false as const, fieldErrors: undefined };
}

/** Create: "preview" expands the raw binding or the template and previews it; "apply" creates the previewed bindings. */
export async function createAclAction(_prev: AclChangeState, formData: FormData): Promise<AclChangeState> {
  const viewer = await requireViewer();
  const values = formValues(formData);
  const unsafe = unsafeFields(formData);
  if (unsafe) return { step: formData.get("intent") === "apply" ? "apply" : "preview", values, result: unsafe };
  if (formData.get("intent") === "apply") {
    const parsed = previewedBindings(formData);
    if (!parsed.success) {
      const message = parsed.fieldErrors ? CHECK_FIELDS : "Preview the change again before applying it.";
      return { step: "apply", values, result: { ok: false, code: "VALIDATION", message, ...(parsed.fieldErrors ? { fieldErrors: parsed.fieldErrors } : {}) } };
    }
    const result = await createAclsAudited(viewer, parsed.data);
    revalidatePath("/acls");
    return { step: "apply", values, result };
  }
  const template = values.mode !== undefined && values.mode !== "raw";
  const parsed = template ? aclTemplateFormSchema.safeParse({ ...values, template: values.mode }) : aclBindingFormSchema.safeParse(values);
  if (!parsed.success) {
    return { step: "preview", values, result: { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: fieldErrorsOf(parsed.error.issues) } };
  }
  const bindings = "template" in parsed.data ? expandTemplate(parsed.data) : [parsed.data];
  return { step: "preview", values, result: await previewAcls(viewer, "create", bindings) };
}

/** Delete: "preview" shows what deleting the selected rows does; "delete" deletes the previewed bindings. */
export async function deleteAclAction(_prev: AclChangeState, formData: FormData): Promise<AclChangeState> {
  const viewer = await requireViewer();
  const unsafe = unsafeFields(formData);
  if (unsafe) return { step: formData.get("intent") === "delete" ? "apply" : "preview", values: {}, result: unsafe };
  if (formData.get("intent") === "delete") {
    const parsed = previewedBindings(formData);
    if (!parsed.success) {
      const message = parsed.fieldErrors ? CHECK_FIELDS : "Preview the deletion again before deleting.";
      return { step: "apply", values: {}, result: { ok: false, code: "VALIDATION", message, ...(parsed.fieldErrors ? { fieldErrors: parsed.fieldErrors } : {}) } };
    }
    const result = await deleteAclsAudited(viewer, parsed.data);
    revalidatePath("/acls");
    return { step: "apply", values: {}, result };
  }
  const selected: unknown[] = [];
  for (const v of formData.getAll("acl")) {
    try {
      selected.push(JSON.parse(String(v)));
    } catch {
      selected.push(null);
    }
  }
  const parsed = aclBindingsSchema.safeParse(selected);
  if (!parsed.success) {
    const message = selected.length === 0 ? "Select the ACLs to delete first." : "The selection is not a list of ACL bindings; reload the page.";
    return { step: "preview", values: {}, result: { ok: false, code: "VALIDATION", message } };
  }
  return { step: "preview", values: {}, result: await previewAcls(viewer, "delete", parsed.data) };
}
