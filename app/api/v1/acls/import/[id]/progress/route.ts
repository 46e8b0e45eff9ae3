import { apiRoute } from "@/lib/api/route";
import { importProgress } from "@/lib/services/acl-import";

export const dynamic = "force-dynamic";

/** The {id} of /api/v1/acls/import/{id}/progress (apiRoute hands handlers the request only). */
function planIdOf(request: Request): string {
  const parts = new URL(request.url).pathname.replace(/\/+$/, "").split("/");
  return decodeURIComponent(parts.at(-2) ?? "");
}

/** How far applying an import plan has come, from its per-batch audit events. */
export const GET = apiRoute({}, ({ viewer, request }) => importProgress(viewer, planIdOf(request)));
