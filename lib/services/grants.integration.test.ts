/**
 * Grants that end by themselves (#19) against the dev broker and PostgreSQL: at the expiry
 * the dev service principal (console-service, DESCRIBE+ALTER on the cluster) removes exactly
 * the grant's bindings through a plan, audited grant.expire; a binding another live grant
 * holds is kept; one deleted by hand meanwhile is already gone and nothing else is removed;
 * ending early by the requester, not by a stranger; and a broker that cannot be reached at
 * the expiry (a cluster whose bootstrap is a closed port: the shared broker is never stopped)
 * leaves the grant LIVE and overdue until it can be, then it is removed.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy/types";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const { getGrant, saveGrant } = await import("@/lib/db/access-grant");
const kafka = await import("@/lib/kafka");
const fx = await import("@/test/services/grant-fixtures");
const { endGrant, grantViewOf, removeExpiredGrant } = await import("./grants");

const MARK = `it-grant-${randomBytes(4).toString("hex")}`;
const alice = fx.demoViewer("alice");
const bob = fx.demoViewer("bob");
const newTopic = fx.topicNames(MARK);
const dir = mkdtempSync(path.join(tmpdir(), "ksc-grants-"));

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let restoreEnv: () => void = () => undefined;
let service: { file: string; principal: string };

beforeAll(async () => {
  db = await useMigratedTestDatabase("grants");
  restoreEnv = fx.setEnv({ KAFKA_REQUIRED_APPROVALS: undefined, KAFKA_SERVICE_CREDENTIALS_FILE: undefined });
  service = await fx.useDevServicePrincipal();
});

afterAll(async () => {
  await fx.cleanUp(MARK, restoreEnv, db);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A grant of alice's, approved by the admin, of `bindings` (created in Kafka here unless told),
 * expiring at `expiresAt`.
 */
async function grantOf(
  bindings: AclBinding[],
  expiresAt: Date,
  options: { clusterId?: string; inKafka?: boolean } = {},
) {
  const { clusterId = "default", inKafka = true } = options;
  if (inKafka) await fx.addAcls(bindings);
  return saveGrant({
    clusterId,
    requestId: null,
    requester: alice.principal,
    approver: "User:admin",
    planId: randomUUID(),
    bindings,
    expiresAt,
  });
}

const ago = (ms: number) => new Date(Date.now() - ms);

describe("at the expiry", () => {
  it(
    "the service principal removes exactly the grant's bindings through a plan, audited grant.expire with " +
      "the removal plan",
    async () => {
      const topic = newTopic();
      const [a, b, other] = [
        fx.topicAcl(topic, alice.principal, "WRITE"),
        fx.topicAcl(topic, alice.principal, "READ"),
        fx.topicAcl(topic, alice.principal, "DESCRIBE"),
      ];
      await fx.addAcls([other]);
      const grant = await grantOf([a, b], ago(1000));

      expect(await removeExpiredGrant(grant.id)).toMatchObject({ outcome: "removed" });
      expect(await fx.aclsMarked(topic)).toEqual([other]);
      const after = await getGrant(grant.id);
      expect(after).toMatchObject({ status: "ENDED", outcome: "removed", attempts: 1, claimedAt: null });
      const plan = await getPrisma().changePlan.findUniqueOrThrow({ where: { id: after!.removalPlanId! } });
      expect(plan).toMatchObject({ principal: service.principal, kind: "acl.delete", status: "APPLIED" });
      const rows = await fx.auditRows({ planId: plan.id });
      expect(rows.map((e) => [e.action, e.outcome, e.principal])).toEqual([
        ["acl.delete", "success", service.principal],
        ["grant.expire", "success", service.principal],
      ]);
      expect(rows[1]!.request).toMatchObject({ grantId: grant.id, bindings: [a, b] });
      expect(rows[1]!.subjects).toEqual(expect.arrayContaining([alice.principal, "User:admin"]));

      // Again (a job delivered twice, the sweep): nothing more.
      expect(await removeExpiredGrant(grant.id)).toMatchObject({ outcome: "not-due" });
      expect(await fx.auditRows({ action: "grant.expire", targetContains: grant.id })).toHaveLength(1);
    },
  );

  it("a binding another live grant also holds is kept until that grant ends too", async () => {
    const topic = newTopic();
    const [a, shared] = [fx.topicAcl(topic, alice.principal, "WRITE"), fx.topicAcl(topic, alice.principal, "READ")];
    const first = await grantOf([a, shared], ago(1000));
    const second = await grantOf([shared], ago(-600_000), { inKafka: false });

    expect(await removeExpiredGrant(first.id)).toMatchObject({ outcome: "removed" });
    expect(await fx.aclsMarked(topic)).toEqual([shared]);
    const [audit] = await fx.auditRows({ action: "grant.expire", targetContains: first.id });
    expect(audit!.request).toMatchObject({ bindings: [a] });

    expect(await removeExpiredGrant(second.id)).toMatchObject({ outcome: "not-due" });
    await getPrisma().accessGrant.update({ where: { id: second.id }, data: { expiresAt: ago(1000) } });
    expect(await removeExpiredGrant(second.id)).toMatchObject({ outcome: "removed" });
    expect(await fx.aclsMarked(topic)).toEqual([]);
  });

  it("two grants holding the same binding, removed at the same moment: the binding is removed", async () => {
    const topic = newTopic();
    const shared = fx.topicAcl(topic, alice.principal, "READ");
    const first = await grantOf([shared], ago(1000));
    const second = await grantOf([shared], ago(1000), { inKafka: false });
    const results = await Promise.all([removeExpiredGrant(first.id), removeExpiredGrant(second.id)]);
    expect(results.map((r) => r.outcome)).not.toContain("not-due");
    expect(await fx.aclsMarked(topic)).toEqual([]);
    expect((await getGrant(first.id))?.status).toBe("ENDED");
    expect((await getGrant(second.id))?.status).toBe("ENDED");
  });

  it("a binding deleted by hand meanwhile: already-gone, and nothing else is removed", async () => {
    const topic = newTopic();
    const [a, other] = [fx.topicAcl(topic, alice.principal, "WRITE"), fx.topicAcl(topic, alice.principal, "READ")];
    await fx.addAcls([other]);
    const grant = await grantOf([a], ago(1000));
    await fx.removeAcls([a]);

    expect(await removeExpiredGrant(grant.id)).toMatchObject({ outcome: "already-gone" });
    expect(await fx.aclsMarked(topic)).toEqual([other]);
    const after = await getGrant(grant.id);
    expect(after).toMatchObject({ status: "ENDED", outcome: "already-gone" });
    expect(await fx.auditRows({ planId: after!.removalPlanId!, action: "acl.delete" })).toEqual([]);
  });
});

describe("ending a grant early", () => {
  it("by a stranger: DENIED; by its requester: removed now", async () => {
    const topic = newTopic();
    const a = fx.topicAcl(topic, alice.principal, "WRITE");
    const grant = await grantOf([a], ago(-30 * 60_000));

    expect(await endGrant(bob, grant.id)).toMatchObject({ ok: false, code: "DENIED" });
    expect(await fx.aclsMarked(topic)).toEqual([a]);
    expect((await getGrant(grant.id))?.status).toBe("LIVE");

    const ended = await endGrant(alice, grant.id);
    expect(ended).toMatchObject({ ok: true, data: { grant: { status: "ENDED", outcome: "removed" } } });
    expect(await fx.aclsMarked(topic)).toEqual([]);
    expect((await getGrant(grant.id))?.endedBy).toBe(alice.principal);
    expect(await fx.auditRows({ action: "grant.end", targetContains: grant.id })).toHaveLength(1);
    expect(await endGrant(alice, grant.id)).toMatchObject({ ok: false, code: "CONFLICT" });
  });
});

describe("a broker that cannot be reached at the expiry", () => {
  /** A port nothing listens on. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  /** A clusters file: `default` (the dev broker) and `flaky` at `flakyAt`, both with the service principal. */
  function clustersFile(name: string, flakyAt: string): string {
    const dev = kafka.kafkaConfig().bootstrapServers;
    const cluster = (id: string, bootstrapServers: readonly string[]) => ({
      id,
      bootstrapServers,
      superUsers: ["User:admin"],
      serviceCredentialsFile: service.file,
    });
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify({ clusters: [cluster("default", dev), cluster("flaky", [flakyAt])] }));
    return file;
  }

  it("the removal fails, the grant stays LIVE and shows overdue; once reachable it is removed", async () => {
    const down = clustersFile("down.json", `127.0.0.1:${await closedPort()}`);
    const up = clustersFile("up.json", kafka.kafkaConfig().bootstrapServers[0]!);
    const topic = newTopic();
    const a = fx.topicAcl(topic, alice.principal, "WRITE");
    const grant = await grantOf([a], ago(2 * 60_000), { clusterId: "flaky" });
    const restore = fx.setEnv({
      CLUSTERS_FILE: down,
      KAFKA_SERVICE_CREDENTIALS_FILE: undefined,
      KAFKA_SUPER_USERS: undefined,
    });
    try {
      await expect(removeExpiredGrant(grant.id)).rejects.toThrow();
      const failed = (await getGrant(grant.id))!;
      expect(failed).toMatchObject({ status: "LIVE", attempts: 1, lastError: expect.any(String) });
      expect(grantViewOf(failed)).toMatchObject({ status: "LIVE", overdue: true });
      expect(await fx.aclsMarked(topic)).toEqual([a]);
      expect((await fx.auditRows({ action: "grant.expire", targetContains: grant.id })).map((e) => e.outcome)).toEqual([
        "failure",
      ]);

      process.env.CLUSTERS_FILE = up;
      await kafka.closeAllConnections();
      expect(await removeExpiredGrant(grant.id)).toMatchObject({ outcome: "removed" });
      expect(await getGrant(grant.id)).toMatchObject({ status: "ENDED", outcome: "removed", attempts: 2 });
      expect(await fx.aclsMarked(topic)).toEqual([]);
    } finally {
      restore();
      await kafka.closeAllConnections();
    }
  });
});
