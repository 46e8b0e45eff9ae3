import { apiRoute } from "@/lib/api/route";
import { planPageQuerySchema } from "@/lib/schemas/plans";
import { getPlanView } from "@/lib/services/plans";

export const dynamic = "force-dynamic";

/** The plan as previewed, with one page of every decision change. */
export const GET = apiRoute({ query: planPageQuerySchema }, ({ viewer, params, query }) =>
  getPlanView(viewer, params.id ?? "", query),
);
