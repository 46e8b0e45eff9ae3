import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { requestListQuerySchema } from "@/lib/schemas/requests";
import { listRequestViews } from "@/lib/services/requests";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: requestListQuerySchema }, ({ viewer, query }) =>
  listRequestViews(viewer, query.filter, query.limit, query.kind),
);

export const POST = changeRoute("request.file");
