/**
 * The one way the console changes anything in Kafka: record the intent, make the call,
 * record the outcome. So the trail never misses a change made through the console:
 *
 * - The intent row (outcome "pending") is written first. If the database cannot take it,
 *   nothing is sent to Kafka and the caller gets a failure saying so.
 * - The Kafka call runs. Whatever it returns (or throws) is turned into the outcome.
 * - The mutation reaches Kafka's writes only through the KafkaWriter it is handed, open
 *   while it runs: lib/kafka/writes is imported here and nowhere else (the Kafka write fence
 *   in eslint.config.js), so no change to Kafka can skip the trail.
 * - Each write of ACLs, client quotas or SCRAM credentials is journalled through the writer's
 *   observer (lib/services/journal-writes.ts): a pending journal intent before it is sent, the
 *   journal entries (linked to this audit row and the plan) after it succeeded.
 * - The outcome is written onto the same row. If that write fails, the row stays
 *   "pending" (visible on the Audit page as "outcome unknown"), the error is logged, and
 *   the caller still gets the result of the change: it happened, and the trail says an
 *   attempt was made.
 *
 * Input should already be validated (lib/schemas and the API wrapper refuse NUL, other
 * control characters and lone surrogates as field errors). The wrapper checks again, on
 * what it is about to record, whoever the caller is: such text is refused with field
 * errors keyed like the request ("bindings.0.principal"), before the intent and before
 * Kafka, since the database could not store it and the trail would miss the change.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { completeAudit, recordIntent, type AuditCategory, type AuditCompletion } from "@/lib/db/audit";
import { KafkaOperationError } from "@/lib/kafka/errors";
import { openKafkaWriter, type KafkaWriter } from "@/lib/kafka/writes";
import type { KafkaCredential } from "@/lib/kafka/types";
import { clusterIdOf } from "@/lib/clusters";
import { findUnsafeText, hasErrors, type FieldErrors } from "@/lib/schemas/safe-text";
import { journalObserver, JournalUnavailableError } from "./journal-writes";

type Failure = Extract<ActionResult<never>, { ok: false }>;

export type { KafkaWriter };

export interface MutationSpec {
  /** Who acts, and (through the credential) on which cluster; without a credential the default cluster. */
  viewer: Pick<Viewer, "principal"> & { credential?: Pick<KafkaCredential, "clusterId"> };
  /** Dotted verb, e.g. acl.create, quota.alter, token.create. */
  action: string;
  category: AuditCategory;
  /** Human-readable object of the change. */
  target: string;
  /** What was asked (secrets are redacted by the audit writer). */
  request?: unknown;
  /** State before the change, when known up front. */
  before?: unknown;
  subjects?: string[];
  planId?: string | null;
}

/** What a mutation returns: the caller's result plus what the audit row should say. */
export interface MutationOutcome<T> {
  result: ActionResult<T>;
  audit: AuditCompletion;
}

export const UNSAFE_TEXT_MESSAGE =
  "Nothing was changed: some fields contain characters the console does not accept (NUL, control characters or " +
  "invalid Unicode).";

/** Field errors for unsafe text in what the intent would record (request paths; "_" for the rest). */
export function unsafeSpecText(
  spec: Pick<MutationSpec, "request" | "before" | "target" | "subjects" | "action">,
): FieldErrors {
  const errors = findUnsafeText(spec.request ?? null);
  const rest = findUnsafeText([spec.action, spec.target, spec.subjects ?? [], spec.before ?? null]);
  if (hasErrors(rest) && !hasErrors(errors)) errors._ = [...new Set(Object.values(rest).flat())];
  return errors;
}

export const AUDIT_UNAVAILABLE_MESSAGE =
  "Nothing was changed: the console could not record the change in its audit trail (database unavailable). Try " +
  "again when the database is back.";

/**
 * One line for the log about a failed audit write. Prisma's messages quote the calling
 * source and can echo arguments; the last line is its reason ("Can't reach database server").
 */
function writeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines = error.message
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const code = (error as { code?: unknown }).code;
  return `${typeof code === "string" ? `${code} ` : ""}${lines[lines.length - 1] ?? error.name}`;
}

/**
 * Runs `change` between an intent and an outcome record, handing it the KafkaWriter it
 * makes its writes with (closed once `change` settles). `change` may throw: a
 * KafkaOperationError becomes a denied/failure outcome, anything else "unknown" (the
 * call may or may not have reached Kafka).
 */
export async function auditedMutation<T>(
  spec: MutationSpec,
  change: (kafka: KafkaWriter) => Promise<MutationOutcome<T>>,
): Promise<ActionResult<T>> {
  const unsafe = unsafeSpecText(spec);
  if (hasErrors(unsafe)) return { ok: false, code: "VALIDATION", message: UNSAFE_TEXT_MESSAGE, fieldErrors: unsafe };

  let intentId: string;
  const clusterId = clusterIdOf(spec.viewer.credential ?? {});
  try {
    const intent = await recordIntent({
      principal: spec.viewer.principal,
      action: spec.action,
      category: spec.category,
      target: spec.target,
      request: spec.request,
      before: spec.before,
      subjects: spec.subjects ? [...new Set(spec.subjects)] : undefined,
      planId: spec.planId ?? null,
      clusterId,
    });
    intentId = intent.id;
  } catch (error) {
    console.error(
      `[console] audit intent for ${spec.action} could not be written, nothing was changed: ${writeFailure(error)}`,
    );
    return { ok: false, code: "INTERNAL", message: AUDIT_UNAVAILABLE_MESSAGE };
  }

  let outcome: MutationOutcome<T>;
  // Its writes of ACLs, quotas and SCRAM credentials enter the journal (#20) as they happen.
  const kafka = openKafkaWriter(
    journalObserver({ clusterId, auditId: intentId, planId: spec.planId ?? null, actor: spec.viewer.principal }),
  );
  try {
    outcome = await change(kafka.writer);
  } catch (error) {
    if (error instanceof JournalUnavailableError) {
      // Refused before anything was sent: a failure, not an unknown outcome.
      outcome = {
        result: { ok: false, code: "INTERNAL", message: error.message },
        audit: { outcome: "failure", kafkaError: null, message: error.message },
      };
    } else {
      const failure: Failure = toErrorResult(error, spec.action);
      const known = error instanceof KafkaOperationError;
      outcome = {
        result: failure,
        audit: {
          outcome: known ? (failure.code === "DENIED" ? "denied" : "failure") : "unknown",
          kafkaError: known ? error.code : null,
          message: failure.message,
        },
      };
    }
  } finally {
    kafka.close();
  }

  // One retry for a passing blip; after that the row stays "pending" (outcome unknown to the trail).
  for (let attempt = 1; ; attempt++) {
    try {
      await completeAudit(intentId, outcome.audit);
      break;
    } catch (error) {
      if (attempt < 2) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      console.error(
        `[console] audit outcome of ${spec.action} (event ${intentId}) could not be written; the event stays ` +
          `"pending": ${writeFailure(error)}`,
      );
      break;
    }
  }
  return outcome.result;
}

/** The audit outcome matching a failure result. */
export function failureOutcome(failure: Failure, kafkaError: string | null = null): AuditCompletion {
  return { outcome: failure.code === "DENIED" ? "denied" : "failure", kafkaError, message: failure.message };
}
