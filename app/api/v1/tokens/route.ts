import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { tokenCreateSchema } from "@/lib/schemas/tokens";
import { createToken, listTokens } from "@/lib/services/tokens";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listTokens(viewer));

/** The answer carries the new token's HMAC: never cached anywhere on the way. */
export const POST = apiRoute({ body: tokenCreateSchema }, async ({ viewer, body }) => {
  const result = await createToken(viewer, body);
  return result.ok ? NextResponse.json(result.data, { headers: { "cache-control": "no-store" } }) : result;
});
