import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";
import {
  awaitSignInAttempt,
  beginSignInAttempt,
  deleteStaleSignInThrottles,
  delayAfterMs,
  finishSignInAttempt,
  FREE_FAILURES,
  IN_FLIGHT_STALE_MS,
  MAX_DELAY_MS,
  WINDOW_MS,
} from "./sign-in-throttle";
import { getPrisma } from "./client";
import { useMigratedTestDatabase } from "@/test/db";

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
/** A second console instance: its own Prisma client and connection pool on the same database. */
let other: PrismaClient;

beforeAll(async () => {
  db = await useMigratedTestDatabase("sign_in_throttle");
  other = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url, max: 10 }) });
});
afterAll(async () => {
  await other.$disconnect();
  await db.teardown();
});

const t0 = new Date("2026-12-01T09:00:00.000Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
let n = 0;
const freshKey = () => `192.0.2.${++n}|alice`;

describe("delayAfterMs", () => {
  it("is free for the first FREE_FAILURES attempts, then doubles from 1 s up to a minute", () => {
    expect([0, 1, 2].map(delayAfterMs)).toEqual([0, 0, 0]);
    expect([3, 4, 5, 6, 7, 8, 9, 50].map(delayAfterMs)).toEqual([
      1000,
      2000,
      4000,
      8000,
      16000,
      32000,
      60000,
      MAX_DELAY_MS,
    ]);
  });
});

describe("the shared sign-in throttle", () => {
  it("lets exactly FREE_FAILURES of 50 parallel guesses through (counted before Kafka is asked)", async () => {
    const key = freshKey();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => beginSignInAttempt(key, t0)));
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(FREE_FAILURES);
    expect(allowed.map((d) => (d.allowed ? d.attempt : 0)).sort()).toEqual([1, 2, 3]);
    for (const d of decisions) if (!d.allowed) expect(d.retryAfterMs).toBeGreaterThanOrEqual(1000);
  });

  it("counts attempts of several console instances on one database together", async () => {
    const key = freshKey();
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? beginSignInAttempt(key, t0) : beginSignInAttempt(key, t0, other),
      ),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(FREE_FAILURES);
  });

  it("then lets one attempt through per elapsed wait, only when no earlier one is still at Kafka", async () => {
    const key = freshKey();
    for (let i = 0; i < FREE_FAILURES; i++) {
      expect(await beginSignInAttempt(key, t0)).toMatchObject({ allowed: true });
      await finishSignInAttempt(key, "failure");
    }
    expect(await beginSignInAttempt(key, at(999))).toEqual({ allowed: false, retryAfterMs: 1000 });
    expect(await beginSignInAttempt(key, at(1000))).toEqual({ allowed: true, attempt: 4 });
    // Attempt 4 has not come back from Kafka: nothing else gets through, even after its wait.
    expect(await beginSignInAttempt(key, at(3500))).toMatchObject({ allowed: false });
    await finishSignInAttempt(key, "failure");
    expect(await beginSignInAttempt(key, at(2999))).toMatchObject({ allowed: false, retryAfterMs: 1000 });
    expect(await beginSignInAttempt(key, at(3000))).toEqual({ allowed: true, attempt: 5 });
    await finishSignInAttempt(key, "failure");
    // Refused attempts do not push the wait further out.
    for (let i = 0; i < 5; i++)
      expect(await beginSignInAttempt(key, at(3000 + i * 100))).toMatchObject({ allowed: false });
    expect(await beginSignInAttempt(key, at(7000))).toEqual({ allowed: true, attempt: 6 });
    await finishSignInAttempt(key, "failure");
    // Another user from the same client, and the same user from another client, are not slowed.
    expect(await beginSignInAttempt(key.replace("alice", "bob"), at(7000))).toMatchObject({
      allowed: true,
      attempt: 1,
    });
    expect(await beginSignInAttempt(`198.51.100.1|alice`, at(7000))).toMatchObject({ allowed: true, attempt: 1 });
  });

  it("forgets the key after a success with nothing else in flight", async () => {
    const key = freshKey();
    for (let i = 0; i < 5; i++) await beginSignInAttempt(key, t0);
    expect(await beginSignInAttempt(key, t0)).toMatchObject({ allowed: false });
    for (let i = 0; i < FREE_FAILURES - 1; i++) await finishSignInAttempt(key, "failure");
    await finishSignInAttempt(key, "success");
    expect(await getPrisma().signInThrottle.findUnique({ where: { key } })).toBeNull();
    expect(await beginSignInAttempt(key, t0)).toEqual({ allowed: true, attempt: 1 });
  });

  it("a success while others are in flight gives back its own attempt only: their failures still count", async () => {
    const key = freshKey();
    for (let i = 0; i < FREE_FAILURES; i++) await beginSignInAttempt(key, t0);
    expect(await beginSignInAttempt(key, t0)).toMatchObject({ allowed: false });
    await finishSignInAttempt(key, "success");
    expect(await beginSignInAttempt(key, t0)).toEqual({ allowed: true, attempt: FREE_FAILURES });
    for (let i = 0; i < FREE_FAILURES; i++) await finishSignInAttempt(key, "failure");
    expect(await beginSignInAttempt(key, t0)).toMatchObject({ allowed: false });
  });

  it("gives back an attempt Kafka was never asked (broker unreachable)", async () => {
    const key = freshKey();
    for (let i = 0; i < 10; i++) {
      expect(await beginSignInAttempt(key, t0)).toEqual({ allowed: true, attempt: 1 });
      await finishSignInAttempt(key, "not-asked");
    }
  });

  it("ignores an in-flight attempt of an instance that died, after IN_FLIGHT_STALE_MS", async () => {
    const key = freshKey();
    for (let i = 0; i < FREE_FAILURES; i++) await beginSignInAttempt(key, t0); // never finished
    expect(await beginSignInAttempt(key, at(IN_FLIGHT_STALE_MS - 1))).toMatchObject({ allowed: false });
    expect(await beginSignInAttempt(key, at(IN_FLIGHT_STALE_MS))).toEqual({ allowed: true, attempt: 4 });
  });

  it("starts over after WINDOW_MS without attempts, and maintenance deletes such keys", async () => {
    const failThrice = async (key: string) => {
      for (let i = 0; i < FREE_FAILURES; i++) {
        await beginSignInAttempt(key, t0);
        await finishSignInAttempt(key, "failure");
      }
    };
    const key = freshKey();
    await failThrice(key);
    expect(await beginSignInAttempt(key, at(WINDOW_MS))).toEqual({ allowed: true, attempt: 1 });
    const recent = freshKey();
    await failThrice(recent);
    expect(await beginSignInAttempt(recent, at(WINDOW_MS - 1))).toEqual({ allowed: true, attempt: FREE_FAILURES + 1 });

    const stale = freshKey();
    await beginSignInAttempt(stale, t0);
    const before = await getPrisma().signInThrottle.count();
    expect(await deleteStaleSignInThrottles(at(WINDOW_MS))).toBeGreaterThanOrEqual(1);
    expect(await getPrisma().signInThrottle.findUnique({ where: { key: stale } })).toBeNull();
    expect(await getPrisma().signInThrottle.findUnique({ where: { key } })).not.toBeNull();
    expect(await getPrisma().signInThrottle.count()).toBeLessThan(before);
  });

  it(
    "an attempt refused while others are in flight waits for them and gets through when one " +
      "succeeds, on another instance too",
    async () => {
      const key = freshKey();
      for (let i = 0; i < FREE_FAILURES; i++) expect(await beginSignInAttempt(key)).toMatchObject({ allowed: true });
      const waiting = awaitSignInAttempt(key, 5_000, other);
      await new Promise((r) => setTimeout(r, 300));
      await finishSignInAttempt(key, "success");
      expect(await waiting).toEqual({ allowed: true, attempt: FREE_FAILURES });
    },
  );

  it("does not wait when nothing is in flight, and waits at most its bound", async () => {
    const key = freshKey();
    for (let i = 0; i < FREE_FAILURES; i++) {
      await beginSignInAttempt(key);
      await finishSignInAttempt(key, "failure");
    }
    let started = Date.now();
    expect(await awaitSignInAttempt(key, 5_000)).toMatchObject({ allowed: false });
    expect(Date.now() - started).toBeLessThan(1_000);

    const stuck = freshKey();
    for (let i = 0; i < FREE_FAILURES; i++) await beginSignInAttempt(stuck); // in flight, never finished
    started = Date.now();
    expect(await awaitSignInAttempt(stuck, 400)).toMatchObject({ allowed: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it("20 parallel wrong guesses that wait for each other still get exactly FREE_FAILURES of them tried", async () => {
    const key = freshKey();
    const guess = async (i: number) => {
      const decision = await awaitSignInAttempt(key, 5_000, i % 2 === 0 ? getPrisma() : other);
      if (decision.allowed) {
        await new Promise((r) => setTimeout(r, 50)); // Kafka refusing the password
        await finishSignInAttempt(key, "failure");
      }
      return decision;
    };
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(i)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(FREE_FAILURES);
  });
});
