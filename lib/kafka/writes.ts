/**
 * Every call of the adapter that changes something in Kafka. The console makes a change
 * only through auditedMutation (lib/services/audited-mutation.ts), which records the
 * intent, hands the mutation a KafkaWriter for the length of the call and records the
 * outcome; so nothing outside that wrapper imports this module (the Kafka write fence in
 * eslint.config.js). Named exemptions: lib/kafka itself, the demo seed, the benches and
 * measurement scripts, and tests, which set up and clean up the broker they run against.
 *
 * lib/kafka/index.ts exports only what reads (describe, list, Kafka's validateOnly).
 */
import { createAcls, deleteAcls } from "./acls";
import type { KafkaWriteName, KafkaWriteObserver } from "./types";
import { alterClientQuotas } from "./quotas";
import { deleteScramCredential, upsertScramCredential } from "./scram";
import { createDelegationToken, expireDelegationToken, renewDelegationToken } from "./tokens";

export { createAcls, deleteAcls } from "./acls";
export { alterClientQuotas } from "./quotas";
export { deleteScramCredential, upsertScramCredential } from "./scram";
export { createDelegationToken, expireDelegationToken, renewDelegationToken } from "./tokens";
export { deleteConsumerGroups } from "./cluster";
export {
  consumeWithGroup,
  createTopics,
  deleteTopics,
  produce,
  produceTransactional,
  type TopicSpec,
} from "./data-plane";

/** The writes the console's changes make (the data-plane helpers above are for the seed and tests only). */
const WRITES = {
  createAcls,
  deleteAcls,
  alterClientQuotas,
  upsertScramCredential,
  deleteScramCredential,
  createDelegationToken,
  renewDelegationToken,
  expireDelegationToken,
} as const satisfies Record<KafkaWriteName, unknown>;

/**
 * The handle through which a mutation changes Kafka: the same functions, with the same
 * arguments (the credential first), usable only while its audited mutation runs.
 */
export type KafkaWriter = { readonly [K in keyof typeof WRITES]: (typeof WRITES)[K] };

/** The message of a write made through a KafkaWriter after its audited mutation ended. */
export const WRITER_CLOSED_MESSAGE =
  "Kafka write refused: its audited mutation had already ended (keep the writer inside the mutation).";

/**
 * A fresh KafkaWriter and the function that closes it: from then on each of its writes
 * fails (before anything is sent) instead of changing Kafka outside the audit trail.
 */
export function openKafkaWriter(observer?: KafkaWriteObserver): { writer: KafkaWriter; close: () => void } {
  let open = true;
  const writer: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, write] of Object.entries(WRITES) as [KafkaWriteName, (...args: never[]) => Promise<unknown>][]) {
    writer[name] = async (...args) => {
      if (!open) throw new Error(`${WRITER_CLOSED_MESSAGE} (${name})`);
      if (!observer) return write(...args);
      const token = await observer.before(name, args);
      let result: unknown;
      try {
        result = await write(...args);
      } catch (error) {
        await observer.after(token, { ok: false, error });
        throw error;
      }
      await observer.after(token, { ok: true, result });
      return result;
    };
  }
  return { writer: Object.freeze(writer) as unknown as KafkaWriter, close: () => void (open = false) };
}
