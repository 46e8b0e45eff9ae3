import { apiRoute } from "@/lib/api/route";
import { timelineQuerySchema } from "@/lib/schemas/timeline";
import { timelineFor } from "@/lib/services/timeline";

export const dynamic = "force-dynamic";

/** The history of one thing (lib/services/timeline.ts), newest first. */
export const GET = apiRoute({ query: timelineQuerySchema }, ({ viewer, query }) => timelineFor(viewer, query));
