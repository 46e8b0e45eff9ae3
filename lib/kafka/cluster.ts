/**
 * What the signed-in user can see of the cluster. Kafka filters these listings by the
 * caller's ACLs instead of failing: topics need DESCRIBE on the topic, groups DESCRIBE
 * on CLUSTER or on the group, transactional ids DESCRIBE on the id.
 */
import { listTransactionsV1 } from "@platformatic/kafka";
import { allBrokerConnections, withAdmin } from "./client";
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
export async function listTopics(cred: KafkaCredential, options: { includeInternal?: boolean } = {}): Promise<string[]> {
  return withAdmin(cred, "Metadata", async (admin) => {
    const topics = await admin.listTopics({ includeInternals: options.includeInternal ?? false });
    return [...topics].sort();
  });
}

/** Every group type (classic, consumer, share, streams) the caller may DESCRIBE, sorted by id. */
export async function listConsumerGroups(cred: KafkaCredential): Promise<ConsumerGroupListing[]> {
  return withAdmin(cred, "ListGroups", async (admin) => {
    const groups = await admin.listGroups({ types: [] });
    return [...groups.values()]
      .map((g) => ({ groupId: g.id, state: String(g.state), protocolType: g.protocolType, groupType: g.groupType ?? "" }))
      .sort((a, b) => a.groupId.localeCompare(b.groupId));
  });
}

/** Transactional ids the caller may DESCRIBE, from every broker's transaction coordinator. */
export async function listTransactionalIds(cred: KafkaCredential): Promise<TransactionListing[]> {
  return withAdmin(cred, "ListTransactions", async (admin) => {
    const connections = await allBrokerConnections(admin);
    const perBroker = await Promise.all(
      [...connections.entries()].map(async ([brokerId, connection]) => {
        const response = await listTransactionsV1.api.async(connection, [], [], -1n, null);
        return response.transactionStates.map((t) => ({
          transactionalId: t.transactionalId,
          producerId: t.producerId.toString(),
          state: t.transactionState,
          brokerId,
        }));
      }),
    );
    return perBroker.flat().sort((a, b) => a.transactionalId.localeCompare(b.transactionalId));
  });
}

/** Deletes empty consumer groups (DELETE on each group). */
export async function deleteConsumerGroups(cred: KafkaCredential, groupIds: string[]): Promise<void> {
  if (groupIds.length === 0) return;
  const resources = groupIds.length === 1 && groupIds[0] ? { GROUP: groupIds[0] } : {};
  await withAdmin(cred, { api: "DeleteGroups", resources }, (admin) => admin.deleteGroups({ groups: groupIds }));
}
