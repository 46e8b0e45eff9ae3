/**
 * How an applied ACL change went, in one word for the audit trail and in sentences for
 * people: pure, so "which half was applied" is unit-tested. A batch where some bindings
 * failed is `partial`, and the message names the ones that were and were not changed.
 */
import { kafkaErrorCode } from "@/lib/actions/errors";
import type { AuditOutcome } from "@/lib/db/audit";
import type { AclApplyResult } from "@/lib/schemas/acls";
import { bindingLine } from "./acl-preview";

export type BindingResult = AclApplyResult["results"][number];

/** success: all; partial: some; denied: none, every one refused for a missing permission; failure: none. */
export function outcomeOf(results: readonly BindingResult[]): Exclude<AuditOutcome, "pending" | "unknown"> {
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) return "success";
  if (failed.length < results.length) return "partial";
  return failed.every((r) => r.error && kafkaErrorCode(r.error.code) === "DENIED") ? "denied" : "failure";
}

/** "Created 1 of 2: …. Not created (1 of 2): …: Kafka's reason." */
export function summary(kind: AclApplyResult["kind"], results: readonly BindingResult[]): string {
  const done = kind === "create" ? "Created" : "Deleted";
  const ok = results.filter((r) => r.ok);
  const failed = results.filter((r) => !r.ok);
  const parts: string[] = [];
  if (ok.length > 0) parts.push(`${done} ${ok.length} of ${results.length}: ${ok.map((r) => bindingLine(r)).join("; ")}.`);
  if (failed.length > 0) {
    const verb = kind === "create" ? "created" : "deleted";
    parts.push(`Not ${verb} (${failed.length} of ${results.length}): ${failed.map((r) => `${bindingLine(r)}: ${(r.error?.message ?? "failed").replace(/\.$/, "")}`).join("; ")}.`);
  }
  return parts.join(" ");
}
