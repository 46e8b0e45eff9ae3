/**
 * The KIP-55 budget under concurrency, against the real broker and PostgreSQL: quota
 * alterations of one user are serialised (lib/services/quotas.ts, "serialising
 * alterations"), inside one console process and across processes sharing the database.
 * Each test works on a fresh throwaway user and removes its quotas afterwards.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

const { useMigratedTestDatabase } = await import("@/test/db");
const { listAudit } = await import("@/lib/db/audit");
const { closeAllConnections, describeClientQuotas } = await import("@/lib/kafka");
const { alterClientQuotas } = await import("@/lib/kafka/writes");
const { ADMIN } = await import("@/test/kafka/fixtures");
const { alterQuota, quotaLockPlan } = await import("./quotas");

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;
const users: string[] = [];

const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const KEY = "producer_byte_rate" as const;

function freshUser(): string {
  const user = `e2e-q-${randomBytes(4).toString("hex")}`;
  users.push(user);
  return user;
}

/** Every quota entity of `user` (its total and its sub-quotas), as { clientId|"(total)": value }. */
async function quotasOf(user: string): Promise<Record<string, number>> {
  const entries = await describeClientQuotas(ADMIN, {
    components: [{ entityType: "user", matchType: "EXACT", match: user }],
  });
  const out: Record<string, number> = {};
  for (const e of entries) {
    const v = e.values[KEY];
    if (v !== undefined) out[e.entity["client-id"] === undefined ? "(total)" : String(e.entity["client-id"])] = v;
  }
  return out;
}

const subQuotaSum = (q: Record<string, number>) =>
  Object.entries(q).reduce((s, [k, v]) => (k === "(total)" ? s : s + v), 0);

async function removeQuotasOf(user: string): Promise<void> {
  const entries = await describeClientQuotas(ADMIN, {
    components: [{ entityType: "user", matchType: "EXACT", match: user }],
  });
  const alterations = entries.map((e) => ({
    entity: e.entity,
    ops: Object.keys(e.values).map((key) => ({ key: key as typeof KEY, value: null })),
  }));
  if (alterations.length > 0) await alterClientQuotas(ADMIN, alterations);
}

async function setTotal(user: string, value: number): Promise<void> {
  const [r] = await alterClientQuotas(ADMIN, [{ entity: { user }, ops: [{ key: KEY, value }] }]);
  expect(r?.error).toBeNull();
}

const alterSub = (user: string, clientId: string, value: number) =>
  alterQuota(admin, { entity: { user, "client-id": clientId }, key: KEY, value, dryRun: false });

beforeAll(async () => {
  db = await useMigratedTestDatabase("quota_budget_locks");
});

afterEach(async () => {
  for (const user of users.splice(0)) await removeQuotasOf(user);
});

afterAll(async () => {
  await closeAllConnections();
  await db.teardown();
});

describe("the KIP-55 budget under concurrency (one console process)", () => {
  it(
    "20 parallel sub-quotas of 400 against a total of 1000: exactly 2 applied, 18 refused with " +
      "CONFLICT, every attempt audited",
    async () => {
      const user = freshUser();
      await setTotal(user, 1000);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => alterSub(user, `c${i}`, 400)));

      expect(results.filter((r) => r.ok)).toHaveLength(2);
      const refused = results.filter((r) => !r.ok);
      expect(refused).toHaveLength(18);
      for (const r of refused) {
        expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
        if (!r.ok) expect(r.message).toContain("console's KIP-55 rule");
      }

      const after = await quotasOf(user);
      expect(after["(total)"]).toBe(1000);
      expect(subQuotaSum(after)).toBe(800);
      expect(Object.keys(after)).toHaveLength(3);

      const events = (await listAudit({ action: "quota.alter", limit: 1000 })).events.filter((e) =>
        e.target.startsWith(`user=${user}, `),
      );
      expect(events).toHaveLength(20);
      expect(events.filter((e) => e.outcome === "success")).toHaveLength(2);
      expect(events.filter((e) => e.outcome === "failure")).toHaveLength(18);
      expect(events.every((e) => e.category === "quota" && e.completedAt !== null)).toBe(true);
    },
  );

  it("lowering the total while a sub-quota is added ends within budget, whichever runs first (5 rounds)", async () => {
    for (let round = 0; round < 5; round++) {
      const user = freshUser();
      await setTotal(user, 1000);
      expect((await alterSub(user, "c0", 400)).ok).toBe(true);
      const [lower, add] = await Promise.all([
        alterQuota(admin, { entity: { user }, key: KEY, value: 500, dryRun: false }),
        alterSub(user, "c1", 400),
      ]);
      // Either order leaves 400 + 400 > 500 for the second one: exactly one of them applies.
      expect([lower.ok, add.ok].filter(Boolean)).toHaveLength(1);
      expect((lower.ok ? add : lower) as { code?: string }).toMatchObject({ code: "CONFLICT" });
      const after = await quotasOf(user);
      expect(subQuotaSum(after)).toBeLessThanOrEqual(after["(total)"] ?? Infinity);
    }
  });
});

describe("the KIP-55 budget across console processes sharing one PostgreSQL", () => {
  /** Starts a console process (test/services/quota-race.child.ts); resolves once it printed "ready". */
  function startInstance(env: Record<string, string>) {
    const child = spawn(
      "npx",
      ["tsx", "--conditions=react-server", path.join(import.meta.dirname, "../../test/services/quota-race.child.ts")],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const lines = createInterface({ input: child.stdout });
    const ready = new Promise<void>((resolve, reject) => {
      lines.on("line", (l) => l === "ready" && resolve());
      child.on("exit", (code) => reject(new Error(`instance exited (${code}) before it was ready: ${stderr}`)));
    });
    const result = new Promise<{ codes: string[] }>((resolve, reject) => {
      lines.on("line", (l) => l.startsWith("{") && resolve(JSON.parse(l) as { codes: string[] }));
      child.on("exit", (code) => (code === 0 ? undefined : reject(new Error(`instance exited (${code}): ${stderr}`))));
    });
    return { ready, result, go: () => child.stdin.write("go\n"), kill: () => child.kill() };
  }

  // Room for exactly one more sub-quota, so the instances' first requests (which start at
  // the same moment) decide it: without a lock across processes both read 500 used and both
  // apply (1300 > 1000). Each instance already serialises its own requests, so only the
  // database lock can make this hold.
  it(
    "two instances, 10 parallel sub-quotas of 400 each, 500 of 1000 used: exactly 1 applied in all",
    { timeout: 180_000 },
    async () => {
      const user = freshUser();
      await setTotal(user, 1000);
      expect((await alterSub(user, "base", 500)).ok).toBe(true);
      const env = { DATABASE_URL: db.url, QUOTA_RACE_USER: user, QUOTA_RACE_COUNT: "10", QUOTA_RACE_VALUE: "400" };
      const a = startInstance({ ...env, QUOTA_RACE_PREFIX: "a" });
      const b = startInstance({ ...env, QUOTA_RACE_PREFIX: "b" });
      try {
        await Promise.all([a.ready, b.ready]);
        a.go();
        b.go();
        const [ra, rb] = await Promise.all([a.result, b.result]);
        const codes = [...ra.codes, ...rb.codes];
        expect(codes.filter((c) => c === "OK")).toHaveLength(1);
        expect(codes.filter((c) => c === "CONFLICT")).toHaveLength(19);
      } finally {
        a.kill();
        b.kill();
      }
      const after = await quotasOf(user);
      expect(subQuotaSum(after)).toBe(900);
      const events = (await listAudit({ action: "quota.alter", limit: 1000 })).events.filter((e) =>
        e.target.startsWith(`user=${user}, `),
      );
      expect(events.filter((e) => e.outcome === "success")).toHaveLength(2);
    },
  );
});

describe("quotaLockPlan", () => {
  const C = "cluster-1";
  it("a user's total or sub-quota: the cluster's budget lock shared, then the user's exclusive", () => {
    for (const entity of [
      { user: "alice" },
      { user: "alice", "client-id": "api" },
      { user: "alice", "client-id": null },
    ]) {
      expect(quotaLockPlan(C, entity)).toEqual([
        { key: JSON.stringify(["quota-budget", C]), mode: "shared" },
        { key: JSON.stringify(["quota-budget", C, "alice"]), mode: "exclusive" },
      ]);
    }
  });

  it("the <default> user's total (the total of every user without one): the cluster's budget lock, exclusive", () => {
    expect(quotaLockPlan(C, { user: null })).toEqual([{ key: JSON.stringify(["quota-budget", C]), mode: "exclusive" }]);
  });

  it("<default> sub-quotas lock the <default> user, distinct from a user literally named <default>", () => {
    const defaultUser = quotaLockPlan(C, { user: null, "client-id": "api" });
    const named = quotaLockPlan(C, { user: "<default>", "client-id": "api" });
    expect(defaultUser[1]).toEqual({ key: JSON.stringify(["quota-budget", C, null]), mode: "exclusive" });
    expect(named[1]?.key).not.toBe(defaultUser[1]?.key);
  });

  it("entities outside every budget (client-id only, ip) take no lock; other clusters never share a key", () => {
    expect(quotaLockPlan(C, { "client-id": "api" })).toEqual([]);
    expect(quotaLockPlan(C, { ip: "10.0.0.1" })).toEqual([]);
    expect(quotaLockPlan("cluster-2", { user: "alice" })[1]?.key).not.toBe(quotaLockPlan(C, { user: "alice" })[1]?.key);
  });
});
