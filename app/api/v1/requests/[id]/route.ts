import { apiRoute } from "@/lib/api/route";
import { getRequestView } from "@/lib/services/requests";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer, params }) => getRequestView(viewer, params.id ?? ""));
