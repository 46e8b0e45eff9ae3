/**
 * Several clusters, with a real second broker: nothing from one cluster is ever shown or
 * applied on another. Cluster "a" is the dev broker (127.0.0.1:9092); cluster "b" is a
 * second broker, CLUSTERS_SECOND_BOOTSTRAP (default 127.0.0.1:23092, started with
 * `KAFKA_STATE_DIR=/tmp/kafka-b KAFKA_PORT=23092 KAFKA_CONTROLLER_PORT=23093 bash scripts/kafka.sh start`).
 * When nothing answers at the default address the suite starts that broker itself, in a
 * temporary state dir, and removes it at the end; a CLUSTERS_SECOND_BOOTSTRAP that does not
 * answer fails the suite.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy";
import { startPrivateBroker, untilSignsIn, type PrivateBroker } from "@/test/kafka/private-broker";

vi.mock("server-only", () => ({}));

const SECOND = process.env.CLUSTERS_SECOND_BOOTSTRAP ?? "127.0.0.1:23092";
const [secondHost, secondPort] = [
  SECOND.slice(0, SECOND.lastIndexOf(":")),
  Number(SECOND.slice(SECOND.lastIndexOf(":") + 1)),
];

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2_000 }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.on("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
let ownSecond: PrivateBroker | undefined;
if (!(await answers(secondHost, secondPort))) {
  if (process.env.CLUSTERS_SECOND_BOOTSTRAP)
    throw new Error(`CLUSTERS_SECOND_BOOTSTRAP=${SECOND}: no broker answers there`);
  ownSecond = startPrivateBroker(mkdtempSync(path.join(tmpdir(), "ksc-it-cluster-b-")), secondPort);
}

const saved: Record<string, string | undefined> = {};
const dir = mkdtempSync(path.join(tmpdir(), "ksc-two-clusters-"));
const clustersFile = path.join(dir, "clusters.yaml");
writeFileSync(
  clustersFile,
  `default: a
clusters:
  - id: a
    name: Cluster A
    bootstrapServers: [127.0.0.1:${process.env.KAFKA_PORT ?? "9092"}]
    superUsers: [User:admin]
  - id: b
    name: Cluster B
    bootstrapServers: [${SECOND}]
    saslMechanisms: [SCRAM-SHA-512]
    superUsers: [User:admin]
`,
);
for (const name of [
  "CLUSTERS_FILE",
  "KAFKA_BOOTSTRAP_SERVERS",
  "KAFKA_SUPER_USERS",
  "KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND",
]) {
  saved[name] = process.env[name];
  delete process.env[name];
}
process.env.CLUSTERS_FILE = clustersFile;

const { useMigratedTestDatabase } = await import("@/test/db");
const kafka = await import("@/lib/kafka");
const writes = await import("@/lib/kafka/writes");
const { ADMIN, createScramUser, dropScramUser, runId } = await import("@/test/kafka/fixtures");
const { signIn, viewerFromBasic, viewerFromSessionId } = await import("@/lib/auth/sign-in");
const { recordAudit } = await import("@/lib/db/audit");
const { getAclSnapshot, invalidateAclSnapshot } = await import("./acl-snapshot");
const { applyPlan, createPlan, getPlanView } = await import("./plans");
const { listAuditFor } = await import("./audit-view");
const tokenRequests = await import("./token-requests");
const { compareClusters } = await import("./cluster-compare");

const RUN = runId();
const TOPIC = `it-clusters-${RUN}`;
const ADMIN_B = { ...ADMIN, clusterId: "b" };
const adminA = { sessionId: null, principal: "User:admin", credential: { ...ADMIN, clusterId: "a" } };
const adminB = { sessionId: null, principal: "User:admin", credential: ADMIN_B };
const binding: AclBinding = {
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: `User:it-clusters-${RUN}`,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};
const ofThisRun = {
  resourceType: "ANY",
  resourceName: null,
  patternType: "ANY",
  principal: binding.principal,
  host: null,
  operation: "ANY",
  permissionType: "ANY",
} as const;

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;
let requester: Awaited<ReturnType<typeof createScramUser>>;

describe("two clusters, one console", () => {
  beforeAll(async () => {
    await untilSignsIn(ADMIN_B);
    db = await useMigratedTestDatabase("clusters");
    requester = await createScramUser(`it-clusters-req-${RUN}`);
  });

  afterAll(async () => {
    await writes.deleteAcls(ADMIN, [{ ...ofThisRun }]).catch(() => undefined);
    await writes.deleteAcls(ADMIN_B, [{ ...ofThisRun }]).catch(() => undefined);
    await dropScramUser(requester.username).catch(() => undefined);
    await kafka.closeAllConnections();
    await db.teardown();
    ownSecond?.destroy();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("signs in to the cluster asked for, and the session acts there only", async () => {
    const signed = await signIn(
      { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512", cluster: "b" },
      "127.0.0.1",
    );
    expect(signed.ok).toBe(true);
    if (!signed.ok) return;
    const viewer = await viewerFromSessionId(signed.data.sessionId);
    expect(viewer?.credential.clusterId).toBe("b");
    const described = await kafka.describeCluster(viewer!.credential);
    expect(described.brokers.map((b) => `${b.host}:${b.port}`)).toEqual([SECOND]);
    const onA = await kafka.describeCluster(adminA.credential);
    expect(onA.clusterId).not.toBe(described.clusterId);
  });

  it("takes API callers with Basic credentials to the cluster they name", async () => {
    const basic = await viewerFromBasic(
      { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512", cluster: "b" },
      "127.0.0.4",
    );
    expect(basic.ok && basic.data.credential.clusterId).toBe("b");
    const byDefault = await viewerFromBasic(
      { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" },
      "127.0.0.4",
    );
    expect(byDefault.ok && byDefault.data.credential.clusterId).toBe("a");
    expect(
      await viewerFromBasic(
        { username: requester.username, password: requester.password, mechanism: "SCRAM-SHA-512", cluster: "b" },
        "127.0.0.4",
      ),
    ).toMatchObject({
      ok: false,
      code: "INVALID_CREDENTIALS",
    });
  });

  it(
    "proves credentials against the chosen cluster: a user of A is refused on B; B offers only its " +
      "mechanisms; an unknown cluster is named",
    async () => {
      const asUser = {
        username: requester.username,
        password: requester.password,
        mechanism: "SCRAM-SHA-512" as const,
      };
      expect(await signIn({ ...asUser, cluster: "a" }, "127.0.0.2")).toMatchObject({ ok: true });
      expect(await signIn({ ...asUser, cluster: "b" }, "127.0.0.2")).toMatchObject({
        ok: false,
        code: "INVALID_CREDENTIALS",
      });
      expect(
        await signIn({ username: "admin", password: "admin-secret", mechanism: "PLAIN", cluster: "b" }, "127.0.0.3"),
      ).toMatchObject({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { mechanism: ["Choose one of SCRAM-SHA-512"] },
      });
      expect(
        await signIn(
          { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512", cluster: "c" },
          "127.0.0.3",
        ),
      ).toMatchObject({
        ok: false,
        code: "VALIDATION",
        message: 'No cluster has the id "c".',
      });
    },
  );

  it("keeps one ACL snapshot per cluster: an ACL created on A is not in B's", async () => {
    await writes.createAcls(adminA.credential, [binding]);
    const a = await getAclSnapshot(adminA, { forceRefresh: true });
    const b = await getAclSnapshot(adminB, { forceRefresh: true });
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.snapshot.store.bindings()).toContainEqual(binding);
    expect(b.snapshot.store.bindings()).not.toContainEqual(binding);
  });

  it("never shows or applies a plan made on A on B; on A it applies", async () => {
    const made = await createPlan(adminA, "acl.delete", { bindings: [binding] });
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    const id = (made.data as unknown as { id: string }).id;
    const refusal = { ok: false, code: "CONFLICT", message: expect.stringContaining("made on the cluster Cluster A") };
    expect(await getPlanView(adminB, id)).toMatchObject(refusal);
    expect(await applyPlan(adminB, id)).toMatchObject(refusal);
    expect(await kafka.describeAcls(adminA.credential, { ...ofThisRun })).toEqual([binding]);
    expect(await applyPlan(adminA, id)).toMatchObject({ ok: true });
    expect(await kafka.describeAcls(adminA.credential, { ...ofThisRun })).toEqual([]);
  });

  it("never lists, approves, denies or hands out on B a token request made on A", async () => {
    const viewerA = {
      sessionId: null,
      principal: `User:${requester.username}`,
      credential: { ...requester, clusterId: "a" },
    };
    const submitted = await tokenRequests.submitTokenRequest(viewerA, {
      owner: "User:admin",
      renewers: [],
      maxLifetimeMs: 3_600_000,
      reason: `clusters ${RUN}`,
    });
    expect(submitted.ok).toBe(true);
    if (!submitted.ok) return;
    const id = submitted.data.id;

    const onB = await tokenRequests.listTokenRequests(adminB);
    expect(onB.ok && [...onB.data.mine, ...onB.data.pending].map((r) => r.id)).not.toContain(id);
    const onA = await tokenRequests.listTokenRequests(adminA);
    expect(onA.ok && onA.data.pending.map((r) => r.id)).toContain(id);

    expect(await tokenRequests.approveRequest(adminB, id)).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await tokenRequests.denyRequest(adminB, id, "wrong cluster")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(
      await tokenRequests.retrieveRequestedToken(
        { ...viewerA, credential: { ...viewerA.credential, clusterId: "b" } },
        id,
      ),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    // Still open on A, untouched by the attempts on B.
    const again = await tokenRequests.listTokenRequests(adminA);
    expect(again.ok && again.data.pending.find((r) => r.id === id)?.status).toBe("PENDING");
  });

  it("shows each cluster's audit events only on that cluster", async () => {
    const target = `clusters-audit-${RUN}`;
    await recordAudit({
      principal: "User:admin",
      action: "acl.create",
      target,
      outcome: "success",
      category: "acl",
      clusterId: "a",
    });
    await recordAudit({
      principal: "User:admin",
      action: "acl.delete",
      target,
      outcome: "success",
      category: "acl",
      clusterId: "b",
    });
    const onA = await listAuditFor(adminA, { limit: 1000 });
    const onB = await listAuditFor(adminB, { limit: 1000 });
    expect(onA.ok && onA.data.events.filter((e) => e.target === target).map((e) => e.action)).toEqual(["acl.create"]);
    expect(onB.ok && onB.data.events.filter((e) => e.target === target).map((e) => e.action)).toEqual(["acl.delete"]);
    // The plan applied on A above was audited on A: B's trail does not have it.
    expect(onB.ok && onB.data.events.some((e) => e.target.includes(TOPIC))).toBe(false);
    expect(onA.ok && onA.data.events.some((e) => e.target.includes(TOPIC))).toBe(true);
  });

  it("compares a principal's ACLs on A and B, and the plan made on B makes B like A", async () => {
    const principal = `User:it-compare-${RUN}`;
    const only = (resourceName: string, operation: AclBinding["operation"]): AclBinding => ({
      ...binding,
      principal,
      resourceName,
      operation,
    });
    const onA = [only(`${TOPIC}-x`, "READ"), only(`${TOPIC}-y`, "WRITE")];
    const onB = [only(`${TOPIC}-x`, "READ"), only(`${TOPIC}-z`, "DESCRIBE")];
    const mine = { ...ofThisRun, principal };
    try {
      await writes.createAcls(ADMIN, onA);
      await writes.createAcls(ADMIN_B, onB);
      // Made behind the console's back: read both clusters afresh.
      invalidateAclSnapshot("a");
      invalidateAclSnapshot("b");
      const scope = { principal, prefix: null };
      const before = await compareClusters(adminA, adminB, scope);
      expect(before.ok).toBe(true);
      if (!before.ok) return;
      expect(before.data.acls.map((r) => [r.side, r.binding.resourceName]).sort()).toEqual([
        ["both", `${TOPIC}-x`],
        ["here", `${TOPIC}-y`],
        ["there", `${TOPIC}-z`],
      ]);
      const planInput = before.data.aclPlan!;
      const plan = await createPlan(adminB, planInput.kind, planInput.input);
      expect(plan.ok).toBe(true);
      if (!plan.ok) return;
      // The plan lives on B: A does not have it.
      expect((await getPlanView(adminA, plan.data.id)).ok).toBe(false);
      const applied = await applyPlan(adminB, plan.data.id);
      expect(applied.ok).toBe(true);
      // The next compare agrees, and A was not touched.
      await expect
        .poll(async () => {
          const after = await compareClusters(adminA, adminB, scope);
          return after.ok ? { plan: after.data.aclPlan, sides: after.data.acls.map((r) => r.side) } : after.message;
        })
        .toEqual({ plan: null, sides: ["both", "both"] });
      const stillOnA = await kafka.describeAcls(ADMIN, mine);
      expect(stillOnA.map((b) => b.resourceName).sort()).toEqual([`${TOPIC}-x`, `${TOPIC}-y`]);
    } finally {
      await writes.deleteAcls(ADMIN, [mine]).catch(() => undefined);
      await writes.deleteAcls(ADMIN_B, [mine]).catch(() => undefined);
    }
  });
});
