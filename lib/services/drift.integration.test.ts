/**
 * Drift (#20) against the dev broker and PostgreSQL: an ACL created with Kafka's Admin client
 * (outside the console) is listed after one journal read with its window; keeping it records the
 * audit row; reverting it plans and applies the delete of exactly that binding, after which it
 * counts as reverted. Who sees it follows the audit trail (alice, who may not describe ACLs, does
 * not). Only this run's names (MARK) are looked at: the broker is shared.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { getPrisma } = await import("@/lib/db/client");
const fx = await import("@/test/services/grant-fixtures");
const { journalTestCluster } = await import("@/test/services/journal-fixture");
const { readClusterForJournal } = await import("./journal");
const { acknowledgeDrift, listDriftFor, revertDrift } = await import("./drift");
const { applyPlan } = await import("./plans");

const MARK = `it-drift-${randomBytes(4).toString("hex")}`;
const topics = fx.topicNames(MARK);

journalTestCluster("drift", MARK);

const entriesOf = async (viewer = fx.admin) => {
  const page = await listDriftFor(viewer, { limit: 200 });
  if (!page.ok) throw new Error(page.message);
  return { page: page.data, entries: page.data.groups.flatMap((g) => g.entries.map((e) => ({ ...e, group: g }))) };
};

describe("drift", () => {
  it("lists an outside ACL with its window, keeps one with an audit row, reverts another exactly", async () => {
    expect(await readClusterForJournal("default")).toMatchObject({ kind: "read", began: true });
    const kept = fx.topicAcl(topics(), "User:bob", "READ");
    const reverted = fx.topicAcl(topics(), "User:bob", "WRITE");
    const neighbour = fx.topicAcl(reverted.resourceName, "User:bob", "DESCRIBE");
    const before = Date.now();
    await fx.addAcls([kept, reverted]);
    const read = await readClusterForJournal("default");
    expect(read).toMatchObject({ kind: "read", outside: expect.any(Number) });

    const { page, entries } = await entriesOf();
    const mine = entries.filter((e) => e.binding?.resourceName.startsWith(MARK));
    expect(mine.map((e) => [e.binding?.operation, e.op, e.origin]).sort()).toEqual([
      ["READ", "appeared", "outside"],
      ["WRITE", "appeared", "outside"],
    ]);
    const first = mine.find((e) => e.binding?.operation === "READ")!;
    // One read found both: one group, its window from the previous read to this one.
    expect(mine[0]!.group).toBe(mine[1]!.group);
    expect(new Date(first.group.from).getTime()).toBeLessThanOrEqual(before);
    expect(new Date(first.group.to).getTime()).toBeGreaterThanOrEqual(before);
    expect(first.group.window).toMatch(/^between \d\d:\d\d:\d\d and \d\d:\d\d:\d\d UTC on \d{4}-\d\d-\d\d$/);
    expect(first).toMatchObject({ principals: ["User:bob"], acknowledged: null, revert: null });
    expect(page.blindSpots.join(" ")).toContain("added and removed again between two reads");
    expect(page.open).toBeGreaterThanOrEqual(2);

    // alice may not describe ACLs: she sees none of them, and may not keep them.
    const alice = fx.demoViewer("alice");
    expect((await entriesOf(alice)).entries.filter((e) => e.binding?.resourceName.startsWith(MARK))).toEqual([]);
    const refused = await acknowledgeDrift(alice, { entryIds: [first.id], comment: "mine" });
    expect(refused).toMatchObject({ ok: false, code: "DENIED" });

    const ack = await acknowledgeDrift(fx.admin, { entryIds: [first.id], comment: "Made by the platform pipeline" });
    expect(ack).toMatchObject({ ok: true, data: { acknowledged: 1, already: 0 } });
    const audit = await getPrisma().auditEvent.findFirstOrThrow({ where: { action: "drift.acknowledge" } });
    expect(audit).toMatchObject({ principal: "User:admin", outcome: "success", category: "acl" });
    expect(audit.request).toMatchObject({ entryIds: [first.id], comment: "Made by the platform pipeline" });
    const again = await acknowledgeDrift(fx.admin, { entryIds: [first.id], comment: "twice" });
    expect(again).toMatchObject({ ok: true, data: { acknowledged: 0, already: 1 } });
    const unknown = await acknowledgeDrift(fx.admin, { entryIds: ["999999999"], comment: "x" });
    expect(unknown).toMatchObject({ ok: false, code: "NOT_FOUND" });

    // Revert: a plan deleting exactly that binding; a neighbour on the same topic stays.
    await fx.addAcls([neighbour]);
    const second = mine.find((e) => e.binding?.operation === "WRITE")!;
    const plan = await revertDrift(fx.admin, { entryIds: [second.id] });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.data.kind).toBe("acl.delete");
    const applied = await applyPlan(fx.admin, plan.data.id);
    expect(applied.ok).toBe(true);
    const left = await fx.aclsMarked(MARK);
    expect(left.map((b) => b.operation).sort()).toEqual(["DESCRIBE", "READ"]);

    const after = (await entriesOf()).entries;
    expect(after.find((e) => e.id === second.id)?.revert).toMatchObject({ planId: plan.data.id, status: "APPLIED" });
    expect(after.find((e) => e.id === first.id)?.acknowledged).toMatchObject({ by: "User:admin" });
    const open = await listDriftFor(fx.admin, { status: "open", limit: 200 });
    const openIds = open.ok ? open.data.groups.flatMap((g) => g.entries.map((e) => e.id)) : [];
    expect(openIds).not.toContain(first.id);
    expect(openIds).not.toContain(second.id);
    expect(await revertDrift(fx.admin, { entryIds: [second.id] })).toMatchObject({ ok: false, code: "CONFLICT" });
  });
});
