/**
 * Validation of an ACL about to be created: everything Kafka 4.x rejects, with Kafka's
 * own messages where Kafka has one, then the operation-per-resource-type table that only
 * kafka-acls.sh enforces. The input may be arbitrary JSON.
 *
 * Order of checks, the order a CreateAcls request meets them:
 *   1. shape: an object whose seven fields are strings (the admin client cannot even
 *      build anything else; unknown enum names are reported with the valid ones);
 *   2. filter-only or unknown enum values (AclControlManager.validateNewAcl):
 *      "Invalid resourceType ANY", "Invalid patternType MATCH", "Invalid operation ANY",
 *      "Invalid permissionType ANY";
 *   3. AclApis.handleCreateAcls: "The only valid name for the CLUSTER resource is
 *      kafka-cluster", "Invalid empty resource name";
 *   4. KAFKA-18051 (AclControlManager.validateNewAcl in 4.0): the principal must contain
 *      a colon, "Could not parse principal from `bob` (no colon is present separating the
 *      principal type from the principal name)";
 *   5. kafka-acls.sh (AclCommand.validateOperation): the operation must apply to the
 *      resource type (ALL always does). The broker would store READ on CLUSTER, but no
 *      request ever checks it, so the console refuses it as a mistake.
 */
import {
  CLUSTER_RESOURCE_NAME,
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  ACL_BINDING_FIELDS,
  type AclBinding,
} from "../types";
import { SUPPORTED_OPERATIONS, isOperationSupported } from "./operations";

export type AclValidation = { ok: true } | { ok: false; error: "INVALID_REQUEST"; message: string };

/** The enum names Kafka has but that only make sense in filters (or are UNKNOWN). */
const FILTER_ONLY: Record<"resourceType" | "patternType" | "operation" | "permissionType", readonly string[]> = {
  resourceType: ["UNKNOWN", "ANY"],
  patternType: ["UNKNOWN", "ANY", "MATCH"],
  operation: ["UNKNOWN", "ANY"],
  permissionType: ["UNKNOWN", "ANY"],
};

const VALID: Record<keyof typeof FILTER_ONLY, readonly string[]> = {
  resourceType: RESOURCE_TYPES,
  patternType: PATTERN_TYPES,
  operation: OPERATIONS,
  permissionType: PERMISSION_TYPES,
};

function invalid(message: string): AclValidation {
  return { ok: false, error: "INVALID_REQUEST", message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validate one binding that someone wants to create. */
export function validateNewAcl(binding: unknown): AclValidation {
  if (!isRecord(binding))
    return invalid(
      "An ACL binding must be an object with resourceType, resourceName, patternType, principal, host, " +
        "operation and permissionType.",
    );
  for (const field of ACL_BINDING_FIELDS) {
    const value = binding[field];
    if (typeof value !== "string") {
      return invalid(
        value === undefined || value === null
          ? `The ACL has no ${field}.`
          : `The ACL's ${field} must be a string, not ${JSON.stringify(value)}.`,
      );
    }
  }
  const b = binding as unknown as Record<(typeof ACL_BINDING_FIELDS)[number], string>;
  for (const field of ["resourceType", "patternType", "operation", "permissionType"] as const) {
    const value = b[field];
    if (FILTER_ONLY[field].includes(value)) {
      return invalid(`Invalid ${field} ${value}`);
    }
    if (!VALID[field].includes(value)) {
      return invalid(`Invalid ${field} ${JSON.stringify(value)}: expected one of ${VALID[field].join(", ")}.`);
    }
  }
  const acl = b as unknown as AclBinding;
  if (acl.resourceType === "CLUSTER" && acl.resourceName !== CLUSTER_RESOURCE_NAME) {
    return invalid(`The only valid name for the CLUSTER resource is ${CLUSTER_RESOURCE_NAME}`);
  }
  if (acl.resourceName.length === 0) return invalid("Invalid empty resource name");
  if (!acl.principal.includes(":")) {
    return invalid(
      `Could not parse principal from \`${acl.principal}\` (no colon is present separating the principal type ` +
        `from the principal name)`,
    );
  }
  if (!isOperationSupported(acl.resourceType, acl.operation)) {
    return invalid(
      `Operation ${acl.operation} does not apply to ${acl.resourceType} resources: Kafka never checks it there. ` +
        `${acl.resourceType} supports ALL, ${SUPPORTED_OPERATIONS[acl.resourceType].join(", ")} (kafka-acls.sh ` +
        `refuses the rest).`,
    );
  }
  return { ok: true };
}

/** Type guard: a binding that passes validateNewAcl. */
export function isValidNewAcl(binding: unknown): binding is AclBinding {
  return validateNewAcl(binding).ok;
}
