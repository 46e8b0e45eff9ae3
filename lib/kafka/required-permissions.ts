/**
 * Which ACL operation on which resource each Kafka API needs: the "Operations and
 * Resources on Protocols" table of Kafka's authorization documentation (docs/security.html,
 * shared/seeds/kafka-docs-authorization-and-acls.ko.txt), as data keyed by the API's
 * protocol name. The console uses it to turn a bare *_AUTHORIZATION_FAILED into a
 * sentence that names the missing permission.
 *
 * `checks` lists every check the broker may make for the API; which one failed is told
 * by the error code (CLUSTER_AUTHORIZATION_FAILED -> the CLUSTER check, and so on).
 * Where an API checks CLUSTER first and falls back to a per-resource check (CreateTopics,
 * ListGroups), both are listed and the message offers both.
 */
import type { AclOperation, ResourceType } from "@/lib/policy/types";
import { CLUSTER_RESOURCE_NAME } from "@/lib/policy/types";

export interface PermissionCheck {
  operation: AclOperation;
  resourceType: ResourceType;
  note?: string;
}

export interface ApiPermissions {
  /** The protocol API key. */
  key: number;
  /** Empty when the API is not subject to authorization (handshake, telemetry). */
  checks: PermissionCheck[];
  note?: string;
}

const c = (operation: AclOperation, resourceType: ResourceType, note?: string): PermissionCheck =>
  note === undefined ? { operation, resourceType } : { operation, resourceType, note };

export const REQUIRED_PERMISSIONS = {
  Produce: {
    key: 0,
    checks: [
      c("WRITE", "TRANSACTIONAL_ID", "transactional producers"),
      c("IDEMPOTENT_WRITE", "CLUSTER", "idempotent producers"),
      c("WRITE", "TOPIC"),
    ],
  },
  Fetch: { key: 1, checks: [c("CLUSTER_ACTION", "CLUSTER", "followers"), c("READ", "TOPIC")] },
  ListOffsets: { key: 2, checks: [c("DESCRIBE", "TOPIC")] },
  Metadata: {
    key: 3,
    checks: [
      c("DESCRIBE", "TOPIC"),
      c("CREATE", "CLUSTER", "topic auto-creation"),
      c("CREATE", "TOPIC", "topic auto-creation"),
    ],
  },
  OffsetCommit: { key: 8, checks: [c("READ", "GROUP"), c("READ", "TOPIC")] },
  OffsetFetch: { key: 9, checks: [c("DESCRIBE", "GROUP"), c("DESCRIBE", "TOPIC")] },
  FindCoordinator: { key: 10, checks: [c("DESCRIBE", "GROUP"), c("DESCRIBE", "TRANSACTIONAL_ID")] },
  JoinGroup: { key: 11, checks: [c("READ", "GROUP")] },
  Heartbeat: { key: 12, checks: [c("READ", "GROUP")] },
  LeaveGroup: { key: 13, checks: [c("READ", "GROUP")] },
  SyncGroup: { key: 14, checks: [c("READ", "GROUP")] },
  DescribeGroups: { key: 15, checks: [c("DESCRIBE", "GROUP")] },
  ListGroups: {
    key: 16,
    checks: [c("DESCRIBE", "CLUSTER"), c("DESCRIBE", "GROUP")],
    note: "Never fails: without DESCRIBE on CLUSTER only the groups the caller may DESCRIBE are listed.",
  },
  SaslHandshake: { key: 17, checks: [], note: "Part of authentication; not authorized." },
  ApiVersions: { key: 18, checks: [], note: "Sent before authentication; not authorized." },
  CreateTopics: { key: 19, checks: [c("CREATE", "CLUSTER"), c("CREATE", "TOPIC")] },
  DeleteTopics: { key: 20, checks: [c("DELETE", "TOPIC")] },
  DeleteRecords: { key: 21, checks: [c("DELETE", "TOPIC")] },
  InitProducerId: { key: 22, checks: [c("WRITE", "TRANSACTIONAL_ID"), c("IDEMPOTENT_WRITE", "CLUSTER")] },
  OffsetForLeaderEpoch: { key: 23, checks: [c("CLUSTER_ACTION", "CLUSTER"), c("DESCRIBE", "TOPIC")] },
  AddPartitionsToTxn: { key: 24, checks: [c("WRITE", "TRANSACTIONAL_ID"), c("WRITE", "TOPIC")] },
  AddOffsetsToTxn: { key: 25, checks: [c("WRITE", "TRANSACTIONAL_ID"), c("READ", "GROUP")] },
  EndTxn: { key: 26, checks: [c("WRITE", "TRANSACTIONAL_ID")] },
  WriteTxnMarkers: { key: 27, checks: [c("ALTER", "CLUSTER"), c("CLUSTER_ACTION", "CLUSTER")] },
  TxnOffsetCommit: { key: 28, checks: [c("WRITE", "TRANSACTIONAL_ID"), c("READ", "GROUP"), c("READ", "TOPIC")] },
  DescribeAcls: { key: 29, checks: [c("DESCRIBE", "CLUSTER")] },
  CreateAcls: { key: 30, checks: [c("ALTER", "CLUSTER")] },
  DeleteAcls: { key: 31, checks: [c("ALTER", "CLUSTER")] },
  DescribeConfigs: {
    key: 32,
    checks: [c("DESCRIBE_CONFIGS", "CLUSTER", "broker configs"), c("DESCRIBE_CONFIGS", "TOPIC", "topic configs")],
  },
  AlterConfigs: {
    key: 33,
    checks: [c("ALTER_CONFIGS", "CLUSTER", "broker configs"), c("ALTER_CONFIGS", "TOPIC", "topic configs")],
  },
  AlterReplicaLogDirs: { key: 34, checks: [c("ALTER", "CLUSTER")] },
  DescribeLogDirs: { key: 35, checks: [c("DESCRIBE", "CLUSTER")], note: "Answers empty instead of failing." },
  SaslAuthenticate: { key: 36, checks: [], note: "Part of authentication; not authorized." },
  CreatePartitions: { key: 37, checks: [c("ALTER", "TOPIC")] },
  CreateDelegationToken: {
    key: 38,
    checks: [
      c("CREATE_TOKENS", "USER", "only when the owner is someone else (KIP-373); the resource is the owner principal"),
    ],
    note: "Refused on PLAINTEXT, one-way SSL and token-authenticated connections.",
  },
  RenewDelegationToken: { key: 39, checks: [], note: "Only the token's owner and renewers may renew it." },
  ExpireDelegationToken: { key: 40, checks: [], note: "Only the token's owner and renewers may expire it." },
  DescribeDelegationToken: {
    key: 41,
    checks: [c("DESCRIBE", "DELEGATION_TOKEN"), c("DESCRIBE_TOKENS", "USER")],
    note: "Never fails for this: tokens the caller may not see are left out.",
  },
  DeleteGroups: { key: 42, checks: [c("DELETE", "GROUP")] },
  ElectLeaders: {
    key: 43,
    checks: [c("ALTER", "CLUSTER")],
    note: "The documentation table says CLUSTER_ACTION; KafkaApis checks ALTER on CLUSTER.",
  },
  IncrementalAlterConfigs: {
    key: 44,
    checks: [c("ALTER_CONFIGS", "CLUSTER", "broker configs"), c("ALTER_CONFIGS", "TOPIC", "topic configs")],
  },
  AlterPartitionReassignments: { key: 45, checks: [c("ALTER", "CLUSTER")] },
  ListPartitionReassignments: { key: 46, checks: [c("DESCRIBE", "CLUSTER")] },
  OffsetDelete: { key: 47, checks: [c("DELETE", "GROUP"), c("READ", "TOPIC")] },
  DescribeClientQuotas: { key: 48, checks: [c("DESCRIBE_CONFIGS", "CLUSTER")] },
  AlterClientQuotas: { key: 49, checks: [c("ALTER_CONFIGS", "CLUSTER")] },
  DescribeUserScramCredentials: { key: 50, checks: [c("DESCRIBE", "CLUSTER")] },
  AlterUserScramCredentials: { key: 51, checks: [c("ALTER", "CLUSTER")] },
  DescribeQuorum: { key: 55, checks: [c("DESCRIBE", "CLUSTER")] },
  UpdateFeatures: { key: 57, checks: [c("ALTER", "CLUSTER")] },
  DescribeCluster: {
    key: 60,
    checks: [c("DESCRIBE", "CLUSTER")],
    note: "Only the authorized-operations field depends on it; the brokers are always listed.",
  },
  DescribeProducers: { key: 61, checks: [c("READ", "TOPIC")] },
  UnregisterBroker: { key: 64, checks: [c("ALTER", "CLUSTER")] },
  DescribeTransactions: { key: 65, checks: [c("DESCRIBE", "TRANSACTIONAL_ID")] },
  ListTransactions: {
    key: 66,
    checks: [c("DESCRIBE", "TRANSACTIONAL_ID")],
    note: "Never fails for this: transactional ids the caller may not DESCRIBE are left out.",
  },
  ConsumerGroupHeartbeat: { key: 68, checks: [c("READ", "GROUP")] },
  ConsumerGroupDescribe: { key: 69, checks: [c("READ", "GROUP")] },
  GetTelemetrySubscriptions: { key: 71, checks: [] },
  PushTelemetry: { key: 72, checks: [] },
  ListConfigResources: { key: 74, checks: [c("DESCRIBE_CONFIGS", "CLUSTER")] },
  DescribeTopicPartitions: { key: 75, checks: [c("DESCRIBE", "TOPIC")] },
  ShareGroupHeartbeat: { key: 76, checks: [c("READ", "GROUP")] },
  ShareGroupDescribe: { key: 77, checks: [c("DESCRIBE", "GROUP")] },
  ShareFetch: { key: 78, checks: [c("READ", "GROUP"), c("READ", "TOPIC")] },
  ShareAcknowledge: { key: 79, checks: [c("READ", "GROUP"), c("READ", "TOPIC")] },
  StreamsGroupHeartbeat: {
    key: 88,
    checks: [c("READ", "GROUP"), c("DESCRIBE", "TOPIC"), c("CREATE", "TOPIC", "internal topics")],
  },
  StreamsGroupDescribe: { key: 89, checks: [c("DESCRIBE", "GROUP"), c("DESCRIBE", "TOPIC")] },
  DescribeShareGroupOffsets: { key: 90, checks: [c("DESCRIBE", "GROUP"), c("DESCRIBE", "TOPIC")] },
  AlterShareGroupOffsets: { key: 91, checks: [c("READ", "GROUP"), c("READ", "TOPIC")] },
  DeleteShareGroupOffsets: { key: 92, checks: [c("DELETE", "GROUP"), c("READ", "TOPIC")] },
} as const satisfies Record<string, ApiPermissions>;

export type KafkaApiName = keyof typeof REQUIRED_PERMISSIONS;

/** The resource type whose check an authorization error code reports. */
export const AUTHORIZATION_ERROR_RESOURCE: Readonly<Record<string, ResourceType[]>> = {
  CLUSTER_AUTHORIZATION_FAILED: ["CLUSTER"],
  TOPIC_AUTHORIZATION_FAILED: ["TOPIC"],
  GROUP_AUTHORIZATION_FAILED: ["GROUP"],
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: ["TRANSACTIONAL_ID"],
  DELEGATION_TOKEN_AUTHORIZATION_FAILED: ["USER", "DELEGATION_TOKEN"],
};

export function isAuthorizationErrorCode(code: string): boolean {
  return code in AUTHORIZATION_ERROR_RESOURCE;
}

export interface MissingPermission {
  operation: AclOperation;
  resourceType: ResourceType;
  /** The resource's name when known (always `kafka-cluster` for CLUSTER), else null. */
  resourceName: string | null;
}

/**
 * The permissions that would have let `api` pass, given the authorization error it got.
 * `resourceNames` names the resources the request was about, per type (e.g. the owner
 * principal for USER when creating a token for someone else).
 */
export function missingPermissions(
  api: string,
  errorCode: string,
  resourceNames: Partial<Record<ResourceType, string>> = {},
): MissingPermission[] {
  const entry = (REQUIRED_PERMISSIONS as Record<string, ApiPermissions>)[api];
  const types = AUTHORIZATION_ERROR_RESOURCE[errorCode];
  if (!entry || !types) return [];
  const checks = entry.checks.filter((check) => types.includes(check.resourceType));
  // CreateTopics: a missing CLUSTER CREATE falls back to TOPIC CREATE, so a TOPIC failure
  // is fixed by either. Offer the CLUSTER alternative alongside the per-resource check.
  const alternatives =
    errorCode !== "CLUSTER_AUTHORIZATION_FAILED"
      ? entry.checks.filter(
          (check) => check.resourceType === "CLUSTER" && checks.some((k) => k.operation === check.operation),
        )
      : [];
  return [...checks, ...alternatives].map((check) => ({
    operation: check.operation,
    resourceType: check.resourceType,
    resourceName:
      check.resourceType === "CLUSTER" ? CLUSTER_RESOURCE_NAME : (resourceNames[check.resourceType] ?? null),
  }));
}

/** "ALTER on CLUSTER kafka-cluster", "CREATE on TOPIC orders or CREATE on CLUSTER kafka-cluster". */
export function describePermissions(missing: MissingPermission[]): string {
  return missing
    .map(
      (m) =>
        `${m.operation} on ${m.resourceType} ` +
        `${m.resourceName ?? `(the requested ${m.resourceType.toLowerCase().replace("_", " ")})`}`,
    )
    .join(" or ");
}
