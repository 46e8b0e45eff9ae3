/**
 * The Kafka adapter: every call runs as the signed-in user's own Kafka principal over a
 * pooled, SASL-authenticated connection, speaks the policy vocabulary (lib/policy/types)
 * and fails with KafkaOperationError. Server-only: never import it from a client component.
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
  QuotaAlteration,
  QuotaEntry,
  QuotaValues,
  ScramMechanism,
  ScramUserDescription,
  TransactionListing,
} from "./types";
export { KAFKA_MECHANISMS } from "./types";
export { kafkaConfig, loadKafkaConfig, KafkaConfigError, type KafkaConfig, type SecurityProtocol } from "../kafka-config";
export { KafkaOperationError, isKafkaOperationError, type KafkaErrorInfo } from "./errors";
export { REQUIRED_PERMISSIONS, missingPermissions, describePermissions, type KafkaApiName, type MissingPermission } from "./required-permissions";
export { closeAllConnections, closeConnectionsFor, pooledConnectionCount, principalOf, verifyCredentials, withAdmin } from "./client";
export { kafkaConfigOf, lastCredentialRejection, rememberRejection } from "./client";
export {
  deleteConsumerGroups,
  describeCluster,
  listConsumerGroups,
  listConsumerGroupsPerBroker,
  listTopics,
  listTransactionalIds,
  listTransactionalIdsPerBroker,
  unreachableNote,
  type PerBrokerListing,
} from "./cluster";
export { AclWriteConfirmation, createAcls, deleteAcls, describeAcls } from "./acls";
export { alterClientQuotas, describeClientQuotas, entityKey } from "./quotas";
export { deleteScramCredential, describeScramUsers, upsertScramCredential, SCRAM_DEFAULT_ITERATIONS } from "./scram";
export { createDelegationToken, describeDelegationTokens, expireDelegationToken, renewDelegationToken } from "./tokens";
export { consumeWithGroup, createTopics, deleteTopics, produce, produceTransactional, type TopicSpec } from "./data-plane";
