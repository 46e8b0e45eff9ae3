import { NextResponse, type NextRequest } from "next/server";

/**
 * First gate: requests without a session cookie (or Basic credentials, for the API)
 * never reach a page or route. The session itself is checked against the database by
 * the page layout and the route wrapper; this only keeps anonymous visitors out early.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const hasSession = request.cookies.has("ksc_session");
  if (pathname.startsWith("/api/")) {
    const isSignIn = pathname === "/api/v1/session" && request.method === "POST";
    const hasBasic = request.headers.get("authorization")?.toLowerCase().startsWith("basic ") ?? false;
    if (isSignIn || hasSession || hasBasic) return NextResponse.next();
    return NextResponse.json(
      { error: "Sign in first, or send Kafka credentials with Authorization: Basic.", code: "UNAUTHENTICATED" },
      { status: 401, headers: { "WWW-Authenticate": 'Basic realm="Kafka Security Console"' } },
    );
  }
  if (pathname === "/sign-in" || hasSession) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = pathname === "/" ? "" : `?next=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
