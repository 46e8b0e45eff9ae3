/**
 * Requests for changes (#19) against the dev broker and PostgreSQL: alice files an ACL
 * change with a grant, the admin reviews (a plan made as the admin, tied to the request) and
 * approves; Kafka decides who may review and approve; concurrent decisions have one winner;
 * a plan whose basis changed is 409 and nothing is sent; deny, cancel, the longest grant;
 * a binding that was there before the grant is not the grant's.
 *
 * Works on this run's topics only, and removes every ACL it made.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const fx = await import("@/test/services/grant-fixtures");
const { createScramUser, dropScramUser } = await import("@/test/kafka/fixtures");
const requests = await import("./requests");
const { removeExpiredGrant } = await import("./grants");
const { requestDenyBodySchema } = await import("@/lib/schemas/requests");

const MARK = `it-req-${randomBytes(4).toString("hex")}`;
const alice = fx.demoViewer("alice");
const bob = fx.demoViewer("bob");
const { admin } = fx;
const newTopic = fx.topicNames(MARK);

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  db = await useMigratedTestDatabase("requests");
  restoreEnv = fx.setEnv({
    KAFKA_REQUIRED_APPROVALS: undefined,
    KAFKA_MAX_GRANT_MINUTES: undefined,
    KAFKA_SERVICE_CREDENTIALS_FILE: undefined,
  });
  await fx.useDevServicePrincipal();
});

afterAll(async () => {
  await fx.cleanUp(MARK, restoreEnv, db);
});

async function file(bindings: ReturnType<typeof fx.topicAcl>[], grantMinutes?: number) {
  const r = await requests.fileRequest(alice, {
    change: { kind: "acl.create", bindings },
    reason: `for the test ${MARK}`,
    ...(grantMinutes !== undefined ? { grantMinutes } : {}),
  });
  if (!r.ok) throw new Error(`filing refused: ${r.message}`);
  return r.data.request;
}

async function review(viewer: typeof admin, id: string) {
  const r = await requests.reviewRequest(viewer, id);
  if (!r.ok) throw new Error(`review refused: ${r.message}`);
  return r.data;
}

const status = async (id: string) => (await getPrisma().changeRequest.findUniqueOrThrow({ where: { id } })).status;

describe("file, review, approve", () => {
  it(
    "alice's request with a grant is reviewed and approved by the admin: the ACL is in Kafka, the request " +
      "APPLIED with the plan, a grant of exactly that binding, and audit rows with the plan id",
    async () => {
      const wanted = fx.topicAcl(newTopic(), alice.principal);
      const request = await file([wanted], 30);
      expect(request).toMatchObject({ status: "PENDING", requester: alice.principal, grantMinutes: 30 });

      const plan = await review(admin, request.id);
      const stored = await getPrisma().changePlan.findUniqueOrThrow({ where: { id: plan.id } });
      expect(stored).toMatchObject({ principal: admin.principal, requestId: request.id, status: "OPEN" });

      const approved = await requests.approveChangeRequest(admin, request.id, plan.id);
      expect(approved).toMatchObject({ ok: true, data: { request: { status: "APPLIED", planId: plan.id } } });
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([wanted]);

      const grants = await getPrisma().accessGrant.findMany({ where: { requestId: request.id } });
      expect(grants).toHaveLength(1);
      expect(grants[0]).toMatchObject({ planId: plan.id, status: "LIVE", requester: alice.principal });
      expect(grants[0]!.bindings).toEqual([wanted]);
      if (approved.ok) expect(approved.data.request.grantId).toBe(grants[0]!.id);

      const filed = await fx.auditRows({ action: "request.file", targetContains: request.id });
      expect(filed.map((e) => [e.principal, e.outcome])).toEqual([[alice.principal, "success"]]);
      const byPlan = await fx.auditRows({ planId: plan.id });
      expect(byPlan.map((e) => [e.action, e.outcome, e.principal])).toEqual([
        ["acl.create", "success", admin.principal],
        ["request.apply", "success", admin.principal],
      ]);
    },
  );

  it("bob, whom Kafka does not let describe or alter ACLs, can neither review nor approve", async () => {
    const wanted = fx.topicAcl(newTopic(), alice.principal);
    const request = await file([wanted]);
    const reviewed = await requests.reviewRequest(bob, request.id);
    expect(reviewed).toMatchObject({ ok: false, code: "DENIED" });
    const plan = await review(admin, request.id);
    // The admin's plan is not bob's to approve, and bob has none of his own.
    expect(await requests.approveChangeRequest(bob, request.id, plan.id)).toMatchObject({ ok: false });
    expect(await status(request.id)).toBe("PENDING");
    expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);
    expect(await requests.denyChangeRequest(bob, request.id, "no")).toMatchObject({ ok: false, code: "DENIED" });
    expect(await requests.cancelChangeRequest(alice, request.id)).toMatchObject({ ok: true });
  });

  it("a reviewer who may describe but not alter ACLs: the review works, Kafka DENIES the approval", async () => {
    const name = `${MARK}-describer`;
    const describer = fx.viewerOf(await createScramUser(name));
    try {
      await fx.addAcls([fx.clusterAcl(describer.principal, "DESCRIBE")]);
      const wanted = fx.topicAcl(newTopic(), alice.principal);
      const request = await file([wanted], 30);
      const plan = await review(describer, request.id);
      const approved = await requests.approveChangeRequest(describer, request.id, plan.id);
      expect(approved).toMatchObject({ ok: false, code: "DENIED" });
      expect(await status(request.id)).toBe("PENDING");
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);
      expect(await getPrisma().accessGrant.count({ where: { requestId: request.id } })).toBe(0);
      const rows = await fx.auditRows({ planId: plan.id });
      expect(rows.map((e) => [e.action, e.outcome])).toEqual([
        ["acl.create", "denied"],
        ["request.apply", "denied"],
      ]);
      // The admin can still approve it.
      const again = await review(admin, request.id);
      expect(await requests.approveChangeRequest(admin, request.id, again.id)).toMatchObject({ ok: true });
    } finally {
      await dropScramUser(name);
    }
  });

  it("two approvals at once: exactly one applies, the other is CONFLICT", async () => {
    const wanted = fx.topicAcl(newTopic(), alice.principal);
    const request = await file([wanted]);
    const plan = await review(admin, request.id);
    const results = await Promise.all([
      requests.approveChangeRequest(admin, request.id, plan.id),
      requests.approveChangeRequest(admin, request.id, plan.id),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(await status(request.id)).toBe("APPLIED");
    expect(await fx.aclsMarked(wanted.resourceName)).toEqual([wanted]);
    expect(await fx.auditRows({ planId: plan.id, action: "acl.create" })).toHaveLength(1);
    expect(await fx.auditRows({ action: "request.apply", targetContains: request.id })).toHaveLength(1);
  });

  it("approve and deny at once: one wins, and the state agrees with it", async () => {
    for (let round = 0; round < 3; round++) {
      const wanted = fx.topicAcl(newTopic(), alice.principal);
      const request = await file([wanted]);
      const plan = await review(admin, request.id);
      const [approved, denied] = await Promise.all([
        requests.approveChangeRequest(admin, request.id, plan.id),
        requests.denyChangeRequest(admin, request.id, "not now"),
      ]);
      expect([approved.ok, denied.ok].filter(Boolean)).toHaveLength(1);
      const acls = await fx.aclsMarked(wanted.resourceName);
      if (approved.ok) {
        expect(denied).toMatchObject({ ok: false, code: "CONFLICT" });
        expect(await status(request.id)).toBe("APPLIED");
        expect(acls).toEqual([wanted]);
      } else {
        expect(approved).toMatchObject({ ok: false, code: "CONFLICT" });
        expect(await status(request.id)).toBe("DENIED");
        expect(acls).toEqual([]);
        expect(await fx.auditRows({ planId: plan.id, action: "acl.create" })).toEqual([]);
      }
    }
  });

  it.each([
    ["the same ACL created by hand", (b: ReturnType<typeof fx.topicAcl>) => b],
    ["another binding on the resource", (b: ReturnType<typeof fx.topicAcl>) => ({ ...b, operation: "READ" as const })],
  ])(
    "the basis changed between review and approve (%s): 409, the request stays PENDING, nothing sent",
    async (_, meanwhile) => {
      const wanted = fx.topicAcl(newTopic(), alice.principal);
      const request = await file([wanted], 30);
      const plan = await review(admin, request.id);
      await fx.addAcls([meanwhile(wanted)]);
      const approved = await requests.approveChangeRequest(admin, request.id, plan.id);
      expect(approved).toMatchObject({ ok: false, code: "CONFLICT" });
      expect(await status(request.id)).toBe("PENDING");
      expect(await fx.auditRows({ planId: plan.id, action: "acl.create" })).toEqual([]);
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([meanwhile(wanted)]);
      expect(await getPrisma().accessGrant.count({ where: { requestId: request.id } })).toBe(0);
      // A new review sees the new state; the request can still be decided.
      expect(await requests.cancelChangeRequest(alice, request.id)).toMatchObject({ ok: true });
    },
  );
});

describe("deny, cancel, limits", () => {
  it("deny needs a comment and a reviewer; the requester cannot deny; cancel only by the requester", async () => {
    const request = await file([fx.topicAcl(newTopic(), alice.principal)]);
    expect(requestDenyBodySchema.safeParse({ comment: "  " }).success).toBe(false);
    expect(await requests.denyChangeRequest(admin, request.id, " ")).toMatchObject({
      ok: false,
      code: "VALIDATION",
    });
    expect(await requests.denyChangeRequest(alice, request.id, "mine")).toMatchObject({ ok: false, code: "DENIED" });
    expect(await requests.cancelChangeRequest(bob, request.id)).toMatchObject({ ok: false, code: "DENIED" });
    expect(await requests.cancelChangeRequest(admin, request.id)).toMatchObject({ ok: false, code: "DENIED" });
    expect(await status(request.id)).toBe("PENDING");
    // The admin is a super user: may deny even without a review.
    const denied = await requests.denyChangeRequest(admin, request.id, "not needed");
    expect(denied).toMatchObject({ ok: true, data: { request: { status: "DENIED", comment: "not needed" } } });
    expect(await requests.cancelChangeRequest(alice, request.id)).toMatchObject({ ok: false, code: "CONFLICT" });

    const another = await file([fx.topicAcl(newTopic(), alice.principal)]);
    expect(await requests.cancelChangeRequest(alice, another.id)).toMatchObject({
      ok: true,
      data: { request: { status: "CANCELLED" } },
    });
    expect(await fx.auditRows({ action: "request.cancel", targetContains: another.id })).toHaveLength(1);
  });

  it("a request past its timeout: the sweep times it out, audited, and it can no longer be approved", async () => {
    const request = await file([fx.topicAcl(newTopic(), alice.principal)]);
    const plan = await review(admin, request.id);
    await getPrisma().changeRequest.update({
      where: { id: request.id },
      data: { timeoutAt: new Date(Date.now() - 1000) },
    });
    expect(await requests.approveChangeRequest(admin, request.id, plan.id)).toMatchObject({ ok: false });
    expect(await requests.timeOutDueRequests()).toBeGreaterThanOrEqual(1);
    expect(await status(request.id)).toBe("TIMED_OUT");
    expect(await fx.auditRows({ action: "request.timeout", targetContains: request.id })).toHaveLength(1);
    expect(await fx.auditRows({ planId: plan.id, action: "acl.create" })).toEqual([]);
  });

  it("grantMinutes over the cluster's maximum is VALIDATION", async () => {
    const restore = fx.setEnv({ KAFKA_MAX_GRANT_MINUTES: "60" });
    try {
      const r = await requests.fileRequest(alice, {
        change: { kind: "acl.create", bindings: [fx.topicAcl(newTopic(), alice.principal)] },
        reason: "too long",
        grantMinutes: 61,
      });
      expect(r).toMatchObject({ ok: false, code: "VALIDATION", fieldErrors: { grantMinutes: expect.any(Array) } });
      expect((await requests.fileRequest(alice, { ...okBody(), grantMinutes: 60 })).ok).toBe(true);
    } finally {
      restore();
    }
  });

  it("a binding that was there before the grant is not part of it, and stays at the expiry", async () => {
    const topic = newTopic();
    const before = fx.topicAcl(topic, alice.principal, "WRITE");
    const added = fx.topicAcl(topic, alice.principal, "DESCRIBE");
    await fx.addAcls([before]);
    const request = await file([before, added], 30);
    const plan = await review(admin, request.id);
    const approved = await requests.approveChangeRequest(admin, request.id, plan.id);
    expect(approved).toMatchObject({ ok: true });
    const grant = await getPrisma().accessGrant.findFirstOrThrow({ where: { requestId: request.id } });
    expect(grant.bindings).toEqual([added]);

    const removal = await removeExpiredGrant(grant.id, new Date(Date.now() + 31 * 60_000));
    expect(removal.outcome).toBe("removed");
    expect(await fx.aclsMarked(topic)).toEqual([before]);
  });
});

function okBody() {
  return {
    change: { kind: "acl.create" as const, bindings: [fx.topicAcl(newTopic(), alice.principal)] },
    reason: "short enough",
  };
}
