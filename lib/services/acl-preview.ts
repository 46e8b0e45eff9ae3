/**
 * What an ACL change would do, before it is applied: pure (no Kafka, no env), so the
 * preview the page and the API show is unit-tested.
 *
 * - create: every binding goes through the policy core's validateNewAcl (all problems
 *   reported, not only the first); a binding Kafka already holds is a no-op;
 * - delete: a binding Kafka does not hold is a no-op;
 * - the effect: for each binding's principal (and host) on the resource its pattern
 *   names, every operation valid for the resource type is decided with the policy
 *   core's authorize over the current ACLs and over the ACLs after the change; the
 *   decisions that differ are the preview. A PREFIXED pattern stands for a name under
 *   the prefix (and LITERAL `*` for any name), so a literal ACL elsewhere does not
 *   distort it. Only the ACLs that apply to that resource are indexed, so a preview
 *   over 100,000 ACLs stays cheap.
 */
import {
  WILDCARD_HOST,
  WILDCARD_RESOURCE,
  SUPPORTED_OPERATIONS,
  authorize,
  bindingKey,
  filterAcls,
  representativeName,
  validateNewAcl,
  type AclBinding,
  type AuthorizerConfig,
} from "@/lib/policy";
import type { AclPreview, DecisionChange } from "@/lib/schemas/acls";

export type PreviewAssumptions = AclPreview["assumptions"];

/** "TOPIC orders", "TOPIC names starting with payments-", "every TOPIC". */
export function resourceLabel(b: Pick<AclBinding, "resourceType" | "resourceName" | "patternType">): string {
  if (b.patternType === "PREFIXED") return `${b.resourceType} names starting with ${b.resourceName}`;
  if (b.resourceName === WILDCARD_RESOURCE) return `every ${b.resourceType}`;
  return `${b.resourceType} ${b.resourceName}`;
}

/** The bindings once each, in first-seen order. */
export function distinctBindings(bindings: readonly AclBinding[]): AclBinding[] {
  const seen = new Set<string>();
  return bindings.filter((b) => {
    const k = bindingKey(b);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The ACLs after the change (creating present ones and deleting absent ones change nothing). */
export function applyChange(kind: AclPreview["kind"], current: readonly AclBinding[], bindings: readonly AclBinding[]): AclBinding[] {
  const keys = new Set(bindings.map(bindingKey));
  if (kind === "delete") return current.filter((a) => !keys.has(bindingKey(a)));
  const present = new Set(current.map(bindingKey));
  return [...current, ...distinctBindings(bindings).filter((b) => !present.has(bindingKey(b)))];
}

/** Decisions that differ between `before` and `after` for the bindings' principals on their resources. */
export function decisionChanges(
  before: readonly AclBinding[],
  after: readonly AclBinding[],
  bindings: readonly AclBinding[],
  config: AuthorizerConfig,
): { changes: DecisionChange[]; checked: number } {
  const changes: DecisionChange[] = [];
  let checked = 0;
  const subjects = new Map<string, AclBinding>();
  for (const b of bindings) subjects.set([b.principal, b.host, b.resourceType, b.patternType, b.resourceName].join("\u0000"), b);
  for (const b of subjects.values()) {
    const name = representativeName(b.patternType, b.resourceName);
    const filter = { resourceType: b.resourceType, resourceName: name, patternType: "MATCH", principal: null, host: null, operation: "ANY", permissionType: "ANY" } as const;
    const applicableBefore = filterAcls(before, filter);
    const applicableAfter = filterAcls(after, filter);
    for (const operation of SUPPORTED_OPERATIONS[b.resourceType]) {
      const request = { principal: b.principal, host: b.host, operation, resourceType: b.resourceType, resourceName: name };
      const was = authorize(applicableBefore, request, config).decision;
      const is = authorize(applicableAfter, request, config).decision;
      checked++;
      if (was !== is) {
        changes.push({
          principal: b.principal,
          host: b.host,
          resourceType: b.resourceType,
          resourceName: b.resourceName,
          resourceLabel: resourceLabel(b),
          operation,
          before: was,
          after: is,
        });
      }
    }
  }
  return { changes, checked };
}

/** The whole preview of creating or deleting `bindings` when Kafka holds `current`. */
export function previewAclChange(
  kind: AclPreview["kind"],
  current: readonly AclBinding[],
  bindings: readonly AclBinding[],
  assumptions: PreviewAssumptions,
): AclPreview {
  const problems: AclPreview["problems"] = [];
  if (kind === "create") {
    bindings.forEach((binding, index) => {
      const v = validateNewAcl(binding);
      if (!v.ok) problems.push({ index, binding, message: v.message });
    });
  }
  const valid = bindings.filter((_, i) => !problems.some((p) => p.index === i));
  const present = new Set(current.map(bindingKey));
  const noOps = distinctBindings(valid).filter((b) => present.has(bindingKey(b)) === (kind === "create"));
  const effective = distinctBindings(valid).filter((b) => present.has(bindingKey(b)) !== (kind === "create"));
  const config = { superUsers: new Set(assumptions.superUsers), allowEveryoneIfNoAclFound: assumptions.allowEveryoneIfNoAclFound };
  const { changes, checked } = decisionChanges(current, applyChange(kind, current, effective), effective, config);
  return { kind, bindings: [...bindings], problems, noOps, changes, checked, assumptions };
}

/** "ALLOW User:bob READ on TOPIC orders (LITERAL) from *": one binding in one line, for messages and the audit trail. */
export function bindingLine(b: AclBinding): string {
  const host = b.host === WILDCARD_HOST ? "any host" : b.host;
  return `${b.permissionType} ${b.principal} ${b.operation} on ${b.resourceType} ${b.resourceName} (${b.patternType}) from ${host}`;
}
