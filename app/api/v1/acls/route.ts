import { apiRoute } from "@/lib/api/route";
import { aclCreateBodySchema, aclDeleteBodySchema, aclListQuerySchema, aclPreviewQuerySchema } from "@/lib/schemas/acls";
import { listAcls, createAclsAudited, deleteAclsAudited, unconfirmedAsFailure } from "@/lib/services/acls";
import { createPlan } from "@/lib/services/plans";

export const dynamic = "force-dynamic";

const wantsPreview = (query: { preview?: string }, body: { dryRun: boolean }) => body.dryRun || query.preview === "1" || query.preview === "true";

export const GET = apiRoute({ query: aclListQuerySchema }, ({ viewer, query }) => listAcls(viewer, query));

/**
 * For scripts: without preview, the bindings are created at once (audited like a plan's
 * apply, without a plan id). With ?preview=1 or dryRun, a sealed plan is made instead
 * (the same answer as POST /api/v1/plans): apply it with POST /api/v1/plans/{id}/apply.
 */
export const POST = apiRoute({ query: aclPreviewQuerySchema, body: aclCreateBodySchema }, ({ viewer, query, body }) =>
  wantsPreview(query, body) ? createPlan(viewer, "acl.create", { bindings: body.bindings }) : createAclsAudited(viewer, body.bindings).then(unconfirmedAsFailure),
);

export const DELETE = apiRoute({ query: aclPreviewQuerySchema, body: aclDeleteBodySchema }, ({ viewer, query, body }) =>
  wantsPreview(query, body) ? createPlan(viewer, "acl.delete", { bindings: body.bindings }) : deleteAclsAudited(viewer, body.bindings).then(unconfirmedAsFailure),
);
