import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase, type TestDatabase } from "@/test/db";
import { LockBusyError, LockUnavailableError, withAdvisoryLocks, withProcessLock } from "./locks";

let db: TestDatabase;
let previous: string | undefined;

beforeAll(async () => {
  db = await createTestDatabase("locks");
  previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = db.url;
});

afterAll(async () => {
  if (previous === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previous;
  await db.drop();
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a holder of `locks` that keeps them until release() is called; `held` resolves once it holds them. */
function holder(locks: Parameters<typeof withAdvisoryLocks>[0], waitMs = 10_000) {
  const held = deferred();
  const release = deferred();
  const done = withAdvisoryLocks(
    locks,
    async () => {
      held.resolve();
      await release.promise;
    },
    { waitMs },
  );
  return { held: held.promise, release: release.resolve, done };
}

describe("withAdvisoryLocks (PostgreSQL, across sessions)", () => {
  it(
    "an exclusive lock keeps a second taker of the same key waiting until it is released; other keys " + "are free",
    async () => {
      const a = holder([{ key: "k1", mode: "exclusive" }]);
      await a.held;
      const events: string[] = [];
      const b = withAdvisoryLocks([{ key: "k1", mode: "exclusive" }], async () => void events.push("b"), {
        waitMs: 10_000,
      });
      await withAdvisoryLocks([{ key: "k2", mode: "exclusive" }], async () => void events.push("other key"));
      await sleep(300);
      expect(events).toEqual(["other key"]);
      events.push("a releases");
      a.release();
      await Promise.all([a.done, b]);
      expect(events).toEqual(["other key", "a releases", "b"]);
    },
  );

  it("shared locks run side by side; an exclusive one waits for them, and they wait for it", async () => {
    const s1 = holder([{ key: "k3", mode: "shared" }]);
    const s2 = holder([{ key: "k3", mode: "shared" }]);
    await Promise.all([s1.held, s2.held]);
    let exclusiveRan = false;
    const x = withAdvisoryLocks([{ key: "k3", mode: "exclusive" }], async () => void (exclusiveRan = true), {
      waitMs: 10_000,
    });
    await sleep(300);
    expect(exclusiveRan).toBe(false);
    s1.release();
    await sleep(200);
    expect(exclusiveRan).toBe(false);
    s2.release();
    await x;
    expect(exclusiveRan).toBe(true);

    const xh = holder([{ key: "k3", mode: "exclusive" }]);
    await xh.held;
    await expect(
      withAdvisoryLocks([{ key: "k3", mode: "shared" }], async () => "ran", { waitMs: 300 }),
    ).rejects.toBeInstanceOf(LockBusyError);
    xh.release();
    await xh.done;
    await Promise.all([s1.done, s2.done]);
  });

  it("a lock not granted in time is LockBusyError and the function never runs", async () => {
    const a = holder([{ key: "k4", mode: "exclusive" }]);
    await a.held;
    let ran = false;
    const started = Date.now();
    await expect(
      withAdvisoryLocks([{ key: "k4", mode: "exclusive" }], async () => void (ran = true), { waitMs: 400 }),
    ).rejects.toBeInstanceOf(LockBusyError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(ran).toBe(false);
    a.release();
    await a.done;
  });

  it("an unreachable database is LockUnavailableError", async () => {
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/nowhere";
    try {
      await expect(withAdvisoryLocks([{ key: "k5", mode: "exclusive" }], async () => "ran")).rejects.toBeInstanceOf(
        LockUnavailableError,
      );
    } finally {
      process.env.DATABASE_URL = db.url;
    }
  });

  it(
    "when the holder's session dies the database releases the lock, and the holder's guard says so " +
      "before its protected step",
    async () => {
      let guardError: unknown = null;
      const killed = deferred();
      const held = deferred();
      const a = withAdvisoryLocks([{ key: "k6", mode: "exclusive" }], async (guard) => {
        held.resolve();
        await killed.promise;
        try {
          await guard.assertHeld();
        } catch (error) {
          guardError = error;
        }
      });
      await held.promise;
      const admin = new pg.Client({ connectionString: db.url });
      await admin.connect();
      try {
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ksc-lock' AND " +
            "datname = current_database()",
        );
      } finally {
        await admin.end();
      }
      // Another session gets the lock at once.
      await withAdvisoryLocks([{ key: "k6", mode: "exclusive" }], async () => undefined, { waitMs: 2_000 });
      killed.resolve();
      await a;
      expect(guardError).toBeInstanceOf(LockUnavailableError);
    },
  );
});

describe("withProcessLock", () => {
  it(
    "runs holders of one key one at a time, first come first served; a waiter gives up with " + "LockBusyError",
    async () => {
      const order: string[] = [];
      const gate = deferred();
      const first = withProcessLock("p1", 1_000, async () => {
        order.push("first");
        await gate.promise;
      });
      const second = withProcessLock("p1", 5_000, async () => void order.push("second"));
      const third = withProcessLock("p1", 5_000, async () => void order.push("third"));
      const impatient = withProcessLock("p1", 100, async () => void order.push("impatient"));
      await expect(impatient).rejects.toBeInstanceOf(LockBusyError);
      await withProcessLock("p2", 100, async () => void order.push("other key"));
      gate.resolve();
      await Promise.all([first, second, third]);
      expect(order).toEqual(["first", "other key", "second", "third"]);
    },
  );
});
