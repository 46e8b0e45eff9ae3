import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { ConfiguredQuota, QuotaEntity } from "../types";
import { applyQuotaChange, budgetFindings, checkBudgetChange, userBudget, type QuotaChange } from "./budget";

const P = "producer_byte_rate" as const;
const q = (entity: QuotaEntity, value: number, key: ConfiguredQuota["key"] = P): ConfiguredQuota => ({
  entity,
  key,
  value,
});
const ch = (entity: QuotaEntity, value: number | null, key: QuotaChange["key"] = P): QuotaChange => ({
  entity,
  key,
  value,
});

describe("checkBudgetChange — the KIP-55 console rule", () => {
  const alice: ConfiguredQuota[] = [q({ user: "alice" }, 1000), q({ user: "alice", "client-id": "a" }, 600)];

  it("accepts a sub-quota that fits the remaining budget", () => {
    expect(checkBudgetChange(alice, [ch({ user: "alice", "client-id": "b" }, 400)])).toMatchObject({
      ok: true,
      violations: [],
    });
  });

  it("rejects a sub-quota that makes the sum exceed the user's total, naming user, key, total, sum and clients", () => {
    expect(checkBudgetChange(alice, [ch({ user: "alice", "client-id": "b" }, 401)])).toMatchObject({
      ok: false,
      violations: [{ user: "alice", key: P, total: 1000, sum: 1001, clients: ["a", "b"] }],
    });
  });

  it("rejects lowering the user total below the sum of its sub-quotas", () => {
    expect(checkBudgetChange(alice, [ch({ user: "alice" }, 500)])).toMatchObject({
      ok: false,
      violations: [{ user: "alice", total: 500, sum: 600 }],
    });
  });

  it("a named user without a total falls back to the <default> user's total", () => {
    const cfg = [q({ user: null }, 300)];
    expect(checkBudgetChange(cfg, [ch({ user: "bob", "client-id": "x" }, 301)])).toMatchObject({
      ok: false,
      violations: [{ user: "bob", total: 300, sum: 301 }],
    });
    expect(checkBudgetChange(cfg, [ch({ user: "bob", "client-id": "x" }, 300)]).ok).toBe(true);
  });

  it("lowering the <default> user total checks every named user that falls back to it", () => {
    const cfg = [
      q({ user: null }, 1000),
      q({ user: "bob", "client-id": "x" }, 800),
      q({ user: "carol" }, 900),
      q({ user: "carol", "client-id": "y" }, 850),
    ];
    const r = checkBudgetChange(cfg, [ch({ user: null }, 500)]);
    expect(r.ok).toBe(false);
    expect(r.violations.map((v) => v.user)).toEqual(["bob"]); // carol has her own total
  });

  it("removing a user's own total makes it fall back to <default> and is checked", () => {
    const cfg = [q({ user: null }, 100), q({ user: "bob" }, 1000), q({ user: "bob", "client-id": "x" }, 800)];
    expect(checkBudgetChange(cfg, [ch({ user: "bob" }, null)])).toMatchObject({
      ok: false,
      violations: [{ user: "bob", total: 100, sum: 800 }],
    });
  });

  it("the <default> user's sub-quotas are budgeted against the <default> total", () => {
    const cfg = [q({ user: null }, 100)];
    expect(checkBudgetChange(cfg, [ch({ user: null, "client-id": "x" }, 101)])).toMatchObject({
      ok: false,
      violations: [{ user: null, total: 100, sum: 101 }],
    });
  });

  it("unlimited total: any sum is within budget", () => {
    expect(checkBudgetChange([], [ch({ user: "alice", "client-id": "a" }, 1e12)]).ok).toBe(true);
  });

  it("<user, default client-id> is a warning, not counted in the sum", () => {
    const r = checkBudgetChange(alice, [ch({ user: "alice", "client-id": null }, 5000)]);
    expect(r.ok).toBe(true);
    expect(r.warnings).toMatchObject([{ user: "alice", key: P, defaultClientQuota: 5000 }]);
  });

  it("a repair that reduces the excess is accepted even if still over budget; one that does not is rejected", () => {
    const over = [
      q({ user: "alice" }, 1000),
      q({ user: "alice", "client-id": "a" }, 900),
      q({ user: "alice", "client-id": "b" }, 900),
    ];
    const repair = checkBudgetChange(over, [ch({ user: "alice", "client-id": "a" }, 500)]);
    expect(repair).toMatchObject({ ok: true, violations: [], repairs: [{ user: "alice", sum: 1400, total: 1000 }] });
    // Touches without improving.
    expect(checkBudgetChange(over, [ch({ user: "alice", "client-id": "a" }, 900)]).ok).toBe(false);
    expect(checkBudgetChange(over, [ch({ user: "alice", "client-id": "c" }, 1)]).ok).toBe(false);
  });

  it("an existing violation elsewhere does not block an unrelated change", () => {
    const cfg = [q({ user: "alice" }, 10), q({ user: "alice", "client-id": "a" }, 20), q({ user: "bob" }, 100)];
    expect(checkBudgetChange(cfg, [ch({ user: "bob", "client-id": "b" }, 50)]).ok).toBe(true);
  });

  it("keys are budgeted independently", () => {
    const cfg = [q({ user: "alice" }, 100, "consumer_byte_rate")];
    expect(checkBudgetChange(cfg, [ch({ user: "alice", "client-id": "a" }, 1000, P)]).ok).toBe(true);
    expect(checkBudgetChange(cfg, [ch({ user: "alice", "client-id": "a" }, 101, "consumer_byte_rate")]).ok).toBe(false);
  });

  it("DOUBLE keys: 0.1 + 0.2 fits a total of 0.3", () => {
    const cfg = [
      q({ user: "u" }, 0.3, "request_percentage"),
      q({ user: "u", "client-id": "a" }, 0.1, "request_percentage"),
    ];
    expect(checkBudgetChange(cfg, [ch({ user: "u", "client-id": "b" }, 0.2, "request_percentage")]).ok).toBe(true);
  });
});

describe("budgetFindings and userBudget", () => {
  it("Kafka's own testQuotaConfigPrecedence configuration violates KIP-55 for userA and userB", () => {
    const cfg = [
      q({ user: null }, 1000),
      q({ user: null, "client-id": null }, 3000),
      q({ user: "userA" }, 4000),
      q({ user: "userA", "client-id": "client1" }, 5000),
      q({ user: "userB" }, 6000),
      q({ user: "userB", "client-id": "client1" }, 7000),
      q({ user: "userB", "client-id": null }, 8000),
    ];
    const f = budgetFindings(cfg);
    expect(f.violations).toEqual([
      { user: "userA", key: P, total: 4000, sum: 5000, clients: ["client1"] },
      { user: "userB", key: P, total: 6000, sum: 7000, clients: ["client1"] },
    ]);
    expect(f.warnings.map((w) => w.user)).toEqual([null, "userB"]);
  });

  it("shows total, sum, remaining and clients per key", () => {
    const cfg = [
      q({ user: null }, 1000),
      q({ user: "alice", "client-id": "a" }, 300),
      q({ user: "alice", "client-id": null }, 50),
    ];
    const line = userBudget(cfg, "alice").find((l) => l.key === P)!;
    expect(line).toEqual({
      key: P,
      total: 1000,
      totalSource: "default",
      sum: 300,
      remaining: 700,
      clients: [{ clientId: "a", value: 300 }],
      defaultClientQuota: 50,
      overBudget: false,
    });
    expect(userBudget([], "nobody").find((l) => l.key === P)).toMatchObject({
      total: null,
      remaining: null,
      overBudget: false,
    });
    expect(userBudget(cfg, "zed").find((l) => l.key === P)).toMatchObject({
      total: 1000,
      totalSource: "default",
      sum: 0,
      remaining: 1000,
    });
  });
});

describe("properties", () => {
  const users = [null, "alice", "bob"];
  const clients = ["a", "b", "c"];
  const entityArb = fc.oneof(
    fc.constantFrom(...users).map((u): QuotaEntity => ({ user: u })),
    fc
      .tuple(fc.constantFrom(...users), fc.constantFrom(...clients, null))
      .map(([u, c]): QuotaEntity => ({ user: u, "client-id": c })),
  );
  const quotaArb = fc.record({
    entity: entityArb,
    key: fc.constantFrom(P, "consumer_byte_rate" as const),
    value: fc.integer({ min: 1, max: 1000 }),
  });
  /** A configuration built from changes, deduplicated like Kafka's (one value per entity and key). */
  const cfgArb = fc.array(quotaArb, { maxLength: 12 }).map((qs) => applyQuotaChange([], qs));
  const changeArb = fc.array(
    fc.record({
      entity: entityArb,
      key: fc.constantFrom(P, "consumer_byte_rate" as const),
      value: fc.option(fc.integer({ min: 1, max: 1000 })),
    }),
    {
      minLength: 1,
      maxLength: 3,
    },
  );

  it("a change that leaves the whole configuration within budget is accepted", () => {
    fc.assert(
      fc.property(cfgArb, changeArb, (cfg, change) => {
        if (budgetFindings(applyQuotaChange(cfg, change)).violations.length === 0)
          expect(checkBudgetChange(cfg, change).ok).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it("starting within budget, a change is accepted exactly when the result is within budget", () => {
    fc.assert(
      fc.property(cfgArb, changeArb, (cfg, change) => {
        fc.pre(budgetFindings(cfg).violations.length === 0);
        const after = budgetFindings(applyQuotaChange(cfg, change)).violations;
        const r = checkBudgetChange(cfg, change);
        expect(r.ok).toBe(after.length === 0);
        expect(r.violations).toEqual(after);
      }),
      { numRuns: 1500 },
    );
  });

  it("every reported violation really has sum > total", () => {
    fc.assert(
      fc.property(cfgArb, changeArb, (cfg, change) => {
        for (const v of checkBudgetChange(cfg, change).violations) expect(v.sum).toBeGreaterThan(v.total!);
      }),
    );
  });
});
