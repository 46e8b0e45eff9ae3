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
import { viewerFromBearer } from "@/lib/auth/sso-sign-in";
import { clientAddressFromHeaders } from "@/lib/auth/client-address";
import { PAGE_PATH_HEADER, signInAgainPath } from "@/lib/auth/page-path";
import { env } from "@/lib/env";
import { clusterIdOf, clusters, defaultClusterId, findCluster } from "@/lib/clusters";
import type { ActionResult } from "@/lib/schemas/result";
import { CLUSTER_COOKIE, isSessionCookieName, SESSION_COOKIE } from "@/lib/auth/cookie-names";
import { URL_CLUSTER_HEADER, withClusterPrefix } from "@/lib/cluster-path";

export { SESSION_COOKIE, CLUSTER_COOKIE, isSessionCookieName };

/**
 * Sessions are per cluster, and a browser may hold one for each: the cookie's name says
 * which. The default cluster keeps the single-cluster name, so nothing changes without a
 * clusters file.
 */
export function sessionCookieName(clusterId: string): string {
  return clusterId === defaultClusterId() ? SESSION_COOKIE : `${SESSION_COOKIE}_${clusterId}`;
}

/**
 * The cluster this request is on: the one its address names (`/c/<id>/…`, or for an API
 * call the page it came from; proxy.ts says which in URL_CLUSTER_HEADER), else the one the
 * browser chose last (its cluster cookie), else the default.
 */
export async function currentClusterId(): Promise<string> {
  const fromAddress = (await headers()).get(URL_CLUSTER_HEADER);
  if (fromAddress !== null && findCluster(fromAddress)) return fromAddress;
  const named = (await cookies()).get(CLUSTER_COOKIE)?.value;
  return named !== undefined && findCluster(named) ? named : defaultClusterId();
}

/** Whether page addresses carry their cluster (several clusters; lib/cluster-path.ts). */
export function clustersInAddresses(): boolean {
  return clusters().length > 1;
}

/** `path` (a page of the console) on `clusterId`'s pages: `/c/<id>/…` with several clusters, unchanged with one. */
export function clusterHrefOn(clusterId: string, path: string): string {
  return clustersInAddresses() ? withClusterPrefix(clusterId, path) : path;
}

/** `path` on the pages of the cluster this request is on; for redirects from pages and server actions. */
export async function clusterHref(path: string): Promise<string> {
  return clusterHrefOn(await currentClusterId(), path);
}

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

/** The viewer of the browser's session for `clusterId` (a session of another cluster never answers for it). */
export const getViewerOn = cache(async (clusterId: string): Promise<Viewer | null> => {
  const viewer = await viewerFromSessionId((await cookies()).get(sessionCookieName(clusterId))?.value);
  return viewer && clusterIdOf(viewer.credential) === clusterId ? viewer : null;
});

/** The viewer on the cluster the browser is on. */
export const getViewer = cache(async (): Promise<Viewer | null> => getViewerOn(await currentClusterId()));

/**
 * The viewer, or a redirect to sign-in. A request that still carries a session cookie
 * whose session is gone (expired, or ended because Kafka refused its credential) is told
 * so on the sign-in page; either way the sign-in returns to the page they were on (for a
 * server action, the page it was posted from), with its query.
 */
export async function requireViewer(): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) {
    const clusterId = await currentClusterId();
    redirect(
      signInAgainPath(
        (await headers()).get(PAGE_PATH_HEADER),
        (await cookies()).has(sessionCookieName(clusterId)),
        clustersInAddresses() ? clusterId : null,
      ),
    );
  }
  return viewer;
}

/**
 * The cluster an API request names: the X-Kafka-Cluster header or the `cluster` query parameter (lib/clusters.ts ids).
 */
export function requestedCluster(request: Request): string | undefined {
  const named = request.headers.get("x-kafka-cluster") ?? new URL(request.url).searchParams.get("cluster");
  return named === null || named.trim() === "" ? undefined : named.trim();
}

/**
 * Cookie session, Basic credentials (mechanism from X-Kafka-Mechanism, default
 * SCRAM-SHA-512; cluster from X-Kafka-Cluster or `cluster`, default the default cluster), or a
 * Bearer access token of the cluster's single sign-on provider (lib/auth/sso-sign-in.ts).
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
      return {
        ok: false,
        code: "UNAUTHENTICATED",
        message: "Malformed Basic credentials or unknown X-Kafka-Mechanism.",
      };
    }
    return viewerFromBasic(parsed.data, await clientAddress());
  }
  if (authorization?.toLowerCase().startsWith("bearer ")) {
    const clusterId = cluster ?? defaultClusterId();
    if (!findCluster(clusterId)?.oidc)
      return {
        ok: false,
        code: "UNAUTHENTICATED",
        message: `The cluster "${clusterId}" has no single sign-on: send Kafka credentials with Authorization: Basic.`,
      };
    const bearer = await viewerFromBearer(clusterId, authorization.slice(7).trim(), await clientAddress());
    if (bearer.ok) return { ok: true, data: bearer.viewer };
    return {
      ok: false,
      code: bearer.failure.code === "throttled" ? "THROTTLED" : "UNAUTHENTICATED",
      message: bearer.failure.message,
    };
  }
  const viewer = await getViewerOn(cluster ?? (await currentClusterId()));
  if (!viewer) {
    const on = cluster === undefined ? "" : ` to the cluster "${cluster}"`;
    return {
      ok: false,
      code: "UNAUTHENTICATED",
      message: `Sign in first${on}, or send Kafka credentials with Authorization: Basic.`,
    };
  }
  return { ok: true, data: viewer };
}
