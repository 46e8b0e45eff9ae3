import { apiRoute } from "@/lib/api/route";
import { importProgress } from "@/lib/services/acl-import";

export const dynamic = "force-dynamic";

/** How far applying an import plan has come, from its per-batch audit events. */
export const GET = apiRoute({}, ({ viewer, params }) => importProgress(viewer, params.id ?? ""));
