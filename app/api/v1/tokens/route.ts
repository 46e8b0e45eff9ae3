import { apiRoute } from "@/lib/api/route";
import { tokenCreateSchema } from "@/lib/schemas/tokens";
import { createToken, listTokens } from "@/lib/services/tokens";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listTokens(viewer));

export const POST = apiRoute({ body: tokenCreateSchema }, ({ viewer, body }) => createToken(viewer, body));
