/**
 * Where to send the browser after sign-in: the `next` parameter, only when it names a
 * page of the console itself. Anything else becomes "/".
 *
 * A prefix check on the raw string is not enough: browsers drop tabs and newlines from
 * a URL and read "\" as "/", so "/\evil.example" and "/<tab>/evil.example" are both
 * "//evil.example", another origin. So `next` is parsed the way the browser will parse
 * it, with the URL parser against the console's origin, and accepted only when the
 * result keeps that origin; what is returned is the parser's own serialisation (path,
 * query, fragment), which cannot be read differently a second time.
 *
 * The origin defaults to a fixed stand-in: the decision does not depend on which origin
 * the console is served from, and the Host header is not trusted for it.
 */
const STAND_IN_ORIGIN = "http://console.invalid";
const MAX_NEXT_LENGTH = 2048;

export function safeNextPath(next: unknown, origin: string = STAND_IN_ORIGIN): string {
  if (typeof next !== "string" || next.length === 0 || next.length > MAX_NEXT_LENGTH) return "/";
  if (!next.startsWith("/")) return "/";
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(next, base);
  } catch {
    return "/";
  }
  if (url.origin !== base.origin || url.username !== "" || url.password !== "") return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // One leading "/" only: "//x" or "/\x" would leave the origin when read as a Location.
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return "/";
  return path;
}
