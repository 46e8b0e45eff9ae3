import { apiRoute } from "@/lib/api/route";
import { aclCreateBodySchema, aclDeleteBodySchema, aclListQuerySchema, aclPreviewQuerySchema } from "@/lib/schemas/acls";
import { createAclsAudited, deleteAclsAudited, listAcls, previewAcls } from "@/lib/services/acls";

export const dynamic = "force-dynamic";

const wantsPreview = (query: { preview?: string }, body: { dryRun: boolean }) => body.dryRun || query.preview === "1" || query.preview === "true";

export const GET = apiRoute({ query: aclListQuerySchema }, ({ viewer, query }) => listAcls(viewer, query));

export const POST = apiRoute({ query: aclPreviewQuerySchema, body: aclCreateBodySchema }, ({ viewer, query, body }) =>
  wantsPreview(query, body) ? previewAcls(viewer, "create", body.bindings) : createAclsAudited(viewer, body.bindings),
);

export const DELETE = apiRoute({ query: aclPreviewQuerySchema, body: aclDeleteBodySchema }, ({ viewer, query, body }) =>
  wantsPreview(query, body) ? previewAcls(viewer, "delete", body.bindings) : deleteAclsAudited(viewer, body.bindings),
);
