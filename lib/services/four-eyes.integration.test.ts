/**
 * Four-eyes (#19) against the dev broker and PostgreSQL, with the cluster's
 * requests.approvals set through KAFKA_REQUIRED_APPROVALS: the admin's own direct applies
 * (a plan, the API's one-call acl.create) are refused and change nothing; nobody approves
 * their own request; another principal Kafka lets change ACLs (a fresh SCRAM user with
 * ALTER and DESCRIBE on the cluster) approves and it applies; with two approvals the first
 * is recorded and the second applies; break-glass for a super user with a reason, audited.
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

const RUN = randomBytes(4).toString("hex");
const MARK = `it-4eyes-${RUN}`;
const REVIEWERS = [`it-4eyes-rev1-${RUN}`, `it-4eyes-rev2-${RUN}`];
const alice = fx.demoViewer("alice");
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
});

afterAll(async () => {
  for (const name of REVIEWERS) await dropScramUser(name).catch(() => undefined);
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
