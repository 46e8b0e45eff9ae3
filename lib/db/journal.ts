/**
 * The journal's storage (#20, docs/history.md): entries, pending console intents, checkpoints
 * and read coverage, per cluster. What the rows mean is lib/policy/history; who writes them is
 * lib/services/journal.ts (the background read) and lib/services/journal-writes.ts (the
 * console's own changes, from auditedMutation).
 *
 * Every write that changes the journal's current state runs in a transaction holding the
 * cluster's journal lock (a transaction-level advisory lock): a read's recording and a console
 * write's entries never interleave, so a read can tell which keys changed after it began.
 */
import { getPrisma } from "./client";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint-format";
import type { Prisma } from "../generated/prisma/client";
import type { AclBindingFilter } from "../policy/types";
import {
  kindOf,
  principalOfKey,
  sameValue,
  type Change,
  type Checkpoint,
  type Coverage,
  type Entry,
  type EntryOrigin,
  type Json,
  type PendingIntent,
  type State,
} from "../policy/history";

export type Tx = Prisma.TransactionClient;

/**
 * Runs fn in a transaction holding the cluster's journal lock. Every query fn makes goes through
 * `tx`: on the embedded database one connection's open transaction holds the only backend, so a
 * query on another connection inside fn would wait for the transaction's end, which waits for it
 * (until the transaction's timeout; lib/db/embedded.ts).
 */
export async function withJournalLock<T>(clusterId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return getPrisma().$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`journal|${clusterId}`}, 0))`;
      return fn(tx);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

export interface NewEntry extends Change {
  from: Date;
  to: Date;
  origin: EntryOrigin;
  auditId?: string | null;
  planId?: string | null;
  actor?: string | null;
}

const BATCH = 5_000;

/** Inserts entries in the order given (their ids follow it). */
export async function insertEntries(tx: Tx, clusterId: string, entries: readonly NewEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += BATCH) {
    await tx.journalEntry.createMany({
      data: entries.slice(i, i + BATCH).map((e) => ({
        clusterId,
        kind: kindOf(e.key),
        key: e.key,
        principal: principalOfKey(e.key),
        op: e.op,
        value: e.op === "appeared" ? (e.value as Prisma.InputJsonValue) : undefined,
        windowFrom: e.from,
        windowTo: e.to,
        origin: e.origin,
        auditId: e.auditId ?? null,
        planId: e.planId ?? null,
        actor: e.actor ?? null,
      })),
    });
  }
}

export async function lastEntryId(clusterId: string, tx: Tx = getPrisma()): Promise<bigint> {
  const row = await tx.journalEntry.findFirst({
    where: { clusterId },
    orderBy: { id: "desc" },
    select: { id: true },
  });
  return row?.id ?? 0n;
}

export interface StoredEntry extends Entry {
  bigId: bigint;
  auditId: string | null;
  planId: string | null;
  actor: string | null;
  recordedAt: Date;
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof getPrisma>["journalEntry"]["findFirstOrThrow"]>>;

function toEntry(r: EntryRow): StoredEntry {
  return {
    id: Number(r.id),
    bigId: r.id,
    key: r.key,
    op: r.op as Entry["op"],
    value: (r.value ?? null) as Json,
    from: r.windowFrom.getTime(),
    to: r.windowTo.getTime(),
    origin: r.origin as EntryOrigin,
    auditId: r.auditId,
    planId: r.planId,
    actor: r.actor,
    recordedAt: r.recordedAt,
  };
}

/** Entries after `afterId`, in id order (paged by `limit`). */
export async function entriesAfter(
  clusterId: string,
  afterId: bigint,
  options: { limit?: number; upTo?: bigint; tx?: Tx } = {},
): Promise<StoredEntry[]> {
  const rows = await (options.tx ?? getPrisma()).journalEntry.findMany({
    where: { clusterId, id: { gt: afterId, ...(options.upTo !== undefined ? { lte: options.upTo } : {}) } },
    orderBy: { id: "asc" },
    take: options.limit ?? 50_000,
  });
  return rows.map(toEntry);
}

/**
 * The entries after `afterId` whose window began at or before `at` (in id order): all that can bear
 * on the state at `at` after a checkpoint (rebuildAt ignores the others). At most `limit`;
 * `complete` false when there were more.
 */
export async function entriesBearingOn(
  clusterId: string,
  afterId: bigint,
  at: Date,
  limit = 200_000,
): Promise<{ entries: StoredEntry[]; complete: boolean }> {
  const rows = await getPrisma().journalEntry.findMany({
    where: { clusterId, id: { gt: afterId }, windowFrom: { lte: at } },
    orderBy: { id: "asc" },
    take: limit + 1,
  });
  return { entries: rows.slice(0, limit).map(toEntry), complete: rows.length <= limit };
}

/**
 * The entries after `afterId` whose window ended at or before `upTo`, in id order: every kind when
 * `principals` is null, else only those naming one of them (the `principal` column) and the
 * console's settings. At most `limit`; `complete` false when there were more.
 */
export async function entriesUpTo(
  clusterId: string,
  afterId: bigint,
  upTo: Date,
  principals: readonly string[] | null,
  limit = 200_000,
): Promise<{ entries: StoredEntry[]; complete: boolean }> {
  const rows = await getPrisma().journalEntry.findMany({
    where: {
      clusterId,
      id: { gt: afterId },
      windowTo: { lte: upTo },
      ...(principals === null ? {} : { OR: [{ principal: { in: [...principals] } }, { kind: "setting" }] }),
    },
    orderBy: { id: "asc" },
    take: limit + 1,
  });
  return { entries: rows.slice(0, limit).map(toEntry), complete: rows.length <= limit };
}

/** The distinct keys with an entry after `afterId`. */
export async function keysChangedAfter(tx: Tx, clusterId: string, afterId: bigint): Promise<Set<string>> {
  const rows = await tx.journalEntry.findMany({
    where: { clusterId, id: { gt: afterId } },
    select: { key: true },
    distinct: ["key"],
  });
  return new Set(rows.map((r) => r.key));
}

export async function entriesOfKey(clusterId: string, key: string): Promise<StoredEntry[]> {
  const rows = await getPrisma().journalEntry.findMany({ where: { clusterId, key }, orderBy: { id: "asc" } });
  return rows.map(toEntry);
}

// ---- pending console intents ----------------------------------------------------------

export interface IntentInput {
  clusterId: string;
  auditId: string;
  planId: string | null;
  actor: string;
  changes: readonly Change[];
  aclDeleteFilters: readonly AclBindingFilter[];
}

export async function recordJournalIntent(input: IntentInput): Promise<string> {
  const row = await getPrisma().journalIntent.create({
    data: {
      clusterId: input.clusterId,
      auditId: input.auditId,
      planId: input.planId,
      actor: input.actor,
      changes: input.changes,
      aclDeleteFilters: input.aclDeleteFilters as unknown as Prisma.InputJsonValue,
    },
    select: { id: true },
  });
  return row.id;
}

/**
 * A console write's outcome, settled in the journal: `applied` records the changes it made as
 * the console's (linked to its audit row and plan) and removes the intent; `failed` removes it;
 * `unknown` keeps it for the next read to settle. When a read settled the intent first
 * (it found the change), nothing more is recorded.
 */
export type IntentOutcome =
  | { kind: "applied"; changes: readonly Change[]; at: Date; partlyUnknown?: boolean }
  | { kind: "failed" }
  | { kind: "unknown" };

export async function settleJournalIntent(
  intentId: string,
  outcome: IntentOutcome,
): Promise<"recorded" | "removed" | "kept" | "already-settled"> {
  const prisma = getPrisma();
  const intent = await prisma.journalIntent.findUnique({ where: { id: intentId } });
  if (!intent) return "already-settled";
  if (outcome.kind === "failed") {
    await prisma.journalIntent.deleteMany({ where: { id: intentId } });
    return "removed";
  }
  if (outcome.kind === "unknown") {
    await prisma.journalIntent.updateMany({ where: { id: intentId }, data: { status: "UNKNOWN" } });
    return "kept";
  }
  const applied = outcome;
  return withJournalLock(intent.clusterId, async (tx) => {
    const keep = applied.partlyUnknown === true;
    const gone = keep
      ? await tx.journalIntent.updateMany({ where: { id: intentId }, data: { status: "UNKNOWN" } })
      : await tx.journalIntent.deleteMany({ where: { id: intentId } });
    if (gone.count === 0) return "already-settled";
    const changes = await withoutNoOps(tx, intent.clusterId, applied.changes);
    await insertEntries(
      tx,
      intent.clusterId,
      changes.map((c) => ({
        ...c,
        from: applied.at,
        to: applied.at,
        origin: "console" as const,
        auditId: intent.auditId,
        planId: intent.planId,
        actor: intent.actor,
      })),
    );
    return keep ? "kept" : "recorded";
  });
}

/**
 * The changes that change the journal's state: Kafka accepts creating an ACL that exists (and
 * setting a quota to its value), and an entry for it would list an "appeared" that was no
 * change on the thing's timeline. A key's value is its newest entry's, or, with none, the
 * newest checkpoint's (only the buckets of the principals concerned are inflated). Before the
 * journal begins every change is kept.
 */
async function withoutNoOps(tx: Tx, clusterId: string, changes: readonly Change[]): Promise<readonly Change[]> {
  if (changes.length === 0) return changes;
  const keys = [...new Set(changes.map((c) => c.key))];
  const known = new Map<string, Json | undefined>();
  for (let i = 0; i < keys.length; i += 1_000) {
    const rows = await tx.journalEntry.findMany({
      where: { clusterId, key: { in: keys.slice(i, i + 1_000) } },
      orderBy: [{ key: "asc" }, { id: "desc" }],
      distinct: ["key"],
      select: { key: true, op: true, value: true },
    });
    for (const r of rows) known.set(r.key, r.op === "appeared" ? ((r.value ?? null) as Json) : undefined);
  }
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length > 0) {
    const row = await tx.journalCheckpoint.findFirst({
      where: { clusterId },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      select: { state: true },
    });
    if (row === null) return changes;
    const wanted = new Set(unknown);
    const principals = [...new Set(unknown.map(principalOfKey).filter((p): p is string => p !== null))];
    const state = decodeCheckpoint(row.state, (k) => wanted.has(k), principals);
    for (const k of unknown) known.set(k, state.get(k));
  }
  return changes.filter((c) => {
    const now = known.get(c.key);
    return c.op === "disappeared" ? now !== undefined : now === undefined || !sameValue(now, c.value);
  });
}

export interface StoredIntent extends PendingIntent {
  id: string;
  actor: string;
  status: string;
  createdAt: Date;
}

/** Every intent still open on the cluster (pending or unknown). */
export async function openIntents(clusterId: string, tx: Tx = getPrisma()): Promise<StoredIntent[]> {
  const rows = await tx.journalIntent.findMany({ where: { clusterId }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => ({
    id: r.id,
    auditId: r.auditId,
    planId: r.planId,
    actor: r.actor,
    status: r.status,
    createdAt: r.createdAt,
    changes: r.changes as unknown as Change[],
    aclDeleteFilters: r.aclDeleteFilters as unknown as AclBindingFilter[],
  }));
}

export async function removeIntents(tx: Tx, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await tx.journalIntent.deleteMany({ where: { id: { in: [...ids] } } });
}

// ---- checkpoints ---------------------------------------------------------------------

/** A checkpoint's bytes (lib/db/checkpoint-format.ts: in sections, a principal's ACLs readable apart). */
export function compressState(state: State): Buffer {
  return encodeCheckpoint(state);
}

/** The state of a checkpoint's bytes: see decodeCheckpoint for `keep` and `principals`. */
export function decompressState(
  bytes: Uint8Array,
  keep?: (key: string) => boolean,
  principals?: readonly string[],
): Map<string, Json> {
  return decodeCheckpoint(bytes, keep, principals);
}

export async function writeCheckpoint(
  clusterId: string,
  checkpoint: { at: Date; lastEntryId: bigint; state: State },
  tx: Tx = getPrisma(),
): Promise<number> {
  const bytes = compressState(checkpoint.state);
  await tx.journalCheckpoint.create({
    data: {
      clusterId,
      at: checkpoint.at,
      lastEntryId: checkpoint.lastEntryId,
      keyCount: checkpoint.state.size,
      state: new Uint8Array(bytes),
    },
  });
  return bytes.length;
}

export interface StoredCheckpoint extends Checkpoint {
  bigLastEntryId: bigint;
  createdAt: Date;
}

/** When the cluster's journal begins: its oldest checkpoint kept (null: it has not begun). */
export async function journalBegins(clusterId: string): Promise<number | null> {
  const row = await getPrisma().journalCheckpoint.findFirst({
    where: { clusterId },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { at: true },
  });
  return row ? row.at.getTime() : null;
}

/** The newest checkpoint at or before `at` (the newest of all when absent). */
export async function checkpointAtOrBefore(
  clusterId: string,
  at?: Date,
  /** Only the keys it keeps are in the state (a principal's, say): less to hold than 300,000 keys. */
  keep?: (key: string) => boolean,
  /** Only these principals' ACLs (and every non-ACL key) need decoding: `keep` must keep no other ACL. */
  principals?: readonly string[],
  tx: Tx = getPrisma(),
): Promise<StoredCheckpoint | null> {
  const row = await tx.journalCheckpoint.findFirst({
    where: { clusterId, ...(at ? { at: { lte: at } } : {}) },
    orderBy: [{ at: "desc" }, { id: "desc" }],
  });
  if (!row) return null;
  return {
    at: row.at.getTime(),
    lastEntryId: Number(row.lastEntryId),
    bigLastEntryId: row.lastEntryId,
    state: decompressState(row.state, keep, principals),
    createdAt: row.createdAt,
  };
}

/** The state of the newest checkpoint that entry `entryId` is not folded into (null: none). */
export async function checkpointBeforeEntry(clusterId: string, entryId: bigint): Promise<Map<string, Json> | null> {
  const row = await getPrisma().journalCheckpoint.findFirst({
    where: { clusterId, lastEntryId: { lt: entryId } },
    orderBy: [{ lastEntryId: "desc" }, { id: "desc" }],
  });
  return row ? decompressState(row.state) : null;
}

export async function latestCheckpointMeta(
  clusterId: string,
  tx: Tx = getPrisma(),
): Promise<{ at: Date; lastEntryId: bigint; createdAt: Date } | null> {
  return tx.journalCheckpoint.findFirst({
    where: { clusterId },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    select: { at: true, lastEntryId: true, createdAt: true },
  });
}

// ---- read coverage -------------------------------------------------------------------

export interface CoverageRow {
  id: bigint;
  from: Date;
  to: Date;
  lastReadAt: Date;
}

export async function lastCoverage(clusterId: string, tx: Tx = getPrisma()): Promise<CoverageRow | null> {
  const row = await tx.journalCoverage.findFirst({ where: { clusterId }, orderBy: { coveredTo: "desc" } });
  return row ? { id: row.id, from: row.coveredFrom, to: row.coveredTo, lastReadAt: row.lastReadAt } : null;
}

/** Records a successful read [started, ended]: the last period grows, or (newPeriod) a new one starts. */
export async function recordCoverage(
  tx: Tx,
  clusterId: string,
  read: { started: Date; ended: Date },
  extend: CoverageRow | null,
): Promise<void> {
  if (extend)
    await tx.journalCoverage.update({
      where: { id: extend.id },
      data: { coveredTo: read.ended, lastReadAt: read.started },
    });
  else
    await tx.journalCoverage.create({
      data: { clusterId, coveredFrom: read.started, coveredTo: read.ended, lastReadAt: read.started },
    });
}

export async function coverageOf(clusterId: string): Promise<Coverage[]> {
  const rows = await getPrisma().journalCoverage.findMany({ where: { clusterId }, orderBy: { coveredFrom: "asc" } });
  return rows.map((r) => ({ from: r.coveredFrom.getTime(), to: r.coveredTo.getTime() }));
}

// ---- retention -----------------------------------------------------------------------

/**
 * Folds what is older than `cutoff` away: the newest checkpoint at or before it becomes the
 * journal's beginning; entries it holds, older checkpoints and coverage before it are deleted.
 */
export async function applyRetention(
  clusterId: string,
  cutoff: Date,
): Promise<{ entries: number; checkpoints: number } | null> {
  const prisma = getPrisma();
  const base = await prisma.journalCheckpoint.findFirst({
    where: { clusterId, at: { lte: cutoff } },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    select: { id: true, at: true, lastEntryId: true },
  });
  if (!base) return null;
  return withJournalLock(clusterId, async (tx) => {
    const entries = await tx.journalEntry.deleteMany({ where: { clusterId, id: { lte: base.lastEntryId } } });
    // What was decided about the entries goes with them (drift, docs/drift.md).
    await tx.driftAcknowledgement.deleteMany({ where: { clusterId, entryId: { lte: base.lastEntryId } } });
    await tx.driftRevert.deleteMany({ where: { clusterId, entryId: { lte: base.lastEntryId } } });
    const checkpoints = await tx.journalCheckpoint.deleteMany({
      where: { clusterId, OR: [{ at: { lt: base.at } }, { at: base.at, id: { lt: base.id } }] },
    });
    await tx.journalCoverage.deleteMany({ where: { clusterId, coveredTo: { lt: base.at } } });
    await tx.journalCoverage.updateMany({
      where: { clusterId, coveredFrom: { lt: base.at } },
      data: { coveredFrom: base.at },
    });
    return { entries: entries.count, checkpoints: checkpoints.count };
  });
}
