/**
 * The Kafka adapter: every call runs as the signed-in user's own Kafka principal over a
 * pooled, SASL-authenticated connection, speaks the policy vocabulary (lib/policy/types)
 * and fails with KafkaOperationError. Server-only: never import it from a client component.
 *
 * Only reads: what changes Kafka is in ./writes, which only the audited wrapper
 * (lib/services/audited-mutation.ts) imports; a mutation gets it as a KafkaWriter.
 */
export type {
  AlterClientQuotaResult,
  BrokerDescription,
  ClusterDescription,
  ConsumerGroupListing,
  CreateAclResult,
  CreateDelegationTokenInput,
  DeleteAclsResult,
  DelegationToken,
  KafkaCredential,
  KafkaMechanism,
  KafkaWriteName,
  KafkaWriteObserver,
  QuotaAlteration,
  QuotaEntry,
  QuotaValues,
  ScramMechanism,
  ScramUserDescription,
  TransactionListing,
} from "./types";
export { KAFKA_MECHANISMS } from "./types";
export {
  kafkaConfig,
  loadKafkaConfig,
  KafkaConfigError,
  type KafkaConfig,
  type SecurityProtocol,
} from "../kafka-config";
export { KafkaOperationError, isKafkaOperationError, type KafkaErrorInfo } from "./errors";
export {
  REQUIRED_PERMISSIONS,
  missingPermissions,
  describePermissions,
  type KafkaApiName,
  type MissingPermission,
} from "./required-permissions";
export { closeAllConnections, closeConnectionsFor, pooledConnectionCount, verifyCredentials } from "./client";
export { principalOf } from "./client";
export { kafkaConfigOf, lastCredentialRejection, rememberRejection } from "./client";
export {
  describeCluster,
  listConsumerGroups,
  listConsumerGroupsPerBroker,
  listTopics,
  listTransactionalIds,
  listTransactionalIdsPerBroker,
  unreachableNote,
  type PerBrokerListing,
} from "./cluster";
export { AclWriteConfirmation, describeAclBindings, describeAcls } from "./acls";
export { describeClientQuotas, entityKey, validateClientQuotas } from "./quotas";
export { describeScramUsers, SCRAM_DEFAULT_ITERATIONS } from "./scram";
export { describeDelegationTokens } from "./tokens";
