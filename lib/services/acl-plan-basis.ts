/**
 * The basis of an ACL plan: a fingerprint of the ACLs the change's effect depends on,
 * read when the plan is made and again (from Kafka) when it is applied. Pure.
 *
 * Which ACLs: those that can apply to a resource one of the changed bindings can apply to
 * (their patterns match a common name; LITERAL `*` matches every name of its type). Every
 * decision a plan shows is on such a resource and depends only on those ACLs (and the
 * authorizer assumptions, hashed alongside), and the bindings themselves are among them,
 * so a create that someone else made meanwhile, or a DENY added on a touched prefix,
 * makes the plan stale; an ACL on an unrelated resource does not.
 */
import { createHash } from "node:crypto";
import { WILDCARD_RESOURCE, type AclBinding, type ResourceType } from "@/lib/policy";

/** What an ACL plan executes: exactly these, deletes first. */
export interface AclPlanPayload {
  create: AclBinding[];
  delete: AclBinding[];
}

export interface Assumptions {
  superUsers: readonly string[];
  allowEveryoneIfNoAclFound: boolean;
}

/** Does any element of `set` (whose lengths are `lengths`) prefix `s`? */
function hasPrefixOf(s: string, set: ReadonlySet<string>, lengths: readonly number[]): boolean {
  for (const l of lengths) if (l <= s.length && set.has(s.slice(0, l))) return true;
  return false;
}

function lowerBound(sorted: readonly string[], target: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Does any element of `sorted` start with `prefix`? */
function anyStartsWith(sorted: readonly string[], prefix: string): boolean {
  const i = lowerBound(sorted, prefix);
  return i < sorted.length && sorted[i]!.startsWith(prefix);
}

interface TypeSelector {
  wildcard: boolean;
  literals: Set<string>;
  literalsSorted: string[];
  prefixes: Set<string>;
  prefixesSorted: string[];
  prefixLengths: number[];
}

/**
 * Whether an ACL can apply to a resource one of the changed bindings can apply to: their
 * patterns match a common name (LITERAL `*` matches every name of its type).
 */
export function relevanceTest(change: readonly AclBinding[]): (acl: AclBinding) => boolean {
  const byType = new Map<ResourceType, TypeSelector>();
  for (const b of change) {
    let t = byType.get(b.resourceType);
    if (t === undefined) {
      t = {
        wildcard: false,
        literals: new Set(),
        literalsSorted: [],
        prefixes: new Set(),
        prefixesSorted: [],
        prefixLengths: [],
      };
      byType.set(b.resourceType, t);
    }
    if (b.patternType === "PREFIXED") t.prefixes.add(b.resourceName);
    else if (b.resourceName === WILDCARD_RESOURCE) t.wildcard = true;
    else t.literals.add(b.resourceName);
  }
  for (const t of byType.values()) {
    t.literalsSorted = [...t.literals].sort();
    t.prefixesSorted = [...t.prefixes].sort();
    t.prefixLengths = [...new Set(t.prefixesSorted.map((p) => p.length))].sort((a, b) => a - b);
  }
  return (a) => {
    const t = byType.get(a.resourceType);
    if (t === undefined) return false;
    if (t.wildcard) return true;
    if (a.patternType === "PREFIXED") {
      return (
        anyStartsWith(t.literalsSorted, a.resourceName) ||
        anyStartsWith(t.prefixesSorted, a.resourceName) ||
        hasPrefixOf(a.resourceName, t.prefixes, t.prefixLengths)
      );
    }
    if (a.resourceName === WILDCARD_RESOURCE) return true;
    return t.literals.has(a.resourceName) || hasPrefixOf(a.resourceName, t.prefixes, t.prefixLengths);
  };
}

const BASIS_VERSION = "acl1";

function sha(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32);
}

/**
 * The basis of an ACL plan: `acl1:<count>:<hash of those ACLs>:<hash of the assumptions>`
 * over the ACLs that can apply to a resource the change can touch, in the snapshot's
 * (canonical, sorted) order, so equal sets give equal bases on every console instance.
 */
export function aclPlanBasis(acls: readonly AclBinding[], change: AclPlanPayload, assumptions: Assumptions): string {
  const relevant = relevanceTest([...change.create, ...change.delete]);
  const hash = createHash("sha256");
  let count = 0;
  let chunk = "";
  for (const a of acls) {
    if (!relevant(a)) continue;
    count++;
    chunk +=
      `${a.resourceType}\u0000${a.resourceName}\u0000${a.patternType}\u0000${a.principal}\u0000${a.host}` +
      `\u0000${a.operation}\u0000${a.permissionType}\n`;
    if (chunk.length > 65_536) {
      hash.update(chunk, "utf8");
      chunk = "";
    }
  }
  hash.update(chunk, "utf8");
  const config = sha(JSON.stringify([[...assumptions.superUsers].sort(), assumptions.allowEveryoneIfNoAclFound]));
  return `${BASIS_VERSION}:${count}:${hash.digest("hex").slice(0, 32)}:${config}`;
}

/** The 409 message: what changed between the preview and now. */
export function aclStaleMessage(then: string, now: string): string {
  const [, thenCount, thenAcls, thenConfig] = then.split(":");
  const [, nowCount, nowAcls, nowConfig] = now.split(":");
  let what: string;
  if (thenConfig !== nowConfig) what = "the console's super.users or allow.everyone.if.no.acl.found settings changed";
  else if (thenCount !== nowCount)
    what = `the ACLs that apply to the resources this plan touches: ${thenCount} then, ${nowCount} now`;
  else if (thenAcls !== nowAcls) what = "an ACL that applies to the resources this plan touches was replaced";
  else what = "the plan was computed differently";
  return `The ACLs changed since this preview (${what}); nothing was changed. Preview again.`;
}
