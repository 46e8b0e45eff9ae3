/**
 * Kafka's own cluster id, the key of the console's cross-instance locks (quota budgets,
 * SCRAM credentials): two consoles pointed at one cluster through different bootstrap
 * lists still lock the same keys.
 */
import "server-only";
import { describeCluster, kafkaConfigOf } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";

const clusterIds = new Map<string, Promise<string>>();

/** Kafka's cluster id of the viewer's cluster, once per process and bootstrap list (a failed look-up is not kept). */
export function clusterIdFor(viewer: Viewer): Promise<string> {
  const bootstrap = kafkaConfigOf(viewer.credential).bootstrapServers.join(",");
  let id = clusterIds.get(bootstrap);
  if (!id) {
    id = describeCluster(viewer.credential).then((c) => c.clusterId);
    id.catch(() => clusterIds.delete(bootstrap));
    clusterIds.set(bootstrap, id);
  }
  return id;
}
