/**
 * GET /api/auth/oidc/callback: where the provider sends the browser back (#21). The answer must
 * belong to a sign-in this browser started (its cookie, named after the state); the code is
 * exchanged and every token checked, Kafka must accept the access token, and only then is a
 * session made. Every outcome ends on a page: the one asked for, or the sign-in page saying why
 * nobody was signed in. The remembered sign-in is deleted either way, so an answer works once.
 */
import { NextResponse, type NextRequest } from "next/server";
import { CLUSTER_COOKIE, clusterHrefOn, sessionCookieName, sessionCookieOptions } from "@/lib/auth/current";
import { clientAddressFromHeaders } from "@/lib/auth/client-address";
import { pendingCookieName, SsoError } from "@/lib/auth/oidc";
import { consoleOrigin, PENDING_COOKIE_PATH } from "@/lib/auth/sso-http";
import { completeSsoSignIn, readPending } from "@/lib/auth/sso-sign-in";
import { splitClusterPath } from "@/lib/cluster-path";
import { clusters, defaultClusterId } from "@/lib/clusters";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<NextResponse> {
  const url = new URL(request.url);
  const origin = consoleOrigin(request.headers, url.protocol);
  const state = url.searchParams.get("state");
  const cookieName = state ? pendingCookieName(state) : null;
  const pending = readPending(cookieName ? request.cookies.get(cookieName)?.value : undefined);
  const forget = (response: NextResponse) => {
    if (cookieName) response.cookies.set(cookieName, "", { path: PENDING_COOKIE_PATH, maxAge: 0, httpOnly: true });
    return response;
  };
  try {
    const signedIn = await completeSsoSignIn(
      pending,
      url.searchParams,
      clientAddressFromHeaders(request.headers),
      defaultClusterId(),
    );
    const next = splitClusterPath(signedIn.next);
    const response = NextResponse.redirect(`${origin}${clusterHrefOn(signedIn.clusterId, next.rest)}`, 303);
    response.cookies.set(
      sessionCookieName(signedIn.clusterId),
      signedIn.sessionId,
      sessionCookieOptions(signedIn.expiresAt),
    );
    response.cookies.set(CLUSTER_COOKIE, signedIn.clusterId, sessionCookieOptions(signedIn.expiresAt));
    return forget(response);
  } catch (error) {
    if (!(error instanceof SsoError)) throw error;
    const params = new URLSearchParams({ sso: error.code });
    if (clusters().length > 1) params.set("cluster", pending?.clusterId ?? defaultClusterId());
    return forget(NextResponse.redirect(`${origin}/sign-in?${params}`, 303));
  }
}
