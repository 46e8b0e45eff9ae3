"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf, type ActionResult } from "@/lib/schemas/result";
import { findUnsafeFormData, hasErrors } from "@/lib/schemas/safe-text";
import { scramCredentialDeleteSchema, scramCredentialUpsertSchema, type ScramChangeResult } from "@/lib/schemas/scram-users";
import { deleteScramUser, upsertScramUser } from "@/lib/services/scram-users";

/** The form's fields as submitted, never the passwords, to refill the form. */
export type ScramState = (ActionResult<ScramChangeResult> & { values: Record<string, string> }) | null;

const SECRET_FIELDS = ["password", "passwordConfirm"];
const CHECK_FIELDS = "Check the highlighted fields.";

function valuesOf(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$") && !SECRET_FIELDS.includes(k)) values[k] = v;
  return values;
}

/** Creates a user, adds a mechanism or rotates a password: typed twice, or generated and shown once. */
export async function upsertScramAction(_prev: ScramState, formData: FormData): Promise<ScramState> {
  const viewer = await requireViewer();
  const values = valuesOf(formData);
  const unsafe = findUnsafeFormData(formData.entries());
  if (hasErrors(unsafe)) return { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: unsafe, values };
  const generate = values.passwordSource !== "typed";
  const parsed = scramCredentialUpsertSchema.safeParse({
    user: values.user ?? "",
    mechanism: values.mechanism,
    iterations: values.iterations,
    ifExists: values.ifExists || undefined,
    password: generate ? null : (formData.get("password") ?? ""),
    passwordConfirm: generate ? undefined : (formData.get("passwordConfirm") ?? ""),
  });
  if (!parsed.success) return { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: fieldErrorsOf(parsed.error.issues), values };
  const result = await upsertScramUser(viewer, parsed.data);
  if (result.ok) revalidatePath("/users");
  return { ...result, values };
}

/** Deletes one mechanism's credential, or (no mechanism) every credential of the user. */
export async function deleteScramAction(_prev: ScramState, formData: FormData): Promise<ScramState> {
  const viewer = await requireViewer();
  const values = valuesOf(formData);
  const parsed = scramCredentialDeleteSchema.safeParse({ user: values.user ?? "", mechanism: values.mechanism || undefined });
  if (!parsed.success) return { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: fieldErrorsOf(parsed.error.issues), values };
  const result = await deleteScramUser(viewer, parsed.data);
  // A deleted user's row stays (with this answer in it) until the next visit: revalidating would remove the row and the answer with it.
  if (result.ok && parsed.data.mechanism !== undefined) revalidatePath("/users");
  return { ...result, values };
}
