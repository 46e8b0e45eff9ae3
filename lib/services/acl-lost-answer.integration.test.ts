/**
 * ACL writes whose answer from Kafka is lost, against the real broker: the console talks
 * to it through a proxy (lib/kafka/answer-dropping-proxy.ts) that forwards the CreateAcls /
 * DeleteAcls and swallows Kafka's answer, closing the connection, as when a broker stops
 * mid-request. The write is settled by reading Kafka back: confirmed (success), shown not
 * to have happened (failure), or, when Kafka cannot be read, unknown, and said so: never
 * "failed" for an ACL Kafka created.
 *
 * Works only on this run's own principal and topic names, and removes every ACL it made.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy";
import type { AclPlanApplyResult } from "@/lib/schemas/plans";

vi.mock("server-only", () => ({}));

const { startAnswerDroppingProxy } = await import("@/test/kafka/answer-dropping-proxy");
const [upstreamHost, upstreamPort] = (process.env.KAFKA_BOOTSTRAP_SERVERS ?? "127.0.0.1:9092")
  .split(",")[0]!
  .split(":");
const proxy = await startAnswerDroppingProxy({ host: upstreamHost!, port: Number(upstreamPort) });
// Read once, on the first Kafka call: every connection of this test goes through the proxy.
process.env.KAFKA_BOOTSTRAP_SERVERS = proxy.bootstrap;

const { useMigratedTestDatabase } = await import("@/test/db");
const { listAudit } = await import("@/lib/db/audit");
const { HTTP_STATUS } = await import("@/lib/schemas/result");
const kafka = await import("@/lib/kafka");
const writes = await import("@/lib/kafka/writes");
const { ADMIN, runId } = await import("@/test/kafka/fixtures");
const { createAclsAudited, deleteAclsAudited, unconfirmedAsFailure } = await import("./acls");
const { applyPlan, createPlan } = await import("./plans");

const CREATE_ACLS = 30;
const DELETE_ACLS = 31;
const RUN = runId();
const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const made: AclBinding[] = [];

const binding = (name: string): AclBinding => {
  const b: AclBinding = {
    resourceType: "TOPIC",
    resourceName: `it-lost-${RUN}-${name}`,
    patternType: "LITERAL",
    principal: `User:it-lost-${RUN}`,
    host: "*",
    operation: "READ",
    permissionType: "ALLOW",
  };
  made.push(b);
  return b;
};

const inKafka = async (b: AclBinding) => (await kafka.describeAcls(ADMIN, { ...b })).length === 1;
const lastAudit = async (action: string) => (await listAudit({ action, limit: 1 })).events[0];

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;

beforeAll(async () => {
  db = await useMigratedTestDatabase("acl_lost_answer");
});

afterAll(async () => {
  proxy.allow();
  if (made.length > 0)
    await writes
      .deleteAcls(
        ADMIN,
        made.map((b) => ({ ...b })),
      )
      .catch(() => undefined);
  await kafka.closeAllConnections();
  await proxy.close();
  await db?.teardown();
});

describe("an ACL write whose answer from Kafka is lost", () => {
  it("created all the same: confirmed by reading back, answered and audited as success", async () => {
    const [a, b] = [binding("created-a"), binding("created-b")];
    const before = proxy.dropped();
    proxy.dropNextAnswer(CREATE_ACLS);
    const result = await createAclsAudited(admin, [a, b]);
    expect(proxy.dropped()).toBe(before + 1);
    expect(result).toMatchObject({
      ok: true,
      data: {
        outcome: "success",
        message: expect.stringMatching(
          /^Kafka's answer was lost; reading back confirms 2 of 2 created\. Created 2 of 2: /,
        ),
      },
    });
    if (result.ok)
      expect(result.data.results.map((r) => [r.ok, r.readBack])).toEqual([
        [true, "applied"],
        [true, "applied"],
      ]);
    expect(await lastAudit("acl.create")).toMatchObject({
      outcome: "success",
      message: expect.stringContaining("reading back confirms 2 of 2 created"),
    });
    expect([await inKafka(a), await inKafka(b)]).toEqual([true, true]);
  }, 60_000);

  it("deleted all the same: confirmed by reading back, answered and audited as success", async () => {
    const a = binding("deleted");
    await writes.createAcls(ADMIN, [a]);
    proxy.dropNextAnswer(DELETE_ACLS);
    const result = await deleteAclsAudited(admin, [a]);
    expect(result).toMatchObject({
      ok: true,
      data: {
        outcome: "success",
        message: expect.stringMatching(/^Kafka's answer was lost; reading back confirms 1 of 1 deleted\./),
      },
    });
    expect(await lastAudit("acl.delete")).toMatchObject({ outcome: "success" });
    expect(await inKafka(a)).toBe(false);
  }, 60_000);

  it(
    "never reached Kafka (the request was lost with the connection): reading back shows it was not " +
      "created, a failure",
    async () => {
      const a = binding("never-sent");
      proxy.dropNextRequest(CREATE_ACLS);
      const result = await createAclsAudited(admin, [a]);
      expect(result).toMatchObject({
        ok: false,
        code: "BROKER_UNAVAILABLE",
        message: expect.stringMatching(
          /Kafka's answer was lost .*reading the ACLs back for 10 s shows it was not created/,
        ),
      });
      expect(await lastAudit("acl.create")).toMatchObject({ outcome: "failure" });
      expect(await inKafka(a)).toBe(false);
    },
    60_000,
  );

  it(
    "and Kafka unreachable afterwards: outcome unknown, the API answers 503 saying it could not be " +
      "confirmed, and the ACL is in fact there",
    async () => {
      const a = binding("unconfirmed");
      proxy.dropNextAnswer(CREATE_ACLS, { thenRefuse: true });
      const result = unconfirmedAsFailure(await createAclsAudited(admin, [a]));
      expect(result).toMatchObject({
        ok: false,
        code: "BROKER_UNAVAILABLE",
        message: expect.stringMatching(
          /^Kafka's answer was lost and the ACLs could not be read back: whether 1 ACL was created could not be confirmed; check the ACL list/,
        ),
      });
      if (!result.ok) expect(HTTP_STATUS[result.code]).toBe(503);
      expect(await lastAudit("acl.create")).toMatchObject({ outcome: "unknown" });
      proxy.allow();
      expect(await inKafka(a)).toBe(true);
    },
    60_000,
  );

  it("applying a plan: the result says the ACL was created, confirmed by reading back", async () => {
    const a = binding("plan");
    const plan = await createPlan(admin, "acl.create", { bindings: [a] });
    if (!plan.ok) throw new Error(plan.message);
    proxy.dropNextAnswer(CREATE_ACLS);
    const applied = await applyPlan<AclPlanApplyResult>(admin, plan.data.id);
    expect(applied).toMatchObject({
      ok: true,
      data: {
        outcome: "success",
        message: expect.stringMatching(
          /^Kafka's answer was lost; reading back confirms 1 of 1 created\. Created 1 of 1 ACL of the plan\./,
        ),
        plan: { status: "APPLIED" },
      },
    });
    expect(await lastAudit("acl.create")).toMatchObject({ outcome: "success", planId: plan.data.id });
    expect(await inKafka(a)).toBe(true);
  }, 60_000);
});
