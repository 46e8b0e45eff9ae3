/** The {id} segment of /api/v1/plans/{id} and /api/v1/plans/{id}/apply (apiRoute hands handlers the request only). */
export function planIdOf(request: Request, segmentsAfterId = 0): string {
  const parts = new URL(request.url).pathname.replace(/\/+$/, "").split("/");
  return decodeURIComponent(parts.at(-1 - segmentsAfterId) ?? "");
}
