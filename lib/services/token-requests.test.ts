import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

const kafka = vi.hoisted(() => ({
  createDelegationToken: vi.fn(),
  describeAcls: vi.fn(),
  describeDelegationTokens: vi.fn(),
  expireDelegationToken: vi.fn(),
  renewDelegationToken: vi.fn(),
}));
const db = vi.hoisted(() => ({
  approveTokenRequest: vi.fn(),
  createTokenRequest: vi.fn(),
  denyTokenRequest: vi.fn(),
  getTokenRequest: vi.fn(),
  listMyTokenRequests: vi.fn(),
  listPendingTokenRequests: vi.fn(),
  retrieveHmacOnce: vi.fn(),
}));
const audit = vi.hoisted(() => ({ recordAudit: vi.fn() }));

vi.mock("@/lib/kafka", async () => {
  const errors = await import("@/lib/kafka/errors");
  return { ...kafka, isKafkaOperationError: errors.isKafkaOperationError };
});
vi.mock("@/lib/db/token-request", () => db);
vi.mock("@/lib/db/audit", () => audit);
vi.mock("@/lib/auth/crypto", () => ({ encryptSecret: (s: string) => `enc(${s})`, decryptSecret: (s: string) => s.replace(/^enc\((.*)\)$/, "$1") }));

const { approveRequest, retrieveRequestedToken } = await import("./token-requests");
const { KafkaOperationError } = await import("@/lib/kafka/errors");

const HMAC = "c2VjcmV0LWhtYWM=";
const bob = { sessionId: null, principal: "User:bob", credential: { username: "bob", password: "x", mechanism: "SCRAM-SHA-512" as const } };
const pending = {
  id: "r1",
  createdAt: new Date(0),
  requester: "User:carol",
  owner: "User:svc-orders",
  renewers: ["User:carol"],
  maxLifetimeMs: 3_600_000,
  reason: "export",
  status: "PENDING",
  approver: null,
  decidedAt: null,
  decisionReason: null,
  tokenId: null,
  hmacDeadline: null,
  retrievedAt: null,
  hmacAvailable: false,
};
const token = {
  tokenId: "tok1",
  hmac: HMAC,
  owner: "User:svc-orders",
  requester: "User:bob",
  renewers: ["User:carol"],
  issueTimestamp: 1,
  expiryTimestamp: 2,
  maxTimestamp: 3,
};
const audited = () => JSON.stringify(audit.recordAudit.mock.calls);

beforeEach(() => {
  vi.clearAllMocks();
  db.getTokenRequest.mockResolvedValue(pending);
  kafka.describeAcls.mockRejectedValue(new Error("no DESCRIBE on CLUSTER"));
  kafka.describeDelegationTokens.mockResolvedValue([]);
});

describe("approveRequest", () => {
  it("creates the token as the approver with the requested owner, renewers and lifetime, stores only the encrypted HMAC, audits without it", async () => {
    kafka.createDelegationToken.mockResolvedValue(token);
    db.approveTokenRequest.mockImplementation(async (id: string, approver: string, tokenId: string) => ({
      ok: true,
      request: { ...pending, status: "APPROVED", approver, tokenId, hmacDeadline: new Date(Date.now() + 1000), hmacAvailable: true },
    }));
    const r = await approveRequest(bob, "r1");
    expect(r.ok).toBe(true);
    expect(kafka.createDelegationToken).toHaveBeenCalledWith(bob.credential, { owner: "User:svc-orders", renewers: ["User:carol"], maxLifetimeMs: 3_600_000 });
    expect(db.approveTokenRequest.mock.calls[0]?.slice(0, 4)).toEqual(["r1", "User:bob", "tok1", `enc(${HMAC})`]);
    expect(audited()).toContain("token.request.approve");
    expect(audited()).not.toContain(HMAC);
    expect(JSON.stringify(r)).not.toContain(HMAC);
  });

  it("a Kafka refusal is shown and the request stays PENDING", async () => {
    kafka.createDelegationToken.mockRejectedValue(
      new KafkaOperationError({
        code: "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
        api: "CreateDelegationToken",
        message: "Kafka refused CreateDelegationToken: User:bob needs CREATE_TOKENS on USER User:svc-orders.",
        kafkaMessage: null,
        missing: [],
      }),
    );
    const r = await approveRequest(bob, "r1");
    expect(r).toMatchObject({ ok: false, code: "DENIED" });
    expect(!r.ok && r.message).toContain("CREATE_TOKENS on USER User:svc-orders");
    expect(!r.ok && r.message).toContain("stays PENDING");
    expect(db.approveTokenRequest).not.toHaveBeenCalled();
    expect(audit.recordAudit.mock.calls[0]?.[0]).toMatchObject({ outcome: "denied", kafkaError: "DELEGATION_TOKEN_AUTHORIZATION_FAILED" });
  });

  it("a losing approver expires the token it just created, at once, and says so", async () => {
    kafka.createDelegationToken.mockResolvedValue(token);
    db.approveTokenRequest.mockResolvedValue({ ok: false, error: "NOT_PENDING", status: "APPROVED" });
    kafka.expireDelegationToken.mockResolvedValue(-1);
    const r = await approveRequest(bob, "r1");
    expect(kafka.expireDelegationToken).toHaveBeenCalledWith(bob.credential, HMAC, -1);
    expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(!r.ok && r.message).toContain("was already APPROVED");
    expect(!r.ok && r.message).toContain("tok1) was expired immediately");
    expect(audited()).not.toContain(HMAC);
  });

  it("the requester cannot approve their own request; Kafka is not asked", async () => {
    const r = await approveRequest({ ...bob, principal: "User:carol" }, "r1");
    expect(r).toMatchObject({ ok: false, code: "DENIED" });
    expect(!r.ok && r.message).toContain("cannot approve your own request");
    expect(kafka.createDelegationToken).not.toHaveBeenCalled();
  });

  it("a requester Kafka would let create it directly (here a super user) is told to create it on the Tokens page", async () => {
    vi.stubEnv("KAFKA_SUPER_USERS", "User:admin");
    db.getTokenRequest.mockResolvedValue({ ...pending, requester: "User:admin" });
    const r = await approveRequest({ ...bob, principal: "User:admin" }, "r1");
    expect(!r.ok && r.message).toContain("create it on the Tokens page");
    vi.unstubAllEnvs();
  });

  it("only PENDING requests are decided", async () => {
    db.getTokenRequest.mockResolvedValue({ ...pending, status: "DENIED" });
    expect(await approveRequest(bob, "r1")).toMatchObject({ ok: false, code: "CONFLICT" });
    db.getTokenRequest.mockResolvedValue(null);
    expect(await approveRequest(bob, "r1")).toMatchObject({ ok: false, code: "NOT_FOUND" });
  });
});

describe("retrieveRequestedToken", () => {
  it("decrypts the HMAC once and audits the retrieval without it", async () => {
    db.retrieveHmacOnce.mockResolvedValue({ ok: true, tokenId: "tok1", encryptedHmac: `enc(${HMAC})` });
    expect(await retrieveRequestedToken({ ...bob, principal: "User:carol" }, "r1")).toEqual({ ok: true, data: { requestId: "r1", tokenId: "tok1", hmac: HMAC } });
    expect(audited()).toContain("token.request.retrieve");
    expect(audited()).not.toContain(HMAC);
  });
  it("a second retrieval says it is gone", async () => {
    db.retrieveHmacOnce.mockResolvedValue({ ok: false, error: "ALREADY_RETRIEVED", status: "RETRIEVED" });
    const r = await retrieveRequestedToken({ ...bob, principal: "User:carol" }, "r1");
    expect(r).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(!r.ok && r.message).toContain("already retrieved");
  });
});
