/**
 * How an applied ACL change went, in one word for the audit trail and in sentences for
 * people: pure, so "which half was applied" is unit-tested. A batch where some bindings
 * failed is `partial`, and the message names the ones that were and were not changed.
 */
import { kafkaErrorCode } from "@/lib/kafka/error-result";
import type { AuditOutcome } from "@/lib/db/audit";
import type { AclApplyResult } from "@/lib/schemas/acls";
import { bindingLine } from "./acl-preview";

export type BindingResult = AclApplyResult["results"][number];

/**
 * success: all; partial: some; denied: none, every one refused for a missing permission;
 * failure: none; unknown: Kafka's answer was lost and reading back could not say for some.
 */
export function outcomeOf(results: readonly BindingResult[]): Exclude<AuditOutcome, "pending"> {
  if (results.some((r) => r.readBack === "unknown")) return "unknown";
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) return "success";
  if (failed.length < results.length) return "partial";
  return failed.every((r) => r.error && kafkaErrorCode(r.error.code) === "DENIED") ? "denied" : "failure";
}

/**
 * What reading back after a lost answer showed, in one sentence (null when every answer came):
 * "Kafka's answer was lost; reading back confirms 1 of 2 created." or "… could not be confirmed …".
 */
export function lostAnswerLine(kind: AclApplyResult["kind"], results: readonly BindingResult[]): string | null {
  const lost = results.filter((r) => r.readBack !== undefined);
  if (lost.length === 0) return null;
  const verb = kind === "create" ? "created" : "deleted";
  const unknown = lost.filter((r) => r.readBack === "unknown").length;
  if (unknown > 0) {
    return (
      `Kafka's answer was lost and the ACLs could not be read back: ` +
      `whether ${unknown === 1 ? "1 ACL was" : `${unknown} ACLs were`} ${verb} could not be confirmed; check ` +
      `the ACL list before retrying.`
    );
  }
  return (
    `Kafka's answer was lost; reading back confirms ${lost.filter((r) => r.readBack === "applied").length} ` +
    `of ${lost.length} ${verb}.`
  );
}

/**
 * "Created 1 of 2: …. Not created (1 of 2): …: Kafka's reason.", after what reading back showed when an answer was
 * lost.
 */
export function summary(kind: AclApplyResult["kind"], results: readonly BindingResult[]): string {
  const done = kind === "create" ? "Created" : "Deleted";
  const verb = kind === "create" ? "created" : "deleted";
  const ok = results.filter((r) => r.ok);
  const unconfirmed = results.filter((r) => !r.ok && r.readBack === "unknown");
  const failed = results.filter((r) => !r.ok && r.readBack !== "unknown");
  const lines = (rs: readonly BindingResult[]) =>
    rs.map((r) => `${bindingLine(r)}: ${(r.error?.message ?? "failed").replace(/\.$/, "")}`).join("; ");
  const parts: string[] = [];
  const lost = lostAnswerLine(kind, results);
  if (lost !== null) parts.push(lost);
  if (ok.length > 0)
    parts.push(`${done} ${ok.length} of ${results.length}: ${ok.map((r) => bindingLine(r)).join("; ")}.`);
  if (unconfirmed.length > 0)
    parts.push(
      `Not confirmed ${verb} (${unconfirmed.length} ` +
        `of ${results.length}): ${unconfirmed.map((r) => bindingLine(r)).join("; ")}.`,
    );
  if (failed.length > 0) parts.push(`Not ${verb} (${failed.length} of ${results.length}): ${lines(failed)}.`);
  return parts.join(" ");
}
