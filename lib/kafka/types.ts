/**
 * The adapter's own shapes. ACL bindings, quota entities and tokens use the policy
 * vocabulary (lib/policy/types.ts); these are the rest.
 */
import type { AclBinding, AclBindingFilter, DelegationToken, QuotaEntity, QuotaKey } from "@/lib/policy/types";
import type { KafkaErrorInfo } from "./errors";

export { KAFKA_MECHANISMS, type KafkaCredential, type KafkaMechanism } from "@/lib/kafka-credential";

export interface BrokerDescription {
  id: number;
  host: string;
  port: number;
  rack: string | null;
}

export interface ClusterDescription {
  clusterId: string;
  controllerId: number;
  brokers: BrokerDescription[];
}

export interface ConsumerGroupListing {
  groupId: string;
  /** Kafka's state name: Stable, Empty, PreparingRebalance, ... */
  state: string;
  protocolType: string;
  /** classic | consumer | share | streams (empty when the broker does not say). */
  groupType: string;
}

export interface TransactionListing {
  transactionalId: string;
  /** Kafka's producer id (int64) as a decimal string. */
  producerId: string;
  state: string;
  brokerId: number;
}

/**
 * A write whose answer from Kafka was lost (the connection closed or timed out mid-request),
 * settled by reading the ACLs back: `applied` Kafka shows the change; `not-applied` Kafka
 * answered the reads and never showed it; `unknown` Kafka could not be read.
 */
export type ReadBack = "applied" | "not-applied" | "unknown";

export interface CreateAclResult {
  binding: AclBinding;
  error: KafkaErrorInfo | null;
  /** Created, but not every reachable broker showed it yet when the write stopped waiting (still propagating). */
  propagating?: true;
  /** Kafka's answer was lost: what reading back showed (error null when applied). */
  readBack?: ReadBack;
}

export interface DeleteAclsResult {
  filter: AclBindingFilter;
  /** The bindings the filter matched and Kafka deleted. */
  deleted: AclBinding[];
  error: KafkaErrorInfo | null;
  /** Deleted, but some reachable broker still showed a binding when the write stopped waiting (still propagating). */
  propagating?: true;
  /** Kafka's answer was lost: what reading back showed (error null when applied). */
  readBack?: ReadBack;
}

export type QuotaValues = Partial<Record<QuotaKey, number>>;

/** One configured entity and its values (the same shape as the policy core's DescribedQuotaEntry). */
export interface QuotaEntry {
  entity: QuotaEntity;
  values: QuotaValues;
}

export interface QuotaAlteration {
  entity: QuotaEntity;
  /** A number sets the key; null removes it. */
  ops: { key: QuotaKey; value: number | null }[];
}

export interface AlterClientQuotaResult {
  entity: QuotaEntity;
  error: KafkaErrorInfo | null;
  /**
   * With an error: Kafka's answer was lost and a re-read did not show the change, so it may or may not have been
   * applied.
   */
  outcomeUnknown?: true;
}

export type ScramMechanism = "SCRAM-SHA-256" | "SCRAM-SHA-512";

export interface ScramUserDescription {
  user: string;
  credentials: { mechanism: ScramMechanism; iterations: number }[];
  /** RESOURCE_NOT_FOUND when the user has no SCRAM credential. */
  error: KafkaErrorInfo | null;
}

export interface CreateDelegationTokenInput {
  /** Owner principal (`User:svc-orders`); absent = the caller (KIP-373 when someone else). */
  owner?: string;
  /** Renewer principals, `User:<name>` each. */
  renewers: string[];
  /** -1 (or absent) = the broker's delegation.token.max.lifetime.ms. */
  maxLifetimeMs?: number;
}

export type { DelegationToken };

/** The writes a KafkaWriter makes (lib/kafka/writes.ts). */
export type KafkaWriteName =
  | "createAcls"
  | "deleteAcls"
  | "alterClientQuotas"
  | "upsertScramCredential"
  | "deleteScramCredential"
  | "createDelegationToken"
  | "renewDelegationToken"
  | "expireDelegationToken";

/**
 * Told of every write a KafkaWriter makes (the journal, lib/services/journal-writes.ts):
 * `before` runs before anything is sent (if it throws, nothing is sent and the write fails
 * with its error); `after` gets what the write returned or threw, and must not throw.
 */
export interface KafkaWriteObserver {
  before(name: KafkaWriteName, args: readonly unknown[]): Promise<unknown>;
  after(token: unknown, outcome: { ok: true; result: unknown } | { ok: false; error: unknown }): Promise<void>;
}
