/**
 * Who a Kafka connection authenticates as: the signed-in user's credential and the SASL
 * mechanisms the console offers. Below lib/kafka and lib/clusters, which both use it
 * (lib/kafka/types.ts re-exports it for the adapter's callers).
 */
export const KAFKA_MECHANISMS = ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] as const;
export type KafkaMechanism = (typeof KAFKA_MECHANISMS)[number];

export interface KafkaCredential {
  username: string;
  password: string;
  mechanism: KafkaMechanism;
  /**
   * The cluster (lib/clusters.ts) this credential is for: every call made with it goes
   * there. Absent: the default cluster.
   */
  clusterId?: string;
}
