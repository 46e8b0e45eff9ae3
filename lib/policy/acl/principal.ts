/**
 * Principals are `Type:name` strings split at the FIRST colon (KafkaPrincipal,
 * SecurityUtils.parseKafkaPrincipal): `User:CN=a:b` is type `User`, name `CN=a:b`. Type
 * and name are case-sensitive and never trimmed. `User:*` is the only wildcard and it
 * matches principals of every type; `Group:*` is an ordinary principal named `*`.
 */
import { WILDCARD_PRINCIPAL } from "../types";

export interface ParsedPrincipal {
  type: string;
  name: string;
}

/** Split at the first colon; null when there is none (Kafka rejects those since KAFKA-18051). */
export function parsePrincipal(principal: string): ParsedPrincipal | null {
  const colon = principal.indexOf(":");
  if (colon < 0) return null;
  return { type: principal.slice(0, colon), name: principal.slice(colon + 1) };
}

export function isWildcardPrincipal(principal: string): boolean {
  return principal === WILDCARD_PRINCIPAL;
}

/**
 * Whether an ACL for `aclPrincipal` applies to a request made as `requestPrincipal`.
 * Because the split is at the first colon, comparing (type, name) pairs is the same as
 * comparing the strings, so no splitting happens here.
 */
export function principalMatches(aclPrincipal: string, requestPrincipal: string): boolean {
  return aclPrincipal === WILDCARD_PRINCIPAL || aclPrincipal === requestPrincipal;
}
