/**
 * The token checks' `IsAllowed`, answered by the ACL policy core exactly as the broker's
 * AuthHelper.authorize does: super users first, then StandardAuthorizer's rule. `host` is the
 * client address the ACL host column is compared with (Kafka's InetAddress#getHostAddress).
 */
import { authorize } from "../acl/authorize";
import type { AuthorizerConfig } from "../acl/model";
import type { AclBinding } from "../types";
import type { IsAllowed } from "./token";

export function aclIsAllowed(acls: readonly AclBinding[], config: AuthorizerConfig, host: string): IsAllowed {
  return (principal, operation, resourceType, resourceName) =>
    authorize(acls, { principal, host, operation, resourceType, resourceName }, config).decision === "ALLOWED";
}
