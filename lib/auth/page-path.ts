/**
 * Where to send someone whose session ended while they were on a page: the sign-in page,
 * with `next` = the page they were on, query included. proxy.ts puts the page's address
 * in a request header (a page request, or a server action posted from that page), since
 * a Server Component cannot read its own URL. With several clusters the sign-in is for the
 * page's cluster (`cluster`).
 */
export const PAGE_PATH_HEADER = "x-ksc-page-path";

export function signInAgainPath(
  pagePath: string | null | undefined,
  ended: boolean,
  clusterId: string | null = null,
): string {
  const params = new URLSearchParams();
  if (clusterId !== null) params.set("cluster", clusterId);
  if (ended) params.set("ended", "1");
  if (
    pagePath &&
    pagePath.startsWith("/") &&
    !pagePath.startsWith("//") &&
    pagePath !== "/" &&
    !pagePath.startsWith("/sign-in")
  )
    params.set("next", pagePath);
  const query = params.toString();
  return query ? `/sign-in?${query}` : "/sign-in";
}
