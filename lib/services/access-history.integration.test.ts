/**
 * The Access check "as of" an instant (#20) against the dev broker and PostgreSQL: before the
 * journal begins it says so; an ACL added outside the console between two reads is uncertain
 * for an instant inside that window and counted once the window has passed; an ACL the console
 * created flips the decision exactly at its applied time; someone Kafka does not let describe
 * the ACLs is refused. Only this run's names (MARK) are looked at.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { getPrisma } = await import("@/lib/db/client");
const fx = await import("@/test/services/grant-fixtures");
const { journalTestCluster } = await import("@/test/services/journal-fixture");
const { createAclsAudited } = await import("./acls");
const { readClusterForJournal } = await import("./journal");
const { explainAccess } = await import("./access-check");
const { effectivePermissionsExport, principalView } = await import("./effective-permissions-read");
const { effectivePermissionsQuerySchema, principalViewQuerySchema } =
  await import("@/lib/schemas/effective-permissions");

const MARK = `it-asof-${randomBytes(4).toString("hex")}`;
const topics = fx.topicNames(MARK);

journalTestCluster("access_history", MARK);

const ask = (topic: string, operation: "READ" | "WRITE", at: number, viewer = fx.admin) =>
  explainAccess(viewer, {
    principal: "User:alice",
    client: null,
    operation,
    resourceType: "TOPIC",
    resourceName: topic,
    host: null,
    at,
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the Access check as of an instant", () => {
  const topic = topics();
  const read = fx.topicAcl(topic, "User:alice", "READ");
  const write = fx.topicAcl(topic, "User:alice", "WRITE");

  it("before the journal has begun, it says so on the field instead of guessing", async () => {
    const answer = await ask(topic, "READ", Date.now() - 1000);
    expect(answer).toMatchObject({ ok: false, code: "VALIDATION" });
    if (!answer.ok) expect(answer.fieldErrors?.at?.[0]).toMatch(/has not begun/);
  });

  it("an outside ACL is uncertain inside its window, and decides once the window has passed", async () => {
    expect(await readClusterForJournal("default")).toMatchObject({ kind: "read", began: true });
    await sleep(20);
    const insideWindow = Date.now();
    await sleep(20);
    await fx.addAcls([read]);
    await readClusterForJournal("default");
    const afterRead = Date.now();

    const during = await ask(topic, "READ", insideWindow);
    expect(during.ok).toBe(true);
    if (!during.ok) return;
    expect(during.data.decision).toBe("DENIED");
    // Uncertain: this ACL, and any other on the topic changed in that window (the broker is shared).
    expect(during.data.asOf?.vouch).toBe("covered");
    expect(during.data.asOf?.uncertain).toContainEqual(read);
    expect(during.data.assumptions.source).toMatch(/history journal/);

    const after = await ask(topic, "READ", afterRead);
    expect(after.ok).toBe(true);
    if (!after.ok) return;
    expect(after.data.decision).toBe("ALLOWED");
    expect(after.data.asOf?.uncertain).not.toContainEqual(read);
    expect(after.data.acls.filter((a) => a.resourceName === topic).map((a) => a.operation)).toEqual(["READ"]);
  });

  it("a console-made ACL flips the decision at its applied time; past the last read, it says so", async () => {
    const before = Date.now();
    await sleep(20);
    const created = await createAclsAudited(fx.admin, [write], { planId: randomUUID() });
    expect(created.ok).toBe(true);
    const entry = await getPrisma().journalEntry.findFirstOrThrow({ where: { origin: "console" } });
    const applied = entry.windowTo.getTime();

    const then = await ask(topic, "WRITE", before);
    const now = await ask(topic, "WRITE", applied);
    expect(then.ok && then.data.decision).toBe("DENIED");
    expect(now.ok && now.data.decision).toBe("ALLOWED");
    if (now.ok) {
      expect(now.data.asOf?.vouch).toBe("after-last-read");
      expect(now.data.asOf?.statement).toMatch(/later than the console's last read/);
    }
  });

  it("who could do what on a resource, and what a principal could do, as of an instant (the exports)", async () => {
    const other = topics();
    const grant = fx.topicAcl(other, "User:bob", "WRITE");
    const before = Date.now();
    await sleep(20);
    expect((await createAclsAudited(fx.admin, [grant], { planId: randomUUID() })).ok).toBe(true);
    await sleep(20);
    const after = Date.now();
    const exportAt = (fields: Record<string, string>) =>
      effectivePermissionsExport(fx.admin, effectivePermissionsQuerySchema.parse(fields));
    const bobWrites = (rows: { principal: string; operation: string; decision: string }[]) =>
      rows.filter((r) => r.principal === "User:bob" && r.operation === "WRITE").map((r) => r.decision);

    const then = await exportAt({ resourceType: "TOPIC", resourceName: other, at: new Date(before).toISOString() });
    const now = await exportAt({ resourceType: "TOPIC", resourceName: other, at: new Date(after).toISOString() });
    expect(then.ok && now.ok).toBe(true);
    if (!then.ok || !now.ok) return;
    expect(bobWrites(then.data.rows)).not.toContain("ALLOWED");
    expect(bobWrites(now.data.rows)).toEqual(["ALLOWED"]);
    expect(now.data.aclSnapshot.takenAt).toBe(new Date(after).toISOString());
    expect(now.data.assumptions.source).toMatch(/history journal/);
    expect(now.data.notes.join(" ")).toMatch(/later than the console's last read/);

    const bob = await exportAt({ principal: "User:bob", at: new Date(after).toISOString() });
    expect(bob.ok && bob.data.rows.some((r) => r.resourceName === other && r.decision === "ALLOWED")).toBe(true);

    // The principal page, as of each instant: the same decisions, from the journal, and the early one refused.
    const pageAt = (at: string) => principalView(fx.admin, "User:bob", principalViewQuerySchema.parse({ at }));
    const bobWriteOn = (view: Awaited<ReturnType<typeof pageAt>>) => {
      if (!view.ok || "error" in view.data.permissions) return undefined;
      const topicsSection = view.data.permissions.sections.find((x) => x.resourceType === "TOPIC");
      const row = topicsSection?.resources.find((r) => r.resourceName === other);
      return row?.cells.find((c) => c.operation === "WRITE")?.decision ?? "not listed";
    };
    const pageThen = await pageAt(new Date(before).toISOString());
    const pageNow = await pageAt(new Date(after).toISOString());
    expect(bobWriteOn(pageThen)).not.toBe("ALLOWED");
    expect(bobWriteOn(pageNow)).toBe("ALLOWED");
    expect(pageNow.ok && pageNow.data.aclSnapshot?.takenAt).toBe(new Date(after).toISOString());
    expect(pageNow.ok && pageNow.data.notes.join(" ")).toMatch(/quotas and tokens are today's/);
    const pageEarly = await pageAt("2020-01-01T00:00:00Z");
    expect(pageEarly).toMatchObject({ ok: false, code: "VALIDATION" });
    if (!pageEarly.ok) expect(pageEarly.fieldErrors?.at?.[0]).toMatch(/begins at/);

    const early = await exportAt({ resourceType: "TOPIC", resourceName: other, at: "2020-01-01T00:00:00Z" });
    expect(early).toMatchObject({ ok: false, code: "VALIDATION" });
    const refused = await effectivePermissionsExport(
      fx.demoViewer("alice"),
      effectivePermissionsQuerySchema.parse({ resourceType: "TOPIC", resourceName: other, at: "2026-01-01" }),
    );
    expect(refused).toMatchObject({ ok: false, code: "DENIED" });
  });

  it("someone Kafka does not let describe the cluster's ACLs is refused", async () => {
    const answer = await ask(topic, "READ", Date.now() - 100, fx.demoViewer("alice"));
    expect(answer).toMatchObject({ ok: false, code: "DENIED" });
  });
});
