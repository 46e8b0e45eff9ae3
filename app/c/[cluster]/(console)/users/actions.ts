"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm, type FormResult } from "@/lib/actions/form";
import type { ScramChangeResult } from "@/lib/schemas/scram-users";
import { requestScramFormSchema, type RequestStepResult } from "@/lib/schemas/requests";

/** The form's fields as submitted, never the passwords, to refill the form. */
export type ScramState = FormResult<ScramChangeResult> | null;

/** Creates a user, adds a mechanism or rotates a password: typed twice, or generated and shown once. */
export async function upsertScramAction(_prev: ScramState, formData: FormData): Promise<ScramState> {
  const { values, result } = await changeFromForm("scram.upsert", formData, {
    omit: ["password", "passwordConfirm"],
    raw: (v, fd) => {
      const generate = v.passwordSource !== "typed";
      return {
        user: v.user ?? "",
        mechanism: v.mechanism,
        iterations: v.iterations,
        ifExists: v.ifExists || undefined,
        password: generate ? null : (fd.get("password") ?? ""),
        passwordConfirm: generate ? undefined : (fd.get("passwordConfirm") ?? ""),
      };
    },
  });
  if (result.ok) revalidatePath("/users");
  return { ...result, values };
}

/** Deletes one mechanism's credential, or (no mechanism) every credential of the user. */
export async function deleteScramAction(_prev: ScramState, formData: FormData): Promise<ScramState> {
  const { values, input, result } = await changeFromForm("scram.delete", formData, {
    raw: (v) => ({ user: v.user ?? "", mechanism: v.mechanism || undefined }),
  });
  // A deleted user's row stays (with this answer in it) until the next visit: revalidating would remove the row and the
  // answer with it.
  if (result.ok && input?.mechanism !== undefined) revalidatePath("/users");
  return { ...result, values };
}

export type ScramRequestState = FormResult<RequestStepResult> | null;

/** On a four-eyes cluster: files the SCRAM change as a request (change request.file, kind scram.change). */
export async function requestScramAction(_prev: ScramRequestState, formData: FormData): Promise<ScramRequestState> {
  const { values, result } = await changeFromForm("request.file", formData, { schema: requestScramFormSchema });
  if (result.ok) revalidatePath("/requests");
  return { ...result, values: result.ok ? {} : values };
}
