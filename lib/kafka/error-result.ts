/**
 * Turns anything thrown below the action layer into an ActionResult failure. Kafka's
 * own refusals keep their (already human-readable) message; anything unexpected is
 * logged once here and the user sees a generic message.
 */
import { KafkaOperationError } from "@/lib/kafka/errors";
import { GENERIC_ERROR_MESSAGE, type ActionResult } from "@/lib/schemas/result";
import { kafkaErrorCode } from "@/lib/kafka/error-status";

export { kafkaErrorCode };

type Failure = Extract<ActionResult<never>, { ok: false }>;

export function toErrorResult(error: unknown, doing: string): Failure {
  if (error instanceof KafkaOperationError) {
    return { ok: false, code: kafkaErrorCode(error.code), message: error.message };
  }
  // Only the stack: whole error objects can carry request options (credentials) along.
  console.error(
    `[console] unexpected error while trying to ${doing}:`,
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
  return { ok: false, code: "INTERNAL", message: GENERIC_ERROR_MESSAGE };
}
