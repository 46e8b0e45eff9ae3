import { describeCluster } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ClusterView } from "@/lib/schemas/cluster";

/** The cluster as the viewer's own Kafka connection sees it. */
export async function getClusterView(viewer: Viewer): Promise<ClusterView> {
  const cluster = await describeCluster(viewer.credential);
  return {
    clusterId: cluster.clusterId ?? null,
    controllerId: cluster.controllerId ?? null,
    brokers: cluster.brokers.map((b) => ({ id: b.id, host: b.host, port: b.port, rack: b.rack ?? null })),
    principal: viewer.principal,
  };
}
