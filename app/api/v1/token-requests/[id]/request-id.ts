/** The {id} segment of /api/v1/token-requests/{id}/<verb> (apiRoute hands handlers the request only). */
export function requestIdOf(request: Request): string {
  const parts = new URL(request.url).pathname.split("/");
  return decodeURIComponent(parts.at(-2) ?? "");
}
