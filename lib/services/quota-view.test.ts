import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { ConfiguredQuota, QuotaEntity } from "@/lib/policy";
import {
  appliedView,
  budgetUsers,
  buildOverview,
  editFormInitial,
  editLinkParams,
  entityGroup,
  formatBytes,
  formatQuotaValue,
  previewAlteration,
  representativeConnection,
  toConfigured,
  userBudgetView,
  type QuotaEntry,
} from "./quota-view";

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
const configured: ConfiguredQuota[] = toConfigured(DEMO);

describe("formatBytes / formatQuotaValue", () => {
  it("writes byte rates in binary units", () => {
    expect(formatBytes(1_048_576)).toBe("1 MiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(1000)).toBe("1000 B");
    expect(formatQuotaValue("producer_byte_rate", 524_288)).toBe("512 KiB/s");
    expect(formatQuotaValue("consumer_byte_rate", null)).toBe("unlimited");
  });
  it("writes the other keys in their own units", () => {
    expect(formatQuotaValue("request_percentage", 50)).toBe("50% of a thread");
    expect(formatQuotaValue("connection_creation_rate", 20)).toBe("20 connections/s");
    expect(formatQuotaValue("controller_mutation_rate", 2.5)).toBe("2.5 partition mutations/s");
  });
});

describe("entityGroup", () => {
  it("puts ip entities under ip and any other <default> under defaults", () => {
    expect(entityGroup({ user: "a" })).toBe("user");
    expect(entityGroup({ user: "a", "client-id": "c" })).toBe("user+client-id");
    expect(entityGroup({ "client-id": "c" })).toBe("client-id");
    expect(entityGroup({ user: null })).toBe("defaults");
    expect(entityGroup({ user: "a", "client-id": null })).toBe("defaults");
    expect(entityGroup({ ip: null })).toBe("ip");
  });
});

describe("buildOverview", () => {
  const o = buildOverview(DEMO);
  it("groups every entity and shows <default> verbatim", () => {
    const byGroup = Object.fromEntries(o.groups.map((g) => [g.group, g.entities.map((e) => e.label)]));
    expect(byGroup.user).toEqual(["user=svc-billing", "user=svc-orders"]);
    expect(byGroup["user+client-id"]).toEqual([
      "user=svc-billing, client-id=billing-export",
      "user=svc-orders, client-id=orders-api",
      "user=svc-orders, client-id=orders-batch",
    ]);
    expect(byGroup.defaults).toEqual(["client-id=<default>", "user=<default>"]);
    expect(byGroup.ip).toEqual(["ip=203.0.113.10"]);
  });
  it("reports svc-billing's sub-quota past its total as a finding, naming the clients", () => {
    expect(o.findings.violations).toHaveLength(1);
    const v = o.findings.violations[0]!;
    expect(v).toMatchObject({
      user: "svc-billing",
      key: "producer_byte_rate",
      total: 524_288,
      sum: 1_048_576,
      clients: ["billing-export"],
    });
    expect(v.message).toContain("sum to 1 MiB/s");
    expect(o.findings.rule).toBe("console rule (KIP-55), Kafka does not enforce this");
  });
  it("budgets the users with sub-quotas and <default>", () => {
    expect(budgetUsers(configured)).toEqual(["svc-billing", "svc-orders", null]);
    expect(o.budgets.map((b) => b.label)).toEqual(["svc-billing", "svc-orders", "<default>"]);
  });
});

describe("userBudgetView", () => {
  it("svc-orders: 1 MiB/s total, 768 KiB/s in sub-quotas, 256 KiB/s left", () => {
    const line = userBudgetView(configured, "svc-orders").lines.find((l) => l.key === "producer_byte_rate")!;
    expect(line).toMatchObject({
      total: 1_048_576,
      totalSource: "user",
      sum: 786_432,
      remaining: 262_144,
      overBudget: false,
      usedPercent: 75,
    });
    expect(line.remainingDisplay).toBe("256 KiB/s");
  });
  it("a user without its own quota takes the <default> user's total", () => {
    const view = userBudgetView(configured, "alice");
    expect(view.lines.map((l) => [l.key, l.total, l.totalSource])).toEqual([
      ["producer_byte_rate", 2_097_152, "default"],
    ]);
  });
  it("says how far over budget a user is", () => {
    const line = userBudgetView(configured, "svc-billing").lines.find((l) => l.key === "producer_byte_rate")!;
    expect(line.overBudget).toBe(true);
    expect(line.remainingDisplay).toBe("none (512 KiB/s over)");
  });
  it("does not count a {user:U, client-id:<default>} sub-quota", () => {
    const line = userBudgetView(
      [
        ...configured,
        { entity: { user: "svc-orders", "client-id": null }, key: "producer_byte_rate", value: 9_999_999 },
      ],
      "svc-orders",
    ).lines[0]!;
    expect(line.sum).toBe(786_432);
    expect(line.defaultClientQuota).toBe(9_999_999);
  });
});

describe("appliedView", () => {
  const key = (v: ReturnType<typeof appliedView>, k: string) => v.keys.find((x) => x.key === k)!;
  it("(svc-orders, orders-api): its own sub-quota, level 1, a private bucket", () => {
    const v = appliedView(configured, { kind: "client", user: "svc-orders", clientId: "orders-api" });
    expect(key(v, "producer_byte_rate")).toMatchObject({
      value: 524_288,
      level: 1,
      entityLabel: "user=svc-orders, client-id=orders-api",
    });
    expect(key(v, "producer_byte_rate").sharedWith).toContain("no other client shares it");
    expect(key(v, "consumer_byte_rate")).toMatchObject({ value: 2_097_152, level: 3, entityLabel: "user=svc-orders" });
  });
  it("(svc-orders, another client): the user's quota, shared by its clients without sub-quota", () => {
    const v = appliedView(configured, { kind: "client", user: "svc-orders", clientId: "some-other-client" });
    expect(key(v, "producer_byte_rate")).toMatchObject({
      value: 1_048_576,
      level: 3,
      bucket: { user: "svc-orders", "client-id": "" },
    });
  });
  it("(alice, x): the <default> user (level 6) beats the <default> client id (level 8) for producing", () => {
    const v = appliedView(configured, { kind: "client", user: "alice", clientId: "x" });
    expect(key(v, "producer_byte_rate")).toMatchObject({ value: 2_097_152, level: 6, entityLabel: "user=<default>" });
    expect(key(v, "consumer_byte_rate")).toMatchObject({
      value: 4_194_304,
      level: 8,
      entityLabel: "client-id=<default>",
    });
    expect(key(v, "request_percentage")).toMatchObject({ value: null, level: null, display: "unlimited" });
    expect(v.budget?.label).toBe("alice");
  });
  it("ip: the per-IP override, else unlimited", () => {
    expect(appliedView(configured, { kind: "ip", ip: "203.0.113.10" }).keys[0]).toMatchObject({
      value: 20,
      entityLabel: "ip=203.0.113.10",
    });
    expect(appliedView(configured, { kind: "ip", ip: "10.0.0.1" }).keys[0]).toMatchObject({ value: null });
  });
});

describe("previewAlteration", () => {
  it("a sub-quota within the user's budget is allowed, and applies to that client afterwards", () => {
    const p = previewAlteration(configured, {
      entity: { user: "svc-orders", "client-id": "orders-new" },
      key: "producer_byte_rate",
      value: 131_072,
    });
    expect(p.allowed).toBe(true);
    expect(p.before[0]).toMatchObject({ value: 1_048_576, level: 3 });
    expect(p.after[0]).toMatchObject({ value: 131_072, level: 1 });
  });
  it("a sub-quota past the user's total is the console's KIP-55 rejection, which says Kafka would accept it", () => {
    const p = previewAlteration(configured, {
      entity: { user: "svc-orders", "client-id": "orders-new" },
      key: "producer_byte_rate",
      value: 524_288,
    });
    expect(p.kafka.ok).toBe(true);
    expect(p.allowed).toBe(false);
    expect(p.budget.violations[0]).toMatchObject({
      user: "svc-orders",
      total: 1_048_576,
      sum: 1_310_720,
      clients: ["orders-api", "orders-batch", "orders-new"],
    });
    expect(p.summary).toContain("Kafka itself would accept this change");
  });
  it("lowering svc-billing's over-budget sub-quota is a repair", () => {
    const p = previewAlteration(configured, {
      entity: { user: "svc-billing", "client-id": "billing-export" },
      key: "producer_byte_rate",
      value: 786_432,
    });
    expect(p.allowed).toBe(true);
    expect(p.budget.repairs).toHaveLength(1);
    expect(p.summary).toContain("repair");
  });
  it("Kafka's own validation comes first, with Kafka's message", () => {
    expect(previewAlteration(configured, { entity: { user: "x" }, key: "producer_byte_rate", value: 0 }).summary).toBe(
      "Kafka would refuse this: Quota producer_byte_rate must be greater than 0",
    );
    expect(
      previewAlteration(configured, { entity: { user: "x" }, key: "producer_byte_rate", value: 1.5 }).kafka.message,
    ).toBe("producer_byte_rate cannot be a fractional value.");
    expect(
      previewAlteration(configured, { entity: { user: "x" }, key: "connection_creation_rate", value: 5 }).kafka.ok,
    ).toBe(false);
  });
  it("removing a key reports the value it had", () => {
    const p = previewAlteration(configured, {
      entity: { ip: "203.0.113.10" },
      key: "connection_creation_rate",
      value: null,
    });
    expect(p).toMatchObject({ current: 20, allowed: true });
    expect(p.after[0]).toMatchObject({ value: null });
  });
});

describe("representativeConnection", () => {
  it("names the connection an entity's quota governs", () => {
    expect(representativeConnection({ user: "u", "client-id": "c" }).query).toEqual({
      kind: "client",
      user: "u",
      clientId: "c",
    });
    expect(representativeConnection({ user: null }).label).toBe(
      "a user without its own quota, a client id without a more specific quota",
    );
    expect(representativeConnection({ ip: null }).query.kind).toBe("ip");
  });
});

describe("editLinkParams / editFormInitial", () => {
  it("opens the edit form filled in for a configured key, <default> names as ticks", () => {
    const params = Object.fromEntries(editLinkParams({ user: null, "client-id": "c" }, "consumer_byte_rate", 5000));
    expect(params).toEqual({
      edit_kind: "user+client-id",
      edit_key: "consumer_byte_rate",
      edit_value: "5000",
      edit_userDefault: "on",
      edit_clientId: "c",
    });
    expect(editFormInitial({ ...params, user: "alice" })).toEqual({
      kind: "user+client-id",
      key: "consumer_byte_rate",
      value: "5000",
      userDefault: "on",
      clientId: "c",
    });
    expect(Object.fromEntries(editLinkParams({ ip: "203.0.113.10" }, "connection_creation_rate", 20))).toMatchObject({
      edit_kind: "ip",
      edit_ip: "203.0.113.10",
    });
  });
});

describe("quota views — properties", () => {
  const users = ["u1", "u2", null] as const;
  const clients = ["c1", "c2", null] as const;
  const entityArb = fc.oneof(
    fc.constantFrom(...users).map((u): QuotaEntity => ({ user: u })),
    fc
      .tuple(fc.constantFrom(...users), fc.constantFrom(...clients))
      .map(([u, c]): QuotaEntity => ({ user: u, "client-id": c })),
    fc.constantFrom(...clients).map((c): QuotaEntity => ({ "client-id": c })),
  );
  /** Distinct entities, each with some byte-rate values: the shape DescribeClientQuotas answers with. */
  const entriesArb = fc
    .uniqueArray(entityArb, { selector: (e) => JSON.stringify([e.user, e["client-id"]]), maxLength: 10 })
    .chain((entities) =>
      fc.tuple(
        ...entities.map((entity) =>
          fc
            .record({
              producer_byte_rate: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
              consumer_byte_rate: fc.integer({ min: 1, max: 5000 }),
            })
            .map((values): QuotaEntry => ({
              entity,
              values: Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)),
            })),
        ),
      ),
    );

  it("every configured (entity, key) is listed exactly once, in the group its entity belongs to", () => {
    fc.assert(
      fc.property(entriesArb, (entries) => {
        const o = buildOverview(entries);
        const listed = o.groups.flatMap((g) => g.entities.flatMap((e) => e.values.map(() => g.group)));
        expect(listed).toHaveLength(toConfigured(entries).length);
        for (const g of o.groups) for (const e of g.entities) expect(entityGroup(e.entity)).toBe(g.group);
      }),
      { numRuns: 500 },
    );
  });

  it(
    "a budget line's left-over is total - sum, it is over budget exactly when sum > total, and the " +
      "overview finds exactly those",
    () => {
      fc.assert(
        fc.property(entriesArb, (entries) => {
          const configured = toConfigured(entries);
          const o = buildOverview(entries);
          const over = new Set<string>();
          for (const b of o.budgets) {
            for (const l of b.lines) {
              expect(l.sum).toBe(l.clients.reduce((s, c) => s + c.value, 0));
              if (l.total === null) expect(l.remaining).toBeNull();
              else expect(l.remaining).toBe(l.total - l.sum);
              expect(l.overBudget).toBe(l.total !== null && l.sum > l.total);
              if (l.overBudget) over.add(JSON.stringify([b.user, l.key]));
            }
          }
          expect(new Set(o.findings.violations.map((v) => JSON.stringify([v.user, v.key])))).toEqual(over);
          expect(budgetUsers(configured).length).toBe(o.budgets.length);
        }),
        { numRuns: 500 },
      );
    },
  );

  // `{user:U, client-id:<default>}` is not counted, so changing it touches no budget (and is never refused for one).
  it(
    "a change to a user's total or a sub-quota that the preview allows never leaves that user over budget, " +
      "unless it repairs",
    () => {
      fc.assert(
        fc.property(
          entriesArb,
          entityArb,
          fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
          (entries, entity, value) => {
            const configured = toConfigured(entries);
            const p = previewAlteration(configured, { entity, key: "producer_byte_rate", value });
            if (!p.allowed || entity.user === undefined || entity["client-id"] === null) return;
            const after = configured.filter(
              (q) => !(q.key === "producer_byte_rate" && JSON.stringify(q.entity) === JSON.stringify(entity)),
            );
            if (value !== null) after.push({ entity, key: "producer_byte_rate", value });
            const line = (c: ConfiguredQuota[]) =>
              userBudgetView(c, entity.user ?? null).lines.find((l) => l.key === "producer_byte_rate");
            const was = line(configured);
            const now = line(after);
            if (now?.overBudget) {
              const excess = (l: typeof now) => (l.total === null ? 0 : l.sum - l.total);
              expect(was?.overBudget).toBe(true);
              expect(excess(now)).toBeLessThan(excess(was!));
            }
          },
        ),
        { numRuns: 500 },
      );
    },
  );
});
