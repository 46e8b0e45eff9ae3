"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress, getViewer, SESSION_COOKIE, sessionCookieOptions } from "@/lib/auth/current";
import { safeNextPath } from "@/lib/auth/safe-next";
import { signInSchema } from "@/lib/schemas/session";
import { signInAudited, signOutAudited } from "@/lib/services/session";
import { fieldErrorsOf, type ActionResult } from "@/lib/actions/result";

export type SignInState = ActionResult<null> | null;

export async function signInAction(_prev: SignInState, formData: FormData): Promise<SignInState> {
  const parsed = signInSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    return { ok: false, code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error.issues) };
  }
  const result = await signInAudited(parsed.data, await clientAddress());
  if (!result.ok) return result;
  (await cookies()).set(SESSION_COOKIE, result.data.sessionId, sessionCookieOptions(result.data.expiresAt));
  redirect(safeNextPath(formData.get("next")));
}

export async function signOutAction(): Promise<void> {
  const viewer = await getViewer();
  if (viewer?.sessionId) await signOutAudited(viewer.sessionId, viewer.principal);
  (await cookies()).delete(SESSION_COOKIE);
  redirect("/sign-in");
}
