import { apiRoute } from "@/lib/api/route";
import { driftListQuerySchema } from "@/lib/schemas/drift";
import { listDriftFor } from "@/lib/services/drift";

export const dynamic = "force-dynamic";

/** The outside changes the caller may see (lib/services/drift.ts), newest first, grouped by read. */
export const GET = apiRoute({ query: driftListQuerySchema }, ({ viewer, query }) => listDriftFor(viewer, query));
