import { NextResponse } from "next/server";
import { changeRoute } from "@/lib/api/change-route";
import { sessionCookieName, sessionCookieOptions } from "@/lib/auth/current";
import { clusterIdOf, defaultClusterId } from "@/lib/clusters";

export const dynamic = "force-dynamic";

/** Sets the session cookie of the cluster signed in to; the answer names the principal, never the session id. */
export const POST = changeRoute("session.sign-in", {
  respond: (data, { input }) => {
    const session = data as { sessionId: string; principal: string; expiresAt: Date };
    const response = NextResponse.json({ principal: session.principal, expiresAt: session.expiresAt.toISOString() });
    response.cookies.set(
      sessionCookieName(input.cluster || defaultClusterId()),
      session.sessionId,
      sessionCookieOptions(session.expiresAt),
    );
    return response;
  },
});

export const DELETE = changeRoute("session.sign-out", {
  respond: (_data, { viewer }) => {
    const response = NextResponse.json({ signedOut: true });
    response.cookies.delete(sessionCookieName(clusterIdOf(viewer.credential)));
    return response;
  },
});
