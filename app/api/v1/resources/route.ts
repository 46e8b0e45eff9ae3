import { apiRoute } from "@/lib/api/route";
import { resourceDetailQuerySchema } from "@/lib/schemas/resources";
import { resourceDetail } from "@/lib/services/resources";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: resourceDetailQuerySchema }, ({ viewer, query }) => resourceDetail(viewer, query));
