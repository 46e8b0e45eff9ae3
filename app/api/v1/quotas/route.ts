import { apiRoute } from "@/lib/api/route";
import { quotaAlterationSchema } from "@/lib/schemas/quotas";
import { alterQuota, listQuotas } from "@/lib/services/quotas";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listQuotas(viewer));

export const POST = apiRoute({ body: quotaAlterationSchema }, async ({ viewer, body }) => {
  const { preview: _preview, ...result } = await alterQuota(viewer, body);
  return result;
});
