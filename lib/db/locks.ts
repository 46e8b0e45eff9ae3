/**
 * Locks that hold across every console instance sharing the database: PostgreSQL
 * advisory locks, taken at session level on a dedicated connection (not from Prisma's
 * pool), plus an in-process queue in front of them.
 *
 * Why a dedicated connection and not a transaction-scoped lock in a Prisma interactive
 * transaction: the lock is held across Kafka calls (read, check, alter, wait until the
 * change is visible). A transaction would pin a pool connection for that long, and on the
 * embedded database (PGlite, one backend for every connection, lib/db/embedded.ts) an open
 * transaction stops every other query of the console until it ends. A plain session that
 * holds only an advisory lock stops nothing but the lock's other takers, and when the
 * process dies its connection closes and PostgreSQL releases the lock.
 *
 * Why the in-process queue as well: PGlite's connections share one session, and a session
 * re-enters its own advisory locks, so on the embedded database (one console instance) the
 * queue is what excludes; on PostgreSQL it also means one waiting connection per instance
 * and key instead of one per request.
 *
 * Keys are strings; PostgreSQL gets (LOCK_SPACE, hashtext(key)). The two-int key space of
 * advisory locks does not overlap the bigint one the migrator uses (lib/db/migrate.ts). Two
 * keys whose hashes collide only serialise more than needed, never less.
 */
import pg from "pg";
import { databaseUrl } from "../env";

/** "ksql" in ASCII: the int4 namespace of the console's advisory locks. */
const LOCK_SPACE = 0x6b73716c;

export const DEFAULT_LOCK_WAIT_MS = 30_000;

export type LockMode = "shared" | "exclusive";

export interface LockRequest {
  key: string;
  mode: LockMode;
}

/** The lock was not granted in time: someone else holds it (a long change, or a stuck one). */
export class LockBusyError extends Error {
  override name = "LockBusyError";
}

/** The database could not be reached, or the lock's connection was lost while it was held. */
export class LockUnavailableError extends Error {
  override name = "LockUnavailableError";
}

export interface LockGuard {
  /**
   * Throws LockUnavailableError when the lock's connection has died (the database then
   * released the lock). Call it right before the step the lock protects.
   */
  assertHeld(): Promise<void>;
}

// ---- in-process queue --------------------------------------------------------------

interface Waiter {
  grant: () => void;
  abandoned: boolean;
}

const globalQueues = globalThis as typeof globalThis & {
  __kscLockQueues?: Map<string, { held: boolean; waiters: Waiter[] }>;
};
const queues = (globalQueues.__kscLockQueues ??= new Map<string, { held: boolean; waiters: Waiter[] }>());

/** Runs `fn` when no other holder of `key` in this process runs; FIFO; LockBusyError after waitMs. */
export async function withProcessLock<T>(key: string, waitMs: number, fn: () => Promise<T>): Promise<T> {
  let q = queues.get(key);
  if (!q) {
    q = { held: false, waiters: [] };
    queues.set(key, q);
  }
  const queue = q;
  if (queue.held) {
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { grant: () => (clearTimeout(timer), resolve()), abandoned: false };
      const timer = setTimeout(() => {
        waiter.abandoned = true;
        reject(new LockBusyError(`waited ${waitMs} ms for ${key}`));
      }, waitMs);
      queue.waiters.push(waiter);
    });
  }
  queue.held = true;
  try {
    return await fn();
  } finally {
    let next = queue.waiters.shift();
    while (next?.abandoned) next = queue.waiters.shift();
    if (next) next.grant();
    else {
      queue.held = false;
      queues.delete(key);
    }
  }
}

// ---- PostgreSQL advisory locks -------------------------------------------------------

function lockDatabaseUrl(): string {
  const url = databaseUrl();
  if (!url) throw new LockUnavailableError("DATABASE_URL is not set");
  return url;
}

const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Takes the advisory locks in the order given (callers use one fixed order, so two holders
 * never wait for each other crosswise), runs `fn`, releases them and closes the connection.
 * LockBusyError when a lock is not granted within waitMs, LockUnavailableError when the
 * database cannot be reached.
 */
export async function withAdvisoryLocks<T>(
  locks: readonly LockRequest[],
  fn: (guard: LockGuard) => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<T> {
  const waitMs = Math.max(1, Math.round(options.waitMs ?? DEFAULT_LOCK_WAIT_MS));
  const connectionString = lockDatabaseUrl();
  const client = new pg.Client({ connectionString, application_name: "ksc-lock", connectionTimeoutMillis: 10_000 });
  let lost = null as Error | null;
  client.on("error", (e) => {
    lost = e;
  });
  client.on("end", () => {
    lost ??= new Error("connection closed");
  });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new LockUnavailableError(
      `cannot connect to the database: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const taken: LockRequest[] = [];
  try {
    try {
      // Only while waiting; reset after, since on PGlite every connection shares this session.
      await client.query(`SET lock_timeout = ${waitMs}`);
      for (const lock of locks) {
        const take = lock.mode === "shared" ? "pg_advisory_lock_shared" : "pg_advisory_lock";
        await client.query(`SELECT ${take}($1::int4, hashtext($2::text))`, [LOCK_SPACE, lock.key]);
        taken.push(lock);
      }
      await client.query("RESET lock_timeout");
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE)
        throw new LockBusyError(`lock not granted within ${waitMs} ms`);
      throw new LockUnavailableError(`cannot take the lock: ${error instanceof Error ? error.message : String(error)}`);
    }
    const guard: LockGuard = {
      async assertHeld() {
        if (lost) throw new LockUnavailableError(`the lock's database connection was lost: ${lost.message}`);
        try {
          await client.query("SELECT 1");
        } catch (error) {
          throw new LockUnavailableError(
            `the lock's database connection was lost: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      },
    };
    return await fn(guard);
  } finally {
    // Each lock released by name (not pg_advisory_unlock_all: on PGlite the session, and
    // so every lock in it, is shared with the rest of the process). Closing the session
    // releases whatever an error left behind.
    for (const lock of taken.reverse()) {
      if (lost) break;
      const release = lock.mode === "shared" ? "pg_advisory_unlock_shared" : "pg_advisory_unlock";
      await client.query(`SELECT ${release}($1::int4, hashtext($2::text))`, [LOCK_SPACE, lock.key]).catch(() => {});
    }
    await client.end().catch(() => {});
  }
}

/**
 * The in-process queue of `processKey`, then the advisory locks, within `waitMs` in all:
 * how the console's changes that must hold across instances take their locks (quota
 * budgets, SCRAM credentials). LockBusyError / LockUnavailableError as above.
 */
export async function withConsoleLocks<T>(
  processKey: string,
  locks: readonly LockRequest[],
  fn: (guard: LockGuard) => Promise<T>,
  waitMs = DEFAULT_LOCK_WAIT_MS,
): Promise<T> {
  const started = Date.now();
  return withProcessLock(processKey, waitMs, () =>
    withAdvisoryLocks(locks, fn, { waitMs: Math.max(1, waitMs - (Date.now() - started)) }),
  );
}
