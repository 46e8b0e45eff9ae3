import { apiRoute } from "@/lib/api/route";
import { approveRequest } from "@/lib/services/token-requests";
import { requestIdOf } from "../request-id";

export const dynamic = "force-dynamic";

export const POST = apiRoute({}, ({ viewer, request }) => approveRequest(viewer, requestIdOf(request)));
