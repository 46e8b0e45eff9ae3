/**
 * What a background read records (#20), as pure decisions the journal service applies:
 *
 *   - `readChanges`: the changes between the journal's current state and what the read saw,
 *     leaving out keys the journal cannot judge yet (a console change recorded after the read
 *     began: the read may predate it, so its absence is not an outside disappearance; the
 *     next read settles it);
 *   - `attributeChanges`: which of those changes a console write whose outcome is unknown
 *     made (its pending intent matches), recorded as the console's with its audit row, never
 *     as outside; the rest are outside changes.
 */
import type { AclBindingFilter } from "../types";
import { matchesFilter } from "../acl/filter";
import { parseKey, type Json } from "./keys";
import { changesOf, diffStates, sameValue, type Change, type State } from "./state";

/** The changes from `current` (the journal) to `read` (the cluster), except on keys in `skip`. */
export function readChanges(current: State, read: State, skip: ReadonlySet<string> = new Set()): Change[] {
  return changesOf(diffStates(current, read)).filter((c) => !skip.has(c.key));
}

/** What a console write meant to change, recorded before it was sent. */
export interface PendingIntent {
  /** The audit row of the write. */
  auditId: string;
  planId: string | null;
  /** Keys it meant to make appear (with values) or disappear. */
  changes: readonly Change[];
  /** ACL delete filters: any ACL they match may disappear. */
  aclDeleteFilters: readonly AclBindingFilter[];
}

function intentMatches(intent: PendingIntent, change: Change): boolean {
  for (const c of intent.changes)
    if (c.key === change.key && c.op === change.op && (c.op === "disappeared" || sameValue(c.value, change.value)))
      return true;
  if (change.op === "disappeared" && intent.aclDeleteFilters.length > 0 && change.key.startsWith('["acl"')) {
    const p = parseKey(change.key);
    if (p.kind === "acl") return intent.aclDeleteFilters.some((f) => matchesFilter(p.binding, f));
  }
  return false;
}

export interface Attribution {
  /** Changes a pending console write explains, by its audit id. */
  console: { intent: PendingIntent; changes: Change[] }[];
  outside: Change[];
}

/** Splits changes into those a pending intent explains (the oldest matching one) and outside ones. */
export function attributeChanges(changes: readonly Change[], intents: readonly PendingIntent[]): Attribution {
  const byIntent = new Map<PendingIntent, Change[]>();
  const outside: Change[] = [];
  for (const change of changes) {
    const intent = intents.find((i) => intentMatches(i, change));
    if (intent) byIntent.set(intent, [...(byIntent.get(intent) ?? []), change]);
    else outside.push(change);
  }
  return { console: [...byIntent].map(([intent, cs]) => ({ intent, changes: cs })), outside };
}

export type { Json };
