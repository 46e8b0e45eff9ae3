import { apiRoute } from "@/lib/api/route";
import { tokenRequestCreateSchema } from "@/lib/schemas/tokens";
import { listTokenRequests, submitTokenRequest } from "@/lib/services/token-requests";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listTokenRequests(viewer));

export const POST = apiRoute({ body: tokenRequestCreateSchema }, ({ viewer, body }) => submitTokenRequest(viewer, body));
