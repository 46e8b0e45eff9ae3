/**
 * The security headers on every answer. Pages get a Content-Security-Policy with a fresh
 * nonce per request (proxy.ts makes it; Next puts it on its own scripts, which is why
 * every page renders dynamically); API answers, static files and anything else get a
 * policy that allows no inline script at all. The custom server (scripts/server.ts) adds
 * the fixed headers and the fallback policy to any answer that has none, so static files,
 * Next's own errors and the server's 405/400 answers carry them too.
 *
 * Every answer under /api is also `Cache-Control: no-store`, errors and 404s included:
 * some carry secrets (a generated SCRAM password, a token's HMAC) and none is worth
 * keeping in a browser's or a proxy's cache.
 */

export interface HeaderSettings {
  /** COOKIE_SECURE=true: the console is served over HTTPS; also send HSTS. */
  cookieSecure: boolean;
  /** `next dev` needs eval for React's debugging aids; production never does. */
  dev?: boolean;
  /**
   * Origins a form may end up at besides the console's own: the single sign-on providers, whose
   * sign-out page the sign-out form's answer redirects to (browsers apply form-action to redirects).
   */
  formActionOrigins?: readonly string[];
}

/** The headers that do not depend on the kind of answer. */
export function baseSecurityHeaders(settings: HeaderSettings): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (settings.cookieSecure) headers["Strict-Transport-Security"] = "max-age=63072000";
  return headers;
}

/** Whether `pathname` is the API's (/api and below). */
export const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/** What no cache may keep: every API answer. */
export const API_CACHE_CONTROL = "no-store";

/** The fixed headers of an answer to `pathname`: the base ones, and for the API no caching. */
export function fixedHeadersFor(pathname: string, settings: HeaderSettings): Record<string, string> {
  const headers = baseSecurityHeaders(settings);
  if (isApiPath(pathname)) headers["Cache-Control"] = API_CACHE_CONTROL;
  return headers;
}

/** For HTML pages: scripts only with this request's nonce (and what they load). */
export function pageContentSecurityPolicy(nonce: string, settings: HeaderSettings): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${settings.dev ? " 'unsafe-eval'" : ""}`,
    // React renders `style` attributes; style cannot run script.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...(settings.formActionOrigins ?? [])].join(" "),
    "frame-ancestors 'none'",
    ...(settings.cookieSecure ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** For everything that is not a page (JSON, CSV, static files, plain-text errors). */
export const FALLBACK_CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A fresh, unguessable nonce (128 bits, base64). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
