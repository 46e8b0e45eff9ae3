/**
 * "What changed in P's access between T1 and T2" (#20) against the dev broker and PostgreSQL:
 * an ACL added outside the console (Kafka's Admin client) is a gain with the read's window, one
 * the console makes is a gain with its actor and plan, the outside removal a loss; the CSV has a
 * row per decision; a period before the journal began is refused on its field; someone Kafka does
 * not let describe the cluster's ACLs is refused. The broker is shared: only this run's topic and
 * principal (MARK) are looked at.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const fx = await import("@/test/services/grant-fixtures");
const { journalTestCluster } = await import("@/test/services/journal-fixture");
const { createAclsAudited } = await import("./acls");
const { readClusterForJournal } = await import("./journal");
const { accessChangesFor, accessChangesCsv, defaultPeriodStart } = await import("./access-changes");
const { accessChangesQuerySchema } = await import("@/lib/schemas/access-changes");
const { timelineFor } = await import("./timeline");
const { timelineQuerySchema } = await import("@/lib/schemas/timeline");

const MARK = `it-changes-${randomBytes(4).toString("hex")}`;
const PRINCIPAL = `User:${MARK}`;
const topics = fx.topicNames(MARK);

journalTestCluster("access_changes", MARK);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("what changed in a principal's access", () => {
  const topic = topics();
  const read = fx.topicAcl(topic, PRINCIPAL, "READ");
  const write = fx.topicAcl(topic, PRINCIPAL, "WRITE");
  let beforeJournal = 0;
  let start = 0;
  const planId = randomUUID();

  it("lists an outside gain with its window, a console gain with actor and plan, and an outside loss", async () => {
    beforeJournal = Date.now() - 1000;
    expect(await readClusterForJournal("default")).toMatchObject({ kind: "read", began: true });
    await sleep(20);
    start = Date.now();
    await sleep(20);
    const beforeAdd = Date.now();
    await fx.addAcls([read]);
    await readClusterForJournal("default");
    expect((await createAclsAudited(fx.admin, [write], { planId })).ok).toBe(true);
    await fx.removeAcls([read]);
    await readClusterForJournal("default");

    const answer = await accessChangesFor(fx.admin, { principal: PRINCIPAL, from: start, to: Date.now() });
    expect(answer.ok, answer.ok ? "" : answer.message).toBe(true);
    if (!answer.ok) return;
    const mine = answer.data.steps
      .map((s) => ({ ...s, decisions: s.decisions.filter((d) => d.resourceName === topic) }))
      .filter((s) => s.decisions.length > 0);
    expect(mine.map((s) => [s.cause.origin, s.decisions.map((d) => `${d.change} ${d.operation}`)])).toEqual([
      ["outside", ["gained DESCRIBE", "gained READ"]],
      ["console", ["gained WRITE"]],
      ["outside", ["lost READ"]],
    ]);
    const [added, made, removed] = mine;
    expect(Date.parse(added!.cause.windowFrom)).toBeLessThanOrEqual(beforeAdd);
    expect(added!.cause.changes.join(" ")).toContain(`ALLOW ${PRINCIPAL} READ on TOPIC "${topic}"`);
    expect(made!.cause).toMatchObject({ actor: "User:admin", planId });
    expect(made!.decisions[0]!.afterVia).toContain(`ALLOW ${PRINCIPAL} WRITE on TOPIC LITERAL "${topic}"`);
    expect(removed!.decisions[0]).toMatchObject({
      before: { decision: "ALLOWED" },
      after: { decision: "DENIED", rule: { kind: "noAclMatched" } },
    });

    const csv = accessChangesCsv(answer.data).split("\r\n");
    expect(csv[0]).toBe(
      "window_from,window_to,origin,actor,plan_id,change,resource_type,pattern_type,resource_name,operation," +
        "before,after,decided_before_by,decided_after_by,caused_by",
    );
    expect(csv.filter((l) => l.includes(`,gained,TOPIC,LITERAL,${topic},WRITE,DENIED,ALLOWED,`))).toHaveLength(1);
    expect(csv.find((l) => l.includes(`,lost,TOPIC,LITERAL,${topic},READ,`))).toMatch(/^[^,]+,[^,]+,outside,,,/);
  });

  it("the principal's and the resource's timelines list the same changes, newest first, with who, when", async () => {
    const byPrincipal = await timelineFor(fx.admin, timelineQuerySchema.parse({ principal: PRINCIPAL }));
    const byResource = await timelineFor(
      fx.admin,
      timelineQuerySchema.parse({ resourceType: "TOPIC", resourceName: topic }),
    );
    expect(byPrincipal.ok && byResource.ok).toBe(true);
    if (!byPrincipal.ok || !byResource.ok) return;
    const shape = (e: { op: string; origin: string; actor: string | null; summary: string }) =>
      `${e.op} ${e.origin} ${e.actor ?? "-"} ${e.summary.includes("WRITE") ? "WRITE" : "READ"}`;
    expect(byPrincipal.data.entries.map(shape)).toEqual([
      "disappeared outside - READ",
      "appeared console User:admin WRITE",
      "appeared outside - READ",
    ]);
    expect(byResource.data.entries.map(shape)).toEqual(byPrincipal.data.entries.map(shape));
    expect(byPrincipal.data.entries[1]!.planId).toBe(planId);
    // One ACL row's own timeline: the READ binding's entries only, not the WRITE one's.
    const byBinding = await timelineFor(
      fx.admin,
      timelineQuerySchema.parse({
        resourceType: "TOPIC",
        resourceName: topic,
        principal: PRINCIPAL,
        operation: "READ",
      }),
    );
    expect(byBinding.ok && byBinding.data.entries.map(shape)).toEqual([
      "disappeared outside - READ",
      "appeared outside - READ",
    ]);
    expect(byBinding.ok && byBinding.data.subject).toContain(`ALLOW READ on TOPIC LITERAL "${topic}"`);
    // Someone Kafka does not let describe ACLs sees none of them (the audit trail's rules).
    const alice = await timelineFor(fx.demoViewer("alice"), timelineQuerySchema.parse({ principal: PRINCIPAL }));
    expect(alice.ok && alice.data.entries).toEqual([]);
  });

  it("a period that starts before the journal began is refused on its field", async () => {
    const answer = await accessChangesFor(fx.admin, { principal: PRINCIPAL, from: beforeJournal, to: Date.now() });
    expect(answer).toMatchObject({ ok: false, code: "VALIDATION" });
    if (!answer.ok) expect(answer.fieldErrors?.from?.[0]).toMatch(/begins at/);
  });

  it("with no start, the period begins when the journal began, and lists the same changes", async () => {
    const query = accessChangesQuerySchema.parse({ principal: PRINCIPAL });
    expect(query.from).toBeNull();
    const answer = await accessChangesFor(fx.admin, query);
    expect(answer.ok, answer.ok ? "" : answer.message).toBe(true);
    if (!answer.ok) return;
    expect(Date.parse(answer.data.from)).toBeGreaterThan(beforeJournal);
    expect(Date.parse(answer.data.from)).toBeLessThanOrEqual(start);
    const mine = answer.data.steps.filter((s) => s.decisions.some((d) => d.resourceName === topic));
    expect(mine.map((s) => s.cause.origin)).toEqual(["outside", "console", "outside"]);
    // The page's default start is never before the journal began (a week ago would be refused here).
    expect(await defaultPeriodStart(fx.admin)).toBe(Date.parse(answer.data.from));
  });

  it("someone Kafka does not let describe the cluster's ACLs is refused", async () => {
    const answer = await accessChangesFor(fx.demoViewer("alice"), {
      principal: PRINCIPAL,
      from: start,
      to: Date.now(),
    });
    expect(answer).toMatchObject({ ok: false, code: "DENIED" });
  });
});
