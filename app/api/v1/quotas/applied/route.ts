import { apiRoute } from "@/lib/api/route";
import { appliedQuotaQuerySchema } from "@/lib/schemas/quotas";
import { explainAppliedQuota } from "@/lib/services/quotas";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: appliedQuotaQuerySchema }, ({ viewer, query }) =>
  explainAppliedQuota(viewer, query),
);
