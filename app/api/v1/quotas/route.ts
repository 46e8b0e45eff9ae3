import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { listQuotas } from "@/lib/services/quotas";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listQuotas(viewer));

/** A sealed quota.alter plan, applied in the same call unless dryRun (lib/schemas/changes/quotas.ts). */
export const POST = changeRoute("quota.alter");
