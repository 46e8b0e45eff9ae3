/**
 * ACL writes whose answer was lost, settled by reading Kafka back (pure: which errors lose
 * an answer, and what a read-back proves). A CreateAcls or DeleteAcls whose connection
 * closed or timed out mid-request may have been committed by the controller all the same
 * (a broker stopped while the console waited: the ACL was there after the restart), so
 * such a failure is not a failure until reading back shows the change is not there:
 *
 *   shown by a read           -> applied (confirmed by reading back)
 *   reads work, never shown   -> not-applied (after LOST_ANSWER_WAIT_MS of reading)
 *   no read works             -> unknown: nobody can say; the console says so
 */
import { bindingKey } from "@/lib/policy/acl";
import type { AclBinding, AclBindingFilter } from "@/lib/policy/types";
import type { KafkaErrorInfo } from "./errors";
import type { ReadBack } from "./types";

/**
 * Errors after which Kafka may or may not have made the change: its answer was lost (the
 * connection closed or timed out: BROKER_UNAVAILABLE here, NETWORK_EXCEPTION), or the
 * broker's forward to the controller timed out. Kafka's refusals are answers: not here.
 */
const ANSWER_LOST = new Set([
  "BROKER_UNAVAILABLE",
  "NETWORK_EXCEPTION",
  "REQUEST_TIMED_OUT",
  "UNKNOWN",
  "UNKNOWN_SERVER_ERROR",
]);

/** How long a write whose answer was lost is read back (a controller election takes a few seconds). */
export const ACL_READ_BACK_MS = 10_000;

export function isAnswerLost(code: string): boolean {
  return ANSWER_LOST.has(code);
}

/** The binding an exact filter names (every field set), or null for a filter that can match several. */
export function exactBinding(filter: AclBindingFilter): AclBinding | null {
  const { resourceType, resourceName, patternType, principal, host, operation, permissionType } = filter;
  if (resourceType === "ANY" || resourceName === null || (patternType !== "LITERAL" && patternType !== "PREFIXED"))
    return null;
  if (principal === null || host === null || operation === "ANY" || permissionType === "ANY") return null;
  return { resourceType, resourceName, patternType, principal, host, operation, permissionType };
}

/**
 * Each binding of a write whose answer (`lost`) was lost, as reading back settled it:
 * `shown` holds the keys some read showed written (present after a create, absent after a
 * delete), `readable` whether any read was answered at all.
 */
export function settleLostWrite(
  kind: "create" | "delete",
  bindings: readonly AclBinding[],
  lost: KafkaErrorInfo,
  shown: ReadonlySet<string>,
  readable: boolean,
): { binding: AclBinding; readBack: ReadBack; error: KafkaErrorInfo | null }[] {
  const cause =
    lost.code === "BROKER_UNAVAILABLE"
      ? "the connection to the broker closed or timed out mid-request"
      : lost.message.replace(/\.$/, "");
  const done = kind === "create" ? "created" : "deleted";
  return bindings.map((binding) => {
    if (shown.has(bindingKey(binding))) return { binding, readBack: "applied", error: null };
    if (readable) {
      const message =
        `Kafka's answer was lost (${cause}); reading the ACLs back for ${ACL_READ_BACK_MS / 1000} s ` +
        `shows it was not ${done}.`;
      return { binding, readBack: "not-applied", error: { ...lost, message } };
    }
    const message =
      `Kafka's answer was lost (${cause}) and the ACLs could not be read back, so whether it ` +
      `was ${done} could not be confirmed: check the ACL list before retrying.`;
    return { binding, readBack: "unknown", error: { ...lost, message } };
  });
}
