/**
 * Turns anything thrown below the action layer into an ActionResult failure. Kafka's
 * own refusals keep their (already human-readable) message; anything unexpected is
 * logged once here and the user sees a generic message.
 */
import { KafkaOperationError } from "@/lib/kafka/errors";
import { GENERIC_ERROR_MESSAGE, type ActionResult, type ErrorCode } from "@/lib/actions/result";

type Failure = Extract<ActionResult<never>, { ok: false }>;

export function kafkaErrorCode(code: string): ErrorCode {
  if (code === "SASL_AUTHENTICATION_FAILED" || code === "ILLEGAL_SASL_STATE" || code === "UNSUPPORTED_SASL_MECHANISM") {
    return "INVALID_CREDENTIALS";
  }
  if (code.endsWith("AUTHORIZATION_FAILED") || code === "DELEGATION_TOKEN_OWNER_MISMATCH") return "DENIED";
  if (code === "BROKER_UNAVAILABLE" || code === "NETWORK_EXCEPTION" || code === "REQUEST_TIMED_OUT") return "BROKER_UNAVAILABLE";
  if (code.endsWith("NOT_FOUND") || code.startsWith("UNKNOWN_")) return "NOT_FOUND";
  if (code === "INVALID_REQUEST" || code.startsWith("INVALID_")) return "VALIDATION";
  return "KAFKA_ERROR";
}

export function toErrorResult(error: unknown, doing: string): Failure {
  if (error instanceof KafkaOperationError) {
    return { ok: false, code: kafkaErrorCode(error.code), message: error.message };
  }
  // Only the stack: whole error objects can carry request options (credentials) along.
  console.error(`[console] unexpected error while trying to ${doing}:`, error instanceof Error ? (error.stack ?? error.message) : String(error));
  return { ok: false, code: "INTERNAL", message: GENERIC_ERROR_MESSAGE };
}
