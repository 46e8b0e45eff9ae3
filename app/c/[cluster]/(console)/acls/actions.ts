"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm, formValues, unsafeFields, type Failure } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import { aclBindingFormSchema, aclBindingsSchema, aclTemplateFormSchema } from "@/lib/schemas/acls";
import type { AclPlanApplyResult, AclPlanView } from "@/lib/schemas/plans";
import { expandTemplate } from "@/lib/services/acls-templates";

/**
 * The last step's answer and the form values to show again. Every step answers with the
 * values it was submitted with (the Apply button submits the same form), and `seq`
 * changes on every answer so the form is mounted again with them: no field falls back
 * to its default after a preview, an error or an apply, with or without JavaScript.
 */
export type AclChangeState =
  | {
      seq: number;
      step: "preview";
      result: ActionResult<AclPlanView>;
      values: Record<string, string>;
      selected: string[];
    }
  | {
      seq: number;
      step: "apply";
      result: ActionResult<AclPlanApplyResult>;
      values: Record<string, string>;
      selected: string[];
    }
  | null;

/** The form's own fields: not the buttons, the plan id or the row selection. */
const NOT_FIELDS = ["intent", "planId", "acl", "only"];

/** Apply (change plan.apply): only the plan id counts; the form's other fields are never read into the change. */
async function applyStep(formData: FormData, again: string): Promise<ActionResult<AclPlanApplyResult>> {
  const planId = formData.get("planId");
  if (typeof planId !== "string" || planId === "") return { ok: false, code: "VALIDATION", message: again };
  const { result } = await changeFromForm("plan.apply", formData, {
    omit: NOT_FIELDS,
    raw: () => undefined,
    params: { id: planId },
  });
  revalidatePath("/acls");
  return result as ActionResult<AclPlanApplyResult>;
}

/** The raw binding or the template form, as the input of an acl.create plan (change plan.create). */
const createPlanForm = (template: boolean) =>
  template
    ? aclTemplateFormSchema.transform((t) => ({ kind: "acl.create" as const, bindings: expandTemplate(t) }))
    : aclBindingFormSchema.transform((b) => ({ kind: "acl.create" as const, bindings: [b] }));

/**
 * Create: "preview" expands the raw binding or the template into a sealed plan; "apply" applies that plan by its id.
 */
export async function createAclAction(prev: AclChangeState, formData: FormData): Promise<AclChangeState> {
  const seq = (prev?.seq ?? 0) + 1;
  const values = formValues(formData, NOT_FIELDS);
  const answer = (step: "preview" | "apply", result: ActionResult<unknown>) =>
    ({ seq, step, values, selected: [], result }) as AclChangeState;
  if (formData.get("intent") === "apply") {
    const unsafe = unsafeFields(formData);
    return answer("apply", unsafe ?? (await applyStep(formData, "Preview the change before applying it.")));
  }
  const template = values.mode !== undefined && values.mode !== "raw";
  const { result } = await changeFromForm("plan.create", formData, {
    omit: NOT_FIELDS,
    raw: (v) => (template ? { ...v, template: v.mode } : v),
    schema: createPlanForm(template),
  });
  return answer("preview", result);
}

/** Each selected row's binding (JSON in the checkbox's value), or null where it is not JSON. */
function selectedBindings(selectedRaw: string[]): unknown[] {
  return selectedRaw.map((v) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return null;
    }
  });
}

/**
 * Delete: "preview" makes a plan deleting the selected rows (or the one row whose button was pressed); "delete" applies
 * that plan by its id.
 */
export async function deleteAclAction(prev: AclChangeState, formData: FormData): Promise<AclChangeState> {
  const seq = (prev?.seq ?? 0) + 1;
  // A row's own "Delete…" button previews just that row, whatever else is selected.
  const only = formData.get("only");
  const selectedRaw = typeof only === "string" && only !== "" ? [only] : formData.getAll("acl").map(String);
  const answer = (step: "preview" | "apply", result: ActionResult<unknown>, selected = selectedRaw) =>
    ({ seq, step, values: {}, selected, result }) as AclChangeState;
  const unsafe: Failure | null = unsafeFields(formData);
  if (unsafe) return answer(formData.get("intent") === "delete" ? "apply" : "preview", unsafe);
  if (formData.get("intent") === "delete") {
    const result = await applyStep(formData, "Preview the deletion before deleting.");
    return answer("apply", result, result.ok ? [] : selectedRaw);
  }
  const selected = selectedBindings(selectedRaw);
  const message =
    selected.length === 0
      ? "Select the ACLs to delete first."
      : "The selection is not a list of ACL bindings; reload the page.";
  const { result } = await changeFromForm("plan.create", formData, {
    omit: NOT_FIELDS,
    raw: () => selected,
    schema: aclBindingsSchema.transform((bindings) => ({ kind: "acl.delete" as const, bindings })),
    message,
  });
  // A selection that is not bindings is one message, not a field error per row.
  return answer(
    "preview",
    result.ok
      ? result
      : { ok: false, code: result.code, message: result.code === "VALIDATION" ? message : result.message },
  );
}
