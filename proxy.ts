import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { PAGE_PATH_HEADER } from "@/lib/auth/page-path";
import { crossSiteRefusal } from "@/lib/api/same-origin";
import { baseSecurityHeaders, FALLBACK_CONTENT_SECURITY_POLICY, newNonce, pageContentSecurityPolicy } from "@/lib/api/security-headers";
import { decodeStrictUtf8, findUnsafeFormData, findUnsafeText, findUnsafeUrl, hasErrors, INVALID_UTF8_MESSAGE, type FieldErrors } from "@/lib/schemas/safe-text";

/**
 * First gate for every page and route (static files aside), in order:
 *
 *   1. Unsafe text in the address (NUL, control characters, lone surrogates, invalid
 *      UTF-8): 400 (lib/schemas/safe-text.ts).
 *   2. A state-changing request from another site, including the pages' server actions
 *      and the sign-in: 403 (lib/api/same-origin.ts). Next's own server-action check
 *      compares Origin with Host too, but answers 500; this answers first and clearly.
 *   3. Unsafe text in a form post (a server action's body): 400, before any action runs.
 *   4. Requests without a session cookie (or Basic credentials, for the API) never reach a
 *      page or route. The session itself is checked against the database by the page
 *      layout and the route wrapper; this only keeps anonymous visitors out early.
 *   5. Security headers on the answer; pages get a Content-Security-Policy with a fresh
 *      nonce, which Next reads from the request's header and puts on its own scripts.
 */
export async function proxy(request: NextRequest) {
  const settings = env();
  const headerSettings = { cookieSecure: settings.COOKIE_SECURE, dev: process.env.NODE_ENV === "development" };
  const { pathname, search } = request.nextUrl;
  const isApi = pathname.startsWith("/api/");
  const secured = (response: NextResponse, csp = FALLBACK_CONTENT_SECURITY_POLICY) => {
    for (const [name, value] of Object.entries(baseSecurityHeaders(headerSettings))) response.headers.set(name, value);
    response.headers.set("Content-Security-Policy", csp);
    return response;
  };
  const refuse = (status: 400 | 403 | 413, message: string, fieldErrors?: FieldErrors) =>
    secured(
      isApi
        ? NextResponse.json({ error: message, code: status === 403 ? "DENIED" : status === 413 ? "PAYLOAD_TOO_LARGE" : "VALIDATION", ...(fieldErrors ? { fieldErrors } : {}) }, { status })
        : new NextResponse(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } }),
    );

  const urlProblems = findUnsafeUrl(new URL(request.url));
  if (hasErrors(urlProblems)) return refuse(400, "The address contains text the console does not accept (NUL, control characters or invalid UTF-8).", urlProblems);

  const refusal = crossSiteRefusal(request.method, request.headers, { allowedOrigins: settings.ALLOWED_ORIGINS, trustProxy: settings.TRUST_PROXY });
  if (refusal) return refuse(403, refusal);

  if (!isApi && request.method === "POST") {
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > settings.MAX_BODY_BYTES) return refuse(413, `The request body is larger than ${settings.MAX_BODY_BYTES} bytes.`);
    const formProblems = await unsafeFormBody(request);
    if (hasErrors(formProblems)) return refuse(400, "The form contains text the console does not accept (NUL, control characters or invalid UTF-8).");
  }

  // A session cookie of any cluster (ksc_session, ksc_session_<id>: lib/auth/current.ts).
  const hasSession = request.cookies.getAll().some((c) => c.name === "ksc_session" || c.name.startsWith("ksc_session_"));
  if (isApi) {
    const isSignIn = pathname === "/api/v1/session" && request.method === "POST";
    const hasBasic = request.headers.get("authorization")?.toLowerCase().startsWith("basic ") ?? false;
    if (isSignIn || hasSession || hasBasic) return secured(NextResponse.next());
    return secured(
      NextResponse.json(
        { error: "Sign in first, or send Kafka credentials with Authorization: Basic.", code: "UNAUTHENTICATED" },
        { status: 401, headers: { "WWW-Authenticate": 'Basic realm="Kafka Security Console"' } },
      ),
    );
  }
  if (pathname !== "/sign-in" && !hasSession) {
    const url = request.nextUrl.clone();
    url.pathname = "/sign-in";
    url.search = pathname === "/" ? "" : `?next=${encodeURIComponent(pathname + search)}`;
    return secured(NextResponse.redirect(url));
  }
  const csp = pageContentSecurityPolicy(newNonce(), headerSettings);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", csp);
  // The page's own address, for the sign-in `next` when a session ends mid-visit (lib/auth/current.ts).
  requestHeaders.set(PAGE_PATH_HEADER, pathname + search);
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
