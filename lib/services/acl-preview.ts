/**
 * How the ACLs area names bindings and resources in messages, tables and the audit
 * trail. Pure. (The preview of a change itself is the sealed plan's blast radius:
 * lib/services/acl-plans.ts over lib/policy/acl/blast-radius.ts.)
 */
import { WILDCARD_HOST, WILDCARD_RESOURCE, distinctBindings, type AclBinding } from "@/lib/policy";

/** "TOPIC orders", "TOPIC names starting with payments-", "every TOPIC". */
export function resourceLabel(b: Pick<AclBinding, "resourceType" | "resourceName" | "patternType">): string {
  if (b.patternType === "PREFIXED") return `${b.resourceType} names starting with ${b.resourceName}`;
  if (b.resourceName === WILDCARD_RESOURCE) return `every ${b.resourceType}`;
  return `${b.resourceType} ${b.resourceName}`;
}

export { distinctBindings };

/**
 * "ALLOW User:bob READ on TOPIC orders (LITERAL) from *": one binding in one line, for messages and the audit trail.
 */
export function bindingLine(b: AclBinding): string {
  const host = b.host === WILDCARD_HOST ? "any host" : b.host;
  return (
    `${b.permissionType} ${b.principal} ${b.operation} on ${b.resourceType} ${b.resourceName} ` +
    `(${b.patternType}) from ${host}`
  );
}
