import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { retrieveRequestedToken } from "@/lib/services/token-requests";
import { requestIdOf } from "../request-id";

export const dynamic = "force-dynamic";

/** The HMAC is in this answer once: never cached anywhere on the way. */
export const POST = apiRoute({}, async ({ viewer, request }) => {
  const result = await retrieveRequestedToken(viewer, requestIdOf(request));
  return result.ok ? NextResponse.json(result.data, { headers: { "cache-control": "no-store" } }) : result;
});
