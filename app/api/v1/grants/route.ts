import { apiRoute } from "@/lib/api/route";
import { grantListQuerySchema } from "@/lib/schemas/requests";
import { listLiveGrants } from "@/lib/services/grants";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: grantListQuerySchema }, ({ viewer, query }) =>
  listLiveGrants(viewer, query.principal),
);
