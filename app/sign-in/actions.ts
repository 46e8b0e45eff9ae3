"use server";

import { cookies, headers } from "next/headers";
import { providerSignOutUrl } from "@/lib/auth/oidc-session";
import { consoleOrigin } from "@/lib/auth/sso-http";
import { redirect } from "next/navigation";
import {
  CLUSTER_COOKIE,
  clusterHrefOn,
  clustersInAddresses,
  currentClusterId,
  getViewer,
  sessionCookieName,
  sessionCookieOptions,
} from "@/lib/auth/current";
import { splitClusterPath } from "@/lib/cluster-path";
import { defaultClusterId, findCluster } from "@/lib/clusters";
import { safeNextPath } from "@/lib/auth/safe-next";
import { changeFromForm } from "@/lib/actions/form";
import { runChange } from "@/lib/services/changes";
import type { ActionResult } from "@/lib/schemas/result";

export type SignInState = ActionResult<null> | null;

export async function signInAction(_prev: SignInState, formData: FormData): Promise<SignInState> {
  const { input, result } = await changeFromForm("session.sign-in", formData);
  if (!result.ok || input === null) return result.ok ? null : result;
  // The run answers the new session; the cookie carries its id (the API answers only principal and expiry).
  const session = result.data as unknown as { sessionId: string; expiresAt: Date };
  const clusterId = input.cluster || defaultClusterId();
  const jar = await cookies();
  jar.set(sessionCookieName(clusterId), session.sessionId, sessionCookieOptions(session.expiresAt));
  jar.set(CLUSTER_COOKIE, clusterId, sessionCookieOptions(session.expiresAt));
  // The page asked for. A page of another cluster stays when the browser has a session there
  // (it asked for this sign-in, e.g. to compare the two); else it becomes the same page here.
  const next = splitClusterPath(safeNextPath(formData.get("next")));
  const keep =
    next.clusterId !== null &&
    findCluster(next.clusterId) !== undefined &&
    (next.clusterId === clusterId || jar.has(sessionCookieName(next.clusterId)));
  redirect(keep ? clusterHrefOn(next.clusterId!, next.rest) : clusterHrefOn(clusterId, next.rest));
}

export async function signOutAction(): Promise<void> {
  // A session that already ended still gets its cookie cleared.
  const viewer = await getViewer();
  const clusterId = await currentClusterId();
  // Single sign-on: the provider's session ends too, where it offers that (RP-initiated logout); it
  // sends the browser back to the sign-in page.
  const atProvider = viewer?.sessionId
    ? await providerSignOutUrl(viewer.sessionId, clusterId, `${consoleOrigin(await headers())}/sign-in`)
    : null;
  if (viewer) await runChange("session.sign-out", { viewer, input: undefined });
  (await cookies()).delete(sessionCookieName(clusterId));
  if (atProvider) redirect(atProvider.href);
  redirect(clustersInAddresses() ? `/sign-in?cluster=${encodeURIComponent(clusterId)}` : "/sign-in");
}
