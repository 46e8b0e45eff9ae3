/**
 * The embedded console database: PGlite (PostgreSQL compiled to WebAssembly, running
 * inside this Node process) served over the PostgreSQL wire protocol by pglite-socket
 * on 127.0.0.1, so that `pg`, Prisma's adapter-pg and other processes (the Next server,
 * psql, `npm run db:migrate`) connect to it like to any PostgreSQL.
 *
 * Used when DATABASE_URL is unset: the start command calls startEmbeddedDatabase,
 * then migrate(url), then starts Next with DATABASE_URL=url.
 *
 * Facts this relies on (checked against pglite 0.5.14 + pglite-socket 0.2.17, and
 * covered by lib/db/embedded.integration.test.ts):
 * - pglite-socket accepts only 1 connection by default; a pg pool needs more, so the
 *   server is started with maxConnections = EMBEDDED_DB_MAX_CONNECTIONS (default 64).
 *   Connections beyond that are refused ("Too many connections").
 * - PGlite has a single backend that all connections share. pglite-socket's own queue
 *   interleaves connections between protocol *messages*, which breaks the extended
 *   query protocol under concurrency (pg sends Parse/Bind/Execute/Sync as separate
 *   messages; another connection's Parse in between clobbers the unnamed statement:
 *   `portal "" does not exist`, and hangs). So the server's queue is replaced by
 *   SerialQueue below: a connection keeps the backend from its first message until
 *   the backend answers ReadyForQuery with status Idle, i.e. for a whole query or
 *   extended-query cycle and for as long as it has a transaction open. Queries are
 *   serialised, not parallel. Connections still share session state (SET, named
 *   prepared statements, temp tables, advisory locks), which the console does not
 *   rely on across connections.
 * - Data persists in dataDir (default .data/pglite, git-ignored). Only one process may
 *   open a data directory: a lock file `<dataDir>.lock` (pid, url) guards it, and a stale
 *   lock of a dead process is taken over.
 * - There is no authentication: any local user who can reach 127.0.0.1:<port> can read
 *   the database. Stored credentials are encrypted (lib/auth/crypto.ts); use a real
 *   PostgreSQL (DATABASE_URL) on shared machines and in production.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { embeddedDatabaseSettings, type EmbeddedDatabaseSettings } from "../env";

export const DEFAULT_EMBEDDED_PORT = 54329;
export const DEFAULT_DATA_DIR = ".data/pglite";

export interface EmbeddedDatabase {
  /** postgresql://… URL of the served database, for DATABASE_URL. */
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. Default: env EMBEDDED_DB_PORT, else 54329. */
  port?: number;
  /** Maximum simultaneous client connections. Default: env EMBEDDED_DB_MAX_CONNECTIONS, else 64. */
  maxConnections?: number;
}

export class EmbeddedDatabaseError extends Error {
  override name = "EmbeddedDatabaseError";
}

function envInt(name: keyof EmbeddedDatabaseSettings, fallback: number): number {
  const v = embeddedDatabaseSettings()[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new EmbeddedDatabaseError(`${name} must be an integer 0..65535, got "${v}"`);
  return n;
}

type Job = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (e: unknown) => void;
};

const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]); // 'S'
const COPY_FAIL_MESSAGE = new Uint8Array([0x66, 0, 0, 0, 5, 0]); // 'f', empty reason
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'
const TERMINATE = 0x58; // 'X'

/**
 * Drop-in replacement for pglite-socket's QueryQueueManager (same four methods) that
 * gives one connection exclusive use of the backend from its first message until the
 * backend answers ReadyForQuery with status Idle: a whole simple query, a whole
 * extended-query cycle (Parse … Sync), a whole COPY, and a whole transaction
 * (ReadyForQuery 'T' or 'E' keeps the hold). See the file header for why.
 */
export class SerialQueue {
  private queue: Job[] = [];
  private processing = false;
  /** The connection that holds the backend, if any. */
  private owner: number | null = null;
  /** Connections that disconnected and whose hold on the backend must be released. */
  private gone = new Set<number>();

  constructor(private readonly db: PGlite) {}

  getQueueLength(): number {
    return this.queue.length;
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.processQueue();
    });
  }

  private next(): Job | undefined {
    if (this.owner === null) return this.queue.shift();
    const i = this.queue.findIndex((j) => j.handlerId === this.owner);
    return i === -1 ? undefined : this.queue.splice(i, 1)[0];
  }

  private async processQueue(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        // Connections that went away: end their cycle / transaction so others can run.
        for (const id of this.gone) {
          this.gone.delete(id);
          if (id === this.owner) {
            // Never let this reject: pglite-socket does not await it (unhandled rejection),
            // and it can only fail when the database is closing or already broken.
            await this.release().catch(() => {});
          }
        }
        const job = this.next();
        if (!job) break;
        let bytes = 0;
        // The last 6 bytes of the response: ReadyForQuery is 'Z', int32 5, status.
        const tail = new Uint8Array(6);
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(job.message, {
              onRawData: (data) => {
                bytes += data.length;
                if (data.length >= 6) tail.set(data.subarray(data.length - 6));
                else {
                  tail.copyWithin(0, data.length);
                  tail.set(data, 6 - data.length);
                }
                job.onData(data);
              },
            }),
          );
        } catch (e) {
          job.reject(e);
        }
        if (job.message[0] === TERMINATE) {
          // No reply; the connection is closing. Its hold (if any) is released on disconnect.
          job.resolve(bytes);
          continue;
        }
        const ready =
          bytes >= 6 && tail[0] === READY_FOR_QUERY && tail[1] === 0 && tail[2] === 0 && tail[3] === 0 && tail[4] === 5;
        this.owner = ready && tail[5] === IDLE ? null : job.handlerId;
        job.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  /** Ends the departed owner's unfinished COPY / extended-query cycle and rolls back its transaction. */
  private async release(): Promise<void> {
    try {
      await this.db.runExclusive(async () => {
        // Outside copy mode the backend ignores CopyFail; an extra Sync only yields ReadyForQuery.
        await this.db.execProtocolRawStream(COPY_FAIL_MESSAGE, { onRawData: () => {} });
        await this.db.execProtocolRawStream(SYNC_MESSAGE, { onRawData: () => {} });
      });
      if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    } finally {
      this.owner = null;
    }
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((j) => {
      if (j.handlerId !== handlerId) return true;
      j.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /** Called by pglite-socket when a connection goes away. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.gone.add(handlerId);
    await this.processQueue();
  }
}

export function embeddedUrl(port: number): string {
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes `<dataDir>.lock` for this process or throws if a live process holds it. */
function takeLock(lockFile: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, JSON.stringify({ pid: process.pid, url: null }), { flag: "wx", mode: 0o600 });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      let holder: { pid?: number; url?: string | null } = {};
      try {
        holder = JSON.parse(readFileSync(lockFile, "utf8")) as typeof holder;
      } catch {
        // unreadable or half-written lock: treat as stale
      }
      if (typeof holder.pid === "number" && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new EmbeddedDatabaseError(
          `the embedded database in ${path.dirname(lockFile)} is already open by process ${holder.pid}` +
            (holder.url ? ` (serving ${holder.url}); connect to it with DATABASE_URL=${holder.url}` : "") +
            `, or stop that process first. Lock file: ${lockFile}`,
        );
      }
      if (holder.pid === process.pid) {
        throw new EmbeddedDatabaseError(
          `the embedded database in ${path.dirname(lockFile)} is already open in this process`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new EmbeddedDatabaseError(`could not take the lock ${lockFile}`);
}

/** Reads the lock of a running embedded server for this data directory, if its process is alive. */
export function runningEmbeddedDatabase(dataDir: string = DEFAULT_DATA_DIR): { pid: number; url: string } | null {
  const lockFile = `${path.resolve(dataDir)}.lock`;
  try {
    const holder = JSON.parse(readFileSync(lockFile, "utf8")) as { pid?: number; url?: string | null };
    if (typeof holder.pid === "number" && typeof holder.url === "string" && isAlive(holder.pid))
      return { pid: holder.pid, url: holder.url };
  } catch {
    // no lock, or unreadable
  }
  return null;
}

/**
 * Opens (creating on first use) the PGlite database in `dataDir` and serves it on
 * 127.0.0.1. Resolves once it accepts connections. `stop()` closes client connections,
 * shuts PGlite down cleanly (flushing to disk) and releases the lock.
 */
export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port ?? envInt("EMBEDDED_DB_PORT", DEFAULT_EMBEDDED_PORT);
  const maxConnections = options.maxConnections ?? envInt("EMBEDDED_DB_MAX_CONNECTIONS", 64);
  if (maxConnections < 1) throw new EmbeddedDatabaseError("EMBEDDED_DB_MAX_CONNECTIONS must be at least 1");

  mkdirSync(path.dirname(dataDir), { recursive: true });
  const lockFile = `${dataDir}.lock`;
  takeLock(lockFile);

  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    db = await PGlite.create({ dataDir });
    server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections });
    const internals = server as unknown as { queryQueue?: unknown };
    if (!internals.queryQueue) {
      throw new EmbeddedDatabaseError(
        "pglite-socket changed: PGLiteSocketServer has no queryQueue to replace; check lib/db/embedded.ts " +
          "against the installed version",
      );
    }
    internals.queryQueue = new SerialQueue(db);
    try {
      await server.start();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE") {
        throw new EmbeddedDatabaseError(
          `port ${port} on 127.0.0.1 is in use; set EMBEDDED_DB_PORT to another port (0 = any free port), or ` +
            `set DATABASE_URL to use an existing PostgreSQL`,
          { cause: e },
        );
      }
      throw e;
    }
  } catch (e) {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    rmSync(lockFile, { force: true });
    throw e;
  }

  const actualPort = Number(server.getServerConn().split(":").pop());
  const url = embeddedUrl(actualPort);
  writeFileSync(lockFile, JSON.stringify({ pid: process.pid, url }), { mode: 0o600 });

  let stopped: Promise<void> | undefined;
  const s = server;
  const d = db;
  return {
    url,
    port: actualPort,
    dataDir,
    stop() {
      stopped ??= (async () => {
        try {
          await s.stop();
        } finally {
          try {
            await d.close();
          } finally {
            rmSync(lockFile, { force: true });
          }
        }
      })();
      return stopped;
    },
  };
}
