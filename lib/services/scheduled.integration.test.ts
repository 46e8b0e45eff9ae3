/**
 * The proof #19 asks for: two console instances on one PostgreSQL, 50 grants expiring in the
 * same minute, one instance killed (SIGKILL) while it removes them: every grant is removed
 * exactly once (ENDED, outcome removed, one successful grant.expire audit row each) and its
 * ACL is gone. The instances are child processes (test/services/scheduled-worker.child.ts)
 * running the job queue and the sweep; the grants' expiry jobs are queued with sendJob from
 * this process (a queue without workers) and the sweeps find them too. A claim held by the
 * killed instance is taken over once stale (GRANT_REMOVAL_STALE_SECONDS, 3 s here).
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const { saveGrant } = await import("@/lib/db/access-grant");
const { sendJob, startJobQueue, stopJobQueue } = await import("@/lib/jobs/queue");
const fx = await import("@/test/services/grant-fixtures");
const { GRANT_EXPIRY_JOB } = await import("./grants");

const MARK = `it-sched-${randomBytes(4).toString("hex")}`;
const GRANTS = 50;
const root = path.resolve(import.meta.dirname, "../..");

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let restoreEnv: () => void = () => undefined;
const children: ChildProcess[] = [];
const pids: number[] = [];

beforeAll(async () => {
  db = await useMigratedTestDatabase("scheduled");
  restoreEnv = fx.setEnv({ KAFKA_REQUIRED_APPROVALS: undefined, KAFKA_SERVICE_CREDENTIALS_FILE: undefined });
  await fx.useDevServicePrincipal();
});

afterAll(async () => {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const child of children) child.kill("SIGKILL");
  await stopJobQueue();
  await fx.cleanUp(MARK, restoreEnv, db);
});

/** Starts a console instance; resolves with its pid once it printed "ready <pid>". */
function startInstance(): Promise<number> {
  const child = spawn(
    "npx",
    ["tsx", "--conditions=react-server", path.join(root, "test/services/scheduled-worker.child.ts")],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url, GRANT_REMOVAL_STALE_SECONDS: "3", SWEEP_EVERY_MS: "300" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout });
  return new Promise<number>((resolve, reject) => {
    lines.on("line", (l) => {
      const m = /^ready (\d+)$/.exec(l);
      if (m) {
        pids.push(Number(m[1]));
        resolve(Number(m[1]));
      }
    });
    child.on("exit", (code) => reject(new Error(`instance exited (${code}) before it was ready: ${stderr}`)));
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function countByStatus(): Promise<Record<string, number>> {
  const rows = await getPrisma().accessGrant.groupBy({ by: ["status"], _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
}

describe("two console instances, one killed while 50 grants expire", () => {
  it("every grant is removed exactly once, and its ACL is gone", { timeout: 120_000 }, async () => {
    const [survivor, victim] = await Promise.all([startInstance(), startInstance()]);
    // A queue without workers here, only to send the expiry jobs as an approval does.
    await startJobQueue(db.url, {});

    const bindings = Array.from({ length: GRANTS }, (_, i) => fx.topicAcl(`${MARK}-${i}`, "User:alice"));
    await fx.addAcls(bindings);
    const expiresAt = new Date(Date.now() + 4_000);
    const grants = [];
    for (const b of bindings) {
      const grant = await saveGrant({
        clusterId: "default",
        requestId: null,
        requester: "User:alice",
        approver: "User:admin",
        planId: randomBytes(8).toString("hex"),
        bindings: [b],
        expiresAt,
      });
      expect(await sendJob(GRANT_EXPIRY_JOB, { grantId: grant.id }, { startAfter: expiresAt, id: grant.id })).toBe(
        true,
      );
      grants.push(grant);
    }

    // Kill one instance while the removals are under way.
    const killBy = Date.now() + 30_000;
    while (((await countByStatus()).ENDED ?? 0) < 3) {
      if (Date.now() > killBy) throw new Error(`no removal started: ${JSON.stringify(await countByStatus())}`);
      await pause(100);
    }
    process.kill(victim, "SIGKILL");
    const atKill = await countByStatus();
    expect(atKill.ENDED ?? 0).toBeLessThan(GRANTS);

    const doneBy = Date.now() + 60_000;
    while ((await countByStatus()).ENDED !== GRANTS) {
      if (Date.now() > doneBy) throw new Error(`not all removed: ${JSON.stringify(await countByStatus())}`);
      await pause(250);
    }
    process.kill(survivor, "SIGTERM");

    const ended = await getPrisma().accessGrant.findMany({ where: { id: { in: grants.map((g) => g.id) } } });
    expect(ended.map((g) => [g.status, g.outcome])).toEqual(grants.map(() => ["ENDED", "removed"]));
    const audits = await getPrisma().auditEvent.findMany({ where: { action: "grant.expire", outcome: "success" } });
    const perGrant = new Map<string, number>();
    for (const a of audits) {
      const id = (a.request as { grantId?: string } | null)?.grantId ?? "";
      perGrant.set(id, (perGrant.get(id) ?? 0) + 1);
    }
    expect(grants.filter((g) => perGrant.get(g.id) !== 1).map((g) => [g.id, perGrant.get(g.id) ?? 0])).toEqual([]);
    expect(perGrant.size).toBe(GRANTS);
    expect(await fx.aclsMarked(MARK)).toEqual([]);
    // Each grant was removed through a plan of its own.
    expect(new Set(ended.map((g) => g.removalPlanId)).size).toBe(GRANTS);
    console.info(`at the kill: ${JSON.stringify(atKill)}; attempts: ${ended.map((g) => g.attempts).join(",")}`);
  });
});
