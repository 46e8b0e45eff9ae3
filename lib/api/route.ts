/**
 * The one wrapper every /api/v1 route handler goes through: authenticate (cookie or
 * Basic), parse the query and body with zod (400 with every field error), call the
 * same lib function the server action calls, map failures to HTTP statuses.
 */
import { NextResponse } from "next/server";
import type { z } from "zod";
import { viewerForRequest } from "@/lib/auth/current";
import type { Viewer } from "@/lib/auth/sign-in";
import { fieldErrorsOf, HTTP_STATUS, type ActionResult } from "@/lib/actions/result";
import { toErrorResult } from "@/lib/actions/errors";

type Failure = Extract<ActionResult<never>, { ok: false }>;

export function failureResponse(failure: Failure, headers?: HeadersInit): NextResponse {
  const body: Record<string, unknown> = { error: failure.message, code: failure.code };
  if (failure.fieldErrors) body.fieldErrors = failure.fieldErrors;
  return NextResponse.json(body, { status: HTTP_STATUS[failure.code], headers });
}

interface Options<Q extends z.ZodType, B extends z.ZodType> {
  auth?: boolean;
  query?: Q;
  body?: B;
}

interface Context<Q, B> {
  request: Request;
  viewer: Viewer;
  query: Q;
  body: B;
}

export function apiRoute<Q extends z.ZodType = z.ZodUnknown, B extends z.ZodType = z.ZodUnknown>(
  options: Options<Q, B>,
  handler: (ctx: Context<z.infer<Q>, z.infer<B>>) => Promise<Response | ActionResult<unknown>>,
) {
  return async (request: Request): Promise<Response> => {
    try {
      let viewer: Viewer | undefined;
      if (options.auth !== false) {
        const auth = await viewerForRequest(request);
        if (!auth.ok) {
          return failureResponse(auth.code === "INVALID_CREDENTIALS" ? { ...auth, code: "UNAUTHENTICATED" } : auth, {
            "WWW-Authenticate": 'Basic realm="Kafka Security Console"',
          });
        }
        viewer = auth.data;
      }
      let query: unknown = undefined;
      if (options.query) {
        const raw = Object.fromEntries(new URL(request.url).searchParams);
        const parsed = options.query.safeParse(raw);
        if (!parsed.success) return validationFailure(parsed.error);
        query = parsed.data;
      }
      let body: unknown = undefined;
      if (options.body) {
        let raw: unknown;
        try {
          raw = await request.json();
        } catch {
          return failureResponse({ ok: false, code: "VALIDATION", message: "The request body must be a JSON document." });
        }
        const parsed = options.body.safeParse(raw);
        if (!parsed.success) return validationFailure(parsed.error);
        body = parsed.data;
      }
      const result = await handler({ request, viewer: viewer as Viewer, query: query as z.infer<Q>, body: body as z.infer<B> });
      if (result instanceof Response) return result;
      if (!result.ok) return failureResponse(result);
      return NextResponse.json(result.data);
    } catch (error) {
      return failureResponse(toErrorResult(error, `${request.method} ${new URL(request.url).pathname}`));
    }
  };
}

function validationFailure(error: z.ZodError): NextResponse {
  return failureResponse({
    ok: false,
    code: "VALIDATION",
    message: "The request has invalid fields.",
    fieldErrors: fieldErrorsOf(error.issues),
  });
}
