"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress, CLUSTER_COOKIE, clusterHrefOn, clustersInAddresses, currentClusterId, getViewer, sessionCookieName, sessionCookieOptions } from "@/lib/auth/current";
import { splitClusterPath } from "@/lib/cluster-path";
import { defaultClusterId, findCluster } from "@/lib/clusters";
import { safeNextPath } from "@/lib/auth/safe-next";
import { signInSchema } from "@/lib/schemas/session";
import { signInAudited, signOutAudited } from "@/lib/services/session";
import { fieldErrorsOf, type ActionResult } from "@/lib/schemas/result";

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
  // The page asked for. A page of another cluster stays when the browser has a session there
  // (it asked for this sign-in, e.g. to compare the two); else it becomes the same page here.
  const next = splitClusterPath(safeNextPath(formData.get("next")));
  const keep = next.clusterId !== null && findCluster(next.clusterId) !== undefined && (next.clusterId === clusterId || jar.has(sessionCookieName(next.clusterId)));
  redirect(keep ? clusterHrefOn(next.clusterId!, next.rest) : clusterHrefOn(clusterId, next.rest));
}

export async function signOutAction(): Promise<void> {
  const viewer = await getViewer();
  if (viewer?.sessionId) await signOutAudited(viewer.sessionId, viewer.principal);
  const clusterId = await currentClusterId();
  (await cookies()).delete(sessionCookieName(clusterId));
  redirect(clustersInAddresses() ? `/sign-in?cluster=${encodeURIComponent(clusterId)}` : "/sign-in");
}
