import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as TokenRequestDb from "@/lib/db/token-request";

vi.mock("server-only", () => ({}));

const kafka = vi.hoisted(() => ({
  createDelegationToken: vi.fn(),
  describeAcls: vi.fn(),
  describeDelegationTokens: vi.fn(),
  expireDelegationToken: vi.fn(),
}));
const db = vi.hoisted(() => ({
  claimTokenRequest: vi.fn(),
  countPendingTokenRequests: vi.fn(),
  createTokenRequest: vi.fn(),
  denyTokenRequest: vi.fn(),
  getTokenRequest: vi.fn(),
  listMyTokenRequests: vi.fn(),
  listPendingTokenRequests: vi.fn(),
  openRequestOwners: vi.fn(),
  recordClaimedApproval: vi.fn(),
  releaseClaim: vi.fn(),
  retrieveHmacOnce: vi.fn(),
  tokenIdsRecordedElsewhere: vi.fn(),
}));
const audit = vi.hoisted(() => ({ recordIntent: vi.fn(), completeAudit: vi.fn(), recordAudit: vi.fn() }));

vi.mock("@/lib/kafka", async () => {
  const errors = await import("@/lib/kafka/errors");
  return { ...kafka, isKafkaOperationError: errors.isKafkaOperationError };
});
// The writes reach the service through auditedMutation's KafkaWriter, which calls lib/kafka/tokens.
vi.mock("@/lib/kafka/tokens", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  createDelegationToken: kafka.createDelegationToken,
  expireDelegationToken: kafka.expireDelegationToken,
}));
vi.mock("@/lib/db/token-request", async () => {
  const real = await vi.importActual<typeof TokenRequestDb>("@/lib/db/token-request");
  return { ...db, claimOf: real.claimOf };
});
vi.mock("@/lib/db/audit", () => audit);
vi.mock("@/lib/auth/crypto", () => ({
  encryptSecret: (s: string) => `enc(${s})`,
  decryptSecret: (s: string) => s.replace(/^enc\((.*)\)$/, "$1"),
}));

const {
  approveRequest,
  countDecidableTokenRequests,
  denyRequest,
  forgetDecidableOwners,
  listTokenRequests,
  retrieveRequestedToken,
  submitTokenRequest,
  toTokenRequestItem,
  CLAIM_TIMEOUT_MS,
  DECIDABLE_OWNERS_TTL_MS,
} = await import("./token-requests");
const { toTokenRequestView } = await import("./token-view");
const { KafkaOperationError } = await import("@/lib/kafka/errors");

const HMAC = "c2VjcmV0LWhtYWM=";
const cred = { username: "bob", password: "x", mechanism: "SCRAM-SHA-512" as const };
const bob = { sessionId: null, principal: "User:bob", credential: cred };
const admin = { sessionId: null, principal: "User:admin", credential: { ...cred, username: "admin" } };
const alice = { sessionId: null, principal: "User:alice", credential: { ...cred, username: "alice" } };
const pending = {
  id: "r1",
  createdAt: new Date(0),
  requester: "User:carol",
  owner: "User:svc-orders",
  renewers: ["User:carol", "User:ops"],
  maxLifetimeMs: 3_600_000,
  reason: "export",
  status: "PENDING",
  approver: null,
  decidedAt: null,
  decisionReason: null,
  tokenId: null,
  hmacDeadline: null,
  retrievedAt: null,
  claimedBy: null,
  claimedAt: null,
  hmacAvailable: false,
};
const SUBJECTS = ["User:carol", "User:svc-orders", "User:ops"];
const token = (over: object = {}) => ({
  tokenId: "tok1",
  hmac: HMAC,
  owner: "User:svc-orders",
  requester: "User:bob",
  renewers: ["User:carol", "User:ops"],
  issueTimestamp: Date.now(),
  expiryTimestamp: Date.now() + 1000,
  maxTimestamp: Date.now() + 1000,
  ...over,
});
const kafkaError = (code: string, message = `Kafka refused CreateDelegationToken (${code}).`) =>
  new KafkaOperationError({ code, api: "CreateDelegationToken", message, kafkaMessage: null, missing: [] });

/** What the audit trail received: intents and completions, as text (to look for the HMAC). */
const audited = () => JSON.stringify([audit.recordIntent.mock.calls, audit.completeAudit.mock.calls]);
const intents = () =>
  audit.recordIntent.mock.calls.map((c) => c[0] as { action: string; category: string; subjects: string[] });
const completions = () =>
  audit.completeAudit.mock.calls.map((c) => c[1] as { outcome: string; message?: string; kafkaError?: string | null });

let claimedAt: Date;
beforeEach(() => {
  vi.clearAllMocks();
  vi.stubEnv("KAFKA_SUPER_USERS", "User:admin");
  audit.recordIntent.mockImplementation(async () => ({ id: String(audit.recordIntent.mock.calls.length) }));
  audit.completeAudit.mockResolvedValue({});
  db.getTokenRequest.mockResolvedValue(pending);
  db.claimTokenRequest.mockImplementation(async (id: string, by: string) => {
    claimedAt = new Date();
    return { ok: true, request: { ...pending, id, status: "APPROVING", claimedBy: by, claimedAt } };
  });
  db.recordClaimedApproval.mockImplementation(
    async (id: string, claim: { by: string }, a: { approver: string; tokenId: string }) => ({
      ok: true,
      request: {
        ...pending,
        id,
        status: "APPROVED",
        approver: a.approver,
        tokenId: a.tokenId,
        claimedBy: claim.by,
        hmacDeadline: new Date(Date.now() + 1000),
        hmacAvailable: true,
      },
    }),
  );
  db.releaseClaim.mockImplementation(async (id: string) => ({ ok: true, request: { ...pending, id } }));
  db.tokenIdsRecordedElsewhere.mockResolvedValue(new Set());
  kafka.describeAcls.mockRejectedValue(kafkaError("CLUSTER_AUTHORIZATION_FAILED", "no DESCRIBE on CLUSTER"));
  kafka.describeDelegationTokens.mockResolvedValue([]);
});
afterEach(() => vi.unstubAllEnvs());

describe("approveRequest", () => {
  it(
    "claims before asking Kafka, creates as the approver, stores only the encrypted HMAC, audits as " +
      "token-request with the subjects and without the HMAC",
    async () => {
      const order: string[] = [];
      db.claimTokenRequest.mockImplementationOnce(async (id: string, by: string) => {
        order.push("claim");
        claimedAt = new Date();
        return { ok: true, request: { ...pending, status: "APPROVING", claimedBy: by, claimedAt } };
      });
      kafka.createDelegationToken.mockImplementation(async () => {
        order.push("create");
        return token();
      });
      const r = await approveRequest(bob, "r1");
      expect(r.ok).toBe(true);
      expect(order).toEqual(["claim", "create"]);
      expect(kafka.createDelegationToken).toHaveBeenCalledWith(cred, {
        owner: "User:svc-orders",
        renewers: ["User:carol", "User:ops"],
        maxLifetimeMs: 3_600_000,
      });
      const [id, claim, approval] = db.recordClaimedApproval.mock.calls[0]!;
      expect([id, claim]).toEqual(["r1", { by: "User:bob", at: claimedAt }]);
      expect(approval).toMatchObject({ approver: "User:bob", tokenId: "tok1", encryptedHmac: `enc(${HMAC})` });
      expect(intents()).toEqual([
        expect.objectContaining({ action: "token.request.approve", category: "token-request", subjects: SUBJECTS }),
      ]);
      expect(completions()).toEqual([expect.objectContaining({ outcome: "success" })]);
      expect(audited()).not.toContain(HMAC);
      expect(JSON.stringify(r)).not.toContain(HMAC);
    },
  );

  it("a loser of the claim is told who holds it and never asks Kafka", async () => {
    db.claimTokenRequest.mockResolvedValue({ ok: false, error: "NOT_PENDING", status: "APPROVING" });
    db.getTokenRequest
      .mockResolvedValueOnce(pending)
      .mockResolvedValueOnce({ ...pending, status: "APPROVING", claimedBy: "User:admin", claimedAt: new Date() });
    const r = await approveRequest(bob, "r1");
    expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(!r.ok && r.message).toContain("User:admin is approving this request right now");
    expect(kafka.createDelegationToken).not.toHaveBeenCalled();
    expect(completions()).toEqual([expect.objectContaining({ outcome: "failure" })]);
  });

  it("a Kafka refusal releases the claim: PENDING again, no token", async () => {
    kafka.createDelegationToken.mockRejectedValue(
      kafkaError(
        "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
        "Kafka refused CreateDelegationToken: User:bob needs CREATE_TOKENS on USER User:svc-orders.",
      ),
    );
    const r = await approveRequest(bob, "r1");
    expect(r).toMatchObject({ ok: false, code: "DENIED" });
    expect(!r.ok && r.message).toContain("CREATE_TOKENS on USER User:svc-orders");
    expect(!r.ok && r.message).toContain("stays PENDING");
    expect(db.releaseClaim).toHaveBeenCalledWith("r1", { by: "User:bob", at: claimedAt });
    expect(db.recordClaimedApproval).not.toHaveBeenCalled();
    expect(completions()).toEqual([
      expect.objectContaining({ outcome: "denied", kafkaError: "DELEGATION_TOKEN_AUTHORIZATION_FAILED" }),
    ]);
  });

  it("an unknown outcome (timeout) whose token Kafka shows is recorded: one token, APPROVED", async () => {
    kafka.createDelegationToken.mockRejectedValue(
      kafkaError("BROKER_UNAVAILABLE", "Kafka is unreachable: request timed out."),
    );
    kafka.describeDelegationTokens.mockImplementation(async () => [
      token({ tokenId: "older", issueTimestamp: claimedAt.getTime() - 60_000 }),
      token({ tokenId: "other-renewers", renewers: ["User:carol"] }),
      token({ tokenId: "by-someone-else", requester: "User:admin" }),
      token({ tokenId: "too-long", maxTimestamp: Date.now() + 7_200_000 }),
      token({ tokenId: "mine" }),
    ]);
    const r = await approveRequest(bob, "r1");
    expect(r).toMatchObject({ ok: true, data: { status: "APPROVED", tokenId: "mine" } });
    expect(kafka.describeDelegationTokens).toHaveBeenCalledWith(cred, ["User:svc-orders"]);
    expect(db.recordClaimedApproval.mock.calls[0]?.[2]).toMatchObject({
      approver: "User:bob",
      tokenId: "mine",
      encryptedHmac: `enc(${HMAC})`,
    });
    expect(db.releaseClaim).not.toHaveBeenCalled();
    expect(completions()).toEqual([
      expect.objectContaining({
        outcome: "success",
        kafkaError: "BROKER_UNAVAILABLE",
        message: expect.stringContaining("answer was lost"),
      }),
    ]);
    expect(audited()).not.toContain(HMAC);
  });

  it(
    "an unknown outcome without a visible token keeps the claim (a queued create may still land): no " +
      "second token can start",
    async () => {
      kafka.createDelegationToken.mockRejectedValue(new Error("socket hang up"));
      const r = await approveRequest(bob, "r1");
      expect(r).toMatchObject({ ok: false, code: "INTERNAL" });
      expect(!r.ok && r.message).toContain("stays APPROVING");
      expect(db.releaseClaim).not.toHaveBeenCalled();
      expect(db.recordClaimedApproval).not.toHaveBeenCalled();
      expect(completions()).toEqual([expect.objectContaining({ outcome: "unknown" })]);
    },
  );

  it("two candidate tokens are ambiguous: nothing is recorded, the ids are named", async () => {
    kafka.createDelegationToken.mockRejectedValue(kafkaError("REQUEST_TIMED_OUT"));
    kafka.describeDelegationTokens.mockImplementation(async () => [token({ tokenId: "a" }), token({ tokenId: "b" })]);
    const r = await approveRequest(bob, "r1");
    expect(!r.ok && r.message).toContain("(a, b)");
    expect(db.recordClaimedApproval).not.toHaveBeenCalled();
    // A token already recorded on another request is not a candidate.
    db.tokenIdsRecordedElsewhere.mockResolvedValue(new Set(["a"]));
    expect(await approveRequest(bob, "r1")).toMatchObject({ ok: true, data: { tokenId: "b" } });
  });

  it(
    "a stale claim of a dead approver is settled from Kafka's tokens first (none: PENDING again), " +
      "then approved once",
    async () => {
      const stale = {
        ...pending,
        status: "APPROVING",
        claimedBy: "User:bob",
        claimedAt: new Date(Date.now() - CLAIM_TIMEOUT_MS - 1000),
      };
      db.getTokenRequest.mockResolvedValue(stale);
      kafka.createDelegationToken.mockResolvedValue(token({ requester: "User:admin" }));
      const r = await approveRequest(admin, "r1");
      expect(r.ok).toBe(true);
      expect(db.releaseClaim).toHaveBeenCalledWith("r1", { by: "User:bob", at: stale.claimedAt });
      expect(kafka.createDelegationToken).toHaveBeenCalledTimes(1);
      expect(intents().map((i) => i.action)).toEqual(["token.request.resolve", "token.request.approve"]);
    },
  );

  it(
    "a stale claim whose dead approver did create the token is recorded with that token; no second " + "token",
    async () => {
      const at = new Date(Date.now() - CLAIM_TIMEOUT_MS - 1000);
      db.getTokenRequest.mockResolvedValue({ ...pending, status: "APPROVING", claimedBy: "User:bob", claimedAt: at });
      kafka.describeDelegationTokens.mockResolvedValue([
        token({ tokenId: "from-bob", issueTimestamp: at.getTime() + 500 }),
      ]);
      db.recordClaimedApproval.mockResolvedValueOnce({
        ok: true,
        request: { ...pending, status: "APPROVED", approver: "User:bob", tokenId: "from-bob" },
      });
      const r = await approveRequest(admin, "r1");
      expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
      expect(!r.ok && r.message).toContain("already APPROVED");
      expect(db.recordClaimedApproval.mock.calls[0]?.[2]).toMatchObject({ approver: "User:bob", tokenId: "from-bob" });
      expect(kafka.createDelegationToken).not.toHaveBeenCalled();
    },
  );

  it("a stale claim cannot be settled by someone Kafka would not show the claimer's tokens to", async () => {
    db.getTokenRequest.mockResolvedValue({
      ...pending,
      status: "APPROVING",
      claimedBy: "User:bob",
      claimedAt: new Date(Date.now() - CLAIM_TIMEOUT_MS - 1000),
    });
    const r = await approveRequest(alice, "r1");
    expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(!r.ok && r.message).toContain("Only User:bob, the owner User:svc-orders, a super user");
    expect(kafka.describeDelegationTokens).not.toHaveBeenCalled();
    expect(db.releaseClaim).not.toHaveBeenCalled();
    expect(kafka.createDelegationToken).not.toHaveBeenCalled();
  });

  it("the requester cannot approve their own request; nothing is claimed", async () => {
    const r = await approveRequest({ ...bob, principal: "User:carol" }, "r1");
    expect(r).toMatchObject({ ok: false, code: "DENIED" });
    expect(!r.ok && r.message).toContain("cannot approve your own request");
    expect(db.claimTokenRequest).not.toHaveBeenCalled();
    expect(kafka.createDelegationToken).not.toHaveBeenCalled();
  });

  it("only PENDING requests are decided", async () => {
    db.getTokenRequest.mockResolvedValue({ ...pending, status: "DENIED" });
    expect(await approveRequest(bob, "r1")).toMatchObject({ ok: false, code: "CONFLICT" });
    db.getTokenRequest.mockResolvedValue(null);
    expect(await approveRequest(bob, "r1")).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(db.claimTokenRequest).not.toHaveBeenCalled();
  });
});

describe("denyRequest", () => {
  it("is refused while an approval holds the request", async () => {
    db.getTokenRequest.mockResolvedValue({
      ...pending,
      status: "APPROVING",
      claimedBy: "User:bob",
      claimedAt: new Date(),
    });
    db.denyTokenRequest.mockResolvedValue({ ok: false, error: "NOT_PENDING", status: "APPROVING" });
    const r = await denyRequest(admin, "r1", "no");
    expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(!r.ok && r.message).toContain("User:bob is approving this request right now");
    expect(intents()).toEqual([
      expect.objectContaining({ action: "token.request.deny", category: "token-request", subjects: SUBJECTS }),
    ]);
  });
  it("denies a PENDING request with the reason, audited", async () => {
    db.denyTokenRequest.mockResolvedValue({
      ok: true,
      request: { ...pending, status: "DENIED", approver: "User:admin", decisionReason: "no" },
    });
    expect(await denyRequest(admin, "r1", "no")).toMatchObject({ ok: true, data: { status: "DENIED" } });
    expect(completions()).toEqual([expect.objectContaining({ outcome: "success" })]);
  });
});

describe("submitTokenRequest", () => {
  it(
    "records the intent (category token-request, subjects requester, owner, renewers) before the row " + "is written",
    async () => {
      db.createTokenRequest.mockImplementation(async (input: { id: string }) => {
        expect(audit.recordIntent).toHaveBeenCalledTimes(1);
        return { ...pending, id: input.id, requester: "User:bob" };
      });
      const r = await submitTokenRequest(bob, {
        owner: "User:svc-orders",
        renewers: ["User:ops"],
        maxLifetimeMs: null,
        reason: "deploys",
      });
      expect(r.ok).toBe(true);
      const intent = intents()[0]!;
      expect(intent).toMatchObject({
        action: "token.request.create",
        category: "token-request",
        subjects: ["User:bob", "User:svc-orders", "User:ops"],
      });
      expect(JSON.stringify(intent)).toContain(db.createTokenRequest.mock.calls[0]![0].id);
    },
  );
});

describe("retrieveRequestedToken", () => {
  it("decrypts the HMAC once and audits the retrieval (with the subjects) without it", async () => {
    db.retrieveHmacOnce.mockResolvedValue({ ok: true, tokenId: "tok1", encryptedHmac: `enc(${HMAC})` });
    expect(await retrieveRequestedToken({ ...bob, principal: "User:carol" }, "r1")).toEqual({
      ok: true,
      data: { requestId: "r1", tokenId: "tok1", hmac: HMAC },
    });
    expect(intents()).toEqual([
      expect.objectContaining({ action: "token.request.retrieve", category: "token-request", subjects: SUBJECTS }),
    ]);
    expect(audited()).not.toContain(HMAC);
  });
  it("a second retrieval says it is gone", async () => {
    db.retrieveHmacOnce.mockResolvedValue({ ok: false, error: "ALREADY_RETRIEVED", status: "RETRIEVED" });
    const r = await retrieveRequestedToken({ ...bob, principal: "User:carol" }, "r1");
    expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(!r.ok && r.message).toContain("already retrieved");
  });
});

describe("listTokenRequests", () => {
  it(
    "lists open requests only for owners the viewer appears entitled to create tokens for, and the " + "viewer's own",
    async () => {
      db.listMyTokenRequests.mockResolvedValue([]);
      db.openRequestOwners.mockResolvedValue(["User:svc-orders", "User:svc-billing", "User:alice"]);
      db.listPendingTokenRequests.mockResolvedValue([pending]);
      kafka.describeAcls.mockResolvedValue([
        {
          resourceType: "USER",
          resourceName: "User:svc-orders",
          patternType: "LITERAL",
          principal: "User:bob",
          host: "*",
          operation: "CREATE_TOKENS",
          permissionType: "ALLOW",
        },
      ]);
      const r = await listTokenRequests(bob);
      expect(r.ok).toBe(true);
      expect(db.listPendingTokenRequests).toHaveBeenCalledWith({
        owners: ["User:svc-orders"],
        requester: "User:bob",
        clusterId: "default",
      });

      // Without readable ACLs: only owners Kafka shows the viewer created tokens for.
      kafka.describeAcls.mockRejectedValue(kafkaError("CLUSTER_AUTHORIZATION_FAILED"));
      kafka.describeDelegationTokens.mockResolvedValue([token({ owner: "User:svc-billing" })]);
      await listTokenRequests(bob);
      expect(db.listPendingTokenRequests).toHaveBeenLastCalledWith({
        owners: ["User:svc-billing"],
        requester: "User:bob",
        clusterId: "default",
      });
      await listTokenRequests(alice);
      expect(db.listPendingTokenRequests).toHaveBeenLastCalledWith({
        owners: ["User:alice"],
        requester: "User:alice",
        clusterId: "default",
      });
      await listTokenRequests(admin);
      expect(db.listPendingTokenRequests).toHaveBeenLastCalledWith({
        owners: ["User:svc-orders", "User:svc-billing", "User:alice"],
        requester: "User:admin",
        clusterId: "default",
      });
    },
  );
});

describe("countDecidableTokenRequests (the navigation's badge)", () => {
  const createTokens = {
    resourceType: "USER",
    resourceName: "User:svc-orders",
    patternType: "LITERAL",
    principal: "User:bob",
    host: "*",
    operation: "CREATE_TOKENS",
    permissionType: "ALLOW",
  };
  beforeEach(() => forgetDecidableOwners());

  it("asks Kafka nothing when no one else's request is open", async () => {
    db.openRequestOwners.mockResolvedValue([]);
    expect(await countDecidableTokenRequests(bob)).toBe(0);
    expect(db.openRequestOwners).toHaveBeenCalledWith("default", "User:bob");
    expect(kafka.describeAcls).not.toHaveBeenCalled();
    expect(db.countPendingTokenRequests).not.toHaveBeenCalled();
  });

  it(
    "counts the pending requests of others for owners the viewer may create tokens for, reading the ACLs once " +
      "per viewer while they are remembered; the count itself is always fresh",
    async () => {
      db.openRequestOwners.mockResolvedValue(["User:svc-orders", "User:svc-billing"]);
      db.listPendingTokenRequests.mockResolvedValue([pending]);
      kafka.describeAcls.mockResolvedValue([createTokens]);
      kafka.describeDelegationTokens.mockResolvedValue([]);
      db.countPendingTokenRequests.mockResolvedValueOnce(3).mockResolvedValueOnce(2);
      const now = 1_000_000;
      expect(await countDecidableTokenRequests(bob, now)).toBe(3);
      expect(db.countPendingTokenRequests).toHaveBeenLastCalledWith({
        clusterId: "default",
        owners: ["User:svc-orders"],
        notRequester: "User:bob",
      });
      expect(await countDecidableTokenRequests(bob, now + 1_000)).toBe(2);
      expect(kafka.describeAcls).toHaveBeenCalledTimes(1);

      // A new owner is judged at once; after the window, everything is judged again.
      db.openRequestOwners.mockResolvedValue(["User:svc-orders", "User:svc-new"]);
      db.countPendingTokenRequests.mockResolvedValue(1);
      await countDecidableTokenRequests(bob, now + 2_000);
      expect(kafka.describeAcls).toHaveBeenCalledTimes(2);
      await countDecidableTokenRequests(bob, now + DECIDABLE_OWNERS_TTL_MS + 1);
      expect(kafka.describeAcls).toHaveBeenCalledTimes(3);
    },
  );

  it("a super user and an owner are entitled without asking Kafka", async () => {
    db.openRequestOwners.mockResolvedValue(["User:svc-orders", "User:bob"]);
    db.countPendingTokenRequests.mockResolvedValue(2);
    expect(await countDecidableTokenRequests(admin)).toBe(2);
    expect(db.countPendingTokenRequests).toHaveBeenLastCalledWith({
      clusterId: "default",
      owners: ["User:svc-orders", "User:bob"],
      notRequester: "User:admin",
    });
    db.openRequestOwners.mockResolvedValue(["User:bob"]);
    await countDecidableTokenRequests(bob);
    expect(db.countPendingTokenRequests).toHaveBeenLastCalledWith({
      clusterId: "default",
      owners: ["User:bob"],
      notRequester: "User:bob",
    });
    expect(kafka.describeAcls).not.toHaveBeenCalled();
  });
});

describe("toTokenRequestItem (a token request on the Requests page)", () => {
  const view = (over: object = {}) => toTokenRequestView({ ...pending, ...over } as never, 0);

  it("says what it asks for, and never carries anything but the listed view", () => {
    const item = toTokenRequestItem(view({ status: "APPROVED", approver: "User:admin" }), "User:carol");
    expect(item).toMatchObject({
      kind: "token",
      summary: "delegation token for User:svc-orders, renewable by User:carol, User:ops, for at most 1 h",
      you: { mayDecide: false, why: "It was approved by User:admin." },
    });
    expect(Object.keys(item)).not.toContain("hmac");
    expect(Object.keys(item)).not.toContain("encryptedHmac");
  });

  it("may be decided only when pending, someone else's, and the viewer appears entitled", () => {
    const entitled = { ...view(), entitlement: "acl" as const, entitlementNote: "The ACLs give you CREATE_TOKENS" };
    expect(toTokenRequestItem(entitled, "User:bob").you).toEqual({
      mayDecide: true,
      why: "The ACLs give you CREATE_TOKENS",
    });
    const unknown = { ...view(), entitlement: "unknown" as const, entitlementNote: "Unknown: Kafka decides" };
    expect(toTokenRequestItem(unknown, "User:bob").you.mayDecide).toBe(false);
    expect(toTokenRequestItem(view(), "User:carol").you).toEqual({
      mayDecide: false,
      why: "Your own request: someone else must approve it.",
    });
    const held = view({ status: "APPROVING", claimedBy: "User:admin", claimedAt: new Date(0) });
    expect(toTokenRequestItem({ ...held, entitlement: "superUser", entitlementNote: "" }, "User:bob").you).toEqual({
      mayDecide: false,
      why: "User:admin is approving it right now.",
    });
    const withdrawn = view({ status: "DENIED", approver: "User:carol" });
    expect(toTokenRequestItem(withdrawn, "User:carol").you.why).toBe("It was withdrawn by you.");
  });
});
