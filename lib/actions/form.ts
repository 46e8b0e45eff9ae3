/**
 * The server-action half of a declared change (lib/schemas/changes): what every form that
 * changes something does before and after `runChange`, written once.
 *
 *   1. the viewer (requireViewer: no session, to the sign-in page with the form kept),
 *   2. the fields as submitted, to show again (never the secret ones: passwords, HMACs),
 *   3. NUL, control characters or lone surrogates in any field: refused before anything else,
 *   4. the fields parsed into the change's input (the form's own schema, which ends in the
 *      change's input schema, or the input schema itself), every problem a field error,
 *   5. the change run, exactly as its API route runs it.
 *
 * The action modules under app/ ("use server": async functions only) call `changeFromForm`
 * and shape the answer their form shows.
 */
import "server-only";
import type { z } from "zod";
import { requireViewer } from "@/lib/auth/current";
import type { Viewer } from "@/lib/auth/sign-in";
import { CHANGES, type ChangeId, type ChangeInput, type ChangeOutput } from "@/lib/schemas/changes";
import { fieldErrorsOf, type ActionResult } from "@/lib/schemas/result";
import { findUnsafeFormData, hasErrors } from "@/lib/schemas/safe-text";
import { runChange } from "@/lib/services/changes";

export const CHECK_FIELDS = "Check the highlighted fields.";

export type Failure = Extract<ActionResult<never>, { ok: false }>;
export type FormValues = Record<string, string>;

/** A form's answer: the change's result and the fields to show again. */
export type FormResult<T> = ActionResult<T> & { values: FormValues };

/** The text fields as submitted, without Next's own (`$ACTION_…`) and the `omit`ted ones (secrets, buttons, ids). */
export function formValues(formData: FormData, omit: readonly string[] = []): FormValues {
  const values: FormValues = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$") && !omit.includes(k)) values[k] = v;
  return values;
}

/** Unsafe text in any field (values and names; files are skipped), as a failure naming the fields. */
export function unsafeFields(formData: FormData): Failure | null {
  const fieldErrors = findUnsafeFormData(formData.entries());
  return hasErrors(fieldErrors) ? { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors } : null;
}

/** Parses with `schema`; a failure carries every problem as a field error. */
export function parseFields<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  message = CHECK_FIELDS,
): ActionResult<z.output<S>> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, code: "VALIDATION", message, fieldErrors: fieldErrorsOf(parsed.error.issues) };
}

export interface FormChange<K extends ChangeId> {
  /** Fields never shown again (passwords, HMACs) and fields that are not input (buttons, ids). */
  omit?: readonly string[];
  /** What the schema parses: by default the shown values; a form with secrets or files builds it here. */
  raw?: (values: FormValues, formData: FormData) => unknown;
  /** The form's schema: its fields -> the change's input. Default: the change's own input schema. */
  schema?: z.ZodType<ChangeInput<K>, unknown>;
  /** The message beside the field errors. */
  message?: string;
  /** The path's `{id}` of a change on one thing (a token request, a plan). */
  params?: Record<string, string>;
}

export interface FormRun<K extends ChangeId> {
  viewer: Viewer;
  values: FormValues;
  /** The parsed input, when the fields were valid. */
  input: ChangeInput<K> | null;
  result: ActionResult<ChangeOutput<K>>;
}

/** Steps 1-5 of the module comment for the change `id`, from a form's fields. */
export async function changeFromForm<K extends ChangeId>(
  id: K,
  formData: FormData,
  form: FormChange<K> = {},
): Promise<FormRun<K>> {
  // The one public change (the sign-in) runs without a viewer and never reads one, as its route does.
  const viewer = CHANGES[id].public === true ? (null as unknown as Viewer) : await requireViewer();
  const values = formValues(formData, form.omit);
  const unsafe = unsafeFields(formData);
  if (unsafe) return { viewer, values, input: null, result: unsafe };
  const raw = form.raw ? form.raw(values, formData) : values;
  const parsed = parseFields(form.schema ?? CHANGES[id].input, raw, form.message);
  if (!parsed.ok) return { viewer, values, input: null, result: parsed };
  const input = parsed.data as ChangeInput<K>;
  return { viewer, values, input, result: await runChange(id, { viewer, input, params: form.params ?? {} }) };
}
