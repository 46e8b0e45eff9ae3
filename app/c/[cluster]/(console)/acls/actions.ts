"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf, type ActionResult } from "@/lib/schemas/result";
import { aclBindingFormSchema, aclBindingsSchema, aclTemplateFormSchema } from "@/lib/schemas/acls";
import type { AclPlanApplyResult, AclPlanView } from "@/lib/schemas/plans";
import { applyPlan, createPlan } from "@/lib/services/plans";
import { expandTemplate } from "@/lib/services/acls-templates";
import { findUnsafeFormData, hasErrors } from "@/lib/schemas/safe-text";

/**
 * The last step's answer and the form values to show again. Every step answers with the
 * values it was submitted with (the Apply button submits the same form), and `seq`
 * changes on every answer so the form is mounted again with them: no field falls back
 * to its default after a preview, an error or an apply, with or without JavaScript.
 */
export type AclChangeState =
  | { seq: number; step: "preview"; result: ActionResult<AclPlanView>; values: Record<string, string>; selected: string[] }
  | { seq: number; step: "apply"; result: ActionResult<AclPlanApplyResult>; values: Record<string, string>; selected: string[] }
  | null;

const CHECK_FIELDS = "Check the highlighted fields.";

/** The fields of the form as submitted (not the buttons, the plan id or the row selection). */
function formValues(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$") && k !== "intent" && k !== "planId" && k !== "acl" && k !== "only") out[k] = v;
  return out;
}

/** NUL, control characters or lone surrogates in any field: refused before anything else happens. */
function unsafeFields(formData: FormData): ActionResult<never> | null {
  const fieldErrors = findUnsafeFormData(formData.entries());
  return hasErrors(fieldErrors) ? { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors } : null;
}

/** Apply: only the plan id counts; the form's other fields are never read into the change. */
async function applyStep(formData: FormData, again: string): Promise<ActionResult<AclPlanApplyResult>> {
  const viewer = await requireViewer();
  const planId = formData.get("planId");
  if (typeof planId !== "string" || planId === "") return { ok: false, code: "VALIDATION", message: again };
  const result = await applyPlan<Omit<AclPlanApplyResult, "plan">>(viewer, planId);
  revalidatePath("/acls");
  return result;
}

/** Create: "preview" expands the raw binding or the template into a sealed plan; "apply" applies that plan by its id. */
export async function createAclAction(prev: AclChangeState, formData: FormData): Promise<AclChangeState> {
  const viewer = await requireViewer();
  const seq = (prev?.seq ?? 0) + 1;
  const values = formValues(formData);
  const apply = formData.get("intent") === "apply";
  const unsafe = unsafeFields(formData);
  if (unsafe) return apply ? { seq, step: "apply", values, selected: [], result: unsafe } : { seq, step: "preview", values, selected: [], result: unsafe };
  if (apply) return { seq, step: "apply", values, selected: [], result: await applyStep(formData, "Preview the change before applying it.") };

  const template = values.mode !== undefined && values.mode !== "raw";
  const parsed = template ? aclTemplateFormSchema.safeParse({ ...values, template: values.mode }) : aclBindingFormSchema.safeParse(values);
  if (!parsed.success) {
    return { seq, step: "preview", values, selected: [], result: { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: fieldErrorsOf(parsed.error.issues) } };
  }
  const bindings = "template" in parsed.data ? expandTemplate(parsed.data) : [parsed.data];
  return { seq, step: "preview", values, selected: [], result: (await createPlan(viewer, "acl.create", { bindings })) as ActionResult<AclPlanView> };
}

/** Delete: "preview" makes a plan deleting the selected rows (or the one row whose button was pressed); "delete" applies that plan by its id. */
export async function deleteAclAction(prev: AclChangeState, formData: FormData): Promise<AclChangeState> {
  const viewer = await requireViewer();
  const seq = (prev?.seq ?? 0) + 1;
  // A row's own "Delete…" button previews just that row, whatever else is selected.
  const only = formData.get("only");
  const selectedRaw = typeof only === "string" && only !== "" ? [only] : formData.getAll("acl").map(String);
  const apply = formData.get("intent") === "delete";
  const unsafe = unsafeFields(formData);
  if (unsafe) return apply ? { seq, step: "apply", values: {}, selected: selectedRaw, result: unsafe } : { seq, step: "preview", values: {}, selected: selectedRaw, result: unsafe };
  if (apply) {
    const result = await applyStep(formData, "Preview the deletion before deleting.");
    return { seq, step: "apply", values: {}, selected: result.ok ? [] : selectedRaw, result };
  }

  const selected: unknown[] = [];
  for (const v of selectedRaw) {
    try {
      selected.push(JSON.parse(v));
    } catch {
      selected.push(null);
    }
  }
  const parsed = aclBindingsSchema.safeParse(selected);
  if (!parsed.success) {
    const message = selected.length === 0 ? "Select the ACLs to delete first." : "The selection is not a list of ACL bindings; reload the page.";
    return { seq, step: "preview", values: {}, selected: selectedRaw, result: { ok: false, code: "VALIDATION", message } };
  }
  return { seq, step: "preview", values: {}, selected: selectedRaw, result: (await createPlan(viewer, "acl.delete", { bindings: parsed.data })) as ActionResult<AclPlanView> };
}
