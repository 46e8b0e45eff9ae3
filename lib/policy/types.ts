/**
 * The policy core's vocabulary: Kafka's own names, verbatim, as `as const` arrays
 * and the unions derived from them. Every other module of the console (forms,
 * schemas, the Kafka adapter, the CLI) imports these instead of spelling strings.
 *
 * Mirrors org.apache.kafka.common.resource.{ResourceType,PatternType} and
 * org.apache.kafka.common.acl.{AclOperation,AclPermissionType}.
 */

export const RESOURCE_TYPES = ["TOPIC", "GROUP", "CLUSTER", "TRANSACTIONAL_ID", "DELEGATION_TOKEN", "USER"] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export type ResourceTypeFilter = ResourceType | "ANY";

export const PATTERN_TYPES = ["LITERAL", "PREFIXED"] as const;
export type PatternType = (typeof PATTERN_TYPES)[number];
export type PatternTypeFilter = PatternType | "ANY" | "MATCH";

export const OPERATIONS = [
  "ALL",
  "READ",
  "WRITE",
  "CREATE",
  "DELETE",
  "ALTER",
  "DESCRIBE",
  "CLUSTER_ACTION",
  "DESCRIBE_CONFIGS",
  "ALTER_CONFIGS",
  "IDEMPOTENT_WRITE",
  "CREATE_TOKENS",
  "DESCRIBE_TOKENS",
] as const;
export type AclOperation = (typeof OPERATIONS)[number];
export type AclOperationFilter = AclOperation | "ANY";

export const PERMISSION_TYPES = ["ALLOW", "DENY"] as const;
export type AclPermissionType = (typeof PERMISSION_TYPES)[number];
export type AclPermissionTypeFilter = AclPermissionType | "ANY";

/** The only legal name of the CLUSTER resource. */
export const CLUSTER_RESOURCE_NAME = "kafka-cluster";
/** LITERAL `*`: the wildcard resource name. */
export const WILDCARD_RESOURCE = "*";
/** `User:*`: the only wildcard principal; it matches principals of every type. */
export const WILDCARD_PRINCIPAL = "User:*";
/** `*`: any host. */
export const WILDCARD_HOST = "*";

/** One ACL: a resource pattern plus an access control entry. `principal` is `Type:name`. */
export interface AclBinding {
  resourceType: ResourceType;
  resourceName: string;
  patternType: PatternType;
  principal: string;
  host: string;
  operation: AclOperation;
  permissionType: AclPermissionType;
}

/** The seven fields of an AclBinding, in Kafka's order (resource pattern, then entry). */
export const ACL_BINDING_FIELDS = [
  "resourceType",
  "resourceName",
  "patternType",
  "principal",
  "host",
  "operation",
  "permissionType",
] as const satisfies readonly (keyof AclBinding)[];

/** AclBindingFilter: null name/principal/host mean "any". */
export interface AclBindingFilter {
  resourceType: ResourceTypeFilter;
  resourceName: string | null;
  patternType: PatternTypeFilter;
  principal: string | null;
  host: string | null;
  operation: AclOperationFilter;
  permissionType: AclPermissionTypeFilter;
}

// ---- client quotas -------------------------------------------------------------

export const QUOTA_ENTITY_TYPES = ["user", "client-id", "ip"] as const;
export type QuotaEntityType = (typeof QUOTA_ENTITY_TYPES)[number];

/**
 * A quota entity. `null` is the `<default>` entity; an absent key is not part of the
 * entity. `user` is the principal *name* (`alice`), not `User:alice`.
 */
export interface QuotaEntity {
  user?: string | null;
  "client-id"?: string | null;
  ip?: string | null;
}

export const CLIENT_QUOTA_KEYS = [
  "producer_byte_rate",
  "consumer_byte_rate",
  "request_percentage",
  "controller_mutation_rate",
] as const;
export const IP_QUOTA_KEYS = ["connection_creation_rate"] as const;
export const QUOTA_KEYS = [...CLIENT_QUOTA_KEYS, ...IP_QUOTA_KEYS] as const;
export type ClientQuotaKey = (typeof CLIENT_QUOTA_KEYS)[number];
export type QuotaKey = (typeof QUOTA_KEYS)[number];

export interface ConfiguredQuota {
  entity: QuotaEntity;
  key: QuotaKey;
  value: number;
}

// ---- delegation tokens ---------------------------------------------------------

export interface DelegationToken {
  tokenId: string;
  /** Standard Base64 (with padding) of HmacSHA512(secret, tokenId). */
  hmac: string;
  owner: string;
  requester: string;
  renewers: string[];
  issueTimestamp: number;
  expiryTimestamp: number;
  maxTimestamp: number;
}
