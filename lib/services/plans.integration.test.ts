/**
 * Sealed ACL plans against the real broker and PostgreSQL: the blast radius over the
 * console's universe, apply exactly once and only by its principal, 409 when the ACLs the
 * plan depends on changed (made outside the console's plan) and nothing sent, expiry,
 * paging, and one audit event per batch carrying the plan id.
 *
 * Works only on this run's own principals and topic names, and removes every ACL it made.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy";
import type { AclPlanApplyResult, AclPlanPageView, AclPlanView } from "@/lib/schemas/plans";

vi.mock("server-only", () => ({}));

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const kafka = await import("@/lib/kafka");
const writes = await import("@/lib/kafka/writes");
const { ADMIN } = await import("@/test/kafka/fixtures");
const { aclSnapshotCache } = await import("./acl-snapshot");
const { forgetKeptBlastRadii } = await import("./acl-plans");
const { applyPlan, createPlan, getPlanView } = await import("./plans");

const RUN = randomBytes(4).toString("hex");
const MARK = `it-plan-${RUN}`;
const SVC = `User:${MARK}-svc`;
const TOPIC = `${MARK}-orders`;

const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const alice = {
  sessionId: null,
  principal: "User:alice",
  credential: { username: "alice", password: "alice-secret", mechanism: "SCRAM-SHA-512" as const },
};

const acl = (b: Partial<AclBinding>): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: SVC,
  host: "*",
  operation: "WRITE",
  permissionType: "ALLOW",
  ...b,
});

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;

async function aclsOfThisRun(): Promise<AclBinding[]> {
  const all = await kafka.describeAcls(ADMIN, {
    resourceType: "ANY",
    resourceName: null,
    patternType: "ANY",
    principal: null,
    host: null,
    operation: "ANY",
    permissionType: "ANY",
  });
  return all.filter((a) => a.resourceName.includes(MARK) || a.principal.includes(MARK));
}

async function plan(input: Record<string, unknown> & { kind: string }): Promise<AclPlanView> {
  const { kind, ...rest } = input;
  const r = await createPlan(admin, kind, rest);
  if (!r.ok) throw new Error(`plan refused: ${r.message}`);
  return r.data as unknown as AclPlanView;
}

beforeAll(async () => {
  db = await useMigratedTestDatabase("plans");
  // svc may write the run's topics: ALLOW WRITE on the topic and on the PREFIXED name.
  await writes.createAcls(ADMIN, [acl({}), acl({ resourceName: `${TOPIC}-dlq` })]);
});

afterAll(async () => {
  const leftovers = await aclsOfThisRun();
  if (leftovers.length > 0)
    await writes.deleteAcls(
      ADMIN,
      leftovers.map((b) => ({ ...b })),
    );
  await kafka.closeAllConnections();
  aclSnapshotCache().clear();
  await db.teardown();
});

describe("the blast radius over the console's universe", () => {
  it(
    "a DENY User:* WRITE on the topic shows the service losing WRITE there, and the rule for " +
      "principals not yet seen",
    async () => {
      const p = await plan({ kind: "acl.create", bindings: [acl({ principal: "User:*", permissionType: "DENY" })] });
      expect(p.applicable).toBe(true);
      expect(p.create).toEqual([acl({ principal: "User:*", permissionType: "DENY" })]);
      expect(p.counts.lost).toBeGreaterThan(0);
      expect(p.counts.gained).toBe(0);
      expect(p.byPrincipal).toEqual([{ principal: SVC, gained: 0, lost: p.counts.lost }]);
      expect(p.byResource).toEqual([{ resourceType: "TOPIC", resourceName: TOPIC, gained: 0, lost: p.counts.lost }]);
      expect(p.firstChanges).toContainEqual({
        principal: SVC,
        host: p.otherHost,
        resourceType: "TOPIC",
        resourceName: TOPIC,
        operation: "WRITE",
        before: "ALLOWED",
        after: "DENIED",
      });
      expect(p.firstChanges.every((c) => c.operation === "WRITE")).toBe(true);
      expect(p.rules.map((r) => r.text)).toEqual(["and every principal not yet seen"]);
      expect(p.cli).toEqual([
        {
          command:
            `kafka-acls.sh --bootstrap-server ${kafka.kafkaConfig().bootstrapServers.join(",")} ` +
            `--command-config <admin.properties> --add --deny-principal 'User:*' --deny-host '*' --operation ` +
            `Write --topic ${TOPIC} --resource-pattern-type literal`,
        },
      ]);
      // The universe: SCRAM users, super users and principals of ACLs are all principals the console knows.
      expect(p.counts.universe.principals).toBeGreaterThanOrEqual(3);
      expect(p.universeNotes).toEqual([]);
      // Nothing changed in Kafka by previewing.
      expect(await aclsOfThisRun()).toHaveLength(2);
    },
  );

  it("a DENY on the PREFIXED name breaks WRITE on both topics under it, with the rule in words", async () => {
    const p = await plan({ kind: "acl.create", bindings: [acl({ patternType: "PREFIXED", permissionType: "DENY" })] });
    const lost = new Set(
      p.firstChanges.filter((c) => c.operation === "WRITE" && c.after === "DENIED").map((c) => c.resourceName),
    );
    expect(lost).toEqual(new Set([TOPIC, `${TOPIC}-dlq`]));
    expect(p.rules.map((r) => r.text)).toEqual([`and every TOPIC not yet seen whose name starts with \`${TOPIC}\``]);
  });

  it("a delete plan of a binding Kafka does not hold is nothing to apply (400), and says so", async () => {
    const p = await plan({ kind: "acl.delete", bindings: [acl({ operation: "READ" })] });
    expect(p.applicable).toBe(false);
    expect(p.noOps).toHaveLength(1);
    expect(p.notApplicable).toContain("Nothing to change");
    expect(await applyPlan(admin, p.id)).toMatchObject({ ok: false, code: "VALIDATION" });
  });

  it("bindings Kafka would refuse make a plan that cannot be applied, with Kafka's message", async () => {
    const p = await plan({
      kind: "acl.create",
      bindings: [acl({ resourceType: "CLUSTER", resourceName: "kafka-cluster", operation: "READ" })],
    });
    expect(p.invalid).toHaveLength(1);
    expect(p.applicable).toBe(false);
    expect(p.notApplicable).toContain("Kafka would refuse");
    expect(await applyPlan(admin, p.id)).toMatchObject({ ok: false, code: "VALIDATION" });
  });
});

describe("apply", () => {
  it(
    "applies exactly the plan once; a second apply is 409 and sends nothing; each batch is audited " +
      "with the plan id",
    async () => {
      const grant = acl({ operation: "READ", principal: `User:${MARK}-reader` });
      const p = await plan({ kind: "acl.change", create: [grant], delete: [acl({ resourceName: `${TOPIC}-dlq` })] });
      const [a, b] = await Promise.all([applyPlan(admin, p.id), applyPlan(admin, p.id)]);
      const results = [a, b];
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, code: "CONFLICT" });
      const done = results.find((r) => r.ok)!;
      expect(done).toMatchObject({ ok: true, data: { outcome: "success", batches: 2, plan: { status: "APPLIED" } } });
      expect((done as unknown as { data: AclPlanApplyResult }).data.results.map((r) => [r.action, r.ok])).toEqual([
        ["delete", true],
        ["create", true],
      ]);
      expect(await applyPlan(admin, p.id)).toMatchObject({
        ok: false,
        code: "CONFLICT",
        message: expect.stringContaining("already applied"),
      });

      const now = await aclsOfThisRun();
      expect(now).toContainEqual(grant);
      expect(now).not.toContainEqual(acl({ resourceName: `${TOPIC}-dlq` }));
      const events = await getPrisma().auditEvent.findMany({ where: { planId: p.id }, orderBy: { at: "asc" } });
      expect(events.map((e) => [e.action, e.outcome])).toEqual([
        ["acl.delete", "success"],
        ["acl.create", "success"],
      ]);
      await writes.createAcls(ADMIN, [acl({ resourceName: `${TOPIC}-dlq` })]);
      await writes.deleteAcls(ADMIN, [{ ...grant }]);
    },
  );

  it(
    "an ACL on a touched resource changed after the preview: 409 asking for a new preview, the plan " +
      "FAILED, nothing applied",
    async () => {
      const deny = acl({ principal: "User:*", permissionType: "DENY" });
      const p = await plan({ kind: "acl.create", bindings: [deny] });
      // Someone else adds an ACL on the same topic, not through this plan.
      const other = acl({ principal: `User:${MARK}-other`, operation: "READ" });
      await writes.createAcls(ADMIN, [other]);
      const r = await applyPlan(admin, p.id);
      expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
      const counts = !r.ok ? /: (\d+) then, (\d+) now\); nothing was changed\. Preview again\.$/.exec(r.message) : null;
      expect(!r.ok && r.message).toMatch(
        /^The ACLs changed since this preview \(the ACLs that apply to the resources this plan touches: /,
      );
      expect(Number(counts?.[2])).toBe(Number(counts?.[1]) + 1);
      expect(await aclsOfThisRun()).not.toContainEqual(deny);
      const view = await getPlanView(admin, p.id);
      expect(view).toMatchObject({ ok: true, data: { status: "FAILED", applicable: false } });
      expect(await applyPlan(admin, p.id)).toMatchObject({ ok: false, code: "CONFLICT" });
      await writes.deleteAcls(ADMIN, [{ ...other }]);
    },
  );

  it("an ACL on an unrelated resource does not make the plan stale", async () => {
    const grant = acl({ operation: "DESCRIBE", principal: `User:${MARK}-describer` });
    const p = await plan({ kind: "acl.create", bindings: [grant] });
    const elsewhere = acl({ resourceName: `${MARK}-elsewhere`, principal: `User:${MARK}-x`, operation: "READ" });
    await writes.createAcls(ADMIN, [elsewhere]);
    expect(await applyPlan(admin, p.id)).toMatchObject({ ok: true, data: { outcome: "success" } });
    await writes.deleteAcls(ADMIN, [{ ...grant }, { ...elsewhere }]);
  });

  it("only its principal may see or apply a plan; an expired plan is 409; an unknown id is 404", async () => {
    const p = await plan({
      kind: "acl.create",
      bindings: [acl({ operation: "READ", principal: `User:${MARK}-late` })],
    });
    expect(await getPlanView(alice, p.id)).toMatchObject({ ok: false, code: "DENIED" });
    expect(await applyPlan(alice, p.id)).toMatchObject({ ok: false, code: "DENIED" });
    await getPrisma().changePlan.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await applyPlan(admin, p.id)).toMatchObject({
      ok: false,
      code: "CONFLICT",
      message: expect.stringContaining("expired"),
    });
    expect(await getPlanView(admin, p.id)).toMatchObject({ ok: true, data: { status: "EXPIRED", applicable: false } });
    expect(await applyPlan(admin, "00000000-0000-4000-8000-000000000000")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await aclsOfThisRun()).not.toContainEqual(acl({ operation: "READ", principal: `User:${MARK}-late` }));
  });
});

describe("every decision change, paged", () => {
  it(
    "pages through every row, also after the kept blast radius is gone (computed again from the same " + "ACLs)",
    async () => {
      const p = await plan({
        kind: "acl.create",
        bindings: [acl({ principal: "User:*", patternType: "PREFIXED", permissionType: "DENY", operation: "ALL" })],
      });
      const total = p.counts.changes;
      expect(total).toBeGreaterThan(2);
      const pageOf = async (page: number, pageSize: number) => {
        const r = await getPlanView(admin, p.id, { page, pageSize });
        if (!r.ok) throw new Error(r.message);
        return (r.data as unknown as AclPlanPageView).changes!;
      };
      const rows = [];
      for (let page = 1; ; page++) {
        const got = await pageOf(page, 2);
        expect(got.complete).toBe(true);
        rows.push(...got.rows);
        if (page >= got.pages) break;
      }
      expect(rows).toHaveLength(total);
      expect(rows.slice(0, p.firstChanges.length)).toEqual(p.firstChanges);
      forgetKeptBlastRadii();
      expect((await pageOf(2, 2)).rows).toEqual(rows.slice(2, 4));

      // Once the ACLs it depends on changed, only the first rows are still known.
      forgetKeptBlastRadii();
      const other = acl({ principal: `User:${MARK}-other2`, operation: "READ" });
      await writes.createAcls(ADMIN, [other]);
      const stale = await pageOf(1, 2);
      expect(stale).toMatchObject({ complete: false, total });
      expect(stale.note).toContain("Preview again");
      await writes.deleteAcls(ADMIN, [{ ...other }]);
    },
  );
});
