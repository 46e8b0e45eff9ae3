/**
 * What changed between two reads of a cluster, at the cost of what changed (#20's recording
 * budget: under 5 % of a snapshot refresh at 300,000 ACLs).
 *
 * Turning every ACL Kafka returns into its journal key (a JSON text) and comparing two maps of
 * 300,000 keys costs several times what building the console's ACL store does. But between
 * two reads a minute apart almost nothing changes, and Kafka answers DescribeAcls in an order
 * that stays put while its ACLs do (the broker groups its answer in a hash map of resource
 * patterns). So a read is compared with the one before it in step, binding by binding (seven
 * string comparisons, no key built); where the two part, a bounded look-ahead finds where they
 * meet again (an ACL inserted or removed shifts the rest); what is left unmatched on either
 * side is matched by a plain text of its fields; only what still has no partner (and what the
 * previous read had that this one has not) gets a journal key built. When Kafka reorders its
 * answer (its hash map grew), more falls to the plain-text match: slower, never wrong.
 *
 * The result is the set of keys whose presence or value differ between the two reads
 * (`changed`). The caller compares the journal's state with this read only on those keys, the
 * ones the journal recorded since the previous read and the ones that read left differing
 * (lib/services/journal.ts): elsewhere the two agree, so the answer is the whole comparison's.
 */
import type { AclBinding } from "../types";
import { sameBinding } from "../acl/acl-set";
import { aclKey, type Json } from "./keys";
import { sameValue, stateOf, type Change, type SecuritySnapshot } from "./state";

export interface ReadMemory {
  /** The read's ACL bindings, in Kafka's order (a key is built only for one that changed). */
  readonly acls: readonly AclBinding[];
  /** The keys of the read's ACLs, to look one up. */
  readonly aclKeys: Set<string>;
  /** The read's other keys (client quotas, SCRAM credentials, settings) with their values. */
  readonly others: ReadonlyMap<string, Json>;
}

export interface ReadDelta {
  memory: ReadMemory;
  /** Keys present in one read and not the other, or with another value; null: no previous read to compare. */
  changed: string[] | null;
}

/** How far ahead a comparison in step looks for where the two reads meet again. */
const LOOK_AHEAD = 64;

const plainText = (b: AclBinding) =>
  `${b.resourceType}\u0000${b.patternType}\u0000${b.resourceName}\u0000${b.principal}\u0000${b.host}\u0000` +
  `${b.operation}\u0000${b.permissionType}`;

function othersOf(snapshot: SecuritySnapshot): Map<string, Json> {
  return stateOf({ ...snapshot, acls: [] });
}

/** The memory of a read with nothing before it (every key built). */
export function firstReadMemory(snapshot: SecuritySnapshot): ReadMemory {
  return { acls: snapshot.acls, aclKeys: new Set(snapshot.acls.map(aclKey)), others: othersOf(snapshot) };
}

/**
 * This read's memory and the keys that differ from the previous one. `previous` is consumed
 * (its key set becomes the new memory's): keep only the returned memory.
 */
export function compareWithPreviousRead(previous: ReadMemory | null, snapshot: SecuritySnapshot): ReadDelta {
  if (previous === null) return { memory: firstReadMemory(snapshot), changed: null };
  const next = snapshot.acls;
  const prev = previous.acls;
  // 0. The common case: the same answer in the same order (no writes, only comparisons).
  let same = 0;
  const common = Math.min(next.length, prev.length);
  while (same < common && sameBinding(next[same]!, prev[same]!)) same++;
  const matchedPrev = new Uint8Array(prev.length);
  matchedPrev.fill(1, 0, same);
  const unmatchedNext: number[] = [];

  // 1. In step, with a bounded look-ahead where the two part.
  let i = same;
  let j = same;
  while (i < next.length && j < prev.length) {
    // A run in step (marked matched at once, after it).
    let run = 0;
    while (i + run < next.length && j + run < prev.length && sameBinding(next[i + run]!, prev[j + run]!)) run++;
    if (run > 0) {
      matchedPrev.fill(1, j, j + run);
      i += run;
      j += run;
      continue;
    }
    let skipPrev = -1;
    for (let d = 1; d <= LOOK_AHEAD && j + d < prev.length; d++)
      if (sameBinding(next[i]!, prev[j + d]!)) {
        skipPrev = d;
        break;
      }
    if (skipPrev > 0) {
      j += skipPrev; // prev[j .. j+d-1] are left unmatched (removed, or moved)
      continue;
    }
    let skipNext = -1;
    for (let d = 1; d <= LOOK_AHEAD && i + d < next.length; d++)
      if (sameBinding(next[i + d]!, prev[j]!)) {
        skipNext = d;
        break;
      }
    if (skipNext > 0) {
      for (let k = i; k < i + skipNext; k++) unmatchedNext.push(k);
      i += skipNext;
      continue;
    }
    unmatchedNext.push(i);
    i++;
    j++;
  }
  for (; i < next.length; i++) unmatchedNext.push(i);

  // 2. The rest, by the plain text of their fields.
  const changed: string[] = [];
  const aclKeys = previous.aclKeys;
  if (unmatchedNext.length > 0) {
    const byText = new Map<string, number[]>();
    for (let k = 0; k < prev.length; k++) {
      if (matchedPrev[k]) continue;
      const text = plainText(prev[k]!);
      const list = byText.get(text);
      if (list) list.push(k);
      else byText.set(text, [k]);
    }
    for (const n of unmatchedNext) {
      const partner = byText.get(plainText(next[n]!))?.pop();
      if (partner !== undefined) matchedPrev[partner] = 1;
      else changed.push(aclKey(next[n]!));
    }
  }
  // 3. What the previous read had and this one has not.
  const gone: string[] = [];
  if (matchedPrev.indexOf(0, same) >= 0)
    for (let k = same; k < prev.length; k++) if (!matchedPrev[k]) gone.push(aclKey(prev[k]!));
  // Kafka's ACLs are a set (a broker never answers one binding twice), so a key gone is absent.
  for (const key of gone) aclKeys.delete(key);
  for (const key of changed) aclKeys.add(key);
  changed.push(...gone);

  const others = othersOf(snapshot);
  for (const [key, value] of others) {
    const before = previous.others.get(key);
    if (before === undefined || !sameValue(before, value)) changed.push(key);
  }
  for (const key of previous.others.keys()) if (!others.has(key)) changed.push(key);

  return { memory: { acls: next, aclKeys, others }, changed };
}

/** The value of `key` in the read a memory holds (undefined: absent). */
export function valueInRead(memory: ReadMemory, key: string): Json | undefined {
  if (memory.aclKeys.has(key)) return true;
  return memory.others.get(key);
}

/** The read a memory holds, as a journal state (every key: the cost a delta avoids). */
export function stateOfRead(memory: ReadMemory): Map<string, Json> {
  const state = new Map<string, Json>(memory.others);
  for (const key of memory.aclKeys) state.set(key, true);
  return state;
}

/**
 * The changes that turn `current` (the journal's state) into the read a memory holds, looking
 * only at `keys` (the caller knows the two agree elsewhere) and leaving out `skip`: the same
 * list, in the same order, as readChanges(current, stateOfRead(memory), skip) when they do.
 */
export function changesOnKeys(
  current: ReadonlyMap<string, Json>,
  memory: ReadMemory,
  keys: Iterable<string>,
  skip: ReadonlySet<string> = new Set(),
): Change[] {
  const disappeared: Change[] = [];
  const appeared: Change[] = [];
  const changed: Change[] = [];
  for (const key of [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (skip.has(key)) continue;
    const before = current.get(key);
    const now = valueInRead(memory, key);
    if (now === undefined) {
      if (before !== undefined) disappeared.push({ key, op: "disappeared", value: null });
    } else if (before === undefined) appeared.push({ key, op: "appeared", value: now });
    else if (!sameValue(before, now)) changed.push({ key, op: "appeared", value: now });
  }
  return [...disappeared, ...appeared, ...changed];
}
