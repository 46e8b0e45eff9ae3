/**
 * What every server action and route handler returns to the browser. Expected
 * failures (bad input, Kafka said no, not found) are values with a message written
 * for a person; unexpected ones are logged once on the server and reach the user as
 * a generic message, never as an arbitrary `e.message` or a stack trace.
 */

export type ErrorCode =
  | "VALIDATION"
  | "UNAUTHENTICATED"
  | "INVALID_CREDENTIALS"
  | "THROTTLED"
  | "DENIED"
  | "NOT_FOUND"
  | "CONFLICT"
  | "KAFKA_ERROR"
  | "BROKER_UNAVAILABLE"
  /** Principal mapping rules that would take longer than one request may (the regex step budget or time limit). */
  | "RULES_TOO_COSTLY"
  | "INTERNAL";

export type ActionResult<T> =
  { ok: true; data: T } | { ok: false; code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> };

export const GENERIC_ERROR_MESSAGE =
  "Something went wrong on the console's side. It has been logged; please try again.";

export function fieldErrorsOf(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export const HTTP_STATUS: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  THROTTLED: 429,
  DENIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  KAFKA_ERROR: 502,
  BROKER_UNAVAILABLE: 503,
  RULES_TOO_COSTLY: 422,
  INTERNAL: 500,
};
