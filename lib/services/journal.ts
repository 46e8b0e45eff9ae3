/**
 * The journal's background read (#20, docs/history.md): every `history.intervalSeconds` of a
 * cluster, as its service principal, read every ACL, client quota and SCRAM user, compare with
 * the journal's current state and record what changed outside the console, with the window
 * (the previous read's start, this read's end]. The console's own changes are recorded at
 * once by lib/services/journal-writes.ts; this read settles those whose outcome was unknown.
 *
 * One reader per cluster at a time: a session advisory lock (`journal-read|<cluster>`) around
 * the whole read, taken without waiting (a second instance skips: someone is reading), and the
 * pg-boss queue is a singleton. Recording runs in the cluster's journal transaction lock, so
 * no console write interleaves: keys with an entry recorded after this read began are left for
 * the next read (the read may predate that change).
 *
 * The current state is kept in memory per instance with the last entry id it includes and
 * refreshed with the entries after it, so a read at 300,000 ACLs does not load 300,000 rows
 * from the database; a database whose last id went back (a restore) is reloaded from scratch.
 */
import "server-only";
import { describeAclBindings, describeClientQuotas, describeScramUsers, isKafkaOperationError } from "@/lib/kafka";
import { clusterById, clusters, type Cluster } from "@/lib/clusters";
import { completeAudit, recordIntent } from "@/lib/db/audit";
import { foldServiceRead, foldableServiceRead, markFoldable } from "@/lib/db/service-read-audit";
import { LockBusyError, withAdvisoryLocks } from "@/lib/db/locks";
import {
  applyRetention,
  entriesAfter,
  insertEntries,
  keysChangedAfter,
  lastCoverage,
  lastEntryId,
  latestCheckpointMeta,
  checkpointAtOrBefore,
  openIntents,
  recordCoverage,
  removeIntents,
  withJournalLock,
  writeCheckpoint,
  type NewEntry,
  type Tx,
} from "@/lib/db/journal";
import { toErrorResult } from "@/lib/kafka/error-result";
import { driftNotification } from "./drift-model";
import { notifyWithin } from "./webhooks";
import { ANY_ACL_FILTER } from "@/lib/policy";
import {
  applyChanges,
  attributeChanges,
  changesOnKeys,
  compareWithPreviousRead,
  kindOf,
  readChanges,
  stateOfRead,
  type Change,
  type Json,
  type ReadMemory,
  type SecuritySnapshot,
} from "@/lib/policy/history";

export const JOURNAL_READ_JOB = "journal-read";
/** A checkpoint after this many entries since the last one, or after a day. */
export const CHECKPOINT_EVERY_ENTRIES = 10_000;
const CHECKPOINT_EVERY_MS = 24 * 3600_000;
/** A pending intent older than this whose change no read found did not happen (its instance died before Kafka). */
const STALE_INTENT_MS = 15 * 60_000;
/**
 * How late the queue may start the next minute's job (pg-boss creates a cron job up to a
 * minute after its minute, and a busy worker picks it up later still): a read this much
 * past its interval is still part of continuous reading, not a gap.
 */
export const QUEUE_SLACK_MS = 120_000;

/**
 * Whether a read that began at `started` continues the reading that last ended at
 * `lastEnded` (its changes are `outside`, windowed by the previous read) or follows a gap
 * (they are `observed`, windowed by the gap): more than two intervals, and more than an
 * interval plus the queue's slack, is a gap.
 */
export function readsContinue(lastEnded: Date, started: Date, intervalMs: number): boolean {
  return started.getTime() - lastEnded.getTime() <= Math.max(2 * intervalMs, intervalMs + QUEUE_SLACK_MS);
}

// ---- the current state, per instance ---------------------------------------------------

interface Current {
  lastEntryId: bigint;
  state: Map<string, Json>;
}

const cache = new Map<string, Current>();

/**
 * The journal's current state of a cluster (every entry applied), refreshed incrementally.
 * `tx`: read in that transaction (the journal lock's; withJournalLock).
 */
export async function currentJournalState(clusterId: string, tx?: Tx): Promise<Current> {
  const last = await lastEntryId(clusterId, tx);
  let current = cache.get(clusterId);
  if (!current || last < current.lastEntryId) {
    const checkpoint = await checkpointAtOrBefore(clusterId, undefined, undefined, undefined, tx);
    current = {
      lastEntryId: checkpoint?.bigLastEntryId ?? 0n,
      state: checkpoint ? new Map(checkpoint.state) : new Map<string, Json>(),
    };
  }
  while (current.lastEntryId < last) {
    const page = await entriesAfter(clusterId, current.lastEntryId, { upTo: last, limit: 50_000, tx });
    if (page.length === 0) break;
    applyChanges(current.state, page);
    current.lastEntryId = page[page.length - 1]!.bigId;
  }
  cache.set(clusterId, current);
  return current;
}

/**
 * This instance's last read of each cluster, and where the journal stood when it was recorded:
 * the journal then equalled that read except on `mismatch` (keys a console write changed during
 * the read). The next read compares only what differs from it, what the journal recorded since
 * and the mismatch (lib/policy/history/read-memory.ts): its cost follows the changes, not the
 * cluster's 300,000 ACLs.
 */
interface Remembered {
  memory: ReadMemory;
  journalId: bigint;
  mismatch: ReadonlySet<string>;
}
const remembered = new Map<string, Remembered>();

export function forgetJournalStateForTests(): void {
  cache.clear();
  remembered.clear();
  aclStrings.clear();
}

// ---- the read --------------------------------------------------------------------------

export type JournalReadOutcome =
  | { kind: "off" | "skipped"; reason: string }
  | { kind: "busy"; reason: string }
  | { kind: "failed"; reason: string }
  | {
      kind: "read";
      began: boolean;
      outside: number;
      observed: number;
      console: number;
      window: { from: Date; to: Date };
    };

export interface JournalReadOptions {
  now?: () => Date;
  /** Reads the cluster (tests replace it); by default as the service principal, audited. */
  read?: (cluster: Cluster) => Promise<Omit<SecuritySnapshot, "settings">>;
}

/** The settings decisions depend on, as the console holds them for the cluster. */
export function settingsOf(cluster: Cluster): SecuritySnapshot["settings"] {
  return {
    superUsers: [...cluster.authorizer.superUsers],
    allowEveryoneIfNoAclFound: cluster.authorizer.allowEveryoneIfNoAclFound,
    principalMapping: { ...cluster.principalMapping },
  };
}

/** Reads ACLs, quotas and SCRAM users as the cluster's service principal, audited (folded when repeated). */
/** The names, principals and hosts of each cluster's last answer to the read (see describeAclBindings). */
const aclStrings = new Map<string, Map<string, string>>();

async function readAsService(cluster: Cluster): Promise<Omit<SecuritySnapshot, "settings">> {
  const service = cluster.servicePrincipal!;
  const foldKey = `service-read|${cluster.id}|${service.principal}|service.journal.read`;
  const intent = async () =>
    (
      await recordIntent({
        principal: service.principal,
        action: "service.journal.read",
        category: "other",
        target: `cluster ${cluster.id}`,
        request: { purpose: "the history journal: find changes made outside the console" },
        clusterId: cluster.id,
      })
    ).id;
  const foldInto = await foldableServiceRead(foldKey);
  const intentId = foldInto === null ? await intent() : null;
  try {
    // The strings of the previous read's answer are reused (read-memory.ts compares pointers).
    const described = await describeAclBindings(service.credential, ANY_ACL_FILTER, aclStrings.get(cluster.id));
    aclStrings.set(cluster.id, described.strings);
    const acls = described.acls;
    const quotas = await describeClientQuotas(service.credential, { components: [], strict: false });
    const scram = (await describeScramUsers(service.credential, null)).filter((u) => u.error === null);
    if (foldInto !== null) await foldServiceRead(foldInto).catch(() => undefined);
    else if (intentId !== null)
      await completeAudit(intentId, {
        outcome: "success",
        message: `Read ${acls.length} ACLs, ${quotas.length} quota entities and ${scram.length} SCRAM users.`,
      })
        .then(() => markFoldable(intentId, foldKey))
        .catch(() => undefined);
    return { acls, quotas, scram };
  } catch (error) {
    const known = isKafkaOperationError(error);
    const id = intentId ?? (await intent().catch(() => null));
    if (id !== null)
      await completeAudit(id, {
        outcome: known && error.isAuthorizationFailure ? "denied" : known ? "failure" : "unknown",
        kafkaError: known ? error.code : null,
        message: toErrorResult(error, `read the cluster as ${service.principal}`).message,
      }).catch(() => undefined);
    throw error;
  }
}

/** One background read of a cluster (see the module comment). */
export async function readClusterForJournal(
  clusterId: string,
  options: JournalReadOptions = {},
): Promise<JournalReadOutcome> {
  const now = options.now ?? (() => new Date());
  const cluster = clusterById(clusterId);
  const intervalMs = cluster.history.intervalSeconds * 1000;
  if (intervalMs === 0) return { kind: "off", reason: `history.intervalSeconds is 0 on cluster ${cluster.id}` };
  if (!options.read && !cluster.servicePrincipal)
    return {
      kind: "skipped",
      reason:
        `cluster ${cluster.id} has no service principal: changes made outside the console are not looked for ` +
        "(configure one with DESCRIBE on the cluster, docs/security.md)",
    };
  const read = options.read ?? readAsService;
  try {
    return await withAdvisoryLocks(
      [{ key: `journal-read|${cluster.id}`, mode: "exclusive" }],
      () => readLocked(cluster, read, now, intervalMs),
      { waitMs: 1 },
    );
  } catch (error) {
    if (error instanceof LockBusyError)
      return { kind: "busy", reason: "another console instance is reading this cluster" };
    if (isKafkaOperationError(error)) return { kind: "failed", reason: error.message };
    throw error;
  }
}

async function readLocked(
  cluster: Cluster,
  read: (cluster: Cluster) => Promise<Omit<SecuritySnapshot, "settings">>,
  now: () => Date,
  intervalMs: number,
): Promise<JournalReadOutcome> {
  const clusterId = cluster.id;
  const startId = await lastEntryId(clusterId);
  const started = now();
  const snapshot: SecuritySnapshot = { ...(await read(cluster)), settings: settingsOf(cluster) };
  const ended = now();
  // The previous read is consumed here, and this one remembered only once its record commits.
  const before = remembered.get(clusterId) ?? null;
  remembered.delete(clusterId);
  const delta = compareWithPreviousRead(before?.memory ?? null, snapshot);

  // Deliveries of the drift.found notification to run after the commit, when no job queue runs here.
  const afterCommit: (() => void)[] = [];
  let journalId: bigint | null = null;
  let mismatch: ReadonlySet<string> = new Set();
  const outcome = await withJournalLock(clusterId, async (tx) => {
    const coverage = await lastCoverage(clusterId, tx);
    const skip = await keysChangedAfter(tx, clusterId, startId);
    const current = await currentJournalState(clusterId, tx);
    if (coverage === null && (await latestCheckpointMeta(clusterId, tx)) === null) {
      // The journal begins: what the cluster holds now is its first checkpoint (no entry per key).
      const state = stateOfRead(delta.memory);
      for (const key of skip) {
        if (current.state.has(key)) state.set(key, current.state.get(key)!);
        else state.delete(key);
      }
      await writeCheckpoint(clusterId, { at: ended, lastEntryId: current.lastEntryId, state }, tx);
      await recordCoverage(tx, clusterId, { started: ended, ended }, null);
      journalId = await lastEntryId(clusterId, tx);
      mismatch = skip;
      return {
        kind: "read" as const,
        began: true,
        outside: 0,
        observed: 0,
        console: 0,
        window: { from: ended, to: ended },
      };
    }
    const continues = coverage !== null && readsContinue(coverage.to, started, intervalMs);
    const from = continues ? coverage.lastReadAt : (coverage?.to ?? started);
    let changes: Change[];
    if (before !== null && delta.changed !== null && current.lastEntryId >= before.journalId) {
      const since = before.journalId === startId ? skip : await keysChangedAfter(tx, clusterId, before.journalId);
      changes = changesOnKeys(current.state, delta.memory, [...delta.changed, ...before.mismatch, ...since], skip);
    } else changes = readChanges(current.state, stateOfRead(delta.memory), skip);
    const intents = await openIntents(clusterId, tx);
    const attribution = attributeChanges(changes, intents);
    const entries: NewEntry[] = [];
    for (const { intent, changes: cs } of attribution.console) {
      const by = intents.find((i) => i.auditId === intent.auditId)!;
      const since = by.createdAt < from ? from : by.createdAt;
      for (const c of cs)
        entries.push({
          ...c,
          from: since,
          to: ended,
          origin: "console",
          auditId: by.auditId,
          planId: by.planId,
          actor: by.actor,
        });
    }
    const origin = continues ? ("outside" as const) : ("observed" as const);
    for (const c of attribution.outside) entries.push({ ...c, from, to: ended, origin });
    await insertEntries(tx, clusterId, entries);
    const settled = new Set(attribution.console.map((a) => a.intent.auditId));
    await removeIntents(
      tx,
      intents
        .filter(
          (i) =>
            settled.has(i.auditId) ||
            (i.status === "UNKNOWN" && i.createdAt < started) ||
            i.createdAt.getTime() < started.getTime() - STALE_INTENT_MS,
        )
        .map((i) => i.id),
    );
    await recordCoverage(tx, clusterId, { started, ended }, continues ? coverage : null);
    journalId = await lastEntryId(clusterId, tx);
    mismatch = skip;
    if (attribution.outside.length > 0) {
      // Queued in this transaction: the notification exists exactly when the entries it tells of do.
      const rows = attribution.outside.map((c) => ({ ...c, kind: kindOf(c.key) }));
      const { fields, text } = driftNotification(rows, { from, to: ended, origin });
      const deliver = await notifyWithin(tx, clusterId, "drift.found", fields, text);
      if (deliver) afterCommit.push(deliver);
    }
    return {
      kind: "read" as const,
      began: false,
      outside: continues ? attribution.outside.length : 0,
      observed: continues ? 0 : attribution.outside.length,
      console: entries.length - attribution.outside.length,
      window: { from, to: ended },
    };
  });
  if (journalId !== null) remembered.set(clusterId, { memory: delta.memory, journalId, mismatch });
  for (const deliver of afterCommit) deliver();
  await maintain(cluster, now);
  return outcome;
}

/** A checkpoint when due; retention. */
async function maintain(cluster: Cluster, now: () => Date): Promise<void> {
  const meta = await latestCheckpointMeta(cluster.id);
  const last = await lastEntryId(cluster.id);
  const due =
    meta === null ||
    last - meta.lastEntryId >= BigInt(CHECKPOINT_EVERY_ENTRIES) ||
    (last > meta.lastEntryId && now().getTime() - meta.createdAt.getTime() >= CHECKPOINT_EVERY_MS);
  if (due)
    await withJournalLock(cluster.id, async (tx) => {
      const current = await currentJournalState(cluster.id, tx);
      await writeCheckpoint(cluster.id, { at: now(), lastEntryId: current.lastEntryId, state: current.state }, tx);
    });
  await applyRetention(cluster.id, new Date(now().getTime() - cluster.history.retentionDays * 86_400_000));
}

/**
 * The job: for a minute, read each cluster whose interval is due (every cluster with an
 * interval under a minute reads several times). Queued every minute on one instance.
 */
export async function journalReadsForAMinute(
  options: { log?: (line: string) => void; sleep?: (ms: number) => Promise<void> } = {},
): Promise<void> {
  const log = options.log ?? ((line: string) => console.error(line));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const end = Date.now() + 58_000;
  const nextAt = new Map<string, number>();
  for (;;) {
    const t = Date.now();
    for (const cluster of clusters()) {
      const interval = cluster.history.intervalSeconds * 1000;
      if (interval === 0 || (nextAt.get(cluster.id) ?? 0) > t) continue;
      const coverage = await lastCoverage(cluster.id).catch(() => null);
      if (coverage && t - coverage.lastReadAt.getTime() < interval - 1000) {
        nextAt.set(cluster.id, coverage.lastReadAt.getTime() + interval);
        continue;
      }
      nextAt.set(cluster.id, t + interval);
      try {
        const r = await readClusterForJournal(cluster.id);
        if (r.kind !== "read" && r.kind !== "off") log(`[journal] ${cluster.id}: ${r.kind}: ${r.reason}`);
      } catch (error) {
        log(`[journal] ${cluster.id}: read failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const next = Math.min(...[...nextAt.values()], end);
    if (next >= end || Date.now() >= end) return;
    await sleep(Math.max(100, next - Date.now()));
  }
}
