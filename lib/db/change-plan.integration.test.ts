import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimForApply, finishPlan, getPlan, purgeExpiredPlans, savePlan } from "./change-plan";
import { useMigratedTestDatabase } from "@/test/db";

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
beforeAll(async () => {
  db = await useMigratedTestDatabase("change_plan");
});
afterAll(async () => {
  await db.teardown();
});

const now = new Date("2026-12-01T06:00:00.000Z");
const make = (over: Partial<Parameters<typeof savePlan>[0]> = {}) =>
  savePlan({
    principal: "User:admin",
    kind: "acl.create",
    payload: { create: [{ resourceName: "orders" }] },
    preview: { decisions: 3 },
    basis: "b1",
    ttlMs: 60_000,
    now,
    ...over,
  });

describe("change plans", () => {
  it("keeps exactly the payload and preview it was given", async () => {
    const p = await make();
    const read = await getPlan(p.id);
    expect(read).toMatchObject({
      principal: "User:admin",
      kind: "acl.create",
      payload: { create: [{ resourceName: "orders" }] },
      preview: { decisions: 3 },
      basis: "b1",
      status: "OPEN",
    });
    expect(read!.expiresAt.getTime()).toBe(now.getTime() + 60_000);
  });

  it("lets exactly one of ten parallel applies claim a plan", async () => {
    const p = await make();
    const results = await Promise.all(Array.from({ length: 10 }, () => claimForApply(p.id, "User:admin", now)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual(Array(9).fill("IN_PROGRESS"));
    await finishPlan(p.id, "APPLIED", now);
    expect(await claimForApply(p.id, "User:admin", now)).toEqual({ ok: false, reason: "ALREADY_APPLIED" });
  });

  it("refuses someone else's plan, an expired plan and an unknown id", async () => {
    const p = await make();
    expect(await claimForApply(p.id, "User:alice", now)).toEqual({ ok: false, reason: "NOT_YOURS" });
    expect(await claimForApply(p.id, "User:admin", new Date(now.getTime() + 61_000))).toEqual({
      ok: false,
      reason: "EXPIRED",
    });
    expect(await claimForApply("00000000-0000-0000-0000-000000000000", "User:admin", now)).toEqual({
      ok: false,
      reason: "NOT_FOUND",
    });
    expect(await claimForApply("not-a-uuid'; drop table change_plan; --", "User:admin", now)).toEqual({
      ok: false,
      reason: "NOT_FOUND",
    });
  });

  it("purges plans that expired long ago and were never applied", async () => {
    const old = await make({ now: new Date(now.getTime() - 3 * 86_400_000) });
    const applied = await make({ now: new Date(now.getTime() - 3 * 86_400_000) });
    await claimForApply(applied.id, "User:admin", new Date(now.getTime() - 3 * 86_400_000));
    await finishPlan(applied.id, "APPLIED");
    expect(await purgeExpiredPlans(now)).toBeGreaterThanOrEqual(1);
    expect(await getPlan(old.id)).toBeNull();
    expect(await getPlan(applied.id)).not.toBeNull();
  });
});
