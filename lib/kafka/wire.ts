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

function invert<K extends string, V extends number>(table: Record<K, V>): Map<number, K> {
  return new Map(Object.entries(table).map(([k, v]) => [v as number, k as K]));
}

const resourceTypeNames = invert(ResourceTypes);
const patternTypeNames = invert(ResourcePatternTypes);
const operationNames = invert(AclOperations);
const permissionNames = invert(AclPermissionTypes);

function fromWire<T extends string>(names: Map<number, string>, allowed: readonly string[], value: number, what: string): T {
  const name = names.get(value);
  if (name === undefined || !allowed.includes(name)) throw new Error(`Kafka returned an unexpected ${what} code ${value}.`);
  return name as T;
}

const PERMISSIONS = PERMISSION_TYPES;

export const resourceTypeToWire = (t: ResourceType | "ANY"): ResourceTypeValue => ResourceTypes[t];
export const patternTypeToWire = (t: PatternType | "ANY" | "MATCH"): ResourcePatternTypeValue => ResourcePatternTypes[t];
export const operationToWire = (o: AclOperation | "ANY"): AclOperationValue => AclOperations[o];
export const permissionToWire = (p: AclPermissionType | "ANY"): AclPermissionTypeValue => AclPermissionTypes[p];

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
    resourceType: fromWire<ResourceType>(resourceTypeNames, RESOURCE_TYPES, acl.resourceType, "resource type"),
    resourceName: acl.resourceName,
    patternType: fromWire<PatternType>(patternTypeNames, PATTERN_TYPES, acl.resourcePatternType, "pattern type"),
    principal: acl.principal,
    host: acl.host,
    operation: fromWire<AclOperation>(operationNames, OPERATIONS, acl.operation, "ACL operation"),
    permissionType: fromWire<AclPermissionType>(permissionNames, PERMISSIONS, acl.permissionType, "permission type"),
  };
}

/** `User:alice` -> { principalType: "User", principalName: "alice" } (split at the first colon). */
export function splitPrincipal(principal: string): { principalType: string; principalName: string } {
  const i = principal.indexOf(":");
  if (i <= 0 || i === principal.length - 1) throw new Error(`A principal must look like Type:name, got ${JSON.stringify(principal)}.`);
  return { principalType: principal.slice(0, i), principalName: principal.slice(i + 1) };
}

export const joinPrincipal = (p: { principalType: string; principalName: string }): string => `${p.principalType}:${p.principalName}`;
