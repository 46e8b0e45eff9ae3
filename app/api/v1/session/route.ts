import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { clientAddress, sessionCookieName, sessionCookieOptions } from "@/lib/auth/current";
import { clusterIdOf, defaultClusterId } from "@/lib/clusters";
import { signInSchema } from "@/lib/schemas/session";
import { signInAudited, signOutAudited } from "@/lib/services/session";

export const dynamic = "force-dynamic";

export const POST = apiRoute({ auth: false, body: signInSchema }, async ({ body }) => {
  const result = await signInAudited(body, await clientAddress());
  if (!result.ok) return result;
  const response = NextResponse.json({ principal: result.data.principal, expiresAt: result.data.expiresAt.toISOString() });
  response.cookies.set(sessionCookieName(body.cluster || defaultClusterId()), result.data.sessionId, sessionCookieOptions(result.data.expiresAt));
  return response;
});

export const DELETE = apiRoute({}, async ({ viewer }) => {
  if (viewer.sessionId) await signOutAudited(viewer.sessionId, viewer.principal);
  const response = NextResponse.json({ signedOut: true });
  response.cookies.delete(sessionCookieName(clusterIdOf(viewer.credential)));
  return response;
});
