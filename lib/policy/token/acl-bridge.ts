/**
 * The token checks' `IsAllowed`, answered by the ACL policy core exactly as the broker's
 * AuthHelper.authorize does: super users first, then StandardAuthorizer's rule. `host` is the
 * client address the ACL host column is compared with (Kafka's InetAddress#getHostAddress).
 */
import { AclIndex } from "../acl/acl-index";
import { authorize } from "../acl/authorize";
import type { AuthorizerConfig } from "../acl/model";
import type { AclBinding } from "../types";
import type { IsAllowed } from "./token";

export function aclIsAllowed(acls: readonly AclBinding[] | AclIndex, config: AuthorizerConfig, host: string): IsAllowed {
  const index = acls instanceof AclIndex ? acls : AclIndex.build(acls);
  return (principal, operation, resourceType, resourceName) =>
    authorize(index, { principal, host, operation, resourceType, resourceName }, config).decision === "ALLOWED";
}
