import { apiRoute } from "@/lib/api/route";
import { tokenRenewSchema } from "@/lib/schemas/tokens";
import { renewToken } from "@/lib/services/tokens";

export const dynamic = "force-dynamic";

export const POST = apiRoute({ body: tokenRenewSchema }, ({ viewer, body }) => renewToken(viewer, body));
