/**
 * The signed-in viewer for Server Components, server actions and route handlers.
 * Pages call `requireViewer()`; route handlers call `viewerForRequest()`, which also
 * accepts `Authorization: Basic` with Kafka credentials.
 */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { signInSchema } from "@/lib/schemas/session";
import { viewerFromBasic, viewerFromSessionId, SESSION_TTL_MS, type Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/actions/result";

export const SESSION_COOKIE = "ksc_session";

export function sessionCookieOptions(expiresAt: Date) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: process.env.COOKIE_SECURE === "true",
    path: "/",
    expires: expiresAt,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  };
}

/**
 * The address the request came from, for the sign-in throttle. Next fills
 * X-Forwarded-For with the socket address when the client sent none; behind a proxy
 * (TRUST_PROXY=true) its first entry is the original client.
 */
export async function clientAddress(): Promise<string> {
  const h = await headers();
  const entries = (h.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const address = process.env.TRUST_PROXY === "true" ? entries[0] : entries.at(-1);
  return address || h.get("x-real-ip") || "unknown";
}

export const getViewer = cache(async (): Promise<Viewer | null> => {
  const jar = await cookies();
  return viewerFromSessionId(jar.get(SESSION_COOKIE)?.value);
});

export async function requireViewer(): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) redirect("/sign-in");
  return viewer;
}

/** Cookie session or Basic credentials (mechanism from X-Kafka-Mechanism, default SCRAM-SHA-512). */
export async function viewerForRequest(request: Request): Promise<ActionResult<Viewer>> {
  const authorization = request.headers.get("authorization");
  if (authorization?.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const parsed = signInSchema.safeParse({
      username: colon >= 0 ? decoded.slice(0, colon) : decoded,
      password: colon >= 0 ? decoded.slice(colon + 1) : "",
      mechanism: request.headers.get("x-kafka-mechanism") ?? undefined,
    });
    if (!parsed.success) {
      return { ok: false, code: "UNAUTHENTICATED", message: "Malformed Basic credentials or unknown X-Kafka-Mechanism." };
    }
    return viewerFromBasic(parsed.data, await clientAddress());
  }
  const viewer = await getViewer();
  if (!viewer) return { ok: false, code: "UNAUTHENTICATED", message: "Sign in first, or send Kafka credentials with Authorization: Basic." };
  return { ok: true, data: viewer };
}
