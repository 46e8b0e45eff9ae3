"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress, CLUSTER_COOKIE, currentClusterId, getViewer, sessionCookieName, sessionCookieOptions } from "@/lib/auth/current";
import { defaultClusterId, findCluster } from "@/lib/clusters";
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
  const clusterId = parsed.data.cluster || defaultClusterId();
  const jar = await cookies();
  jar.set(sessionCookieName(clusterId), result.data.sessionId, sessionCookieOptions(result.data.expiresAt));
  jar.set(CLUSTER_COOKIE, clusterId, sessionCookieOptions(result.data.expiresAt));
  redirect(safeNextPath(formData.get("next")));
}

/**
 * The shell's cluster switcher: the browser is on `cluster` from now on; its console when
 * it has a session there, else that cluster's sign-in (the other clusters' sessions stay).
 */
export async function switchClusterAction(formData: FormData): Promise<void> {
  const clusterId = String(formData.get("cluster") ?? "");
  if (!findCluster(clusterId)) redirect("/");
  const jar = await cookies();
  jar.set(CLUSTER_COOKIE, clusterId, sessionCookieOptions(new Date(Date.now() + 365 * 86_400_000)));
  redirect(jar.has(sessionCookieName(clusterId)) ? "/" : `/sign-in?cluster=${encodeURIComponent(clusterId)}`);
}

export async function signOutAction(): Promise<void> {
  const viewer = await getViewer();
  if (viewer?.sessionId) await signOutAudited(viewer.sessionId, viewer.principal);
  const clusterId = await currentClusterId();
  (await cookies()).delete(sessionCookieName(clusterId));
  redirect("/sign-in"); // which preselects the cluster the browser is on
}
