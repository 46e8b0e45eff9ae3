import { apiRoute } from "@/lib/api/route";
import { tokenRequestDenySchema } from "@/lib/schemas/tokens";
import { denyRequest } from "@/lib/services/token-requests";
import { requestIdOf } from "../request-id";

export const dynamic = "force-dynamic";

export const POST = apiRoute({ body: tokenRequestDenySchema }, ({ viewer, request, body }) => denyRequest(viewer, requestIdOf(request), body.reason));
