import { apiRoute } from "@/lib/api/route";
import { getClusterView } from "@/lib/services/cluster";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, async ({ viewer }) => ({ ok: true, data: await getClusterView(viewer) }));
