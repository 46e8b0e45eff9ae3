/**
 * Kafka's ACL set as plans and blast radii see it: a binding is its seven fields, and the
 * set holds each once (the first occurrence). Membership against the current ACLs, the
 * distinct bindings of a list, and the stored entry (and its group) equal to a binding.
 */
import type { AclBinding } from "../types";
import { AclIndex, bindingKey, type AclGroup, type IndexedAcl } from "./acl-index";

/**
 * Membership in the current ACL set, by the binding's seven fields. From a list, one pass
 * keeps only the ACLs named like one of the bindings that will be looked up (no key
 * string, no copy of the whole set).
 */
export class CurrentSet {
  private byName: Map<string, AclBinding[]> | null = null;

  constructor(
    readonly source: AclIndex | readonly AclBinding[],
    private readonly wanted: readonly AclBinding[],
  ) {}

  has(b: AclBinding): boolean {
    if (this.source instanceof AclIndex) return findAclEntry(this.source, b) !== null;
    if (this.byName === null) {
      this.byName = new Map(this.wanted.map((w) => [w.resourceName, []]));
      for (const a of this.source) this.byName.get(a.resourceName)?.push(a);
    }
    const same = this.byName.get(b.resourceName);
    if (same === undefined) throw new Error("CurrentSet: looked up a binding it was not told about");
    return same.some((a) => sameBinding(a, b));
  }

  /** The distinct current bindings, first occurrence order. */
  distinct(): readonly AclBinding[] {
    return this.source instanceof AclIndex ? this.source.acls : distinctBindings(this.source);
  }
}

/** Whether two bindings are the same binding (all seven fields). */
export function sameBinding(a: AclBinding, b: AclBinding): boolean {
  return (
    a.resourceName === b.resourceName &&
    a.principal === b.principal &&
    a.operation === b.operation &&
    a.permissionType === b.permissionType &&
    a.host === b.host &&
    a.patternType === b.patternType &&
    a.resourceType === b.resourceType
  );
}

/** The stored entry equal to `b` (all seven fields), or null. */
export function findAclEntry(index: AclIndex, b: AclBinding): IndexedAcl | null {
  return findAclGroupEntry(index, b)?.entry ?? null;
}

/** The stored entry equal to `b` and the group (name, pattern type) holding it, or null. */
export function findAclGroupEntry(index: AclIndex, b: AclBinding): { group: AclGroup; entry: IndexedAcl } | null {
  const section = index.section(b.resourceType);
  const at = section.positionByName.get(b.resourceName);
  if (at === undefined) return null;
  const node = section.names[at]!;
  const group = b.patternType === "LITERAL" ? node.literal : node.prefixed;
  if (group === null) return null;
  const list = group.byPrincipal === null ? group.entries : (group.byPrincipal.get(b.principal)?.get(b.host) ?? []);
  for (const entry of list) {
    const x = entry.binding;
    if (
      x.operation === b.operation &&
      x.permissionType === b.permissionType &&
      x.principal === b.principal &&
      x.host === b.host
    )
      return { group, entry };
  }
  return null;
}

/** The bindings once each, first occurrence order (Kafka's ACL set). */
export function distinctBindings(bindings: readonly AclBinding[]): AclBinding[] {
  const seen = new Set<string>();
  const out: AclBinding[] = [];
  for (const b of bindings) {
    const k = bindingKey(b);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(b);
  }
  return out;
}

/** Only the seven fields, in the contract's order (input objects may carry more). */
export function cleanBinding(b: AclBinding): AclBinding {
  return {
    resourceType: b.resourceType,
    resourceName: b.resourceName,
    patternType: b.patternType,
    principal: b.principal,
    host: b.host,
    operation: b.operation,
    permissionType: b.permissionType,
  };
}
