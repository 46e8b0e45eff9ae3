import { apiRoute } from "@/lib/api/route";
import { tokenExpireSchema } from "@/lib/schemas/tokens";
import { expireToken } from "@/lib/services/tokens";

export const dynamic = "force-dynamic";

export const POST = apiRoute({ body: tokenExpireSchema }, ({ viewer, body }) => expireToken(viewer, body));
