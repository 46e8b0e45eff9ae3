/**
 * Which ACL bindings the expiry of grants removes (#19), with no I/O: the rule the console's
 * expiry job follows (lib/services/grants.ts) and the policy CLI's `expire` answers.
 *
 * A grant holds the bindings its plan created (never one that existed before it, unless
 * another live grant held it: then both hold it). At `now`, a grant not ended is live while
 * its expiry is in the future, and expired otherwise. For each binding of an expired grant:
 *
 *   - kept         when a live grant also holds it (it ends with the last grant holding it);
 *   - already gone when the cluster no longer has it (deleted by hand): nothing is removed;
 *   - removed      otherwise (once, however many expired grants hold it).
 *
 * Example: grants A (expired) and B (live) both hold WRITE on `payments-eu` for alice; A also
 * holds READ. At `now` READ is removed and WRITE is kept until B expires.
 */
import { bindingKey } from "./acl-index";
import type { AclBinding } from "../types";

export interface GrantState {
  id: string;
  bindings: readonly AclBinding[];
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Ended before (removed or ended early and handled): neither live nor to remove. */
  ended?: boolean;
}

export interface GrantExpiry {
  id: string;
  expired: boolean;
  remove: AclBinding[];
  keep: { binding: AclBinding; heldBy: string[] }[];
  alreadyGone: AclBinding[];
}

export interface ExpiryResult {
  /** Every binding removed at `now`, each once, in the order of the grants and their bindings. */
  removed: AclBinding[];
  grants: GrantExpiry[];
}

/** The bindings of `grant` that no grant in `others` holds (each once, in the grant's order). */
export function bindingsOnlyItHolds(
  grant: Pick<GrantState, "bindings">,
  heldByOthers: readonly AclBinding[],
): AclBinding[] {
  const held = new Set(heldByOthers.map(bindingKey));
  const seen = new Set<string>();
  return grant.bindings.filter((b) => {
    const key = bindingKey(b);
    if (held.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the expiry of `grants` at `now` does to a cluster holding `acls` (see the module comment). */
export function expireGrants(input: {
  acls: readonly AclBinding[];
  grants: readonly GrantState[];
  now: number;
}): ExpiryResult {
  const present = new Set(input.acls.map(bindingKey));
  const liveHolders = new Map<string, string[]>();
  for (const g of input.grants) {
    if (g.ended || g.expiresAt <= input.now) continue;
    for (const b of g.bindings) {
      const key = bindingKey(b);
      const holders = liveHolders.get(key) ?? [];
      if (!holders.includes(g.id)) holders.push(g.id);
      liveHolders.set(key, holders);
    }
  }
  const removedKeys = new Set<string>();
  const removed: AclBinding[] = [];
  const grants = input.grants.map((g): GrantExpiry => {
    const expired = !g.ended && g.expiresAt <= input.now;
    const result: GrantExpiry = { id: g.id, expired, remove: [], keep: [], alreadyGone: [] };
    if (!expired) return result;
    const seen = new Set<string>();
    for (const b of g.bindings) {
      const key = bindingKey(b);
      if (seen.has(key)) continue;
      seen.add(key);
      const heldBy = liveHolders.get(key);
      if (heldBy) result.keep.push({ binding: b, heldBy });
      else if (!present.has(key)) result.alreadyGone.push(b);
      else {
        result.remove.push(b);
        if (!removedKeys.has(key)) {
          removedKeys.add(key);
          removed.push(b);
        }
      }
    }
    return result;
  });
  return { removed, grants };
}
