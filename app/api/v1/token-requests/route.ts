import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { listTokenRequests } from "@/lib/services/token-requests";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listTokenRequests(viewer));

export const POST = changeRoute("token-request.submit");
