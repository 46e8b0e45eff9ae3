import { apiRoute } from "@/lib/api/route";
import { retrieveRequestedToken } from "@/lib/services/token-requests";
import { requestIdOf } from "../request-id";

export const dynamic = "force-dynamic";

/** The HMAC is in this answer once; it is never cached. */
export const POST = apiRoute({}, async ({ viewer, request }) => retrieveRequestedToken(viewer, requestIdOf(request)));
