/**
 * The token checks' `IsAllowed`, answered by the ACL policy core exactly as the broker's
 * AuthHelper.authorize does: super users first, then StandardAuthorizer's rule. `host` is the
 * client address the ACL host column is compared with: Kafka compares with
 * InetAddress#getHostAddress, so an IP literal is first written the way Java writes it
 * (`::1` -> `0:0:0:0:0:0:0:1`, `::ffff:1.2.3.4` -> `1.2.3.4`).
 */
import { AclIndex } from "../acl/acl-index";
import { authorize } from "../acl/authorize";
import type { AuthorizerConfig } from "../acl/model";
import { canonicalIp } from "../quota/ip";
import type { AclBinding } from "../types";
import type { IsAllowed } from "./token";

export function aclIsAllowed(
  acls: readonly AclBinding[] | AclIndex,
  config: AuthorizerConfig,
  host: string,
): IsAllowed {
  const index = acls instanceof AclIndex ? acls : AclIndex.build(acls);
  const clientHost = canonicalIp(host) ?? host;
  return (principal, operation, resourceType, resourceName) =>
    authorize(index, { principal, host: clientHost, operation, resourceType, resourceName }, config).decision ===
    "ALLOWED";
}
