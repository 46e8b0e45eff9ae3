/** Test helpers shared by the ACL test files (not exported from the barrel). */
import type { AclBinding, AclOperation, AclPermissionType, PatternType, ResourceType } from "@/lib/policy/types";
import type { AuthorizeRequest } from "@/lib/policy/acl/model";

/** StandardAcl's constructor order: type, name, pattern, principal, host, operation, permission. */
export function acl(
  resourceType: ResourceType,
  resourceName: string,
  patternType: PatternType,
  principal: string,
  host: string,
  operation: AclOperation,
  permissionType: AclPermissionType,
): AclBinding {
  return { resourceType, resourceName, patternType, principal, host, operation, permissionType };
}

export function req(
  principal: string,
  operation: AclOperation,
  resourceType: ResourceType,
  resourceName: string,
  host = "127.0.0.1",
): AuthorizeRequest {
  return { principal, host, operation, resourceType, resourceName };
}
