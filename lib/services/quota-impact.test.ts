/**
 * A quota plan's impact (every affected (user, client-id) pair, before and after) and the
 * basis it is sealed on: what changes the basis (anything the preview depends on) and what
 * does not (other users' and other keys' quotas).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyQuotaChange, type ConfiguredQuota, type QuotaEntity } from "@/lib/policy";
import { knownPairs, quotaBasis, quotaImpact, type QuotaPlanPayload } from "./quota-impact";
import { toConfigured, type QuotaEntry } from "./quota-view";

/** The demo quotas (scripts/seed/demo-data.ts). */
const DEMO: QuotaEntry[] = [
  { entity: { user: "svc-orders" }, values: { producer_byte_rate: 1_048_576, consumer_byte_rate: 2_097_152 } },
  { entity: { user: "svc-orders", "client-id": "orders-api" }, values: { producer_byte_rate: 524_288 } },
  { entity: { user: "svc-orders", "client-id": "orders-batch" }, values: { producer_byte_rate: 262_144 } },
  { entity: { user: "svc-billing" }, values: { producer_byte_rate: 524_288, request_percentage: 50 } },
  { entity: { user: "svc-billing", "client-id": "billing-export" }, values: { producer_byte_rate: 1_048_576 } },
  { entity: { user: null }, values: { producer_byte_rate: 2_097_152 } },
  { entity: { "client-id": null }, values: { consumer_byte_rate: 4_194_304 } },
  { entity: { ip: "203.0.113.10" }, values: { connection_creation_rate: 20 } },
];
const demo: ConfiguredQuota[] = toConfigured(DEMO);

const pairName = (p: { userLabel: string; clientLabel: string }) => `${p.userLabel}/${p.clientLabel}`;

describe("quotaImpact", () => {
  it(
    "the issue's edit: consumer_byte_rate 100000 on svc-orders/orders-batch changes that pair, and the " +
      "budget of every svc-orders pair",
    () => {
      const impact = quotaImpact(demo, {
        entity: { user: "svc-orders", "client-id": "orders-batch" },
        key: "consumer_byte_rate",
        value: 100_000,
      });
      const first = impact.pairs[0]!;
      expect(pairName(first)).toBe("svc-orders/orders-batch");
      expect(first).toMatchObject({
        changed: true,
        before: { value: 2_097_152, level: 3, entityLabel: "user=svc-orders" },
        after: { value: 100_000, level: 1, entityLabel: "user=svc-orders, client-id=orders-batch" },
        budgetBefore: { user: "svc-orders", total: 2_097_152, sum: 0 },
        budgetAfter: { user: "svc-orders", total: 2_097_152, sum: 100_000, remaining: 1_997_152 },
      });
      expect(impact.counts).toEqual({ affected: 4, changed: 1, budgetChanged: 4 });
      expect(impact.pairs.slice(1).map(pairName)).toEqual([
        "svc-orders/billing-export",
        "svc-orders/orders-api",
        "svc-orders/another client id",
      ]);
      expect(impact.pairs.slice(1).every((p) => !p.changed && p.budgetChanged)).toBe(true);
    },
  );

  it(
    "a <default> user total reaches every pair: changed for users without their own total, shielded for " +
      "the others",
    () => {
      const impact = quotaImpact(demo, { entity: { user: null }, key: "producer_byte_rate", value: 3_145_728 });
      const byName = new Map(impact.pairs.map((p) => [pairName(p), p]));
      expect(byName.get("another user/another client id")).toMatchObject({
        changed: true,
        before: { value: 2_097_152, level: 6 },
        after: { value: 3_145_728, level: 6 },
        budgetBefore: { user: null, total: 2_097_152 },
        budgetAfter: { user: null, total: 3_145_728 },
      });
      expect(byName.get("another user/orders-api")).toMatchObject({ changed: true });
      // svc-orders has its own total and sub-quotas: reached (level 6 is a candidate) but unchanged.
      expect(byName.get("svc-orders/another client id")).toMatchObject({
        changed: false,
        budgetChanged: false,
        before: { level: 3 },
      });
      expect(byName.get("svc-orders/orders-api")).toMatchObject({ changed: false, before: { level: 1 } });
      // Changed rows first.
      const firstUnchanged = impact.pairs.findIndex((p) => !p.changed);
      expect(impact.pairs.slice(firstUnchanged).every((p) => !p.changed)).toBe(true);
      expect(impact.counts.affected).toBe(
        knownPairs(demo, { entity: { user: null }, key: "producer_byte_rate", value: 1 }).pairs.length,
      );
    },
  );

  it("removing a sub-quota: the pair falls back to the user's shared quota", () => {
    const impact = quotaImpact(demo, {
      entity: { user: "svc-orders", "client-id": "orders-api" },
      key: "producer_byte_rate",
      value: null,
    });
    expect(impact.pairs[0]).toMatchObject({
      userLabel: "svc-orders",
      clientLabel: "orders-api",
      before: { value: 524_288, level: 1 },
      after: { value: 1_048_576, level: 3 },
      budgetBefore: { sum: 786_432 },
      budgetAfter: { sum: 262_144 },
    });
  });

  it("an IP quota: the named IPs and another IP it reaches", () => {
    expect(quotaImpact(demo, { entity: { ip: null }, key: "connection_creation_rate", value: 5 }).ips).toEqual([
      expect.objectContaining({ label: "203.0.113.10", changed: false }),
      expect.objectContaining({
        label: "another IP",
        changed: true,
        after: expect.objectContaining({ value: 5, levelLabel: "<default ip>" }),
      }),
    ]);
    expect(
      quotaImpact(demo, { entity: { ip: "203.0.113.10" }, key: "connection_creation_rate", value: 5 }).ips,
    ).toEqual([
      expect.objectContaining({ label: "203.0.113.10", changed: true, before: expect.objectContaining({ value: 20 }) }),
    ]);
  });

  it("lists only configured sub-quota pairs (and says so) past PAIR_LIMIT named pairs", () => {
    const many: ConfiguredQuota[] = [];
    for (let i = 0; i < 60; i++)
      many.push(
        { entity: { user: `u${i}` }, key: "producer_byte_rate", value: 1000 },
        { entity: { "client-id": `c${i}` }, key: "producer_byte_rate", value: 1000 },
      );
    many.push({ entity: { user: "u1", "client-id": "c1" }, key: "producer_byte_rate", value: 10 });
    const universe = knownPairs(many, { entity: { user: "u1" }, key: "producer_byte_rate", value: 1 });
    expect(universe.truncated).toBe(true);
    expect(universe.pairs.filter((p) => !p.user.startsWith("\u0000") && !p.clientId.startsWith("\u0000"))).toEqual([
      { user: "u1", clientId: "c1" },
    ]);
  });
});

describe("quotaBasis", () => {
  const plan: QuotaPlanPayload = {
    entity: { user: "svc-orders", "client-id": "orders-batch" },
    key: "consumer_byte_rate",
    value: 100_000,
  };
  const basis = quotaBasis(demo, plan);
  const edited = (...change: { entity: QuotaEntity; key: ConfiguredQuota["key"]; value: number | null }[]) =>
    quotaBasis(applyQuotaChange(demo, change), plan);

  it("is the same for the same quotas, in any order", () => {
    expect(quotaBasis([...demo].reverse(), plan)).toBe(basis);
    expect(basis).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes with anything the preview depends on", () => {
    expect(edited({ entity: { user: "svc-orders" }, key: "consumer_byte_rate", value: 1 })).not.toBe(basis);
    expect(
      edited({ entity: { user: "svc-orders", "client-id": "orders-batch" }, key: "consumer_byte_rate", value: 5 }),
    ).not.toBe(basis);
    expect(
      edited({ entity: { user: "svc-orders", "client-id": "orders-api" }, key: "consumer_byte_rate", value: 5 }),
    ).not.toBe(basis);
    expect(edited({ entity: { user: null }, key: "consumer_byte_rate", value: 5 })).not.toBe(basis);
    expect(edited({ entity: { "client-id": "orders-batch" }, key: "consumer_byte_rate", value: 5 })).not.toBe(basis);
    expect(edited({ entity: { "client-id": null }, key: "consumer_byte_rate", value: null })).not.toBe(basis);
  });

  it("does not change with other users' quotas or other keys", () => {
    expect(edited({ entity: { user: "svc-billing" }, key: "consumer_byte_rate", value: 5 })).toBe(basis);
    expect(
      edited({ entity: { user: "svc-billing", "client-id": "billing-export" }, key: "consumer_byte_rate", value: 5 }),
    ).toBe(basis);
    expect(edited({ entity: { user: "svc-orders" }, key: "producer_byte_rate", value: 5 })).toBe(basis);
    expect(edited({ entity: { ip: null }, key: "connection_creation_rate", value: 5 })).toBe(basis);
  });

  it("property: whenever an outside edit changes what the preview shows, it changes the basis", () => {
    const users = fc.constantFrom<string | null | undefined>("a", "b", null, undefined);
    const clients = fc.constantFrom<string | null | undefined>("x", "y", null, undefined);
    const entity = fc
      .tuple(users, clients)
      .filter(([u, c]) => u !== undefined || c !== undefined)
      .map(([u, c]): QuotaEntity => ({
        ...(u !== undefined ? { user: u } : {}),
        ...(c !== undefined ? { "client-id": c } : {}),
      }));
    const key = fc.constantFrom<"producer_byte_rate" | "consumer_byte_rate">(
      "producer_byte_rate",
      "consumer_byte_rate",
    );
    const change = fc.record({ entity, key, value: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }) });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 10 }), change, change, (setup, planned, outside) => {
        const before = applyQuotaChange(
          [],
          setup.filter((c) => c.value !== null),
        );
        const after = applyQuotaChange(before, [outside]);
        const shown = JSON.stringify(quotaImpact(before, planned));
        const shownAfter = JSON.stringify(quotaImpact(after, planned));
        if (shown !== shownAfter) expect(quotaBasis(after, planned)).not.toBe(quotaBasis(before, planned));
      }),
      { numRuns: 3000 },
    );
  });
});
