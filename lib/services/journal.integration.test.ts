/**
 * The history journal (#20) against the dev broker and PostgreSQL: an ACL created with Kafka's
 * Admin client directly (outside) and one through the console within one interval; after a
 * read the outside one is listed with its window and origin outside, the console's with its
 * audit row, plan and actor (and never as outside); two readers racing record an outside change
 * once; a new reader instance (a restart) loses none; a console write whose outcome was unknown
 * is settled by the next read as the console's. The broker is shared with other runs: only this
 * run's names (MARK) are looked at.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { getPrisma } = await import("@/lib/db/client");
const fx = await import("@/test/services/grant-fixtures");
const { journalTestCluster } = await import("@/test/services/journal-fixture");
const { createAclsAudited } = await import("./acls");
const { readClusterForJournal, forgetJournalStateForTests } = await import("./journal");
const { recordIntent } = await import("@/lib/db/audit");
const { aclKey } = await import("@/lib/policy/history");

const MARK = `it-journal-${randomBytes(4).toString("hex")}`;
const topics = fx.topicNames(MARK);

journalTestCluster("journal", MARK);

const entriesOf = (key: string) =>
  getPrisma().journalEntry.findMany({ where: { clusterId: "default", key }, orderBy: { id: "asc" } });

describe("the journal", () => {
  it("begins with a checkpoint, then records outside changes with a window, console ones with an actor", async () => {
    const first = await readClusterForJournal("default");
    expect(first).toMatchObject({ kind: "read", began: true });
    expect(await getPrisma().journalCheckpoint.count()).toBe(1);

    const outside = fx.topicAcl(topics(), "User:bob", "READ");
    const mine = fx.topicAcl(topics(), "User:bob", "WRITE");
    const readBefore = await getPrisma().journalCoverage.findFirstOrThrow();
    const beforeOutside = Date.now();
    await fx.addAcls([outside]);
    const afterOutside = Date.now();
    const planId = randomUUID();
    const created = await createAclsAudited(fx.admin, [mine], { planId });
    expect(created.ok).toBe(true);

    // The console's change is in the journal at once, before any read.
    const [consoleEntry] = await entriesOf(aclKey(mine));
    expect(consoleEntry).toMatchObject({ origin: "console", op: "appeared", planId, actor: "User:admin" });
    expect(consoleEntry!.windowFrom.getTime()).toBe(consoleEntry!.windowTo.getTime());
    const audit = await getPrisma().auditEvent.findFirstOrThrow({ where: { planId, action: "acl.create" } });
    expect(consoleEntry!.auditId).toBe(audit.id.toString());
    expect(await getPrisma().journalIntent.count()).toBe(0);

    const second = await readClusterForJournal("default");
    expect(second).toMatchObject({ kind: "read", began: false });
    const [outsideEntry, ...more] = await entriesOf(aclKey(outside));
    expect(more).toEqual([]);
    expect(outsideEntry).toMatchObject({ origin: "outside", op: "appeared", auditId: null, actor: null });
    expect(outsideEntry!.windowFrom.getTime()).toBe(readBefore.lastReadAt.getTime());
    expect(outsideEntry!.windowFrom.getTime()).toBeLessThanOrEqual(beforeOutside);
    expect(outsideEntry!.windowTo.getTime()).toBeGreaterThanOrEqual(afterOutside);
    // The console's change is not found again as an outside one.
    expect(await entriesOf(aclKey(mine))).toHaveLength(1);
  });

  it("creating an ACL that already exists records no second appearance (Kafka accepts it)", async () => {
    // One the journal knows from an entry (made through the console), one from its checkpoint only.
    const byEntry = fx.topicAcl(topics(), "User:bob", "DESCRIBE");
    expect((await createAclsAudited(fx.admin, [byEntry], { planId: randomUUID() })).ok).toBe(true);
    // Not READ: the restart test below takes this run's READ ACL (the one made outside first).
    const byCheckpoint = fx.topicAcl(topics(), "User:carol", "ALTER");
    await fx.addAcls([byCheckpoint]);
    await readClusterForJournal("default");
    await getPrisma().journalEntry.deleteMany({ where: { key: aclKey(byCheckpoint) } });
    const { writeCheckpoint } = await import("@/lib/db/journal");
    const { currentJournalState } = await import("./journal");
    forgetJournalStateForTests();
    const current = await currentJournalState("default");
    const state = new Map(current.state).set(aclKey(byCheckpoint), true);
    await writeCheckpoint("default", { at: new Date(), lastEntryId: current.lastEntryId, state });
    forgetJournalStateForTests();

    const again = await createAclsAudited(fx.admin, [byEntry, byCheckpoint], { planId: randomUUID() });
    expect(again.ok).toBe(true);
    expect(await entriesOf(aclKey(byEntry))).toHaveLength(1);
    expect(await entriesOf(aclKey(byCheckpoint))).toHaveLength(0);
    expect(await getPrisma().journalIntent.count()).toBe(0);
    // A real change in the same write is still recorded.
    const fresh = fx.topicAcl(topics(), "User:carol", "WRITE");
    expect((await createAclsAudited(fx.admin, [byEntry, fresh], { planId: randomUUID() })).ok).toBe(true);
    expect(await entriesOf(aclKey(fresh))).toHaveLength(1);
    expect(await entriesOf(aclKey(byEntry))).toHaveLength(1);
  });

  it("two readers racing record an outside change once", async () => {
    const outside = fx.topicAcl(topics(), "User:bob", "DESCRIBE");
    await fx.addAcls([outside]);
    const results = await Promise.all([readClusterForJournal("default"), readClusterForJournal("default")]);
    expect(results.map((r) => r.kind).sort()).toEqual(["busy", "read"]);
    forgetJournalStateForTests();
    await readClusterForJournal("default");
    expect(await entriesOf(aclKey(outside))).toHaveLength(1);
  });

  it("a new reader instance (a restart) loses no change and records none twice", async () => {
    const removed = (await fx.aclsMarked(MARK)).find((b) => b.operation === "READ")!;
    const added = fx.topicAcl(topics(), "User:carol", "READ");
    await fx.removeAcls([removed]);
    await fx.addAcls([added]);
    forgetJournalStateForTests();
    await readClusterForJournal("default");
    await readClusterForJournal("default");
    expect((await entriesOf(aclKey(removed))).map((e) => [e.origin, e.op])).toEqual([
      ["outside", "appeared"],
      ["outside", "disappeared"],
    ]);
    expect((await entriesOf(aclKey(added))).map((e) => [e.origin, e.op])).toEqual([["outside", "appeared"]]);
  });

  it("settles a console write whose outcome was unknown as the console's, never as outside", async () => {
    const binding = fx.topicAcl(topics(), "User:dana", "READ");
    const audit = await recordIntent({
      principal: "User:admin",
      action: "acl.create",
      category: "acl",
      target: binding.resourceName,
      clusterId: "default",
    });
    await getPrisma().journalIntent.create({
      data: {
        clusterId: "default",
        auditId: audit.id,
        planId: "plan-unknown",
        actor: "User:admin",
        changes: [{ key: aclKey(binding), op: "appeared", value: true }],
        aclDeleteFilters: [],
        status: "UNKNOWN",
      },
    });
    await fx.addAcls([binding]); // the write had reached Kafka after all
    await readClusterForJournal("default");
    expect(await entriesOf(aclKey(binding))).toEqual([
      expect.objectContaining({ origin: "console", auditId: audit.id, planId: "plan-unknown", actor: "User:admin" }),
    ]);
    expect(await getPrisma().journalIntent.count()).toBe(0);
  });
});
