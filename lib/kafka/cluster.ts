/**
 * What the signed-in user can see of the cluster. Kafka filters these listings by the
 * caller's ACLs instead of failing: topics need DESCRIBE on the topic, groups DESCRIBE
 * on CLUSTER or on the group, transactional ids DESCRIBE on the id.
 */
import { listGroupsV5, listTransactionsV1, type Connection } from "@platformatic/kafka";
import { withAdmin } from "./client";
import { reachableBrokerConnections, type UnreachableBroker } from "./brokers";
import type { ClusterDescription, ConsumerGroupListing, KafkaCredential, TransactionListing } from "./types";

export async function describeCluster(cred: KafkaCredential): Promise<ClusterDescription> {
  return withAdmin(cred, "Metadata", async (admin) => {
    const md = await admin.metadata({ topics: [], forceUpdate: true });
    return {
      clusterId: md.id,
      controllerId: md.controllerId,
      brokers: [...md.brokers.entries()]
        .map(([id, b]) => ({ id, host: b.host, port: b.port, rack: b.rack ?? null }))
        .sort((a, b) => a.id - b.id),
    };
  });
}

/** Topic names the caller may DESCRIBE, sorted. Internal topics only when asked. */
export async function listTopics(
  cred: KafkaCredential,
  options: { includeInternal?: boolean } = {},
): Promise<string[]> {
  return withAdmin(cred, "Metadata", async (admin) => {
    const topics = await admin.listTopics({ includeInternals: options.includeInternal ?? false });
    return [...topics].sort();
  });
}

/**
 * A listing Kafka answers per broker (each broker lists the groups it coordinates, or the
 * transactions): what the brokers that answered listed, and the brokers that did not —
 * one broker down leaves out only what it coordinates (see unreachableNote), not the rest.
 */
export interface PerBrokerListing<T> {
  items: T[];
  unreachable: UnreachableBroker[];
}

async function perBroker<T>(
  cred: KafkaCredential,
  api: "ListGroups" | "ListTransactions",
  ask: (connection: Connection, brokerId: number) => Promise<T[]>,
): Promise<PerBrokerListing<T>> {
  return withAdmin(cred, api, async (admin) => {
    const { connections, unreachable } = await reachableBrokerConnections(admin);
    const asked = [...connections.entries()];
    const answers = await Promise.allSettled(asked.map(([brokerId, connection]) => ask(connection, brokerId)));
    // Kafka's own refusal (a missing permission) is the answer of every broker, and so is every broker failing: the
    // caller reports it.
    const failed = answers.filter((a): a is PromiseRejectedResult => a.status === "rejected");
    const refusal = failed.find((a) => isKafkaProtocolError(a.reason));
    if (refusal) throw refusal.reason;
    if (failed.length === answers.length) throw failed[0]!.reason;
    const items: T[] = [];
    const missing = [...unreachable];
    answers.forEach((answer, i) => {
      const [id, connection] = asked[i]!;
      if (answer.status === "fulfilled") items.push(...answer.value);
      else
        missing.push({
          id,
          host: connection.host ?? "",
          port: connection.port ?? 0,
          reason: answer.reason instanceof Error ? answer.reason.message : String(answer.reason),
        });
    });
    return { items, unreachable: missing };
  });
}

function isKafkaProtocolError(error: unknown): boolean {
  const e = error as { code?: string; apiCode?: number; errors?: unknown[] };
  if (typeof e?.apiCode === "number" && e.apiCode !== 0) return true;
  return Array.isArray(e?.errors) && e.errors.some(isKafkaProtocolError);
}

/**
 * "Broker 2 (host:9092) did not answer: what it coordinates is not listed." — for pages and notes; null when every
 * broker answered.
 */
export function unreachableNote(unreachable: readonly UnreachableBroker[], what: string): string | null {
  if (unreachable.length === 0) return null;
  const names = unreachable.map((b) => (b.host ? `broker ${b.id} (${b.host}:${b.port})` : `broker ${b.id}`));
  return (
    `${names.join(", ").replace(/^./, (c) => c.toUpperCase())} did not answer: ` +
    `the ${what} ${unreachable.length === 1 ? "it coordinates" : "they coordinate"} are not listed.`
  );
}

/**
 * Every group type (classic, consumer, share, streams) the caller may DESCRIBE, sorted by id, from every broker that
 * answers.
 */
export async function listConsumerGroupsPerBroker(
  cred: KafkaCredential,
): Promise<PerBrokerListing<ConsumerGroupListing>> {
  const listing = await perBroker(cred, "ListGroups", async (connection) => {
    const response = await listGroupsV5.api.async(connection, [], []);
    return response.groups.map((g) => ({
      groupId: g.groupId,
      state: g.groupState || "Unknown",
      protocolType: g.protocolType,
      groupType: g.groupType ?? "",
    }));
  });
  return { items: listing.items.sort((a, b) => a.groupId.localeCompare(b.groupId)), unreachable: listing.unreachable };
}

/** The groups of listConsumerGroupsPerBroker (those of brokers that did not answer left out). */
export async function listConsumerGroups(cred: KafkaCredential): Promise<ConsumerGroupListing[]> {
  return (await listConsumerGroupsPerBroker(cred)).items;
}

/** Transactional ids the caller may DESCRIBE, from every broker's transaction coordinator that answers. */
export async function listTransactionalIdsPerBroker(
  cred: KafkaCredential,
): Promise<PerBrokerListing<TransactionListing>> {
  const listing = await perBroker(cred, "ListTransactions", async (connection, brokerId) => {
    const response = await listTransactionsV1.api.async(connection, [], [], -1n, null);
    return response.transactionStates.map((t) => ({
      transactionalId: t.transactionalId,
      producerId: t.producerId.toString(),
      state: t.transactionState,
      brokerId,
    }));
  });
  return {
    items: listing.items.sort((a, b) => a.transactionalId.localeCompare(b.transactionalId)),
    unreachable: listing.unreachable,
  };
}

/** The transactional ids of listTransactionalIdsPerBroker. */
export async function listTransactionalIds(cred: KafkaCredential): Promise<TransactionListing[]> {
  return (await listTransactionalIdsPerBroker(cred)).items;
}

/** Deletes empty consumer groups (DELETE on each group). */
export async function deleteConsumerGroups(cred: KafkaCredential, groupIds: string[]): Promise<void> {
  if (groupIds.length === 0) return;
  const resources = groupIds.length === 1 && groupIds[0] ? { GROUP: groupIds[0] } : {};
  await withAdmin(cred, { api: "DeleteGroups", resources }, (admin) => admin.deleteGroups({ groups: groupIds }));
}
