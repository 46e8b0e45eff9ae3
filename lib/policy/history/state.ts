/**
 * The security state of one cluster as the journal sees it, its differences, and its
 * reconstruction at an instant (#20). Pure: time is a parameter (milliseconds since the epoch).
 *
 * A `State` maps canonical keys (./keys.ts) to JSON values. A journal `Entry` says that a key
 * appeared (with a value: a new value of a present key is an "appeared" too) or disappeared
 * somewhere in its window (from, to]:
 *
 *   - a console change: from = to = the instant it was applied;
 *   - an outside change found by a read: from = the previous successful read, to = this read
 *     (the previous read still saw the old value; this one sees the new);
 *   - an "observed" change set, the first read after a gap: from = the last read before the gap
 *     (or the read itself when the journal begins), to = this read.
 *
 * "The state at t" is the state after every change whose window ended at or before t. A key
 * with a change whose window strictly contains t ((from < t < to)) is *uncertain* at t: the
 * state keeps its value before that change, and `uncertain` lists the key, so an answer can
 * say "unknown" instead of guessing. Changes of one key are applied in entry order (the order
 * they were recorded, `id`); the recorder keeps that order equal to their order in time.
 */
import type { AclBinding, QuotaEntity, QuotaKey } from "../types";
import type { AuthorizerConfig } from "../acl/model";
import {
  aclKey,
  canonicalJson,
  HISTORY_SETTINGS,
  parseKey,
  quotaKey,
  scramKey,
  settingKey,
  type HistoryScramMechanism,
  type HistorySetting,
  type Json,
} from "./keys";

export type State = ReadonlyMap<string, Json>;

export const EMPTY_STATE: State = new Map();

export type EntryOp = "appeared" | "disappeared";
export type EntryOrigin = "console" | "outside" | "observed";

export interface Entry {
  /** Order of recording (the journal's row id); increasing. */
  id: number;
  key: string;
  op: EntryOp;
  /** The value it appeared with; null for "disappeared". */
  value: Json;
  /** Window (from, to] in ms; from = to for a console change. */
  from: number;
  to: number;
  origin: EntryOrigin;
}

export interface Checkpoint {
  /** The instant the state holds for (every entry up to lastEntryId has to <= at). */
  at: number;
  /** The last entry folded into it (0: none). */
  lastEntryId: number;
  state: State;
}

/** A contiguous period in which the console read the cluster successfully: [from, to]. */
export interface Coverage {
  from: number;
  to: number;
}

// ---- building states ----------------------------------------------------------------

export interface SecuritySnapshot {
  acls: readonly AclBinding[];
  quotas: readonly { entity: QuotaEntity; values: Partial<Record<QuotaKey, number>> }[];
  scram: readonly { user: string; credentials: readonly { mechanism: HistoryScramMechanism; iterations: number }[] }[];
  settings: ConsoleSettings;
}

export interface ConsoleSettings {
  superUsers: readonly string[];
  allowEveryoneIfNoAclFound: boolean;
  principalMapping: { sslRules: string | null; kerberosRules: string | null; kerberosDefaultRealm: string | null };
}

export function settingsEntries(settings: ConsoleSettings): [string, Json][] {
  return [
    [settingKey("superUsers"), [...new Set(settings.superUsers)].sort()],
    [settingKey("allowEveryoneIfNoAclFound"), settings.allowEveryoneIfNoAclFound],
    [
      settingKey("principalMapping"),
      {
        sslRules: settings.principalMapping.sslRules,
        kerberosRules: settings.principalMapping.kerberosRules,
        kerberosDefaultRealm: settings.principalMapping.kerberosDefaultRealm,
      },
    ],
  ];
}

/** The state a read (plus the console's settings) shows. */
export function stateOf(snapshot: SecuritySnapshot): Map<string, Json> {
  const state = new Map<string, Json>();
  for (const b of snapshot.acls) state.set(aclKey(b), true);
  for (const q of snapshot.quotas)
    for (const [k, v] of Object.entries(q.values))
      if (typeof v === "number") state.set(quotaKey(q.entity, k as QuotaKey), v);
  for (const u of snapshot.scram) for (const c of u.credentials) state.set(scramKey(u.user, c.mechanism), c.iterations);
  for (const [k, v] of settingsEntries(snapshot.settings)) state.set(k, v);
  return state;
}

/** The ACL bindings of a state, in key order. */
export function aclsOf(state: State): AclBinding[] {
  const out: AclBinding[] = [];
  for (const key of [...state.keys()].sort()) {
    if (!key.startsWith('["acl"')) continue;
    const p = parseKey(key);
    if (p.kind === "acl") out.push(p.binding);
  }
  return out;
}

/** super.users and allow.everyone.if.no.acl.found as the state holds them (Kafka's defaults when absent). */
export function authorizerConfigOf(state: State): AuthorizerConfig {
  const su = state.get(settingKey("superUsers"));
  const allow = state.get(settingKey("allowEveryoneIfNoAclFound"));
  return {
    superUsers: Array.isArray(su) ? (su as string[]).filter((s) => typeof s === "string") : [],
    allowEveryoneIfNoAclFound: allow === true,
  };
}

export function isSettingKey(key: string): boolean {
  return HISTORY_SETTINGS.some((s: HistorySetting) => key === settingKey(s));
}

// ---- differences ---------------------------------------------------------------------

export interface StateDiff {
  appeared: { key: string; value: Json }[];
  disappeared: { key: string; value: Json }[];
  changed: { key: string; before: Json; after: Json }[];
}

export function sameValue(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** What changed from `prev` to `next`, each list in key order. */
export function diffStates(prev: State, next: State): StateDiff {
  const diff: StateDiff = { appeared: [], disappeared: [], changed: [] };
  for (const [key, value] of next) {
    if (!prev.has(key)) diff.appeared.push({ key, value });
    else {
      const before = prev.get(key)!;
      if (!sameValue(before, value)) diff.changed.push({ key, before, after: value });
    }
  }
  for (const [key, value] of prev) if (!next.has(key)) diff.disappeared.push({ key, value });
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  diff.appeared.sort(byKey);
  diff.disappeared.sort(byKey);
  diff.changed.sort(byKey);
  return diff;
}

export function isEmptyDiff(d: StateDiff): boolean {
  return d.appeared.length === 0 && d.disappeared.length === 0 && d.changed.length === 0;
}

/** A journal change: one key, what it became. */
export type Change = Pick<Entry, "key" | "op" | "value">;

/** The changes that turn the diff's `prev` into its `next` (a changed value is an "appeared" with the new one). */
export function changesOf(diff: StateDiff): Change[] {
  return [
    ...diff.disappeared.map(({ key }) => ({ key, op: "disappeared" as const, value: null })),
    ...diff.appeared.map(({ key, value }) => ({ key, op: "appeared" as const, value })),
    ...diff.changed.map(({ key, after }) => ({ key, op: "appeared" as const, value: after })),
  ];
}

/** Applies changes to a state in place. */
export function applyChanges(state: Map<string, Json>, changes: Iterable<Change>): Map<string, Json> {
  for (const c of changes) {
    if (c.op === "appeared") state.set(c.key, c.value);
    else state.delete(c.key);
  }
  return state;
}

// ---- the state at an instant ---------------------------------------------------------

export type Vouch =
  /** Inside a period the console read the cluster. */
  | { kind: "covered" }
  /** Before the journal's first read. */
  | { kind: "before-journal"; begins: number | null }
  /** Between two periods of reading: the console could not read the cluster from..to. */
  | { kind: "gap"; from: number; to: number }
  /** After the last successful read (a change made since would not be known yet). */
  | { kind: "after-last-read"; lastRead: number };

export interface StateAt {
  at: number;
  state: Map<string, Json>;
  /** Keys with a change whose window contains `at` strictly: their value at `at` is not known. */
  uncertain: Set<string>;
  /** Whether the journal can vouch for `at` at all (the read coverage). */
  vouch: Vouch;
}

/** Whether the read coverage vouches for instant t. Periods may come in any order. */
export function vouchFor(coverage: readonly Coverage[], t: number): Vouch {
  if (coverage.length === 0) return { kind: "before-journal", begins: null };
  const periods = [...coverage].sort((a, b) => a.from - b.from);
  if (t < periods[0]!.from) return { kind: "before-journal", begins: periods[0]!.from };
  for (let i = 0; i < periods.length; i++) {
    const p = periods[i]!;
    if (t >= p.from && t <= p.to) return { kind: "covered" };
    const next = periods[i + 1];
    if (next && t > p.to && t < next.from) return { kind: "gap", from: p.to, to: next.from };
  }
  return { kind: "after-last-read", lastRead: periods[periods.length - 1]!.to };
}

export class RebuildError extends Error {
  override name = "RebuildError";
}

/**
 * The state at instant t, from the nearest checkpoint at or before t (the caller picks it)
 * plus the entries recorded after it (any others are ignored). See the module comment.
 */
export function rebuildAt(
  checkpoint: Checkpoint,
  entries: Iterable<Entry>,
  t: number,
  coverage: readonly Coverage[] = [],
): StateAt {
  if (checkpoint.at > t) throw new RebuildError(`The checkpoint (${checkpoint.at}) is after the instant asked (${t}).`);
  const state = new Map(checkpoint.state);
  const uncertain = new Set<string>();
  const later = [...entries].filter((e) => e.id > checkpoint.lastEntryId).sort((a, b) => a.id - b.id);
  for (const e of later) {
    if (uncertain.has(e.key)) continue; // its value is already unknown from an earlier change on
    if (e.to <= t) {
      if (e.op === "appeared") state.set(e.key, e.value);
      else state.delete(e.key);
    } else if (e.from < t) uncertain.add(e.key);
    // else: happened after t
  }
  return { at: t, state, uncertain, vouch: vouchFor(coverage, t) };
}

/**
 * Extends a coverage list with a successful read at `at`: the last period grows when the
 * previous read is at most `maxGapMs` before, else a new period starts. Returns whether a
 * new period started (the read then records an "observed" change set).
 */
export function extendCoverage(
  coverage: readonly Coverage[],
  at: number,
  maxGapMs: number,
): { coverage: Coverage[]; newPeriod: boolean } {
  const last = coverage[coverage.length - 1];
  if (last && at >= last.to && at - last.to <= maxGapMs)
    return { coverage: [...coverage.slice(0, -1), { from: last.from, to: at }], newPeriod: false };
  return { coverage: [...coverage, { from: at, to: at }], newPeriod: true };
}

/** The canonical text of a state (keys sorted): what a checkpoint stores, and what a state hash is of. */
export function stateJson(state: State): string {
  const keys = [...state.keys()].sort();
  return `[${keys.map((k) => `[${JSON.stringify(k)},${canonicalJson(state.get(k)!)}]`).join(",")}]`;
}

/** The state a checkpoint's text holds (only the keys `keep` keeps, when given). */
export function parseStateJson(text: string, keep?: (key: string) => boolean): Map<string, Json> {
  const rows = JSON.parse(text) as unknown;
  if (!Array.isArray(rows)) throw new RebuildError("A checkpoint's state is not a list.");
  const state = new Map<string, Json>();
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 2 || typeof row[0] !== "string")
      throw new RebuildError("A checkpoint's state has a malformed row.");
    if (keep === undefined || keep(row[0])) state.set(row[0], row[1] as Json);
  }
  return state;
}
