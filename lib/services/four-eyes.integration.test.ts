/**
 * Four-eyes (#19) against the dev broker and PostgreSQL, with the cluster's
 * requests.approvals set through KAFKA_REQUIRED_APPROVALS: the admin's own direct applies
 * (a plan, the API's one-call acl.create) are refused and change nothing; nobody approves
 * their own request; another principal Kafka lets change ACLs (a fresh SCRAM user with
 * ALTER and DESCRIBE on the cluster) approves and it applies; with two approvals the first
 * is recorded and the second applies; break-glass for a super user with a reason, audited,
 * flagged until someone else entitled to the change reviews it after the fact (once); an
 * approval short of the count and a deny need the right Kafka would need (ALTER on CLUSTER),
 * checked by the policy core, while the last approval is still Kafka's to refuse.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Viewer } from "@/lib/auth/sign-in";
import type * as ChangeRequestModule from "@/lib/db/change-request";

vi.mock("server-only", () => ({}));
/** When set, an approver's claim of a request waits for it (to order two approvals for the race below). */
const claimGate: { principal: string | null; open: Promise<void> } = { principal: null, open: Promise.resolve() };
vi.mock("@/lib/db/change-request", async (importOriginal) => {
  const original = await importOriginal<typeof ChangeRequestModule>();
  return {
    ...original,
    claimRequest: async (...args: Parameters<typeof original.claimRequest>) => {
      if (args[1] === claimGate.principal) await claimGate.open;
      return original.claimRequest(...args);
    },
  };
});
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const { createScramUser, dropScramUser } = await import("@/test/kafka/fixtures");
const fx = await import("@/test/services/grant-fixtures");
const requests = await import("./requests");
const { applyPlan, createPlan } = await import("./plans");
const { runChange } = await import("./changes");
const breakGlass = await import("./break-glass");
const { getDashboard } = await import("./dashboard");
const { verifyCredentials } = await import("@/lib/kafka");

const RUN = randomBytes(4).toString("hex");
const MARK = `it-4eyes-${RUN}`;
const REVIEWERS = [`it-4eyes-rev1-${RUN}`, `it-4eyes-rev2-${RUN}`];
/** May describe the cluster's ACLs (and so review a request), but not change them. */
const DESCRIBER = `it-4eyes-desc-${RUN}`;
/** A SCRAM user created through a request. */
const REQUESTED = `it-4eyes-scram-${RUN}`;
const alice = fx.demoViewer("alice");
const bob = fx.demoViewer("bob");
const dana = fx.demoViewer("dana");
let describer: Viewer;
const { admin } = fx;
const reviewers: Viewer[] = [];
const newTopic = fx.topicNames(MARK);

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  db = await useMigratedTestDatabase("four_eyes");
  restoreEnv = fx.setEnv({ KAFKA_REQUIRED_APPROVALS: "1", KAFKA_SERVICE_CREDENTIALS_FILE: undefined });
  for (const name of REVIEWERS) {
    const viewer = fx.viewerOf(await createScramUser(name));
    await fx.addAcls([fx.clusterAcl(viewer.principal, "ALTER"), fx.clusterAcl(viewer.principal, "DESCRIBE")]);
    reviewers.push(viewer);
  }
  describer = fx.viewerOf(await createScramUser(DESCRIBER));
  await fx.addAcls([fx.clusterAcl(describer.principal, "DESCRIBE")]);
});

afterAll(async () => {
  for (const name of [...REVIEWERS, DESCRIBER, REQUESTED]) await dropScramUser(name).catch(() => undefined);
  await fx.cleanUp(MARK, restoreEnv, db);
});

async function planAs(viewer: Viewer, bindings: ReturnType<typeof fx.topicAcl>[]) {
  const r = await createPlan(viewer, "acl.create", { bindings });
  if (!r.ok) throw new Error(`plan refused: ${r.message}`);
  return r.data;
}

async function fileAs(viewer: Viewer, bindings: ReturnType<typeof fx.topicAcl>[]) {
  const r = await requests.fileRequest(viewer, { change: { kind: "acl.create", bindings }, reason: "four-eyes test" });
  if (!r.ok) throw new Error(`filing refused: ${r.message}`);
  return r.data.request;
}

async function reviewAndApprove(viewer: Viewer, id: string) {
  const plan = await requests.reviewRequest(viewer, id);
  if (!plan.ok) throw new Error(`review refused: ${plan.message}`);
  return { plan: plan.data, result: await requests.approveChangeRequest(viewer, id, plan.data.id) };
}

describe("with one approval required", () => {
  it("the admin's own apply of a plan, and the one-call acl.create, are refused and change nothing", async () => {
    const wanted = fx.topicAcl(newTopic(), alice.principal);
    const plan = await planAs(admin, [wanted]);
    expect(await applyPlan(admin, plan.id)).toMatchObject({ ok: false, code: "DENIED" });
    const stored = await getPrisma().changePlan.findUniqueOrThrow({ where: { id: plan.id } });
    expect(stored.status).toBe("OPEN");
    const oneCall = await runChange("acl.create", { viewer: admin, input: { bindings: [wanted], dryRun: false } });
    expect(oneCall).toMatchObject({ ok: false, code: "DENIED" });
    expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);
    expect(await fx.auditRows({ action: "acl.create", targetContains: wanted.resourceName })).not.toContainEqual(
      expect.objectContaining({ outcome: "success" }),
    );
  });

  it("the admin cannot approve the admin's own request; another principal allowed to alter ACLs does", async () => {
    const wanted = fx.topicAcl(newTopic(), alice.principal);
    const request = await fileAs(admin, [wanted]);
    expect(await requests.reviewRequest(admin, request.id)).toMatchObject({ ok: false, code: "CONFLICT" });
    // Even with a plan of the admin's own, tied to the request by hand.
    const own = await createPlan(admin, "acl.create", { bindings: [wanted] }, { requestId: request.id });
    if (!own.ok) throw new Error(own.message);
    expect(await requests.approveChangeRequest(admin, request.id, own.data.id)).toMatchObject({
      ok: false,
      code: "DENIED",
    });
    expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);

    const { plan, result } = await reviewAndApprove(reviewers[0]!, request.id);
    expect(result).toMatchObject({ ok: true, data: { request: { status: "APPLIED", planId: plan.id } } });
    expect(await fx.aclsMarked(wanted.resourceName)).toEqual([wanted]);
    expect((await fx.auditRows({ planId: plan.id })).map((e) => [e.action, e.principal])).toEqual([
      ["acl.create", reviewers[0]!.principal],
      ["request.apply", reviewers[0]!.principal],
    ]);
  });

  it("break-glass: a super user with a reason applies, audited plan.break-glass; anyone else is refused", async () => {
    const wanted = fx.topicAcl(newTopic(), alice.principal);
    const refused = await planAs(reviewers[0]!, [wanted]);
    expect(await requests.breakGlassApply(reviewers[0]!, refused.id, "urgent")).toMatchObject({
      ok: false,
      code: "DENIED",
    });
    expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);

    const plan = await planAs(admin, [wanted]);
    const applied = await requests.breakGlassApply(admin, plan.id, "incident 42: the producer is down");
    expect(applied).toMatchObject({ ok: true, data: { outcome: "success", plan: { status: "APPLIED" } } });
    expect(await fx.aclsMarked(wanted.resourceName)).toEqual([wanted]);
    const rows = await fx.auditRows({ planId: plan.id });
    expect(rows.map((e) => [e.action, e.principal, e.outcome])).toEqual([
      ["plan.break-glass", admin.principal, "success"],
      ["acl.create", admin.principal, "success"],
    ]);
    expect(rows[0]!.request).toMatchObject({ reason: "incident 42: the producer is down" });
  });
});

describe("SCRAM changes on a four-eyes cluster", () => {
  it("are refused directly, requested instead: the approver applies, the requester sees the password", async () => {
    const direct = await runChange("scram.upsert", {
      viewer: admin,
      input: { user: REQUESTED, mechanism: "SCRAM-SHA-512", iterations: 8192, password: null, ifExists: "refuse" },
    });
    expect(direct).toMatchObject({ ok: false, code: "DENIED", message: expect.stringContaining("request the SCRAM") });

    const filed = await requests.fileRequest(alice, {
      change: { kind: "scram.change", user: REQUESTED, action: "set", mechanism: "SCRAM-SHA-256", iterations: 4096 },
      reason: "a service account for the billing job",
    });
    if (!filed.ok) throw new Error(filed.message);
    expect(filed.data.request.summary).toBe(`set a generated SCRAM-SHA-256 password for the SCRAM user ${REQUESTED}`);
    // Nothing is kept to retrieve before approval.
    expect(await requests.retrieveRequestPassword(alice, filed.data.request.id)).toMatchObject({
      ok: false,
      code: "CONFLICT",
    });

    const { plan, result } = await reviewAndApprove(reviewers[0]!, filed.data.request.id);
    expect(plan).toMatchObject({ kind: "scram.change", change: "created", before: [] });
    expect(result.ok, result.ok ? "" : result.message).toBe(true);
    if (!result.ok) return;
    expect(result.data.request).toMatchObject({
      status: "APPLIED",
      password: { available: true, mayRetrieve: false, retrievedAt: null },
    });
    expect(result.data.message).toContain(`for ${alice.principal} to see once`);
    const [described] = await (await import("@/lib/kafka")).describeScramUsers(admin.credential, [REQUESTED]);
    expect(described?.credentials).toEqual([{ mechanism: "SCRAM-SHA-256", iterations: 4096 }]);

    // Neither the approver nor bob may take it; alice does, once.
    expect(await requests.retrieveRequestPassword(reviewers[0]!, filed.data.request.id)).toMatchObject({
      ok: false,
      code: "DENIED",
    });
    const taken = await requests.retrieveRequestPassword(alice, filed.data.request.id);
    expect(taken.ok, taken.ok ? "" : taken.message).toBe(true);
    if (!taken.ok) return;
    const password = taken.data.password;
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(await verifyCredentials({ username: REQUESTED, password, mechanism: "SCRAM-SHA-256" })).toEqual({
      principal: `User:${REQUESTED}`,
    });
    expect(await requests.retrieveRequestPassword(alice, filed.data.request.id)).toMatchObject({
      ok: false,
      code: "CONFLICT",
      message: expect.stringContaining("shown once already"),
    });

    // The password is nowhere at rest: not in the request, its plan, or any audit row.
    const row = await getPrisma().changeRequest.findUniqueOrThrow({ where: { id: filed.data.request.id } });
    expect(row.encryptedSecret).toBeNull();
    const stored = await getPrisma().changePlan.findUniqueOrThrow({ where: { id: plan.id } });
    const text = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? String(x) : x));
    expect(text(stored)).not.toContain(password);
    const audit = await getPrisma().auditEvent.findMany({ where: { target: { contains: REQUESTED } } });
    expect(audit.map((a) => a.action).sort()).toEqual([
      "request.apply",
      "request.file",
      "request.retrieve",
      "scram.create",
    ]);
    expect(text(audit)).not.toContain(password);
    expect(audit.find((a) => a.action === "scram.create")).toMatchObject({
      planId: plan.id,
      principal: reviewers[0]!.principal,
    });
  });

  it("a review made before the credentials changed is refused at approval, and nothing is sent", async () => {
    const filed = await requests.fileRequest(alice, {
      change: { kind: "scram.change", user: REQUESTED, action: "delete", iterations: 8192 },
      reason: "the billing job is gone",
    });
    if (!filed.ok) throw new Error(filed.message);
    const plan = await requests.reviewRequest(reviewers[0]!, filed.data.request.id);
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.data).toMatchObject({ change: "deleted", after: [] });
    // Someone adds a mechanism outside the console after the review.
    await (await import("@/test/kafka/fixtures")).createScramUser(REQUESTED);
    const approved = await requests.approveChangeRequest(reviewers[0]!, filed.data.request.id, plan.data.id);
    expect(approved).toMatchObject({ ok: false, code: "CONFLICT", message: expect.stringContaining("changed") });
    const [described] = await (await import("@/lib/kafka")).describeScramUsers(admin.credential, [REQUESTED]);
    expect(described?.credentials.map((c) => c.mechanism).sort()).toEqual(["SCRAM-SHA-256", "SCRAM-SHA-512"]);
  });
});

describe("with two approvals required", () => {
  it("the first approval is recorded (PENDING, 1 of 2), the second applies", async () => {
    const restore = fx.setEnv({ KAFKA_REQUIRED_APPROVALS: "2" });
    try {
      const wanted = fx.topicAcl(newTopic(), alice.principal);
      const request = await fileAs(alice, [wanted]);
      const first = await reviewAndApprove(reviewers[0]!, request.id);
      expect(first.result).toMatchObject({
        ok: true,
        data: { request: { status: "PENDING", approvalsNeeded: 2 }, message: expect.stringContaining("1 of 2") },
      });
      if (first.result.ok) expect(first.result.data.request.approvals).toHaveLength(1);
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);
      // The same approver again does not count twice.
      const again = await reviewAndApprove(reviewers[0]!, request.id).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(Error);

      const second = await reviewAndApprove(reviewers[1]!, request.id);
      expect(second.result).toMatchObject({ ok: true, data: { request: { status: "APPLIED" } } });
      if (second.result.ok) expect(second.result.data.request.approvals).toHaveLength(2);
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([wanted]);
    } finally {
      restore();
    }
  });

  it("an approval recorded while another approver was on the way: the later one counts it and applies", async () => {
    const restore = fx.setEnv({ KAFKA_REQUIRED_APPROVALS: "2" });
    let open: () => void = () => undefined;
    try {
      const wanted = fx.topicAcl(newTopic(), alice.principal);
      const request = await fileAs(alice, [wanted]);
      const [late, early] = reviewers;
      const latePlan = await requests.reviewRequest(late!, request.id);
      if (!latePlan.ok) throw new Error(latePlan.message);
      claimGate.principal = late!.principal;
      claimGate.open = new Promise<void>((resolve) => (open = resolve));
      // The late approver has read the request (no approvals yet) and waits to claim it...
      const lateApproval = requests.approveChangeRequest(late!, request.id, latePlan.data.id);
      // ...while the early one records the first approval.
      const first = await reviewAndApprove(early!, request.id);
      expect(first.result).toMatchObject({ ok: true, data: { request: { status: "PENDING" } } });
      open();
      expect(await lateApproval).toMatchObject({ ok: true, data: { request: { status: "APPLIED" } } });
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([wanted]);
    } finally {
      open();
      claimGate.principal = null;
      restore();
    }
  });
});

describe("break-glass reviewed after the fact", () => {
  async function breakGlassApply(reason: string) {
    const wanted = fx.topicAcl(newTopic(), alice.principal);
    const plan = await planAs(admin, [wanted]);
    const applied = await requests.breakGlassApply(admin, plan.id, reason);
    if (!applied.ok) throw new Error(`break-glass refused: ${applied.message}`);
    return plan.id;
  }

  async function flagged(viewer: Viewer) {
    const card = (await getDashboard(viewer)).breakGlass;
    if (!card.ok) throw new Error(`break-glass card: ${card.message}`);
    return card.data;
  }

  it("flagged until someone else entitled reviews it, with a comment; not by its applier nor by bob", async () => {
    const planId = await breakGlassApply("incident 77: payments consumer down");
    expect((await flagged(dana)).events.map((e) => e.planId)).toContain(planId);

    // The applier cannot review their own break-glass.
    const own = await breakGlass.reviewBreakGlass(admin, planId, "all fine");
    expect(own).toMatchObject({ ok: false, code: "DENIED" });
    if (!own.ok) expect(own.message).toContain("someone else must review it");
    // bob may not change ACLs (nor read them): refused with the rule.
    const byBob = await breakGlass.reviewBreakGlass(bob, planId, "looks fine to me");
    expect(byBob).toMatchObject({ ok: false, code: "DENIED" });
    if (!byBob.ok) expect(byBob.message).toContain("ALTER on CLUSTER kafka-cluster");
    // The describer reads the ACLs but may not change them: the policy core's rule is named.
    const byDescriber = await breakGlass.reviewBreakGlass(describer, planId, "looks fine to me");
    expect(byDescriber).toMatchObject({ ok: false, code: "DENIED" });
    if (!byDescriber.ok) expect(byDescriber.message).toMatch(/No ACL on this resource matched/);
    expect(await breakGlass.reviewBreakGlass(dana, planId, "   ")).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await breakGlass.reviewBreakGlass(dana, "00000000-0000-4000-8000-000000000000", "x")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await fx.auditRows({ planId, action: "plan.break-glass-review" })).toEqual([]);
    const page = await breakGlass.getBreakGlass(dana, planId);
    expect(page).toMatchObject({
      ok: true,
      data: { appliedBy: admin.principal, reason: "incident 77: payments consumer down", review: null },
    });
    if (page.ok) expect(page.data.you).toEqual({ mayReview: true, why: null });

    const reviewed = await breakGlass.reviewBreakGlass(dana, planId, "Checked with the on-call: incident 77");
    expect(reviewed).toMatchObject({
      ok: true,
      data: { breakGlass: { review: { reviewer: dana.principal, comment: "Checked with the on-call: incident 77" } } },
    });
    const rows = await fx.auditRows({ planId, action: "plan.break-glass-review" });
    expect(rows.map((e) => [e.principal, e.outcome, e.subjects])).toEqual([
      [dana.principal, "success", [admin.principal]],
    ]);
    expect(rows[0]!.message).toContain("Checked with the on-call: incident 77");

    const card = await flagged(dana);
    expect(card.events.map((e) => e.planId)).not.toContain(planId);
    expect(card.reviewed.find((e) => e.planId === planId)?.review).toMatchObject({ reviewer: dana.principal });
    // A second review is refused, naming the first.
    const again = await breakGlass.reviewBreakGlass(reviewers[0]!, planId, "me too");
    expect(again).toMatchObject({ ok: false, code: "CONFLICT" });
    if (!again.ok) expect(again.message).toContain(dana.principal);
  });

  it("two reviewers at once: exactly one review is stored, the other is told", async () => {
    const planId = await breakGlassApply("incident 78");
    const answers = await Promise.all([
      breakGlass.reviewBreakGlass(dana, planId, "dana checked it"),
      breakGlass.reviewBreakGlass(reviewers[0]!, planId, "rev1 checked it"),
    ]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).map((a) => !a.ok && a.code)).toEqual(["CONFLICT"]);
    expect(await getPrisma().breakGlassReview.count({ where: { planId } })).toBe(1);
    expect(await fx.auditRows({ planId, action: "plan.break-glass-review" })).toHaveLength(1);
  });

  it("an old break-glass stays flagged however old, until reviewed", async () => {
    const planId = await breakGlassApply("incident 79, long ago");
    await getPrisma().auditEvent.updateMany({
      where: { planId, action: "plan.break-glass" },
      data: { at: new Date(Date.now() - 90 * 86_400_000) },
    });
    expect((await flagged(dana)).events.map((e) => e.planId)).toContain(planId);
    expect(await breakGlass.reviewBreakGlass(dana, planId, "late, but checked")).toMatchObject({ ok: true });
    const card = await flagged(dana);
    expect(card.events.map((e) => e.planId)).not.toContain(planId);
    // Reviewed and older than the card's days: no longer on the card at all.
    expect(card.reviewed.map((e) => e.planId)).not.toContain(planId);
  });
});

describe("approvals short of the count and denials need the right to make the change", () => {
  it("bob and a principal without ALTER on CLUSTER cannot approve short of the count nor deny; dana can", async () => {
    const restore = fx.setEnv({ KAFKA_REQUIRED_APPROVALS: "2" });
    try {
      const wanted = fx.topicAcl(newTopic(), alice.principal);
      const request = await fileAs(alice, [wanted]);
      // bob cannot even read the ACLs, so no plan of his exists: refused for the right, whatever the plan id.
      const bobApproves = await requests.approveChangeRequest(bob, request.id, "00000000-0000-4000-8000-000000000000");
      expect(bobApproves).toMatchObject({ ok: false, code: "DENIED" });
      if (!bobApproves.ok) expect(bobApproves.message).toContain("CreateAcls and DeleteAcls need ALTER on CLUSTER");
      const bobDenies = await requests.denyChangeRequest(bob, request.id, "no");
      expect(bobDenies).toMatchObject({ ok: false, code: "DENIED" });
      if (!bobDenies.ok) expect(bobDenies.message).toContain("ALTER on CLUSTER");

      // The describer reviews (Kafka lets them read the ACLs) but the policy core says no ALTER.
      const described = await requests.reviewRequest(describer, request.id);
      if (!described.ok) throw new Error(described.message);
      const approves = await requests.approveChangeRequest(describer, request.id, described.data.id);
      expect(approves).toMatchObject({ ok: false, code: "DENIED" });
      if (!approves.ok) {
        expect(approves.message).toContain("give an approval short of the count");
        expect(approves.message).toMatch(new RegExp(`For ${describer.principal}: No ACL on this resource matched`));
      }
      const denies = await requests.denyChangeRequest(describer, request.id, "no");
      expect(denies).toMatchObject({ ok: false, code: "DENIED" });
      const stored = await getPrisma().changeRequest.findUniqueOrThrow({ where: { id: request.id } });
      expect(stored.status).toBe("PENDING");
      expect(await getPrisma().requestApproval.count({ where: { requestId: request.id } })).toBe(0);

      // dana has ALTER on CLUSTER: her approval is recorded, 1 of 2.
      const first = await reviewAndApprove(dana, request.id);
      expect(first.result).toMatchObject({ ok: true, data: { request: { status: "PENDING" } } });
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);

      // The last approval is applied as the approver: Kafka refuses the describer (no ALTER), the request waits.
      const lastPlan = await requests.reviewRequest(describer, request.id);
      if (!lastPlan.ok) throw new Error(lastPlan.message);
      const refused = await requests.approveChangeRequest(describer, request.id, lastPlan.data.id);
      expect(refused).toMatchObject({ ok: false, code: "DENIED" });
      if (!refused.ok) expect(refused.message).toContain("The request is still pending.");
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([]);
      const last = await reviewAndApprove(reviewers[0]!, request.id);
      expect(last.result).toMatchObject({ ok: true, data: { request: { status: "APPLIED" } } });
      expect(await fx.aclsMarked(wanted.resourceName)).toEqual([wanted]);

      // dana may deny.
      const other = await fileAs(alice, [fx.topicAcl(newTopic(), alice.principal)]);
      await requests.reviewRequest(dana, other.id);
      expect(await requests.denyChangeRequest(dana, other.id, "not for production")).toMatchObject({
        ok: true,
        data: { request: { status: "DENIED" } },
      });
    } finally {
      restore();
    }
  });
});
