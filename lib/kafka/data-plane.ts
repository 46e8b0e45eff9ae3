/**
 * Topics and records, as the signed-in user: create and delete topics, produce, consume
 * with a group, and produce in a transaction. The console itself is an admin tool; these
 * exist for the demo seed and for tests that prove what an ACL lets a principal do.
 */
import {
  addPartitionsToTxnV3,
  Consumer,
  kGetApi,
  Producer,
  stringDeserializers,
  stringSerializers,
} from "@platformatic/kafka";
import { kafkaConfigOf, principalOf, saslOf, withAdmin } from "./client";
import { findProtocolError, toKafkaOperationError, type KafkaErrorInfo, errorInfoFor } from "./errors";
import type { KafkaCredential } from "./types";

function baseOptions(cred: KafkaCredential) {
  const config = kafkaConfigOf(cred);
  return {
    clientId: config.clientId,
    bootstrapBrokers: config.bootstrapServers,
    sasl: saslOf(cred),
    ...(config.tls ? { tls: config.tls } : {}),
    connectTimeout: 5_000,
    retries: 1,
    retryDelay: 250,
  };
}

export interface TopicSpec {
  name: string;
  partitions?: number;
}

/** Creates each topic; a topic that already exists counts as created (`existed: true`). */
export async function createTopics(
  cred: KafkaCredential,
  topics: TopicSpec[],
): Promise<{ name: string; existed: boolean; error: KafkaErrorInfo | null }[]> {
  return withAdmin(cred, "CreateTopics", async (admin) => {
    const results = [];
    for (const topic of topics) {
      try {
        await admin.createTopics({ topics: [topic.name], partitions: topic.partitions ?? 1, replicas: -1 });
        results.push({ name: topic.name, existed: false, error: null });
      } catch (error) {
        const protocol = findProtocolError(error);
        if (protocol?.code === "TOPIC_ALREADY_EXISTS") {
          results.push({ name: topic.name, existed: true, error: null });
        } else if (protocol) {
          const info = errorInfoFor(protocol.code, protocol.kafkaMessage, {
            api: "CreateTopics",
            principal: principalOf(cred),
            resources: { TOPIC: topic.name },
          });
          results.push({ name: topic.name, existed: false, error: info });
        } else {
          throw error;
        }
      }
    }
    return results;
  });
}

export async function deleteTopics(cred: KafkaCredential, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await withAdmin(
    cred,
    { api: "DeleteTopics", resources: names.length === 1 && names[0] ? { TOPIC: names[0] } : {} },
    (admin) => admin.deleteTopics({ topics: names }),
  );
}

/** Produces string records (acks=all, idempotent off so no IDEMPOTENT_WRITE is needed). */
export async function produce(
  cred: KafkaCredential,
  topic: string,
  records: { key?: string; value: string }[],
): Promise<void> {
  const producer = new Producer({ ...baseOptions(cred), serializers: stringSerializers, idempotent: false, acks: -1 });
  try {
    await producer.send({ messages: records.map((r) => ({ topic, key: r.key ?? "", value: r.value })) });
  } catch (error) {
    throw toKafkaOperationError(error, { api: "Produce", principal: principalOf(cred), resources: { TOPIC: topic } });
  } finally {
    await producer.close().catch(() => undefined);
  }
}

/** Produces records inside one committed transaction under `transactionalId`. */
export async function produceTransactional(
  cred: KafkaCredential,
  transactionalId: string,
  topic: string,
  records: { key?: string; value: string }[],
): Promise<void> {
  // producerId/epoch -1 = "no previous producer": without it the client sends 0/0 and
  // Kafka fences every new producer of a transactional id that was used before.
  const producer = new Producer({
    ...baseOptions(cred),
    serializers: stringSerializers,
    idempotent: true,
    transactionalId,
    producerId: -1n,
    producerEpoch: -1,
  });
  pinClientAddPartitionsToTxn(producer);
  try {
    const tx = await producer.beginTransaction();
    await tx.send({ messages: records.map((r) => ({ topic, key: r.key ?? "", value: r.value })) });
    await tx.commit();
  } catch (error) {
    throw toKafkaOperationError(error, {
      api: apiForDenial(error, { TOPIC_AUTHORIZATION_FAILED: "Produce" }, "InitProducerId"),
      principal: principalOf(cred),
      resources: { TRANSACTIONAL_ID: transactionalId, TOPIC: topic },
    });
  } finally {
    await producer.close().catch(() => undefined);
  }
}

/**
 * Joins `groupId`, reads `topic` from the group's committed offset (earliest when none),
 * commits what it read and leaves. Stops after `max` records or `timeoutMs` of waiting.
 */
export async function consumeWithGroup(
  cred: KafkaCredential,
  groupId: string,
  topic: string,
  options: { max?: number; timeoutMs?: number } = {},
): Promise<{ key: string; value: string }[]> {
  const max = options.max ?? 100;
  const consumer = new Consumer({
    ...baseOptions(cred),
    groupId,
    deserializers: stringDeserializers,
    maxWaitTime: 200,
  });
  const received: { key: string; value: string }[] = [];
  try {
    const stream = await consumer.consume({
      topics: [topic],
      mode: "committed",
      fallbackMode: "earliest",
      autocommit: false,
    });
    const timer = setTimeout(() => void stream.close().catch(() => undefined), options.timeoutMs ?? 5_000);
    try {
      for await (const message of stream) {
        received.push({ key: String(message.key ?? ""), value: String(message.value ?? "") });
        await message.commit();
        if (received.length >= max) break;
      }
    } finally {
      clearTimeout(timer);
      await stream.close().catch(() => undefined);
    }
    return received;
  } catch (error) {
    const api = apiForDenial(error, { TOPIC_AUTHORIZATION_FAILED: "Fetch" }, "JoinGroup");
    throw toKafkaOperationError(error, {
      api,
      principal: principalOf(cred),
      resources: { GROUP: groupId, TOPIC: topic },
    });
  } finally {
    await consumer.close().catch(() => undefined);
  }
}

type GetApi = (name: string, callback: (error: Error | null, api?: unknown) => void) => void;

/**
 * The client picks the highest AddPartitionsToTxn version the broker offers (v5), but
 * v4+ is the broker-to-broker batch form (KIP-890) and needs CLUSTER_ACTION on the
 * cluster, so every non-super-user transaction fails. Kafka's own producer sends v3 at
 * most; so does this one. The v3 module takes the same arguments.
 */
function pinClientAddPartitionsToTxn(producer: Producer<string, string, string, string>): void {
  const target = producer as unknown as Record<typeof kGetApi, GetApi>;
  const original = target[kGetApi].bind(producer);
  target[kGetApi] = (name, callback) =>
    name === "AddPartitionsToTxn" ? callback(null, addPartitionsToTxnV3.api) : original(name, callback);
}

/** The API whose check a data-plane authorization error comes from, for the message. */
function apiForDenial(error: unknown, byCode: Record<string, string>, fallback: string): string {
  const code = findProtocolError(error)?.code;
  return (code && byCode[code]) ?? fallback;
}
