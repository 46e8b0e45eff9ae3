/**
 * The signed-in viewer for Server Components, server actions and route handlers.
 * Pages call `requireViewer()`; route handlers call `viewerForRequest()`, which also
 * accepts `Authorization: Basic` with Kafka credentials.
 */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { signInSchema } from "@/lib/schemas/session";
import { viewerFromBasic, viewerFromSessionId, type Viewer } from "@/lib/auth/sign-in";
import { clientAddressFromHeaders } from "@/lib/auth/client-address";
import { PAGE_PATH_HEADER, signInAgainPath } from "@/lib/auth/page-path";
import { env } from "@/lib/env";
import { clusterIdOf } from "@/lib/clusters";
import type { ActionResult } from "@/lib/actions/result";

export const SESSION_COOKIE = "ksc_session";

export function sessionCookieOptions(expiresAt: Date, now: number = Date.now()) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: env().COOKIE_SECURE,
    path: "/",
    expires: expiresAt,
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - now) / 1000)),
  };
}

/**
 * The address the request came from, for the sign-in throttle and the audit trail: the
 * header the console's server sets (lib/auth/client-address.ts), never X-Forwarded-For,
 * which the client can write. "unknown" where no such server runs (`next dev`).
 */
export async function clientAddress(): Promise<string> {
  return clientAddressFromHeaders(await headers());
}

export const getViewer = cache(async (): Promise<Viewer | null> => {
  const jar = await cookies();
  return viewerFromSessionId(jar.get(SESSION_COOKIE)?.value);
});

/**
 * The viewer, or a redirect to sign-in. A request that still carries a session cookie
 * whose session is gone (expired, or ended because Kafka refused its credential) is told
 * so on the sign-in page; either way the sign-in returns to the page they were on (for a
 * server action, the page it was posted from), with its query.
 */
export async function requireViewer(): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) redirect(signInAgainPath((await headers()).get(PAGE_PATH_HEADER), (await cookies()).has(SESSION_COOKIE)));
  return viewer;
}

/** The cluster an API request names: the X-Kafka-Cluster header or the `cluster` query parameter (lib/clusters.ts ids). */
export function requestedCluster(request: Request): string | undefined {
  const named = request.headers.get("x-kafka-cluster") ?? new URL(request.url).searchParams.get("cluster");
  return named === null || named.trim() === "" ? undefined : named.trim();
}

/**
 * Cookie session or Basic credentials (mechanism from X-Kafka-Mechanism, default
 * SCRAM-SHA-512; cluster from X-Kafka-Cluster or `cluster`, default the default cluster).
 * A session answers only for its own cluster: a request naming another is refused.
 */
export async function viewerForRequest(request: Request): Promise<ActionResult<Viewer>> {
  const cluster = requestedCluster(request);
  const authorization = request.headers.get("authorization");
  if (authorization?.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const parsed = signInSchema.safeParse({
      username: colon >= 0 ? decoded.slice(0, colon) : decoded,
      password: colon >= 0 ? decoded.slice(colon + 1) : "",
      mechanism: request.headers.get("x-kafka-mechanism") ?? undefined,
      cluster,
    });
    if (!parsed.success) {
      return { ok: false, code: "UNAUTHENTICATED", message: "Malformed Basic credentials or unknown X-Kafka-Mechanism." };
    }
    return viewerFromBasic(parsed.data, await clientAddress());
  }
  const viewer = await getViewer();
  if (!viewer) return { ok: false, code: "UNAUTHENTICATED", message: "Sign in first, or send Kafka credentials with Authorization: Basic." };
  if (cluster !== undefined && cluster !== clusterIdOf(viewer.credential)) {
    return { ok: false, code: "UNAUTHENTICATED", message: `This session is for the cluster "${clusterIdOf(viewer.credential)}", not "${cluster}": sign in to that cluster.` };
  }
  return { ok: true, data: viewer };
}
