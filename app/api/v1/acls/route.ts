import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { aclListQuerySchema } from "@/lib/schemas/acls";
import { listAcls } from "@/lib/services/acls";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: aclListQuerySchema }, ({ viewer, query }) => listAcls(viewer, query));

/** A sealed plan of the bindings, applied in the same call unless dryRun / ?preview=1 (lib/schemas/changes/acls.ts). */
export const POST = changeRoute("acl.create");
export const DELETE = changeRoute("acl.delete");
