/**
 * The cluster in a page's address. With several clusters (a clusters file naming more
 * than one), every page of the console lives under `/c/<cluster id>`: `/c/prod/acls`,
 * `/c/staging/principals/User%3Aalice`. So two tabs can show two clusters at once, a link
 * or bookmark always opens the cluster it was made on, and nothing depends on which
 * cluster the browser chose last. With one cluster nothing changes: no prefix.
 *
 * The pages live under app/c/[cluster], so Next renders the shell afresh when the cluster
 * changes. proxy.ts tells each page its cluster in URL_CLUSTER_HEADER (a header only it
 * sets), and serves an address without one as the default cluster's (one cluster) or
 * sends it to one that names its cluster (several). Links, forms and redirects keep the
 * prefix (components/link.tsx, lib/auth/current.ts clusterHref). Pure functions, shared by
 * the proxy, the server and the browser.
 */

/** Set by proxy.ts on every request it lets through: the cluster the address names (never taken from the client). */
export const URL_CLUSTER_HEADER = "x-ksc-url-cluster";

const PREFIX = /^\/c\/([^/?#]+)(?=$|[/?#])/;

/**
 * Splits `/c/<id>/rest?query` into the id and `/rest?query` (`/` for the cluster's home); null id when there is no
 * prefix.
 */
export function splitClusterPath(path: string): { clusterId: string | null; rest: string } {
  const m = PREFIX.exec(path);
  if (!m) return { clusterId: null, rest: path };
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    id = m[1]!;
  }
  // `/c/prod//evil.example` must not leave `//evil.example` (another site, to a browser) as the page.
  const rest = path.slice(m[0].length).replace(/^[/\\]{2,}/, "/");
  return { clusterId: id, rest: rest === "" || rest.startsWith("?") || rest.startsWith("#") ? `/${rest}` : rest };
}

/**
 * Whether an address is one of the console's pages (what gets the prefix): not the API, the sign-in, Next's files or
 * another site.
 */
export function isPagePath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  const pathname = path.replace(/[?#].*$/, "");
  return !(
    pathname === "/api" ||
    pathname.startsWith("/api/") ||
    pathname.startsWith("/_next/") ||
    pathname === "/sign-in" ||
    pathname.startsWith("/sign-in/") ||
    pathname.startsWith("/icons/") ||
    pathname === "/favicon.ico" ||
    pathname === "/robots.txt"
  );
}

/**
 * `path` on the page of cluster `clusterId`: `/acls?x=1` becomes `/c/<id>/acls?x=1`, `/`
 * becomes `/c/<id>`. Null cluster (one cluster only), an address already carrying a
 * prefix, and anything but a page (the API, the sign-in, another site) are left alone.
 */
export function withClusterPrefix(clusterId: string | null | undefined, path: string): string {
  if (!clusterId || !isPagePath(path) || splitClusterPath(path).clusterId !== null) return path;
  const base = `/c/${encodeURIComponent(clusterId)}`;
  if (path === "/") return base;
  if (path.startsWith("/?") || path.startsWith("/#")) return base + path.slice(1);
  return base + path;
}

/**
 * The cluster a same-origin page address (a Referer) names, or null: API calls and
 * downloads made from a page of `/c/prod` act on prod unless they name a cluster.
 */
export function clusterOfPageUrl(url: string | null, isOwnOrigin: (origin: string) => boolean): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (!isOwnOrigin(u.origin)) return null;
    return splitClusterPath(u.pathname).clusterId;
  } catch {
    return null;
  }
}
