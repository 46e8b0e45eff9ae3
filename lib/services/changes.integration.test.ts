/**
 * One change protocol (issue: every ACL and quota change through a sealed plan), against
 * the real broker and PostgreSQL: the API's one-call form of acl.create, acl.delete and
 * quota.alter makes a plan and applies exactly it, answers its id, and every audit row it
 * writes names that plan; a refused plan changes nothing; dryRun only makes the plan.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

const { useMigratedTestDatabase } = await import("@/test/db");
const { listAudit } = await import("@/lib/db/audit");
const kafka = await import("@/lib/kafka");
const writes = await import("@/lib/kafka/writes");
const { ADMIN } = await import("@/test/kafka/fixtures");
const { runChange } = await import("./changes");

const MARK = `it-change-${randomBytes(4).toString("hex")}`;
const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const quotaUser = `${MARK}-q`;

const binding = (suffix: string) =>
  ({
    resourceType: "TOPIC",
    resourceName: `${MARK}-${suffix}`,
    patternType: "LITERAL",
    principal: `User:${MARK}`,
    host: "*",
    operation: "READ",
    permissionType: "ALLOW",
  }) as const;

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;

async function aclsOfThisRun() {
  const all = await kafka.describeAcls(ADMIN, {
    resourceType: "ANY",
    resourceName: null,
    patternType: "ANY",
    principal: `User:${MARK}`,
    host: null,
    operation: "ANY",
    permissionType: "ANY",
  });
  return all.filter((a) => a.resourceName.startsWith(MARK));
}

/** The audit rows of `action` this run wrote, newest first. */
async function auditRows(action: string) {
  const { events } = await listAudit({ action, limit: 1000 });
  return events.filter((e) => e.target.includes(MARK));
}

beforeAll(async () => {
  db = await useMigratedTestDatabase("changes_protocol");
});

afterAll(async () => {
  const left = await aclsOfThisRun();
  if (left.length > 0)
    await writes.deleteAcls(
      ADMIN,
      left.map((b) => ({ ...b })),
    );
  await writes
    .alterClientQuotas(ADMIN, [{ entity: { user: quotaUser }, ops: [{ key: "producer_byte_rate", value: null }] }])
    .catch(() => undefined);
  await kafka.closeAllConnections();
  await db.teardown();
});

describe("the API's ACL and quota changes go through sealed plans", () => {
  it(
    "acl.create without dryRun makes a plan, applies it, and names it in the answer and in every " + "audit row",
    async () => {
      const result = await runChange("acl.create", {
        viewer: admin,
        input: { bindings: [binding("a"), binding("b")], dryRun: false },
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const data = result.ok ? (result.data as { plan: { id: string; status: string }; outcome: string }) : null;
      expect(data).toMatchObject({ outcome: "success", plan: { status: "APPLIED" } });
      expect((await aclsOfThisRun()).map((a) => a.resourceName).sort()).toEqual([`${MARK}-a`, `${MARK}-b`]);
      const rows = await auditRows("acl.create");
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.planId).toBe(data!.plan.id);
    },
  );

  it("creating what Kafka already holds is a success that changes nothing, and names its plan", async () => {
    const before = (await auditRows("acl.create")).length;
    const again = await runChange("acl.create", { viewer: admin, input: { bindings: [binding("a")], dryRun: false } });
    expect(again).toMatchObject({ ok: true, data: { outcome: "success", results: [], plan: { status: "OPEN" } } });
    expect(again.ok && (again.data as { message: string }).message).toMatch(/^Nothing to change/);
    expect((await auditRows("acl.create")).length).toBe(before);
  });

  it("dryRun only makes the plan: nothing reaches Kafka", async () => {
    const preview = await runChange("acl.delete", { viewer: admin, input: { bindings: [binding("a")], dryRun: true } });
    expect(preview).toMatchObject({ ok: true, data: { kind: "acl.delete", status: "OPEN" } });
    expect(await aclsOfThisRun()).toHaveLength(2);
    const viaQuery = await runChange("acl.delete", {
      viewer: admin,
      input: { bindings: [binding("a")], dryRun: false },
      query: { preview: "1" },
    });
    expect(viaQuery).toMatchObject({ ok: true, data: { kind: "acl.delete", status: "OPEN" } });
    expect(await aclsOfThisRun()).toHaveLength(2);
  });

  it("acl.delete without dryRun deletes through its own plan, named in the audit", async () => {
    const result = await runChange("acl.delete", {
      viewer: admin,
      input: { bindings: [binding("a"), binding("b")], dryRun: false },
    });
    expect(result).toMatchObject({ ok: true, data: { outcome: "success", plan: { status: "APPLIED" } } });
    const planId = result.ok ? (result.data as { plan: { id: string } }).plan.id : "";
    expect(await aclsOfThisRun()).toEqual([]);
    const rows = await auditRows("acl.delete");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.planId === planId)).toBe(true);
  });

  it("a binding Kafka would refuse is a 400 naming the plan, and nothing is sent", async () => {
    const before = (await auditRows("acl.create")).length;
    const bad = { ...binding("bad"), resourceType: "CLUSTER", resourceName: `${MARK}-not-kafka-cluster` } as const;
    const result = await runChange("acl.create", { viewer: admin, input: { bindings: [bad], dryRun: false } });
    expect(result).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(!result.ok && result.message).toMatch(/Nothing was changed \(plan [0-9a-f-]{36}\)/);
    expect((await auditRows("acl.create")).length).toBe(before);
  });

  it("quota.alter without dryRun applies a quota.alter plan and its audit row names it", async () => {
    const input = { entity: { user: quotaUser }, key: "producer_byte_rate" as const, value: 2048, dryRun: false };
    const result = await runChange("quota.alter", { viewer: admin, input });
    expect(result).toMatchObject({
      ok: true,
      data: { applied: true, plan: { kind: "quota.alter", status: "APPLIED" } },
    });
    const planId = result.ok ? (result.data as { plan: { id: string } }).plan.id : "";
    const quotas = await kafka.describeClientQuotas(ADMIN, {
      components: [{ entityType: "user", matchType: "EXACT", match: quotaUser }],
    });
    expect(quotas[0]?.values.producer_byte_rate).toBe(2048);
    const rows = await auditRows("quota.alter");
    expect(rows[0]?.planId).toBe(planId);
  });
});
