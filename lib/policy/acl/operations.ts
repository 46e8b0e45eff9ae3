/**
 * Domain facts about operations, as named sets (StandardAuthorizerData, AclEntry).
 *
 * - Implication applies to ALLOW ACLs only: an ALLOW for any of IMPLIES_DESCRIBE also
 *   allows DESCRIBE, an ALLOW for any of IMPLIES_DESCRIBE_CONFIGS also allows
 *   DESCRIBE_CONFIGS, and ALL (ALLOW or DENY) matches every operation. A DENY for READ
 *   does not deny DESCRIBE.
 * - SUPPORTED_OPERATIONS is `AclEntry.supportedOperations`, the table kafka-acls.sh
 *   enforces (ALL is accepted on every type). The broker itself never checks it.
 */
import { OPERATIONS, type AclOperation, type ResourceType } from "../types";

export const IMPLIES_DESCRIBE: ReadonlySet<AclOperation> = new Set<AclOperation>([
  "DESCRIBE",
  "READ",
  "WRITE",
  "DELETE",
  "ALTER",
]);
export const IMPLIES_DESCRIBE_CONFIGS: ReadonlySet<AclOperation> = new Set<AclOperation>([
  "DESCRIBE_CONFIGS",
  "ALTER_CONFIGS",
]);

export const SUPPORTED_OPERATIONS: Readonly<Record<ResourceType, readonly AclOperation[]>> = {
  TOPIC: ["READ", "WRITE", "CREATE", "DESCRIBE", "DELETE", "ALTER", "DESCRIBE_CONFIGS", "ALTER_CONFIGS"],
  GROUP: ["READ", "DESCRIBE", "DELETE", "DESCRIBE_CONFIGS", "ALTER_CONFIGS"],
  CLUSTER: ["CREATE", "CLUSTER_ACTION", "DESCRIBE_CONFIGS", "ALTER_CONFIGS", "IDEMPOTENT_WRITE", "ALTER", "DESCRIBE"],
  TRANSACTIONAL_ID: ["DESCRIBE", "WRITE"],
  DELEGATION_TOKEN: ["DESCRIBE"],
  USER: ["CREATE_TOKENS", "DESCRIBE_TOKENS"],
};

/** Whether kafka-acls.sh accepts `operation` on `resourceType` (ALL always). */
export function isOperationSupported(resourceType: ResourceType, operation: AclOperation): boolean {
  return operation === "ALL" || SUPPORTED_OPERATIONS[resourceType].includes(operation);
}

/**
 * Kafka's enum order (AclOperation codes 2..14), used to sort ACLs the way
 * StandardAcl.compareTo does. OPERATIONS is declared in that order.
 */
export const OPERATION_ORDINAL: Readonly<Record<AclOperation, number>> = Object.fromEntries(
  OPERATIONS.map((op, i) => [op, i]),
) as Record<AclOperation, number>;

/** Bit of one requested operation. */
export function operationBit(op: AclOperation): number {
  return 1 << OPERATION_ORDINAL[op];
}

const ALL_BITS = (1 << OPERATIONS.length) - 1;

/** The requested operations an ALLOW ACL for `aclOp` grants (StandardAuthorizerData.findResult). */
export function allowedOperationsMask(aclOp: AclOperation): number {
  if (aclOp === "ALL") return ALL_BITS;
  let mask = operationBit(aclOp);
  if (IMPLIES_DESCRIBE.has(aclOp)) mask |= operationBit("DESCRIBE");
  if (IMPLIES_DESCRIBE_CONFIGS.has(aclOp)) mask |= operationBit("DESCRIBE_CONFIGS");
  return mask;
}

/** The requested operations a DENY ACL for `aclOp` denies: exactly itself, or everything for ALL. */
export function deniedOperationsMask(aclOp: AclOperation): number {
  return aclOp === "ALL" ? ALL_BITS : operationBit(aclOp);
}

/** The operations an ALLOW for `aclOp` grants, as a list (for explanations). */
export function operationsGrantedBy(aclOp: AclOperation): AclOperation[] {
  const mask = allowedOperationsMask(aclOp);
  return OPERATIONS.filter((op) => (mask & operationBit(op)) !== 0);
}
