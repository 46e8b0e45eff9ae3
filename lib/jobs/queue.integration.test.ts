/**
 * The job queue (pg-boss, #19) on the embedded database (PGlite served over the wire, which
 * has no LISTEN/NOTIFY and one shared backend): it starts, creates its schema, and runs a job
 * queued with startAfter no earlier than asked; a queue made by an earlier version takes this
 * code's options on the next start (a singleton queue's job expiry: a job left active by a killed
 * instance must not block the next ones for 10 minutes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { jobQueueRunning, sendJob, startJobQueue, stopJobQueue } from "./queue";

const root = mkdtempSync(path.join(tmpdir(), "ksc-jobs-embedded-"));
let db: EmbeddedDatabase | undefined;

afterAll(async () => {
  await stopJobQueue();
  await db?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("pg-boss on the embedded database", () => {
  it("starts, and runs a job queued with startAfter once its time has come", { timeout: 90_000 }, async () => {
    db = await startEmbeddedDatabase({ dataDir: path.join(root, "pglite"), port: 0 });
    const ran: { data: Record<string, unknown>; at: number }[] = [];
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    await startJobQueue(
      db.url,
      {
        probe: {
          handler: async (data) => {
            ran.push({ data, at: Date.now() });
            done();
          },
        },
      },
      { pollingIntervalSeconds: 0.5 },
    );
    expect(jobQueueRunning()).toBe(true);

    const startAfter = new Date(Date.now() + 2_000);
    expect(await sendJob("probe", { grantId: "g-1" }, { startAfter })).toBe(true);
    await finished;
    expect(ran).toHaveLength(1);
    expect(ran[0]!.data).toEqual({ grantId: "g-1" });
    expect(ran[0]!.at).toBeGreaterThanOrEqual(startAfter.getTime() - 50);

    await stopJobQueue();
    expect(jobQueueRunning()).toBe(false);
    expect(await sendJob("probe", {})).toBe(false);
  });

  it("a queue made with other options takes the code's on the next start", { timeout: 60_000 }, async () => {
    const handler = async () => undefined;
    await startJobQueue(db!.url, { reader: { handler, policy: "singleton" } });
    await stopJobQueue();
    await startJobQueue(db!.url, { reader: { handler, policy: "singleton", expireInSeconds: 120 } });
    await stopJobQueue();
    const client = new pg.Client({ connectionString: db!.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ expire_seconds: number; policy: string }>(
        "SELECT expire_seconds, policy FROM jobs.queue WHERE name = 'reader'",
      );
      expect(rows).toEqual([{ expire_seconds: 120, policy: "singleton" }]);
    } finally {
      await client.end();
    }
  });
});
