/**
 * Issue #17, item 11: a token request reaches whoever may approve it, although Kafka does not
 * let them describe ACLs, when the cluster has a service principal; without one the list says
 * why it cannot. Against the dev broker and PostgreSQL, with fresh SCRAM users: an owner, a
 * requester, an approver with CREATE_TOKENS on USER:<owner> (and no DESCRIBE on the cluster),
 * an outsider, and the service principal with DESCRIBE on the cluster only.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { KafkaCredential } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const kafka = await import("@/lib/kafka");
const writes = await import("@/lib/kafka/writes");
const { createAcls } = await import("@/lib/kafka/acls");
const { ADMIN, createScramUser, dropScramUser, runId } = await import("@/test/kafka/fixtures");
const { useMigratedTestDatabase } = await import("@/test/db");
const service = await import("./token-requests");

const id = runId();
const names = {
  owner: `it-sp-owner-${id}`,
  requester: `it-sp-req-${id}`,
  approver: `it-sp-appr-${id}`,
  outsider: `it-sp-out-${id}`,
  service: `it-sp-svc-${id}`,
  refused: `it-sp-nodesc-${id}`,
};
const p = (name: string) => `User:${name}`;
const viewers = {} as Record<"owner" | "requester" | "approver" | "outsider", Viewer>;
const creds = {} as Record<keyof typeof names, KafkaCredential>;
const dir = mkdtempSync(path.join(tmpdir(), "ksc-service-principal-"));
const files = { service: path.join(dir, "service.json"), refused: path.join(dir, "refused.yaml") };
let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;

beforeAll(async () => {
  db = await useMigratedTestDatabase("service_principal");
  for (const [k, name] of Object.entries(names)) creds[k as keyof typeof names] = await createScramUser(name);
  for (const k of ["owner", "requester", "approver", "outsider"] as const)
    viewers[k] = { sessionId: null, principal: p(names[k]), credential: creds[k] };
  await createAcls(ADMIN, [
    {
      resourceType: "USER",
      resourceName: p(names.owner),
      patternType: "LITERAL",
      principal: p(names.approver),
      host: "*",
      operation: "CREATE_TOKENS",
      permissionType: "ALLOW",
    },
    {
      resourceType: "CLUSTER",
      resourceName: "kafka-cluster",
      patternType: "LITERAL",
      principal: p(names.service),
      host: "*",
      operation: "DESCRIBE",
      permissionType: "ALLOW",
    },
  ]);
  // As an operator writes them: JSON or YAML, readable by the console's user only.
  writeFileSync(
    files.service,
    JSON.stringify({ username: names.service, password: creds.service.password, mechanism: "SCRAM-SHA-512" }),
    { mode: 0o600 },
  );
  writeFileSync(files.refused, `username: ${names.refused}\npassword: ${creds.refused.password}\n`, { mode: 0o600 });
});

afterAll(async () => {
  delete process.env.KAFKA_SERVICE_CREDENTIALS_FILE;
  for (const t of await kafka.describeDelegationTokens(creds.owner, null)) {
    if (t.owner === p(names.owner)) await writes.expireDelegationToken(creds.owner, t.hmac, -1).catch(() => undefined);
  }
  for (const name of Object.values(names)) await dropScramUser(name);
  await kafka.closeAllConnections();
  await db?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

async function ask(reason: string): Promise<string> {
  const r = await service.submitTokenRequest(viewers.requester, {
    owner: p(names.owner),
    renewers: [],
    maxLifetimeMs: 3_600_000,
    reason,
  });
  if (!r.ok) throw new Error(r.message);
  return r.data.id;
}

async function listAs(v: Viewer) {
  const l = await service.listTokenRequests(v);
  if (!l.ok) throw new Error(l.message);
  return l.data;
}

describe("who may approve a token request, when Kafka does not let them describe ACLs", () => {
  it("without a service principal: the approver is not offered the request, and the list says why", async () => {
    delete process.env.KAFKA_SERVICE_CREDENTIALS_FILE;
    const requestId = await ask(`without ${id}`);
    const lists = await listAs(viewers.approver);
    expect(lists.pending.map((r) => r.id)).not.toContain(requestId);
    expect(lists.aclsReadable).toBe(false);
    expect(lists.approverCheck).toEqual({
      by: "nobody",
      reason: expect.stringContaining("no service principal configured (KAFKA_SERVICE_CREDENTIALS_FILE"),
    });
    // The owner still sees it, and withdraws it.
    expect((await listAs(viewers.owner)).pending.map((r) => r.id)).toContain(requestId);
    expect(await service.denyRequest(viewers.requester, requestId, "withdrawn")).toMatchObject({ ok: true });
  });

  it(
    "a service principal Kafka does not let describe ACLs: the list gives the reason, and the " +
      "refused read is audited",
    async () => {
      process.env.KAFKA_SERVICE_CREDENTIALS_FILE = files.refused;
      const requestId = await ask(`refused ${id}`);
      const lists = await listAs(viewers.approver);
      expect(lists.pending.map((r) => r.id)).not.toContain(requestId);
      expect(lists.approverCheck).toEqual({
        by: "nobody",
        reason: expect.stringContaining(
          `the console's service principal ${p(names.refused)} could not read them: Kafka refused DescribeAcls`,
        ),
      });
      expect(lists.approverCheck.by === "nobody" && lists.approverCheck.reason).toContain("DESCRIBE on CLUSTER");
      const rows = await sql<{ outcome: string; target: string }>(
        `SELECT outcome, target FROM audit_event WHERE principal = $1`,
        [p(names.refused)],
      );
      expect(rows).toEqual([{ outcome: "denied", target: `token request ${requestId}` }]);
      expect(await service.denyRequest(viewers.requester, requestId, "withdrawn")).toMatchObject({ ok: true });
    },
  );
  it(
    "with one: the approver is offered the request and approves it; the read is audited as the " +
      "service principal, naming the request and the approver",
    async () => {
      process.env.KAFKA_SERVICE_CREDENTIALS_FILE = files.service;
      const requestId = await ask(`with ${id}`);

      const lists = await listAs(viewers.approver);
      await listAs(viewers.approver);
      expect(lists.approverCheck).toEqual({ by: "servicePrincipal", principal: p(names.service) });
      const offered = lists.pending.find((r) => r.id === requestId);
      expect(offered).toMatchObject({ entitlement: "acl", reason: `with ${id}` });
      expect(offered?.entitlementNote).toContain(`as the console's service principal ${p(names.service)} read them`);
      // Only the entitlement reaches the approver, never the ACLs the service principal read.
      expect(JSON.stringify(lists)).not.toContain("kafka-cluster");

      // Someone Kafka gives no CREATE_TOKENS on the owner is still not offered it.
      const outsider = await listAs(viewers.outsider);
      expect(outsider.pending.map((r) => r.id)).not.toContain(requestId);
      expect(JSON.stringify(outsider)).not.toContain(`with ${id}`);

      const approved = await service.approveRequest(viewers.approver, requestId);
      expect(approved).toMatchObject({ ok: true, data: { status: "APPROVED", approver: p(names.approver) } });
      const retrieved = await service.retrieveRequestedToken(viewers.requester, requestId);
      expect(retrieved).toMatchObject({ ok: true, data: { requestId } });

      const rows = await sql<{
        action: string;
        target: string;
        request: { actingFor: string; requestIds: string[] };
        outcome: string;
        repeat_count: number;
      }>(`SELECT action, target, request, outcome, repeat_count FROM audit_event WHERE principal = $1 ORDER BY id`, [
        p(names.service),
      ]);
      // One row per user and requests: the repeat (a page polling) is counted on it, not added.
      const forApprover = rows.filter((r) => r.request.actingFor === p(names.approver));
      expect(forApprover).toEqual([
        {
          action: "service.acls.describe",
          target: `token request ${requestId}`,
          request: expect.objectContaining({ requestIds: [requestId] }),
          outcome: "success",
          repeat_count: 2,
        },
      ]);
      expect(JSON.stringify(await sql(`SELECT * FROM audit_event`))).not.toContain(creds.service.password);
    },
  );
});
