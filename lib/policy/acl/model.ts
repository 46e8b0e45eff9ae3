/**
 * The shapes the ACL decisions speak in. The vocabulary (resource types, operations, the
 * binding itself) lives in `../types.ts`; this file adds what a decision returns and what
 * it is asked.
 *
 * Mirrors org.apache.kafka.server.authorizer.{Action,AuthorizationResult} and the private
 * `MatchingRule` family of StandardAuthorizerData (SuperUserRule, MatchingAclRule,
 * DefaultRule) — here as a discriminated union a UI can render as "why".
 */
import type { AclBinding, AclOperation, ResourceType } from "../types";

/** One authorization question: may `principal`, connecting from `host`, do `operation` on the LITERAL resource? */
export interface AuthorizeRequest {
  /** `Type:name`, split at the first colon (`User:alice`, `User:CN=a,O=b`). */
  principal: string;
  /** The client address exactly as Kafka prints it (`InetAddress.getHostAddress()`). */
  host: string;
  operation: AclOperation;
  resourceType: ResourceType;
  resourceName: string;
}

/** `authorizeByResourceType`: the same question for "at least one resource of this type". */
export type AuthorizeByResourceTypeRequest = Omit<AuthorizeRequest, "resourceName">;

/** The broker settings the decision depends on. */
export interface AuthorizerConfig {
  /** `super.users`, already split: exact `Type:name` strings. */
  superUsers?: ReadonlySet<string> | readonly string[];
  /** `allow.everyone.if.no.acl.found`; Kafka's default is false. */
  allowEveryoneIfNoAclFound?: boolean;
}

export type Decision = "ALLOWED" | "DENIED";

/**
 * Which rule decided:
 * - `superUser`: the principal is in `super.users`;
 * - `acl`: this ACL (the first matching DENY, or else the last matching ALLOW, in the
 *   order StandardAuthorizer scans);
 * - `noAclMatched`: the resource has ACLs, none of them matched, so DENIED;
 * - `default`: no ACL applies to the resource at all: `allow.everyone.if.no.acl.found`.
 */
export type MatchingRule =
  { kind: "superUser" } | { kind: "acl"; acl: AclBinding } | { kind: "noAclMatched" } | { kind: "default" };

export interface AuthorizationResult {
  decision: Decision;
  rule: MatchingRule;
}
