/**
 * ACLs as code against the real broker and PostgreSQL: the export, and imports as sealed
 * plans — add only, sync within a resource-name prefix and within a principal list — with
 * the ACLs outside the scope untouched; the refusals that never delete anything (empty
 * file, sync without a scope, nothing inside the scope); 409 when an ACL inside the scope
 * appears after the preview; batches of ACL_APPLY_BATCH, one audit event each, and the
 * progress read from them.
 *
 * Works only on this run's own principals and resource names, and removes every ACL it made.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy";
import type { AclImportPlanView, AclPlanApplyResult } from "@/lib/schemas/plans";

vi.mock("server-only", () => ({}));

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const kafka = await import("@/lib/kafka");
const writes = await import("@/lib/kafka/writes");
const { ADMIN } = await import("@/test/kafka/fixtures");
const { aclSnapshotCache } = await import("./acl-snapshot");
const { ACL_APPLY_BATCH } = await import("./acl-plans");
const { exportAcls, importProgress } = await import("./acl-import");
const { aclsToYaml, parseAclFile } = await import("./acl-io");
const { applyPlan, createPlan } = await import("./plans");

const RUN = randomBytes(4).toString("hex");
const MARK = `it-imp-${RUN}`;
const PREFIX = `${MARK}-`;
const A = `User:${MARK}-a`;
const B = `User:${MARK}-b`;
const OUTSIDE = `${MARK}x-other`; // does not start with PREFIX

const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const acl = (b: Partial<AclBinding>): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: `${PREFIX}orders`,
  patternType: "LITERAL",
  principal: A,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  ...b,
});

const aReadOrders = acl({});
const aWriteOrders = acl({ operation: "WRITE" });
const bReadBilling = acl({ principal: B, resourceName: `${PREFIX}billing` });
const aReadOutside = acl({ resourceName: OUTSIDE });

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

async function reset(bindings: AclBinding[]): Promise<void> {
  const leftovers = await aclsOfThisRun();
  if (leftovers.length > 0)
    await writes.deleteAcls(
      ADMIN,
      leftovers.map((b) => ({ ...b })),
    );
  if (bindings.length > 0) await writes.createAcls(ADMIN, bindings);
  aclSnapshotCache().clear();
}

const yamlOf = (bindings: AclBinding[]) => aclsToYaml(bindings, { exportedAt: new Date().toISOString() });

async function importPlan(body: Record<string, unknown>) {
  return createPlan(admin, "acl.import", {
    format: "auto",
    fileName: null,
    mode: "add-only",
    scope: { principals: [], resourcePrefix: "" },
    ...body,
  });
}

async function plan(body: Record<string, unknown>): Promise<AclImportPlanView> {
  const r = await importPlan(body);
  if (!r.ok) throw new Error(`plan refused: ${r.message}`);
  return r.data as unknown as AclImportPlanView;
}

const sorted = (list: AclBinding[]) => [...list].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;

beforeAll(async () => {
  db = await useMigratedTestDatabase("acl_import");
});

afterAll(async () => {
  await reset([]);
  await kafka.closeAllConnections();
  aclSnapshotCache().clear();
  await db.teardown();
});

describe("export", () => {
  it("every ACL the viewer may describe, in each format, reads back as the same set", async () => {
    await reset([aReadOrders, bReadBilling]);
    for (const format of ["json", "csv", "yaml"] as const) {
      const file = await exportAcls(admin, format);
      if (!file.ok) throw new Error(file.message);
      const parsed = parseAclFile(file.data.body, format);
      if (!parsed.ok) throw new Error(parsed.message);
      const mine = parsed.bindings.filter((b) => b.principal.includes(MARK));
      expect(sorted(mine)).toEqual(sorted([aReadOrders, bReadBilling]));
      expect(file.data.fileName).toMatch(new RegExp(`^kafka-acls-\\d{4}-\\d\\d-\\d\\d\\.${format}$`));
    }
    const alice = {
      sessionId: null,
      principal: "User:alice",
      credential: { username: "alice", password: "alice-secret", mechanism: "SCRAM-SHA-512" as const },
    };
    expect(await exportAcls(alice, "yaml")).toMatchObject({ ok: false, code: "DENIED" });
  });
});

describe("import", () => {
  it("add only: creates what Kafka lacks, never deletes; per-binding results; one audit event per batch", async () => {
    await reset([aReadOrders, aWriteOrders]);
    const describe = acl({ operation: "DESCRIBE" });
    const p = await plan({ content: yamlOf([aReadOrders, describe]), fileName: "team.yaml" });
    expect(p).toMatchObject({
      kind: "acl.import",
      applicable: true,
      create: [describe],
      delete: [],
      noOps: [aReadOrders],
    });
    expect(p.import).toEqual({
      format: "yaml",
      fileName: "team.yaml",
      bindings: 2,
      mode: "add-only",
      scope: null,
      inScope: null,
    });
    expect(p.cli.map((c) => c.command)).toEqual([
      expect.stringContaining(
        `--add --allow-principal ${A} --allow-host '*' --operation Describe --topic ${PREFIX}orders`,
      ),
    ]);

    const applied = await applyPlan<Omit<AclPlanApplyResult, "plan">>(admin, p.id);
    expect(applied).toMatchObject({ ok: true, data: { outcome: "success", batches: 1, plan: { status: "APPLIED" } } });
    if (applied.ok)
      expect(applied.data.results.map((r) => [r.action, r.operation, r.ok])).toEqual([["create", "DESCRIBE", true]]);
    expect(sorted(await aclsOfThisRun())).toEqual(sorted([aReadOrders, aWriteOrders, describe]));
  });

  it(
    "add only: a preview that outlives the snapshot's age bound is still made (the snapshot is read " +
      "again meanwhile; no 409)",
    async () => {
      await reset([aReadOrders]);
      const { resetEnvForTests } = await import("@/lib/env");
      // Every read after the preview's own fresh one fetches again, as after a slow preview of a big file.
      process.env.ACL_SNAPSHOT_MAX_AGE_MS = "1";
      resetEnvForTests();
      try {
        const describe = acl({ operation: "DESCRIBE" });
        const p = await plan({ content: yamlOf([aReadOrders, describe]), fileName: "team.yaml" });
        expect(p).toMatchObject({
          kind: "acl.import",
          applicable: true,
          create: [describe],
          delete: [],
          noOps: [aReadOrders],
        });
      } finally {
        delete process.env.ACL_SNAPSHOT_MAX_AGE_MS;
        resetEnvForTests();
      }
    },
  );

  it(
    "sync within a resource-name prefix: deletes what the file lacks there, creates what it adds, " +
      "leaves the rest alone",
    async () => {
      await reset([aReadOrders, aWriteOrders, bReadBilling, aReadOutside]);
      const bWriteBilling = acl({ principal: B, resourceName: `${PREFIX}billing`, operation: "WRITE" });
      const p = await plan({
        content: JSON.stringify({ acls: [aReadOrders, bReadBilling, bWriteBilling] }),
        mode: "sync",
        scope: { principals: [], resourcePrefix: PREFIX },
      });
      expect(p).toMatchObject({ applicable: true, create: [bWriteBilling], delete: [aWriteOrders] });
      expect(p.import).toMatchObject({
        format: "json",
        mode: "sync",
        scope: { principals: [], resourcePrefix: PREFIX },
        inScope: 3,
      });
      expect(p.counts.lost).toBeGreaterThan(0);

      const applied = await applyPlan<Omit<AclPlanApplyResult, "plan">>(admin, p.id);
      expect(applied).toMatchObject({ ok: true, data: { outcome: "success", batches: 2 } });
      expect(sorted(await aclsOfThisRun())).toEqual(sorted([aReadOrders, bReadBilling, bWriteBilling, aReadOutside]));

      const progress = await importProgress(admin, p.id);
      expect(progress).toEqual({
        ok: true,
        data: {
          planId: p.id,
          status: "APPLIED",
          total: 2,
          batches: { total: 2, done: 2, inFlight: 0 },
          sent: 2,
          succeeded: 2,
          failed: 0,
        },
      });
      const events = await getPrisma().auditEvent.findMany({ where: { planId: p.id }, orderBy: { id: "asc" } });
      expect(events.map((e) => [e.action, e.outcome])).toEqual([
        ["acl.delete", "success"],
        ["acl.create", "success"],
      ]);
    },
  );

  it(
    "sync: a snapshot read again without a change in the scope (a slow preview, a refresh before " +
      "Apply) is no conflict",
    async () => {
      await reset([aReadOrders, aWriteOrders, aReadOutside]);
      const { resetEnvForTests } = await import("@/lib/env");
      // Every read after the preview's own fresh one fetches again (a new snapshot time, same ACLs).
      process.env.ACL_SNAPSHOT_MAX_AGE_MS = "1";
      resetEnvForTests();
      let p: AclImportPlanView;
      try {
        p = await plan({
          content: yamlOf([aReadOrders]),
          mode: "sync",
          scope: { principals: [], resourcePrefix: PREFIX },
        });
        expect(p).toMatchObject({ applicable: true, create: [], delete: [aWriteOrders] });
        expect(p.import).toMatchObject({ inScope: 2 });
        const refreshed = await aclSnapshotCache().get(admin, { forceRefresh: true });
        expect(refreshed.ok && refreshed.snapshot.takenAt).toBeGreaterThan(Date.parse(p.aclSnapshot.takenAt));
      } finally {
        delete process.env.ACL_SNAPSHOT_MAX_AGE_MS;
        resetEnvForTests();
      }
      const applied = await applyPlan<Omit<AclPlanApplyResult, "plan">>(admin, p.id);
      expect(applied).toMatchObject({ ok: true, data: { outcome: "success" } });
      expect(sorted(await aclsOfThisRun())).toEqual(sorted([aReadOrders, aReadOutside]));
    },
  );

  it("sync within a principal list: only those principals' ACLs are managed", async () => {
    await reset([aReadOrders, aWriteOrders, bReadBilling]);
    const bDescribe = acl({ principal: B, resourceName: `${PREFIX}billing`, operation: "DESCRIBE" });
    const p = await plan({
      content: yamlOf([bDescribe]),
      mode: "sync",
      scope: { principals: [B], resourcePrefix: "" },
    });
    expect(p).toMatchObject({ applicable: true, create: [bDescribe], delete: [bReadBilling] });
    expect((await applyPlan(admin, p.id)).ok).toBe(true);
    expect(sorted(await aclsOfThisRun())).toEqual(sorted([aReadOrders, aWriteOrders, bDescribe]));
  });

  it(
    "refuses, deleting nothing: an empty file, a sync without a scope, a file with nothing inside " +
      "the scope, a file it cannot read",
    async () => {
      await reset([aReadOrders, aWriteOrders]);
      const empty = await importPlan({
        content: "principals: []\n",
        mode: "sync",
        scope: { principals: [A], resourcePrefix: "" },
      });
      expect(empty).toMatchObject({
        ok: false,
        code: "VALIDATION",
        message: expect.stringContaining("The file holds no ACL binding"),
      });
      expect(await importPlan({ content: "[]", mode: "add-only" })).toMatchObject({
        ok: false,
        code: "VALIDATION",
        message: expect.stringContaining("never deletes anything"),
      });

      const noScope = await importPlan({ content: yamlOf([aReadOrders]), mode: "sync" });
      expect(noScope).toMatchObject({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { scope: [expect.stringContaining("only inside a scope")] },
      });

      const outsideScope = await importPlan({
        content: yamlOf([aReadOutside]),
        mode: "sync",
        scope: { principals: [], resourcePrefix: PREFIX },
      });
      expect(outsideScope).toMatchObject({
        ok: false,
        code: "VALIDATION",
        message: expect.stringContaining("no binding inside the scope"),
      });

      const broken = await importPlan({
        content: 'principals:\n  - principal: "User:x"\n    acls:\n      - resourceType: TOPIC\n',
        fileName: "x.yaml",
      });
      expect(broken).toMatchObject({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { content: [expect.stringContaining("Line 4: This ACL lacks resourceName")] },
      });
      expect(sorted(await aclsOfThisRun())).toEqual(sorted([aReadOrders, aWriteOrders]));
    },
  );

  it(
    "409 when an ACL inside the sync scope appears after the preview (made straight through Kafka); " +
      "nothing is sent",
    async () => {
      await reset([aReadOrders, aWriteOrders]);
      const p = await plan({
        content: yamlOf([aReadOrders]),
        mode: "sync",
        scope: { principals: [], resourcePrefix: PREFIX },
      });
      expect(p.delete).toEqual([aWriteOrders]);
      const late = acl({ principal: B, resourceName: `${PREFIX}late` });
      await writes.createAcls(ADMIN, [late]);
      const applied = await applyPlan(admin, p.id);
      expect(applied).toMatchObject({
        ok: false,
        code: "CONFLICT",
        message: expect.stringContaining("inside the sync scope changed since this preview (2 ACLs then, 3 now)"),
      });
      expect(sorted(await aclsOfThisRun())).toEqual(sorted([aReadOrders, aWriteOrders, late]));
    },
  );

  it(
    `applies large files in batches of ${ACL_APPLY_BATCH}, one audited request each, and the ` + `progress counts them`,
    async () => {
      await reset([]);
      const many = Array.from({ length: ACL_APPLY_BATCH * 2 + 50 }, (_, i) =>
        acl({ resourceName: `${PREFIX}bulk-${String(i).padStart(4, "0")}` }),
      );
      const p = await plan({ content: yamlOf(many) });
      expect(p.create).toHaveLength(many.length);
      const before = await importProgress(admin, p.id);
      expect(before).toMatchObject({
        ok: true,
        data: { status: "OPEN", total: many.length, batches: { total: 3, done: 0, inFlight: 0 }, sent: 0 },
      });
      const applied = await applyPlan<Omit<AclPlanApplyResult, "plan">>(admin, p.id);
      expect(applied).toMatchObject({ ok: true, data: { outcome: "success", batches: 3 } });
      if (applied.ok) expect(applied.data.results.filter((r) => r.ok)).toHaveLength(many.length);
      expect(await importProgress(admin, p.id)).toMatchObject({
        ok: true,
        data: {
          status: "APPLIED",
          batches: { total: 3, done: 3, inFlight: 0 },
          sent: many.length,
          succeeded: many.length,
          failed: 0,
        },
      });
      expect((await aclsOfThisRun()).length).toBe(many.length);
      // The batches are confirmed together, and the shared snapshot shows all of them when Apply answers.
      const held = await aclSnapshotCache().get(admin);
      if (!held.ok) throw new Error(held.message);
      for (const b of many) expect(held.snapshot.has(b)).toBe(true);
    },
  );
});
