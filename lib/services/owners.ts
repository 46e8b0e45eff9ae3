/**
 * Resource owners (#19): a cluster may name, per resource type and name prefix, who approves
 * changes to those resources (`requests.owners`, lib/clusters.ts). Then only an owner, or a
 * super user, approves a change touching them, and a grant on them lasts at most the rule's
 * maxGrantMinutes. Without a rule touching a change, anyone Kafka lets make it approves it.
 *
 * A binding touches a rule of its resource type when its name starts with the rule's prefix,
 * when it is the wildcard `*` (it applies to every name), or when it is PREFIXED with a prefix
 * of the rule's prefix (PREFIXED `pay` reaches `payments-eu` too).
 */
import type { OwnerRule } from "@/lib/clusters";
import type { AclBinding } from "@/lib/policy/types";

type BindingResource = Pick<AclBinding, "resourceType" | "resourceName" | "patternType">;

export function touches(binding: BindingResource, rule: OwnerRule): boolean {
  if (binding.resourceType !== rule.resourceType) return false;
  if (binding.resourceName === "*" && binding.patternType === "LITERAL") return true;
  if (binding.resourceName.startsWith(rule.prefix)) return true;
  return binding.patternType === "PREFIXED" && rule.prefix.startsWith(binding.resourceName);
}

/** The rules any of `bindings` touches, in the order of the configuration. */
export function ownerRulesFor(bindings: readonly BindingResource[], rules: readonly OwnerRule[]): OwnerRule[] {
  return rules.filter((rule) => bindings.some((b) => touches(b, rule)));
}

/** The rules whose owners do not include `principal` (empty: they may approve as far as owners go). */
export function rulesNotOwnedBy(principal: string, rules: readonly OwnerRule[]): OwnerRule[] {
  return rules.filter((rule) => !rule.principals.includes(principal));
}

/** "TOPIC payments-* (User:bob, User:carol)", for messages. */
export function describeRules(rules: readonly OwnerRule[]): string {
  return rules
    .map((r) => `${r.resourceType} ${r.prefix === "" ? "*" : `${r.prefix}*`} (${r.principals.join(", ")})`)
    .join("; ");
}

/** The longest grant the rules allow, given the cluster's own maximum. */
export function maxGrantMinutes(clusterMax: number, rules: readonly OwnerRule[]): number {
  return Math.min(clusterMax, ...rules.map((r) => r.maxGrantMinutes ?? clusterMax));
}
