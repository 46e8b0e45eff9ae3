/**
 * The console's job queue (#19): pg-boss on the console database, in its own schema
 * (`jobs`), on a real PostgreSQL and on the embedded one alike (pg-boss polls; the
 * embedded server does not carry LISTEN/NOTIFY). Each console instance runs the workers;
 * pg-boss hands each job to one of them (SELECT … FOR UPDATE SKIP LOCKED) and retries a
 * failed one with backoff. Delivery is at least once, so every handler is idempotent
 * (lib/services/scheduled.ts).
 *
 * Why pg-boss and not graphile-worker: it runs on the Node this project brings, needs no
 * LISTEN/NOTIFY and no prepared statements kept across connections, both of which the
 * embedded database (one shared backend) cannot give.
 *
 * This module knows nothing of what the jobs do: lib/services/scheduled.ts registers the
 * handlers (startJobQueue) and the services send jobs through sendJob. Without a running
 * queue (tests of one module, a script) sendJob does nothing and says so: the minute
 * sweep of every instance finds due work from the database anyway.
 */
import { PgBoss } from "pg-boss";

export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

export interface QueueSpec {
  handler: JobHandler;
  /** A cron expression (UTC): the queue also gets one job on that schedule, whoever else runs it. */
  cron?: string;
  /** Retries after a failure (with exponential backoff up to retryDelayMaxSeconds). */
  retryLimit?: number;
  retryDelayMaxSeconds?: number;
  /** "singleton": at most one job of the queue active at a time, across instances. */
  policy?: "singleton";
  /**
   * How long a job may stay active before it is failed (default 600 s). A job of an instance
   * killed mid-run stays active that long, and on a singleton queue blocks the next one.
   */
  expireInSeconds?: number;
}

export interface JobQueue {
  stop: () => Promise<void>;
}

let boss: PgBoss | null = null;

const SCHEMA = "jobs";

/** Starts pg-boss on `connectionString` and a worker per queue. Idempotent per process. */
export async function startJobQueue(
  connectionString: string,
  queues: Readonly<Record<string, QueueSpec>>,
  options: { pollingIntervalSeconds?: number; log?: (line: string) => void } = {},
): Promise<JobQueue> {
  const log = options.log ?? ((line: string) => console.error(line));
  if (boss !== null) return { stop: stopJobQueue };
  const b = new PgBoss({ connectionString, schema: SCHEMA, max: 4, application_name: "ksc-jobs" });
  b.on("error", (error: unknown) => log(`[jobs] ${jobErrorText(error)}`));
  await b.start();
  for (const [name, spec] of Object.entries(queues)) {
    const queueOptions = {
      retryLimit: spec.retryLimit ?? 20,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: spec.expireInSeconds ?? 600,
    };
    await b.createQueue(name, {
      ...queueOptions,
      retryDelayMax: spec.retryDelayMaxSeconds ?? 300,
      ...(spec.policy ? { policy: spec.policy } : {}),
    });
    // createQueue leaves an existing queue as it was: its options follow this code's.
    await b.updateQueue(name, queueOptions);
    await b.work<Record<string, unknown>>(
      name,
      { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (job) await spec.handler(job.data ?? {});
      },
    );
    if (spec.cron) await b.schedule(name, spec.cron, {}, { tz: "UTC" });
  }
  boss = b;
  return { stop: stopJobQueue };
}

/**
 * What pg-boss reported, as text: an Error's message, or the `message` of the plain objects it
 * also emits (a worker's failure carries its queue), never "[object Object]".
 */
export function jobErrorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null) {
    const { message, queue } = error as { message?: unknown; queue?: unknown };
    if (typeof message === "string") return typeof queue === "string" ? `${queue}: ${message}` : message;
    try {
      return JSON.stringify(error).slice(0, 500);
    } catch {
      return "an error that cannot be shown";
    }
  }
  return String(error);
}

export async function stopJobQueue(): Promise<void> {
  const b = boss;
  boss = null;
  if (b) await b.stop({ graceful: true, timeout: 10_000 });
}

/**
 * Queues a job to run at `startAfter` (now when absent). `id` makes it unique: a job
 * with that id already queued is not queued again. `within` queues it in the caller's
 * transaction. False when no queue runs in this process (the sweep will find the work).
 */
export async function sendJob(
  name: string,
  data: Record<string, unknown>,
  options: { startAfter?: Date; id?: string; within?: SqlRunner } = {},
): Promise<boolean> {
  if (boss === null) return false;
  const within = options.within;
  await boss.send(name, data, {
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
    ...(options.id ? { id: options.id } : {}),
    ...(within
      ? { db: { executeSql: async (text: string, values?: unknown[]) => ({ rows: await within(text, values ?? []) }) } }
      : {}),
  });
  return true;
}

/**
 * Runs one SQL statement on the caller's open transaction (Prisma's `$queryRawUnsafe` on it):
 * a job sent `within` it is queued by that transaction, so it exists exactly when the
 * transaction's own writes do (a notification of what a commit recorded is never lost to a
 * crash between the commit and the queueing, nor sent for a rollback).
 */
export type SqlRunner = (text: string, values: unknown[]) => Promise<unknown[]>;

export function jobQueueRunning(): boolean {
  return boss !== null;
}
