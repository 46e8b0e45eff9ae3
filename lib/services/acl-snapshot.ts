/**
 * One ACL snapshot per cluster, shared by every viewer Kafka lets describe ACLs.
 *
 * Kafka answers DescribeAcls all or nothing (DESCRIBE on CLUSTER), so everyone allowed
 * sees the same set. The console keeps it once, as an AclStore (interned, pre-sorted,
 * indexed; the authorizer index built from it on first use), and:
 *
 * 1. every request proves the viewer's OWN right first: a narrow DescribeAcls as the
 *    viewer, remembered per session (or per credential for Basic auth) for at most
 *    ACL_VIEWER_PROOF_MAX_AGE_MS (30 s). A refusal is the viewer's answer — the
 *    snapshot is never shown to someone Kafka would refuse;
 * 2. a snapshot younger than ACL_SNAPSHOT_MAX_AGE_MS (5 s) is reused; an older one is
 *    fetched again, through the connection of the viewer who just proved the right, one
 *    fetch at a time (single flight: concurrent readers wait for the same fetch);
 * 3. while traffic continues, the next fetch starts in the background before the
 *    snapshot expires, so readers rarely wait; without traffic nothing is fetched, and
 *    after IDLE_RELEASE_MS without a reader the snapshot is dropped (memory back);
 * 4. a change made through the console is applied to the snapshot at once, also to a
 *    fetch already under way that may predate it: lib/kafka's createAcls/deleteAcls
 *    report every write they make (onAclChange), other writers call applyAclChange; a
 *    change whose outcome is unknown invalidates the snapshot (the next reader fetches);
 * 5. a fetch whose ACLs equal the current ones keeps the current store (and its built
 *    indexes and cached queries) and only moves the snapshot's time.
 *
 * `takenAt` is when the fetch that produced the snapshot was sent: Kafka's state is at
 * least that new (plus the console's own changes since). Pages and API answers show it
 * and offer a refresh ({ forceRefresh: true }: a fetch sent after the request).
 */
import "server-only";
import { createHash } from "node:crypto";
import type { Viewer } from "@/lib/auth/sign-in";
import { toErrorResult } from "@/lib/kafka/error-result";
import type { ActionResult } from "@/lib/schemas/result";
import { env } from "@/lib/env";
import { describeAcls, type KafkaCredential } from "@/lib/kafka";
import { clusterIdOf } from "@/lib/clusters";
import { describeAclStore, onAclChange, type AclChange } from "@/lib/kafka/acls";
import {
  ANY_ACL_FILTER,
  bindingKey,
  type AclStore,
  type AclBinding,
  type AclBindingFilter,
  type AclIndex,
  type AclStorePage,
  type AclStorePageRequest,
  type AclStoreQuery,
  type PatternType,
  type ResourceType,
} from "@/lib/policy";

type Failure = Extract<ActionResult<never>, { ok: false }>;

/** Where the ACLs come from: Kafka, as the given credential (tests inject their own). */
export interface AclSnapshotSource {
  /** Every ACL (DescribeAcls ANY). May return the very store it returned last time when nothing changed. */
  fetch(credential: KafkaCredential): Promise<AclStore>;
  /** Resolves when Kafka lets `credential` describe ACLs; throws Kafka's refusal otherwise. */
  prove(credential: KafkaCredential): Promise<void>;
  /** Forget anything kept between fetches (the snapshot was dropped). */
  release?(): void;
}

/**
 * The right-proof's filter: DescribeAcls is authorized (DESCRIBE on CLUSTER) before the
 * filter runs, so any filter proves it; this one names a topic that cannot exist (a `/`)
 * for a principal no one has, so the answer is empty and costs nothing to send back.
 */
export const RIGHT_PROOF_FILTER: AclBindingFilter = Object.freeze({
  resourceType: "TOPIC",
  resourceName: "console/right-proof",
  patternType: "LITERAL",
  principal: "User:console/right-proof",
  host: null,
  operation: "ANY",
  permissionType: "ANY",
});

/**
 * Kafka as the source. It keeps the bytes of its last answer (about 30 bytes per ACL)
 * and, weakly, the store decoded from them: an identical answer — the usual case, since
 * ACLs change rarely and Kafka answers the same set in the same order — returns that
 * store again without decoding or sorting anything.
 */
export function createKafkaAclSnapshotSource(): AclSnapshotSource {
  let last: { bytes: Buffer; store: WeakRef<AclStore> } | null = null;
  return {
    async fetch(credential) {
      const store = last?.store.deref();
      const previous = last !== null && store !== undefined ? { bytes: last.bytes, store } : null;
      const answer = await describeAclStore(credential, ANY_ACL_FILTER, previous);
      last = { bytes: answer.bytes, store: new WeakRef(answer.store) };
      return answer.store;
    },
    async prove(credential) {
      await describeAcls(credential, RIGHT_PROOF_FILTER);
    },
    release() {
      last = null;
    },
  };
}

export const kafkaAclSnapshotSource: AclSnapshotSource = createKafkaAclSnapshotSource();

/** What a page or API answer says about the ACLs it used. */
export interface AclSnapshotInfo {
  /** When the fetch was sent (ISO 8601). */
  takenAt: string;
  ageMs: number;
  /** Distinct ACLs in the snapshot. */
  size: number;
}

/** The shared ACLs at one moment: the store's query API, the authorizer index, the time. */
export class AclSnapshot {
  constructor(
    readonly store: AclStore,
    /** Epoch ms when the fetch was sent. */
    readonly takenAt: number,
  ) {}

  get size(): number {
    return this.store.size;
  }

  /** One page: a slice of the browse order (or of the principal order), filtered by indexes. */
  query(request: AclStorePageRequest = {}): AclStorePage {
    return this.store.query(request);
  }

  count(query: AclStoreQuery = {}): number {
    return this.store.count(query);
  }

  /** Every ACL a query matches, in its order. */
  all(query: AclStoreQuery = {}): AclBinding[] {
    return this.store.all(query);
  }

  /** Kafka's AclBindingFilter semantics (what DescribeAcls with that filter would answer). */
  filter(filter: AclBindingFilter): AclBinding[] {
    return this.store.filter(filter);
  }

  has(binding: AclBinding): boolean {
    return this.store.has(binding);
  }

  /** Every ACL that applies to the resource (Kafka's MATCH): a few index lookups, in proportion to the answer. */
  matching(resourceType: ResourceType, resourceName: string): AclBinding[] {
    return this.store.matching(resourceType, resourceName);
  }

  /** How many ACLs apply to the resource (Kafka's MATCH), without listing them. */
  countMatching(resourceType: ResourceType, resourceName: string): number {
    return this.store.countMatching(resourceType, resourceName);
  }

  /**
   * The authorizer's index over the whole snapshot, built on first use and kept (about
   * 0.3 KB and 3 µs of build per ACL): for questions about every resource at once
   * (effective permissions of a principal, lint). Questions about one resource are
   * cheaper over `matching` (an index of just the ACLs that apply).
   */
  index(): AclIndex {
    return this.store.index();
  }

  resourceNames(resourceType: ResourceType, patternType?: PatternType): string[] {
    return this.store.resourceNames(resourceType, patternType);
  }

  info(now = Date.now()): AclSnapshotInfo {
    return { takenAt: new Date(this.takenAt).toISOString(), ageMs: Math.max(0, now - this.takenAt), size: this.size };
  }
}

export type AclSnapshotResult = { ok: true; snapshot: AclSnapshot } | Failure;

/**
 * A service answer built from the snapshot: the ActionResult (API routes send `data`)
 * plus the snapshot's time and size for the page to show beside a refresh.
 */
export type AclSnapshotRead<T> = { ok: true; data: T; aclSnapshot: AclSnapshotInfo | null } | Failure;

export interface AclSnapshotReadOptions {
  /** Use a snapshot at most this old (default ACL_SNAPSHOT_MAX_AGE_MS). */
  maxAgeMs?: number;
  /** Fetch anew: the answer reflects a DescribeAcls sent after this call. */
  forceRefresh?: boolean;
}

export interface AclSnapshotCacheOptions {
  maxAgeMs?: number;
  proofMaxAgeMs?: number;
  /** Drop the snapshot after this long without a reader (default 5 minutes). */
  idleReleaseMs?: number;
  now?: () => number;
}

export const PROOF_MAX_AGE_LIMIT_MS = 30_000;
export const IDLE_RELEASE_MS = 5 * 60_000;

interface Inflight {
  /** Epoch ms the fetch was sent. */
  readonly startedAt: number;
  /** Whose credential fetches (a refusal for them is not a refusal for others). */
  readonly viewerKey: string;
  /** invalidate() count when it started: a later invalidate() makes it too old. */
  readonly epoch: number;
  readonly promise: Promise<AclSnapshot>;
}

interface Proof {
  /** Epoch ms the proving request was sent. */
  readonly at: number;
  readonly failure: Failure | null;
}

interface JournalEntry {
  readonly created: readonly AclBinding[];
  readonly deleted: readonly AclBinding[];
}

/** Counters for tests and diagnostics. */
export interface AclSnapshotStats {
  fetches: number;
  proofs: number;
  replaced: number;
  reusedStore: number;
}

/** `store` after the changes in order, as one merge: the last word on each binding wins. */
function withChanges(store: AclStore, changes: readonly JournalEntry[]): AclStore {
  if (changes.length === 0) return store;
  const last = new Map<string, { binding: AclBinding; present: boolean }>();
  for (const change of changes) {
    for (const b of change.deleted) last.set(bindingKey(b), { binding: b, present: false });
    for (const b of change.created) last.set(bindingKey(b), { binding: b, present: true });
  }
  const created: AclBinding[] = [];
  const deleted: AclBinding[] = [];
  for (const { binding, present } of last.values()) (present ? created : deleted).push(binding);
  return store.withChange(created, deleted);
}

function credentialKey(credential: KafkaCredential): string {
  return (
    "credential:" +
    createHash("sha256")
      .update(
        `${credential.mechanism}\u0000${credential.username}\u0000${credential.oauth?.key ?? credential.password}`,
      )
      .digest("hex")
  );
}

/** The proof cache key: the session, or (API with Basic auth) the credential itself. */
export function viewerKey(viewer: Pick<Viewer, "sessionId" | "credential">): string {
  return viewer.sessionId !== null ? `session:${viewer.sessionId}` : credentialKey(viewer.credential);
}

export class AclSnapshotCache {
  private current: AclSnapshot | null = null;
  /** invalidate() count the current snapshot belongs to. */
  private currentEpoch = 0;
  private epoch = 0;
  private inflight: Inflight | null = null;
  /** Changes made through the console while a fetch is under way (applied to its result). */
  private journal: JournalEntry[] = [];
  /** Changes made through the console not yet applied to the current snapshot. */
  private pending: JournalEntry[] = [];
  private readonly proofs = new Map<string, Proof>();
  private readonly proving = new Map<string, Promise<Failure | null>>();
  /** How long the last fetch took: the background refresh starts that much (x1.5) early. */
  private lastFetchMs = 0;
  private lastRead = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  readonly stats: AclSnapshotStats = { fetches: 0, proofs: 0, replaced: 0, reusedStore: 0 };

  constructor(
    private readonly source: AclSnapshotSource,
    private readonly options: AclSnapshotCacheOptions = {},
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private get maxAgeMs(): number {
    return this.options.maxAgeMs ?? env().ACL_SNAPSHOT_MAX_AGE_MS;
  }

  private get proofMaxAgeMs(): number {
    return Math.min(this.options.proofMaxAgeMs ?? env().ACL_VIEWER_PROOF_MAX_AGE_MS, PROOF_MAX_AGE_LIMIT_MS);
  }

  /** The snapshot for `viewer`, or Kafka's refusal of the viewer's own right to describe ACLs. */
  async get(viewer: Viewer, options: AclSnapshotReadOptions = {}): Promise<AclSnapshotResult> {
    const maxAgeMs = options.maxAgeMs ?? this.maxAgeMs;
    const usable = (s: AclSnapshot | null, now: number): s is AclSnapshot =>
      options.forceRefresh !== true && s !== null && this.currentEpoch === this.epoch && now - s.takenAt < maxAgeMs;
    const known = this.knownProof(viewerKey(viewer), this.now());
    if (known !== undefined && known.failure !== null) return known.failure;
    // Unproven viewers prove their right first — unless this very request is about to
    // fetch every ACL as them: Kafka's answer to that proves it (or refuses it) as well.
    if (known === undefined && (usable(this.settled(), this.now()) || this.inflight !== null)) {
      const refused = await this.proveRight(viewer);
      if (refused !== null) return refused;
    }
    const now = this.now();
    this.touch(now);
    const current = this.settled();
    if (usable(current, now)) {
      this.refreshAhead(viewer, current, now, maxAgeMs);
      return { ok: true, snapshot: current };
    }
    return this.fresh(viewer, options.forceRefresh === true ? now : now - maxAgeMs);
  }

  /**
   * A change made through the console (after Kafka confirmed it): the snapshot shows it
   * at once, and so does the result of a fetch already under way.
   */
  applyChange(created: readonly AclBinding[], deleted: readonly AclBinding[]): void {
    if (created.length === 0 && deleted.length === 0) return;
    const change = { created: [...created], deleted: [...deleted] };
    // Applied when next read, all pending changes at once (an import writes many batches).
    if (this.current !== null) this.pending.push(change);
    if (this.inflight !== null) this.journal.push(change);
    // A CLUSTER ACL may give or take someone's DESCRIBE on CLUSTER: prove everyone again.
    if ([...created, ...deleted].some((b) => b.resourceType === "CLUSTER")) this.proofs.clear();
  }

  /** Something changed that the console cannot describe: the next reader fetches anew. */
  invalidate(): void {
    this.epoch++;
    this.proofs.clear();
  }

  /** Forget a viewer's proven right (sign-out). */
  forget(key: string): void {
    this.proofs.delete(key);
  }

  /** The current snapshot's time and size, without proving anything (null: none held). */
  peek(): AclSnapshot | null {
    return this.settled();
  }

  /** The current snapshot with the pending console changes applied (one merge for all of them). */
  /** The snapshot held now (its time and size), without fetching or applying anything: for metrics. */
  heldSnapshotInfo(now = this.now()): AclSnapshotInfo | null {
    return this.current?.info(now) ?? null;
  }

  private settled(): AclSnapshot | null {
    const current = this.current;
    if (current === null || this.pending.length === 0) return current;
    const store = withChanges(current.store, this.pending);
    this.pending = [];
    if (store !== current.store) this.current = new AclSnapshot(store, current.takenAt);
    return this.current;
  }

  /** Drop everything held (tests; shutdown). */
  clear(): void {
    this.current = null;
    this.pending = [];
    this.source.release?.();
    this.journal = [];
    this.proofs.clear();
    if (this.idleTimer !== null) clearInterval(this.idleTimer);
    this.idleTimer = null;
  }

  // ---- the viewer's own right -------------------------------------------------------------

  private knownProof(key: string, now: number): Proof | undefined {
    const known = this.proofs.get(key);
    return known !== undefined && now - known.at < this.proofMaxAgeMs ? known : undefined;
  }

  private async proveRight(viewer: Viewer): Promise<Failure | null> {
    const key = viewerKey(viewer);
    const now = this.now();
    const known = this.knownProof(key, now);
    if (known !== undefined) return known.failure;
    let pending = this.proving.get(key);
    if (pending === undefined) {
      this.stats.proofs++;
      const at = now;
      pending = this.source
        .prove(viewer.credential)
        .then(
          () => null,
          (error: unknown) => toErrorResult(error, "describe ACLs"),
        )
        .then((failure) => {
          // Remember a yes and Kafka's no; not a broker that did not answer.
          if (failure === null || failure.code === "DENIED" || failure.code === "INVALID_CREDENTIALS")
            this.remember(key, { at, failure });
          return failure;
        })
        .finally(() => this.proving.delete(key));
      this.proving.set(key, pending);
    }
    return pending;
  }

  private remember(key: string, proof: Proof): void {
    this.proofs.set(key, proof);
    if (this.proofs.size > 1_000) {
      const now = this.now();
      for (const [k, p] of this.proofs) if (now - p.at >= this.proofMaxAgeMs) this.proofs.delete(k);
    }
  }

  // ---- fetching ------------------------------------------------------------------------------

  /** A snapshot from a fetch sent at or after `notBefore`: join the one under way, or send one. */
  private async fresh(viewer: Viewer, notBefore: number): Promise<AclSnapshotResult> {
    const mine = viewerKey(viewer);
    let failedWith: string | null = null;
    for (;;) {
      const inflight = this.inflight;
      if (inflight !== null && (inflight.startedAt < notBefore || inflight.epoch !== this.epoch)) {
        // Too old for this reader: wait for it (one fetch at a time), then look again.
        await inflight.promise.catch(() => undefined);
        continue;
      }
      const joined = inflight ?? this.startFetch(viewer);
      try {
        return { ok: true, snapshot: await joined.promise };
      } catch (error) {
        // Kafka may refuse the fetching viewer (their right just ended); others try with their own.
        if (joined.viewerKey !== mine && failedWith !== joined.viewerKey) {
          failedWith = joined.viewerKey;
          continue;
        }
        return toErrorResult(error, "describe ACLs");
      }
    }
  }

  private startFetch(viewer: Viewer): Inflight {
    this.settled();
    const startedAt = this.now();
    const epoch = this.epoch;
    this.journal = [];
    this.stats.fetches++;
    let entry: Inflight | null = null;
    const key = viewerKey(viewer);
    const promise = (async () => {
      try {
        const fetched = await this.source.fetch(viewer.credential);
        // Kafka answered DescribeAcls as this viewer: their right is proven as of the request.
        this.remember(key, { at: startedAt, failure: null });
        return this.install(fetched, startedAt, epoch);
      } catch (error) {
        const failure = toErrorResult(error, "describe ACLs");
        if (failure.code === "DENIED") this.remember(key, { at: startedAt, failure });
        throw error;
      } finally {
        // Cleared as the fetch settles, before anyone awaiting it resumes.
        if (this.inflight === entry) this.inflight = null;
        this.lastFetchMs = Math.max(0, this.now() - startedAt);
      }
    })();
    entry = { startedAt, viewerKey: key, epoch, promise };
    this.inflight = entry;
    promise.catch(() => undefined);
    return entry;
  }

  private install(fetched: AclStore, startedAt: number, epoch: number): AclSnapshot {
    // The changes made while the fetch was under way; the earlier ones are in Kafka's answer.
    let store = withChanges(fetched, this.journal);
    this.journal = [];
    this.pending = [];
    const previous = this.current;
    if (previous !== null && previous.store.sameAs(store)) {
      store = previous.store;
      this.stats.reusedStore++;
    } else if (previous !== null) {
      this.stats.replaced++;
    }
    const snapshot = new AclSnapshot(store, startedAt);
    // A snapshot from before an invalidate() is still handed to the readers that asked
    // for it, but the next reader fetches anew.
    if (previous === null || startedAt >= previous.takenAt) {
      this.current = snapshot;
      this.currentEpoch = epoch;
    }
    return snapshot;
  }

  /** While readers keep coming, send the next fetch before this snapshot expires. */
  private refreshAhead(viewer: Viewer, current: AclSnapshot, now: number, maxAgeMs: number): void {
    if (this.inflight !== null) return;
    const lead = Math.min(maxAgeMs / 2, Math.max(this.lastFetchMs * 1.5, maxAgeMs / 10));
    if (now - current.takenAt < maxAgeMs - lead) return;
    this.startFetch(viewer);
  }

  private touch(now: number): void {
    this.lastRead = now;
    if (this.idleTimer !== null) return;
    const idleMs = this.options.idleReleaseMs ?? IDLE_RELEASE_MS;
    this.idleTimer = setInterval(
      () => {
        if (this.now() - this.lastRead < idleMs) return;
        // Nobody read for a while: give the memory back; the next reader fetches.
        this.current = null;
        this.pending = [];
        this.source.release?.();
        if (this.idleTimer !== null) clearInterval(this.idleTimer);
        this.idleTimer = null;
      },
      Math.max(1_000, Math.min(idleMs, 60_000)),
    );
    this.idleTimer.unref();
  }
}

// ---- the process-wide caches, one per cluster -----------------------------------------------------

// Kept on globalThis so Next's dev-mode module reloads do not hold two copies.
const globalCaches = globalThis as typeof globalThis & {
  __kafkaSecurityConsoleAclSnapshots?: Map<string, AclSnapshotCache>;
};
const caches: Map<string, AclSnapshotCache> = (globalCaches.__kafkaSecurityConsoleAclSnapshots ??= new Map<
  string,
  AclSnapshotCache
>());

/**
 * Every ACL write this process makes through the Kafka adapter (createAcls, deleteAcls)
 * reaches the snapshot of the cluster it was made on, as Kafka confirmed it; a write
 * whose answer was lost invalidates it. Subscribed once per process (module reloads in
 * development replace the subscription).
 */
function onWrite(change: AclChange): void {
  const cache = caches.get(change.clusterId);
  if (cache === undefined) return;
  if ("unknown" in change) cache.invalidate();
  else cache.applyChange(change.created, change.deleted);
}
const subscription = globalThis as typeof globalThis & { __kafkaSecurityConsoleAclSnapshotWrites?: () => void };
subscription.__kafkaSecurityConsoleAclSnapshotWrites?.();
subscription.__kafkaSecurityConsoleAclSnapshotWrites = onAclChange(onWrite);

/**
 * The cache of the cluster `clusterId` (lib/clusters.ts; default: the default cluster). Never shared between clusters.
 */
export function aclSnapshotCache(clusterId: string = clusterIdOf({})): AclSnapshotCache {
  const key = clusterId;
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = new AclSnapshotCache(createKafkaAclSnapshotSource());
    caches.set(key, cache);
  }
  return cache;
}

/**
 * The shared snapshot of the viewer's cluster for `viewer`, or Kafka's refusal of the viewer's right to describe ACLs.
 */
export function getAclSnapshot(viewer: Viewer, options: AclSnapshotReadOptions = {}): Promise<AclSnapshotResult> {
  return aclSnapshotCache(clusterIdOf(viewer.credential)).get(viewer, options);
}

/** `build`'s answer from the viewer's snapshot with the snapshot's time and size, or why the snapshot was refused. */
export async function fromAclSnapshot<T>(
  viewer: Viewer,
  options: AclSnapshotReadOptions,
  build: (snapshot: AclSnapshot) => T,
): Promise<AclSnapshotRead<T>> {
  const read = await getAclSnapshot(viewer, options);
  if (!read.ok) return read;
  return { ok: true, data: build(read.snapshot), aclSnapshot: read.snapshot.info() };
}

/**
 * What Kafka created and deleted, after the change. Writes through lib/kafka's createAcls
 * and deleteAcls report themselves; call this for ACL changes made any other way.
 */
export function applyAclChange(
  created: readonly AclBinding[],
  deleted: readonly AclBinding[],
  clusterId?: string,
): void {
  aclSnapshotCache(clusterId).applyChange(created, deleted);
}

/** After a change whose exact bindings are unknown (e.g. a failed batch): the next reader fetches. */
export function invalidateAclSnapshot(clusterId?: string): void {
  aclSnapshotCache(clusterId).invalidate();
}

/** Sign-out: the session's proven right is forgotten at once. */
export function forgetAclViewer(viewer: Pick<Viewer, "sessionId" | "credential">): void {
  aclSnapshotCache(clusterIdOf(viewer.credential)).forget(viewerKey(viewer));
}
