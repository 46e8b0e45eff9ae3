import { apiRoute } from "@/lib/api/route";
import { accessCheckQuerySchema } from "@/lib/schemas/access-check";
import { explainAccess } from "@/lib/services/access-check";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: accessCheckQuerySchema }, ({ request, viewer, query }) =>
  explainAccess(viewer, query, { signal: request.signal }),
);
