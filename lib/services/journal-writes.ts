/**
 * The console's own changes in the journal (#20, docs/history.md), at once: auditedMutation
 * hands every KafkaWriter this observer, so each write of ACLs, client quotas or SCRAM
 * credentials
 *
 *   1. records a pending journal intent first (what it means to change, or its ACL delete
 *      filters); if that cannot be written, nothing is sent to Kafka;
 *   2. after a success, records journal entries linked to the audit row, plan and actor, and
 *      removes the intent (one transaction);
 *   3. after a refusal, removes the intent;
 *   4. after an outcome the console cannot know (an answer lost, a read-back that could not
 *      confirm), keeps the intent: the next background read settles it, recording a change it
 *      matches as the console's (lib/services/journal.ts), never as an outside one.
 *
 * Token writes are not journalled (tokens are not part of the security state the journal keeps).
 */
import "server-only";
import { isKafkaOperationError, SCRAM_DEFAULT_ITERATIONS } from "@/lib/kafka";
import type {
  AlterClientQuotaResult,
  CreateAclResult,
  DeleteAclsResult,
  KafkaWriteName,
  KafkaWriteObserver,
  QuotaAlteration,
  ScramMechanism,
} from "@/lib/kafka";
import { recordJournalIntent, settleJournalIntent, type IntentOutcome } from "@/lib/db/journal";
import { aclKey, quotaKey, scramKey, type Change } from "@/lib/policy/history";
import type { AclBinding, AclBindingFilter } from "@/lib/policy/types";

export interface JournalContext {
  clusterId: string;
  auditId: string;
  planId: string | null;
  actor: string;
}

interface Intended {
  changes: Change[];
  aclDeleteFilters: AclBindingFilter[];
}

/** What a write means to change, or null when it changes nothing the journal keeps. */
export function intendedChanges(name: KafkaWriteName, args: readonly unknown[]): Intended | null {
  const intended = intendedOf(name, args);
  return intended && (intended.changes.length > 0 || intended.aclDeleteFilters.length > 0) ? intended : null;
}

function intendedOf(name: KafkaWriteName, args: readonly unknown[]): Intended | null {
  switch (name) {
    case "createAcls":
      return {
        changes: (args[1] as AclBinding[]).map((b) => ({ key: aclKey(b), op: "appeared", value: true })),
        aclDeleteFilters: [],
      };
    case "deleteAcls":
      return { changes: [], aclDeleteFilters: args[1] as AclBindingFilter[] };
    case "alterClientQuotas":
      if (args[2] === true) return null; // validateOnly: Kafka's own check, nothing applied
      return {
        changes: (args[1] as QuotaAlteration[]).flatMap((a) =>
          a.ops.map((op) =>
            op.value === null
              ? { key: quotaKey(a.entity, op.key), op: "disappeared" as const, value: null }
              : { key: quotaKey(a.entity, op.key), op: "appeared" as const, value: op.value },
          ),
        ),
        aclDeleteFilters: [],
      };
    case "upsertScramCredential":
      return {
        changes: [
          {
            key: scramKey(args[1] as string, args[2] as ScramMechanism),
            op: "appeared",
            value: (args[4] as number | undefined) ?? SCRAM_DEFAULT_ITERATIONS,
          },
        ],
        aclDeleteFilters: [],
      };
    case "deleteScramCredential":
      return {
        changes: [{ key: scramKey(args[1] as string, args[2] as ScramMechanism), op: "disappeared", value: null }],
        aclDeleteFilters: [],
      };
    default:
      return null;
  }
}

/** What the write's result says it changed, and whether part of it is unknown. */
export function appliedChanges(
  name: KafkaWriteName,
  intended: Intended,
  result: unknown,
): { changes: Change[]; partlyUnknown: boolean } {
  switch (name) {
    case "createAcls": {
      const rs = result as CreateAclResult[];
      return {
        changes: rs
          .filter((r) => r.error === null)
          .map((r) => ({ key: aclKey(r.binding), op: "appeared", value: true })),
        partlyUnknown: rs.some((r) => r.readBack === "unknown"),
      };
    }
    case "deleteAcls": {
      const rs = result as DeleteAclsResult[];
      const keys = new Set(rs.flatMap((r) => (r.error === null ? r.deleted.map(aclKey) : [])));
      return {
        changes: [...keys].map((key) => ({ key, op: "disappeared", value: null })),
        partlyUnknown: rs.some((r) => r.readBack === "unknown"),
      };
    }
    case "alterClientQuotas": {
      const rs = result as AlterClientQuotaResult[];
      const failed = new Set(
        rs.filter((r) => r.error !== null).flatMap((r) => intendedChangesOfEntity(intended, r.entity)),
      );
      return {
        changes: intended.changes.filter((c) => !failed.has(c.key)),
        partlyUnknown: rs.some((r) => r.outcomeUnknown === true),
      };
    }
    default:
      return { changes: intended.changes, partlyUnknown: false };
  }
}

function intendedChangesOfEntity(intended: Intended, entity: AlterClientQuotaResult["entity"]): string[] {
  const prefix = quotaKey(entity, "producer_byte_rate").slice(0, -'"producer_byte_rate"]'.length);
  return intended.changes.filter((c) => c.key.startsWith(prefix)).map((c) => c.key);
}

/** A thrown error that says Kafka refused (nothing applied), as opposed to an answer that was lost. */
function refused(error: unknown): boolean {
  if (!isKafkaOperationError(error)) return false;
  return !["BROKER_UNAVAILABLE", "UNKNOWN", "REQUEST_TIMED_OUT", "NETWORK_EXCEPTION"].includes(error.code);
}

/** The journal intent could not be written: nothing was sent to Kafka. */
export class JournalUnavailableError extends Error {
  override name = "JournalUnavailableError";
}

export const JOURNAL_UNAVAILABLE_MESSAGE =
  "Nothing was sent to Kafka: the console could not record the change in its journal (database unavailable). " +
  "Try again when the database is back.";

/** The observer auditedMutation hands the KafkaWriter of one audited change. */
export function journalObserver(context: JournalContext): KafkaWriteObserver {
  return {
    async before(name, args) {
      const intended = intendedChanges(name, args);
      if (intended === null) return null;
      try {
        const id = await recordJournalIntent({ ...context, ...intended });
        return { id, name, intended };
      } catch (error) {
        console.error(
          `[console] journal intent of ${name} (audit ${context.auditId}) could not be written, nothing was sent: ` +
            `${error instanceof Error ? (error.message.split("\n").pop() ?? error.name) : String(error)}`,
        );
        throw new JournalUnavailableError(JOURNAL_UNAVAILABLE_MESSAGE);
      }
    },
    async after(token, outcome) {
      if (token === null) return;
      const { id, name, intended } = token as { id: string; name: KafkaWriteName; intended: Intended };
      let settled: IntentOutcome;
      if (!outcome.ok) settled = refused(outcome.error) ? { kind: "failed" } : { kind: "unknown" };
      else {
        const applied = appliedChanges(name, intended, outcome.result);
        settled = { kind: "applied", changes: applied.changes, at: new Date(), partlyUnknown: applied.partlyUnknown };
      }
      try {
        await settleJournalIntent(id, settled);
      } catch (error) {
        // The intent stays open: the next read settles it as the console's change.
        console.error(
          `[console] journal entries of ${name} (audit ${context.auditId}) could not be written; the next read ` +
            `settles them: ${error instanceof Error ? (error.message.split("\n").pop() ?? error.name) : String(error)}`,
        );
      }
    },
  };
}
