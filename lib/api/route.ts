/**
 * The one wrapper every /api/v1 route handler goes through. In order:
 *
 *   1. A request that can change state must come from the console's own pages or from
 *      a non-browser client (lib/api/same-origin.ts): 403 otherwise, before anything
 *      else, so neither a forged change nor a forged sign-in (login CSRF) gets through.
 *   2. The path and query string must be valid UTF-8 without NUL, control characters or
 *      lone surrogates (lib/schemas/safe-text.ts): 400 with field errors.
 *   3. A body must be `Content-Type: application/json` (415), at most MAX_BODY_BYTES
 *      (413), arrive within REQUEST_TIMEOUT_SECONDS (408), be valid UTF-8 and JSON nested
 *      at most MAX_JSON_DEPTH levels (400, checked before parsing) and contain no unsafe
 *      text (400 with field errors).
 *   4. Authenticate (cookie or Basic), parse the query and body with zod (400 with every
 *      field error), call the same lib function the server action calls, map failures
 *      to HTTP statuses.
 *
 * Every answer, failures included, is Cache-Control: no-store (as proxy.ts and the
 * server also make sure): some carry secrets, such as a generated SCRAM password.
 */
import { NextResponse } from "next/server";
import type { z } from "zod";
import { viewerForRequest } from "@/lib/auth/current";
import type { Viewer } from "@/lib/auth/sign-in";
import { fieldErrorsOf, HTTP_STATUS, type ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { env } from "@/lib/env";
import { crossSiteRefusal } from "@/lib/api/same-origin";
import { API_CACHE_CONTROL } from "@/lib/api/security-headers";
import {
  decodeStrictUtf8,
  findUnsafeText,
  findUnsafeUrl,
  hasErrors,
  InvalidUtf8Error,
  type FieldErrors,
} from "@/lib/schemas/safe-text";
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from "@/lib/policy";

type Failure = Extract<ActionResult<never>, { ok: false }>;

export function failureResponse(failure: Failure, headers?: HeadersInit): NextResponse {
  const body: Record<string, unknown> = { error: failure.message, code: failure.code };
  if (failure.fieldErrors) body.fieldErrors = failure.fieldErrors;
  return NextResponse.json(body, { status: HTTP_STATUS[failure.code], headers });
}

/** Failures of the HTTP exchange itself, which have no ActionResult code. */
export function httpErrorResponse(status: 405 | 408 | 413 | 415, message: string, headers?: HeadersInit): NextResponse {
  const code = {
    405: "METHOD_NOT_ALLOWED",
    408: "REQUEST_TIMEOUT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
  }[status];
  return NextResponse.json(
    { error: message, code },
    { status, headers: { ...(status === 408 ? { connection: "close" } : {}), ...headers } },
  );
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
  /** The path's `[name]` segments (app/api's dynamic folders), decoded. */
  params: Record<string, string>;
}

/** What Next hands a route handler besides the request: the dynamic segments, as a promise. */
interface RouteSegments {
  params?: Promise<Record<string, string | string[] | undefined>>;
}

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const JSON_REQUIRED_MESSAGE = "Send the request body as JSON, with the header Content-Type: application/json.";

/** `application/json`, optionally with parameters (`; charset=utf-8`); also `application/*+json`. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type = "", ...params] = value.split(";").map((s) => s.trim().toLowerCase());
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) return false;
  const charset = params
    .find((p) => p.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/"/g, "");
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}

function declaresBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return request.headers.has("transfer-encoding");
}

type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; response: NextResponse };

/** The body's bytes, refusing more than `limit` bytes (413) or a body slower than `deadlineMs` (408). */
async function readBodyBytes(request: Request, limit: number, deadlineMs: number): Promise<BodyRead> {
  const tooLarge = (): BodyRead => ({
    ok: false,
    response: httpErrorResponse(413, `The request body is larger than ${limit} bytes.`),
  });
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return tooLarge();
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), deadlineMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "timeout") {
        void reader.cancel().catch(() => undefined);
        const seconds = Math.round(deadlineMs / 100) / 10;
        return {
          ok: false,
          response: httpErrorResponse(408, `The request body did not arrive within ${seconds} seconds.`),
        };
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > limit) {
        void reader.cancel().catch(() => undefined);
        return tooLarge();
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

function unsafeTextFailure(fieldErrors: FieldErrors): NextResponse {
  return failureResponse({
    ok: false,
    code: "VALIDATION",
    message: "The request contains text the console does not accept.",
    fieldErrors,
  });
}

const notJson = () =>
  failureResponse({ ok: false, code: "VALIDATION", message: "The request body must be a JSON document." });
const tooDeep = () =>
  failureResponse({
    ok: false,
    code: "VALIDATION",
    message:
      `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request needs ` +
      `that many.`,
  });

export function apiRoute<Q extends z.ZodType = z.ZodUnknown, B extends z.ZodType = z.ZodUnknown>(
  options: Options<Q, B>,
  handler: (ctx: Context<z.infer<Q>, z.infer<B>>) => Promise<Response | ActionResult<unknown>>,
) {
  const answer = async (request: Request, segments: RouteSegments | undefined): Promise<Response> => {
    try {
      const settings = env();
      const refusal = crossSiteRefusal(request.method, request.headers, {
        allowedOrigins: settings.ALLOWED_ORIGINS,
        trustProxy: settings.TRUST_PROXY,
      });
      if (refusal) return failureResponse({ ok: false, code: "DENIED", message: refusal });

      const url = new URL(request.url);
      const urlProblems = findUnsafeUrl(url);
      if (hasErrors(urlProblems)) return unsafeTextFailure(urlProblems);

      const readsBody = METHODS_WITH_BODY.has(request.method.toUpperCase());
      const bodyExpected = readsBody && (options.body !== undefined || declaresBody(request));
      if (bodyExpected && !isJsonContentType(request.headers.get("content-type"))) {
        return httpErrorResponse(415, JSON_REQUIRED_MESSAGE);
      }

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
        const parsed = options.query.safeParse(Object.fromEntries(url.searchParams));
        if (!parsed.success) return validationFailure(parsed.error);
        query = parsed.data;
      }

      let body: unknown = undefined;
      if (readsBody) {
        const read = await readBodyBytes(request, settings.MAX_BODY_BYTES, settings.REQUEST_TIMEOUT_SECONDS * 1000);
        if (!read.ok) return read.response;
        // A route that reads no body still refuses one that is not JSON (a form post).
        if (read.bytes.byteLength > 0 && !isJsonContentType(request.headers.get("content-type"))) {
          return httpErrorResponse(415, JSON_REQUIRED_MESSAGE);
        }
        if (options.body) {
          let raw: unknown;
          try {
            const text = decodeStrictUtf8(read.bytes);
            if (jsonNestsDeeperThan(text)) return tooDeep();
            raw = JSON.parse(text);
          } catch (error) {
            if (error instanceof InvalidUtf8Error) {
              return failureResponse({
                ok: false,
                code: "VALIDATION",
                message: "The request body is not valid UTF-8 text (invalid or overlong byte sequences).",
              });
            }
            return notJson();
          }
          const unsafe = findUnsafeText(raw);
          if (hasErrors(unsafe)) return unsafeTextFailure(unsafe);
          const parsed = options.body.safeParse(raw);
          if (!parsed.success) return validationFailure(parsed.error);
          body = parsed.data;
        }
      }

      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries((await segments?.params) ?? {}))
        if (typeof value === "string") params[name] = value;
      const result = await handler({
        request,
        viewer: viewer as Viewer,
        query: query as z.infer<Q>,
        body: body as z.infer<B>,
        params,
      });
      if (result instanceof Response) return result;
      if (!result.ok) return failureResponse(result);
      return NextResponse.json(result.data);
    } catch (error) {
      return failureResponse(toErrorResult(error, `${request.method} ${new URL(request.url).pathname}`));
    }
  };
  return async (request: Request, segments?: RouteSegments): Promise<Response> => {
    const response = await answer(request, segments);
    response.headers.set("Cache-Control", API_CACHE_CONTROL);
    return response;
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
