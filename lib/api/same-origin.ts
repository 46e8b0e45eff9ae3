/**
 * The cross-site request rule for every request that can change state (any method but
 * GET, HEAD and OPTIONS), on the JSON API, the sign-in route and the pages' server actions.
 *
 * Browsers attach the console's cookie (SameSite=Lax: also from other ports of the same
 * host, which are the same *site*) and any remembered Basic credentials to requests that
 * other pages make, so the credential alone proves nothing. What a page cannot forge is
 * the `Origin` header its browser adds:
 *
 *   1. `Origin` present: allowed when its host (name and port) is the console's own, i.e.
 *      the `Host` the browser addressed (or, with TRUST_PROXY, `X-Forwarded-Host`), or
 *      when it is one of ALLOWED_ORIGINS (the public address behind a reverse proxy).
 *      `Origin: null` (sandboxed frames, opaque redirects) is never allowed.
 *   2. No `Origin` but `Sec-Fetch-Site`: allowed for `same-origin` and `none` (typed by
 *      the user), refused for `same-site` and `cross-site`.
 *   3. Neither header: not a browser (curl, scripts with Basic credentials): allowed. A
 *      page cannot make a browser omit both.
 *
 * Example: the console on 127.0.0.1:3000 and an attacker's page on 127.0.0.1:4000. The
 * page's form POST carries the session cookie, `Origin: http://127.0.0.1:4000` and
 * `Sec-Fetch-Site: same-site`; the host `127.0.0.1:4000` is not `127.0.0.1:3000`: refused.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface HeaderSource {
  get(name: string): string | null;
}

export interface OriginPolicy {
  /** Full origins (scheme://host[:port]) also accepted, e.g. the reverse proxy's public address. */
  allowedOrigins: readonly string[];
  /** Whether X-Forwarded-Host (set by a trusted reverse proxy) names the console's own host. */
  trustProxy: boolean;
}

export const CROSS_SITE_MESSAGE =
  "Cross-site request refused: it did not come from the console's own pages. " +
  "If the console is served under another address (a reverse proxy), add that origin to ALLOWED_ORIGINS.";

/** Null when the request may proceed, else the reason it is refused. */
export function crossSiteRefusal(method: string, headers: HeaderSource, policy: OriginPolicy): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const origin = headers.get("origin");
  if (origin !== null) return isOwnOrigin(origin, headers, policy) ? null : CROSS_SITE_MESSAGE;
  const site = headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (site === undefined || site === "" || site === "same-origin" || site === "none") return null;
  return CROSS_SITE_MESSAGE;
}

/** Whether `origin` (scheme://host[:port]) is the console's own address, by the rule above. */
export function isOwnOrigin(origin: string, headers: HeaderSource, policy: OriginPolicy): boolean {
  const value = origin.trim();
  if (value === "" || value === "null") return false;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (policy.allowedOrigins.some((allowed) => sameOrigin(allowed, parsed))) return true;
  const ownHosts = [headers.get("host")];
  if (policy.trustProxy) ownHosts.push(headers.get("x-forwarded-host")?.split(",")[0] ?? null);
  return ownHosts.some((host) => host !== null && normalizedHost(host, parsed.protocol) === parsed.host);
}

/** `Host: example.com:80` and `Origin: http://example.com` name the same host. */
function normalizedHost(host: string, protocol: string): string | null {
  const value = host.trim();
  if (value === "" || /[/?#@\s]/.test(value)) return null;
  try {
    return new URL(`${protocol}//${value}`).host;
  } catch {
    return null;
  }
}

function sameOrigin(allowed: string, origin: URL): boolean {
  try {
    return new URL(allowed).origin === origin.origin;
  } catch {
    return false;
  }
}
