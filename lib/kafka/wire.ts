/**
 * Policy vocabulary <-> the Kafka client's wire enums (the numeric codes of
 * org.apache.kafka.common.{resource,acl}). Unknown wire values fail loudly instead of
 * being shown as something they are not.
 */
import {
  AclOperations,
  AclPermissionTypes,
  ResourcePatternTypes,
  ResourceTypes,
  type Acl,
  type AclFilter,
  type AclOperationValue,
  type AclPermissionTypeValue,
  type ResourcePatternTypeValue,
  type ResourceTypeValue,
} from "@platformatic/kafka";
import {
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type AclPermissionType,
  type PatternType,
  type ResourceType,
} from "@/lib/policy/types";

export const resourceTypeToWire = (t: ResourceType | "ANY"): ResourceTypeValue => ResourceTypes[t];
export const patternTypeToWire = (t: PatternType | "ANY" | "MATCH"): ResourcePatternTypeValue =>
  ResourcePatternTypes[t];
export const operationToWire = (o: AclOperation | "ANY"): AclOperationValue => AclOperations[o];
export const permissionToWire = (p: AclPermissionType | "ANY"): AclPermissionTypeValue => AclPermissionTypes[p];

/** Kafka's code -> the policy core's name, for the values the policy core knows (anything else is an error). */
function fromCode<T extends string>(
  names: readonly T[],
  toWire: (name: T) => number,
  what: string,
): (code: number) => T {
  const table = new Map<number, T>(names.map((n) => [toWire(n), n]));
  return (code) => {
    const name = table.get(code);
    if (name === undefined) throw new Error(`Kafka returned an unexpected ${what} code ${code}.`);
    return name;
  };
}

export const resourceTypeFromWire = fromCode<ResourceType>(RESOURCE_TYPES, resourceTypeToWire, "resource type");
export const patternTypeFromWire = fromCode<PatternType>(PATTERN_TYPES, patternTypeToWire, "pattern type");
export const operationFromWire = fromCode<AclOperation>(OPERATIONS, operationToWire, "ACL operation");
export const permissionFromWire = fromCode<AclPermissionType>(PERMISSION_TYPES, permissionToWire, "permission type");

export function bindingToWire(b: AclBinding): Acl {
  return {
    resourceType: resourceTypeToWire(b.resourceType),
    resourceName: b.resourceName,
    resourcePatternType: patternTypeToWire(b.patternType),
    principal: b.principal,
    host: b.host,
    operation: operationToWire(b.operation),
    permissionType: permissionToWire(b.permissionType),
  };
}

export function filterToWire(f: AclBindingFilter): AclFilter {
  return {
    resourceType: resourceTypeToWire(f.resourceType),
    resourceName: f.resourceName,
    resourcePatternType: patternTypeToWire(f.patternType),
    principal: f.principal,
    host: f.host,
    operation: operationToWire(f.operation),
    permissionType: permissionToWire(f.permissionType),
  };
}

export function bindingFromWire(acl: Acl): AclBinding {
  return {
    resourceType: resourceTypeFromWire(acl.resourceType),
    resourceName: acl.resourceName,
    patternType: patternTypeFromWire(acl.resourcePatternType),
    principal: acl.principal,
    host: acl.host,
    operation: operationFromWire(acl.operation),
    permissionType: permissionFromWire(acl.permissionType),
  };
}

/** `User:alice` -> { principalType: "User", principalName: "alice" } (split at the first colon). */
export function splitPrincipal(principal: string): { principalType: string; principalName: string } {
  const i = principal.indexOf(":");
  if (i <= 0 || i === principal.length - 1)
    throw new Error(`A principal must look like Type:name, got ${JSON.stringify(principal)}.`);
  return { principalType: principal.slice(0, i), principalName: principal.slice(i + 1) };
}

export const joinPrincipal = (p: { principalType: string; principalName: string }): string =>
  `${p.principalType}:${p.principalName}`;
