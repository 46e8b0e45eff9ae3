import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { PAGE_PATH_HEADER, signInAgainPath } from "@/lib/auth/page-path";
import { crossSiteRefusal, isOwnOrigin } from "@/lib/api/same-origin";
import { CLUSTER_COOKIE, isSessionCookieName } from "@/lib/auth/cookie-names";
import {
  clusterOfPageUrl,
  isPagePath,
  splitClusterPath,
  URL_CLUSTER_HEADER,
  withClusterPrefix,
} from "@/lib/cluster-path";
import { clusters, defaultClusterId, findCluster } from "@/lib/clusters";
import {
  FALLBACK_CONTENT_SECURITY_POLICY,
  fixedHeadersFor,
  newNonce,
  pageContentSecurityPolicy,
} from "@/lib/api/security-headers";
import {
  decodeStrictUtf8,
  findUnsafeFormData,
  findUnsafeText,
  findUnsafeUrl,
  hasErrors,
  INVALID_UTF8_MESSAGE,
  type FieldErrors,
} from "@/lib/schemas/safe-text";

/**
 * First gate for every page and route (static files aside), in order:
 *
 *   1. Unsafe text in the address (NUL, control characters, lone surrogates, invalid
 *      UTF-8): 400 (lib/schemas/safe-text.ts).
 *   2. A state-changing request from another site, including the pages' server actions
 *      and the sign-in: 403 (lib/api/same-origin.ts). Next's own server-action check
 *      compares Origin with Host too, but answers 500; this answers first and clearly.
 *   3. Unsafe text in a form post (a server action's body): 400, before any action runs.
 *   4. The cluster in the address (lib/cluster-path.ts): the pages live under
 *      app/c/[cluster]; proxy.ts tells them their cluster in URL_CLUSTER_HEADER; an
 *      unknown id is 404. With one cluster, `/acls` is served as `/c/<default>/acls`
 *      (addresses never show it). With several, a page address without one is sent (303)
 *      to the same page of the cluster the page it was opened from names (Referer), else
 *      the one chosen last, else the default. An API call or download that names no
 *      cluster acts on the cluster of the page it came from.
 *   5. Requests without a session cookie (or Basic credentials, for the API) never reach a
 *      page or route. The session itself is checked against the database by the page
 *      layout and the route wrapper; this only keeps anonymous visitors out early. A
 *      server action posted from a page whose cookie has expired meanwhile is answered
 *      the way Next answers an action's redirect(), so the browser goes to the sign-in,
 *      which returns to the page (and the form refills itself: components/ui/form-draft.ts).
 *   6. Security headers on the answer; pages get a Content-Security-Policy with a fresh
 *      nonce, which Next reads from the request's header and puts on its own scripts; API
 *      answers get Cache-Control: no-store (lib/api/security-headers.ts).
 */
export async function proxy(request: NextRequest) {
  const settings = env();
  const providerOrigins = ssoOrigins();
  const headerSettings = {
    cookieSecure: settings.COOKIE_SECURE,
    dev: settings.NODE_ENV === "development",
    formActionOrigins: providerOrigins,
  };
  const { pathname, search } = request.nextUrl;
  const isApi = pathname.startsWith("/api/");
  const secured = (response: NextResponse, csp = FALLBACK_CONTENT_SECURITY_POLICY) => {
    for (const [name, value] of Object.entries(fixedHeadersFor(pathname, headerSettings)))
      response.headers.set(name, value);
    response.headers.set("Content-Security-Policy", csp);
    return response;
  };
  const refuse = (status: 400 | 403 | 413, message: string, fieldErrors?: FieldErrors) =>
    secured(
      isApi
        ? NextResponse.json(
            {
              error: message,
              code: status === 403 ? "DENIED" : status === 413 ? "PAYLOAD_TOO_LARGE" : "VALIDATION",
              ...(fieldErrors ? { fieldErrors } : {}),
            },
            { status },
          )
        : new NextResponse(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } }),
    );

  const urlProblems = findUnsafeUrl(new URL(request.url));
  if (hasErrors(urlProblems))
    return refuse(
      400,
      "The address contains text the console does not accept (NUL, control characters or invalid UTF-8).",
      urlProblems,
    );

  const refusal = crossSiteRefusal(request.method, request.headers, {
    allowedOrigins: settings.ALLOWED_ORIGINS,
    trustProxy: settings.TRUST_PROXY,
  });
  if (refusal) return refuse(403, refusal);

  if (!isApi && request.method === "POST") {
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > settings.MAX_BODY_BYTES)
      return refuse(413, `The request body is larger than ${settings.MAX_BODY_BYTES} bytes.`);
    const formProblems = await unsafeFormBody(request);
    if (hasErrors(formProblems))
      return refuse(
        400,
        "The form contains text the console does not accept (NUL, control characters or invalid UTF-8).",
      );
  }

  // The cluster the address names, or the page it came from (for the API). Only this sets URL_CLUSTER_HEADER.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.delete(URL_CLUSTER_HEADER);
  const policy = { allowedOrigins: settings.ALLOWED_ORIGINS, trustProxy: settings.TRUST_PROXY };
  const refererCluster = () => {
    const id = clusterOfPageUrl(request.headers.get("referer"), (origin) =>
      isOwnOrigin(origin, request.headers, policy),
    );
    return id !== null && findCluster(id) ? id : null;
  };
  const fromPath = isApi ? { clusterId: null, rest: pathname } : splitClusterPath(pathname);
  if (fromPath.clusterId !== null && !findCluster(fromPath.clusterId)) {
    return secured(
      new NextResponse(`No cluster is named "${fromPath.clusterId}" here.\n`, {
        status: 404,
        headers: { "content-type": "text/plain; charset=utf-8" },
      }),
    );
  }
  const addressCluster = fromPath.clusterId ?? (isApi ? refererCluster() : null);
  if (addressCluster !== null) requestHeaders.set(URL_CLUSTER_HEADER, addressCluster);

  // A session cookie of any cluster (ksc_session, ksc_session_<id>: lib/auth/current.ts).
  const hasSession = request.cookies.getAll().some((c) => isSessionCookieName(c.name));
  if (isApi) {
    const isSignIn =
      (pathname === "/api/v1/session" && request.method === "POST") ||
      // Single sign-on's start and the provider's answer (#21): top-level GETs before any session exists.
      (pathname.startsWith("/api/auth/oidc/") && request.method === "GET");
    const scheme = request.headers.get("authorization")?.trimStart().split(" ")[0]?.toLowerCase();
    // A Bearer token is a credential only where a cluster has single sign-on (its provider's access tokens).
    const hasCredentials = scheme === "basic" || (scheme === "bearer" && providerOrigins.length > 0);
    if (isSignIn || hasSession || hasCredentials)
      return secured(NextResponse.next({ request: { headers: requestHeaders } }));
    return secured(
      NextResponse.json(
        {
          error:
            "Sign in first, or send Kafka credentials with Authorization: Basic (or the identity provider's access " +
            "token with Authorization: Bearer, where single sign-on is configured).",
          code: "UNAUTHENTICATED",
        },
        { status: 401, headers: { "WWW-Authenticate": 'Basic realm="Kafka Security Console"' } },
      ),
    );
  }
  const page = fromPath.rest;
  if (page !== "/sign-in" && !hasSession && request.method === "POST" && request.headers.has("next-action")) {
    // Following a redirect would hand the action the sign-in page instead of its answer
    // ("An unexpected response"): say where to go in the header Next's router reads.
    const to = signInAgainPath(pathname + search, true, fromPath.clusterId);
    return secured(
      new NextResponse(null, {
        status: 200,
        headers: { "x-action-redirect": `${to};push`, "content-type": "text/plain; charset=utf-8" },
      }),
    );
  }
  if (page !== "/sign-in" && !hasSession) {
    const url = request.nextUrl.clone();
    url.pathname = "/sign-in";
    const params = new URLSearchParams();
    if (fromPath.clusterId !== null) params.set("cluster", fromPath.clusterId);
    if (pathname !== "/") params.set("next", pathname + search);
    url.search = params.size > 0 ? `?${params}` : "";
    return secured(NextResponse.redirect(url));
  }
  const csp = pageContentSecurityPolicy(newNonce(), headerSettings);
  requestHeaders.set("Content-Security-Policy", csp);
  // The page's own address, for the sign-in `next` when a session ends mid-visit (lib/auth/current.ts).
  requestHeaders.set(PAGE_PATH_HEADER, pathname + search);
  // The console's pages live under app/c/[cluster]: an address without a cluster is served
  // as the default cluster's page (one cluster), or, with several, sent to the address of
  // the cluster it was opened from (a page that did not name it).
  if (fromPath.clusterId === null && isPagePath(pathname)) {
    const several = clusters().length > 1;
    const chosen = request.cookies.get(CLUSTER_COOKIE)?.value;
    const clusterId = several
      ? (refererCluster() ?? (chosen !== undefined && findCluster(chosen) ? chosen : defaultClusterId()))
      : defaultClusterId();
    // From request.url, not nextUrl: NextURL writes 127.0.0.1 as localhost, another origin to
    // Next, which would then proxy the rewrite to itself over HTTP (and redirect to localhost).
    const url = new URL(withClusterPrefix(clusterId, pathname) + search, request.url);
    if (several && (request.method === "GET" || request.method === "HEAD"))
      return secured(NextResponse.redirect(url, 303));
    requestHeaders.set(URL_CLUSTER_HEADER, clusterId);
    return secured(NextResponse.rewrite(url, { request: { headers: requestHeaders } }), csp);
  }
  return secured(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

/**
 * Unsafe text anywhere in a form post: the fields of a multipart or URL-encoded form,
 * and the JSON React encodes a server action's arguments in (a field or the whole body).
 */
async function unsafeFormBody(request: NextRequest): Promise<FieldErrors> {
  let text: string;
  try {
    text = decodeStrictUtf8(new Uint8Array(await request.clone().arrayBuffer()));
  } catch {
    return { _: [INVALID_UTF8_MESSAGE] };
  }
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const errors: FieldErrors = {};
  const check = (name: string, value: string) => {
    Object.assign(errors, findUnsafeFormData([[name, value]]));
    const json = parseJson(value);
    if (json !== undefined) Object.assign(errors, findUnsafeText(json, [name]));
  };
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(text, { headers: { "content-type": request.headers.get("content-type")! } }).formData();
    } catch {
      return errors; // not a form Next could read either; it refuses it itself
    }
    for (const [name, value] of form.entries()) if (typeof value === "string") check(name, value);
  } else if (type.startsWith("application/x-www-form-urlencoded")) {
    for (const [name, value] of new URLSearchParams(text)) check(name, value);
  } else {
    check("_", text);
  }
  return errors;
}

function parseJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[" && first !== '"') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const config = {
  // Static files anyone may fetch (the sign-in page shows the icons before a session exists).
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icons/|robots.txt).*)"],
};

/** The single sign-on providers' origins (the sign-out form ends at theirs). */
function ssoOrigins(): string[] {
  const origins = new Set<string>();
  try {
    for (const c of clusters()) if (c.oidc) origins.add(new URL(c.oidc.issuer).origin);
  } catch {
    // Settings with problems: the settings check answers every request (scripts/server.ts).
  }
  return [...origins];
}
