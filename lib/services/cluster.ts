import { describeCluster, kafkaConfigOf } from "@/lib/kafka";
import { brokersDown } from "@/lib/kafka/brokers";
import { kafkaApiVersions } from "@/lib/kafka/api-versions";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ClusterView } from "@/lib/schemas/cluster";

/**
 * The cluster as the viewer's own Kafka connection sees it, and which of its brokers (and
 * configured bootstrap servers) do not answer: Kafka's metadata lists only the brokers
 * that are up, so a broker that went down would otherwise just vanish from the list.
 */
export async function getClusterView(viewer: Viewer): Promise<ClusterView> {
  const cluster = await describeCluster(viewer.credential);
  const config = kafkaConfigOf(viewer.credential);
  const down = await brokersDown(cluster.brokers, config.bootstrapServers, (server) =>
    kafkaApiVersions(server, { tls: config.tls, clientId: config.clientId }),
  );
  return {
    clusterId: cluster.clusterId ?? null,
    controllerId: cluster.controllerId ?? null,
    brokers: cluster.brokers.map((b) => ({ id: b.id, host: b.host, port: b.port, rack: b.rack ?? null })),
    unreachable: down,
    principal: viewer.principal,
  };
}
