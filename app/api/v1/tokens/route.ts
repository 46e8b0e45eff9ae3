import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { listTokens } from "@/lib/services/tokens";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listTokens(viewer));

/** The answer carries the new token's HMAC (every /api answer is Cache-Control: no-store). */
export const POST = changeRoute("token.create");
