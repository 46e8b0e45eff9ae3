/** The console's cookie names, for proxy.ts, which cannot load lib/auth/current.ts (it reaches the database). */

/**
 * The session cookie of the default cluster; another cluster's is `ksc_session_<id>` (lib/auth/current.ts
 * sessionCookieName).
 */
export const SESSION_COOKIE = "ksc_session";
/** The cluster the browser chose last (sign-in, the cluster switcher); absent: the default cluster. */
export const CLUSTER_COOKIE = "ksc_cluster";

/** Whether a cookie is a session cookie of some cluster (proxy.ts lets only requests with one through). */
export function isSessionCookieName(name: string): boolean {
  return name === SESSION_COOKIE || name.startsWith(`${SESSION_COOKIE}_`);
}
