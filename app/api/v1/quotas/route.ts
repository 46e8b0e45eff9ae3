import { apiRoute } from "@/lib/api/route";
import { quotaAlterationSchema } from "@/lib/schemas/quotas";
import { alterQuota, listQuotas } from "@/lib/services/quotas";
import { createPlan } from "@/lib/services/plans";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listQuotas(viewer));

/**
 * With dryRun, a sealed plan of kind quota.alter (the same answer as POST /api/v1/plans):
 * apply exactly it with POST /api/v1/plans/{id}/apply. Without, for scripts: the change is
 * checked and applied at once (inside the per-user lock), audited without a plan id.
 */
export const POST = apiRoute({ body: quotaAlterationSchema }, async ({ viewer, body }) => {
  if (body.dryRun) return createPlan(viewer, "quota.alter", { entity: body.entity, key: body.key, value: body.value });
  const { preview: _preview, ...result } = await alterQuota(viewer, body);
  return result;
});
