import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

/**
 * An /api address no route answers: a JSON 404, as API clients expect. Without it the
 * console's not-found page (app/c/[cluster]/(console)/[...missing]) would take the address and send
 * a client without a session cookie to the sign-in page.
 */
function notFound() {
  return NextResponse.json(
    { error: "There is no such API route. GET /api/v1/openapi.json lists them all.", code: "NOT_FOUND" },
    { status: 404 },
  );
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
