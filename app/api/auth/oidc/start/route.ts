/**
 * GET /api/auth/oidc/start?cluster=<id>&next=<page>: begins a single sign-on (#21). Sends the
 * browser to the cluster's provider with PKCE, state and nonce, remembering them in a cookie of
 * this sign-in's own (two tabs do not overwrite each other), sent only to the callback.
 */
import { NextResponse, type NextRequest } from "next/server";
import { safeNextPath } from "@/lib/auth/safe-next";
import { PENDING_COOKIE_PREFIX, PENDING_MS, SsoError } from "@/lib/auth/oidc";
import { consoleOrigin, MAX_PENDING_SIGN_INS, PENDING_COOKIE_PATH, SSO_CALLBACK_PATH } from "@/lib/auth/sso-http";
import { readPending, startSsoSignIn } from "@/lib/auth/sso-sign-in";
import { clusters, defaultClusterId, findCluster } from "@/lib/clusters";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

function toSignIn(origin: string, code: string, clusterId: string): NextResponse {
  const params = new URLSearchParams({ sso: code });
  if (clusters().length > 1) params.set("cluster", clusterId);
  return NextResponse.redirect(`${origin}/sign-in?${params}`, 303);
}

export async function GET(request: NextRequest): Promise<NextResponse> {
  const url = new URL(request.url);
  const origin = consoleOrigin(request.headers, url.protocol);
  const asked = url.searchParams.get("cluster");
  const clusterId = asked !== null && findCluster(asked) ? asked : defaultClusterId();
  const next = safeNextPath(url.searchParams.get("next"));
  try {
    const started = await startSsoSignIn(clusterId, next, `${origin}${SSO_CALLBACK_PATH}`);
    const response = NextResponse.redirect(started.url, 303);
    // A page cannot pile up remembered sign-ins in the browser (and so a Cookie header the server refuses).
    const waiting = request.cookies
      .getAll()
      .filter((c) => c.name.startsWith(PENDING_COOKIE_PREFIX))
      .map((c) => ({ name: c.name, at: readPending(c.value)?.at ?? 0 }))
      .sort((a, b) => b.at - a.at);
    for (const old of waiting.slice(MAX_PENDING_SIGN_INS - 1))
      response.cookies.set(old.name, "", { path: PENDING_COOKIE_PATH, maxAge: 0, httpOnly: true });
    response.cookies.set(started.cookieName, started.cookieValue, {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level GET from its site, which Lax cookies go with.
      sameSite: "lax",
      secure: env().COOKIE_SECURE,
      path: PENDING_COOKIE_PATH,
      maxAge: PENDING_MS / 1000,
    });
    return response;
  } catch (error) {
    if (error instanceof SsoError) return toSignIn(origin, error.code, clusterId);
    throw error;
  }
}
