import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy";

vi.mock("server-only", () => ({}));

const kafka = vi.hoisted(() => ({
  describeAcls: vi.fn(),
  describeClientQuotas: vi.fn(),
  describeDelegationTokens: vi.fn(),
}));
vi.mock("@/lib/kafka", async () => {
  const errors = await import("@/lib/kafka/errors");
  return { ...kafka, isKafkaOperationError: errors.isKafkaOperationError };
});
const db = vi.hoisted(() => ({ listVisibleAudit: vi.fn(), auditedTokenOwners: vi.fn() }));
vi.mock("@/lib/db/audit", async () => {
  const { InvalidCursorError, auditToCsv } = await vi.importActual<{
    InvalidCursorError: unknown;
    auditToCsv: unknown;
  }>("@/lib/db/audit");
  return { ...db, InvalidCursorError, auditToCsv };
});

const {
  auditRightsFor,
  clearAuditRightsCache,
  describeVisibility,
  listAuditFor,
  probeAuditRights,
  visibilityFor,
  RIGHTS_TTL_MS,
} = await import("./audit-view");
const { KafkaOperationError } = await import("@/lib/kafka/errors");

const config = { superUsers: new Set(["User:admin"]), allowEveryoneIfNoAclFound: false };
const cred = (username: string) => ({ username, password: "x", mechanism: "SCRAM-SHA-512" as const });
const viewer = (name: string, sessionId: string | null = null) => ({
  sessionId,
  principal: `User:${name}`,
  credential: cred(name),
});
const refused = (code = "CLUSTER_AUTHORIZATION_FAILED") =>
  new KafkaOperationError({ code, api: "DescribeAcls", message: `refused (${code})`, kafkaMessage: null, missing: [] });
const unreachable = () =>
  new KafkaOperationError({
    code: "BROKER_UNAVAILABLE",
    api: "DescribeAcls",
    message: "Kafka is unreachable.",
    kafkaMessage: null,
    missing: [],
  });
const acl = (a: Partial<AclBinding>): AclBinding => ({
  resourceType: "CLUSTER",
  resourceName: "kafka-cluster",
  patternType: "LITERAL",
  principal: "User:ops",
  host: "*",
  operation: "DESCRIBE",
  permissionType: "ALLOW",
  ...a,
});
const OWNERS = {
  token: ["User:svc-orders", "User:svc-billing", "User:bob"],
  tokenRequest: ["User:svc-orders", "User:svc-billing"],
};

/** describeAcls answers with the ACLs matching the filter's resource type, as the broker would for a reader. */
function aclsReadable(acls: AclBinding[]) {
  kafka.describeAcls.mockImplementation(async (_c: unknown, f: { resourceType: string }) =>
    acls.filter((a) => a.resourceType === f.resourceType),
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  clearAuditRightsCache();
  vi.stubEnv("KAFKA_SUPER_USERS", "User:admin");
  kafka.describeAcls.mockRejectedValue(refused());
  kafka.describeClientQuotas.mockRejectedValue(refused());
  kafka.describeDelegationTokens.mockResolvedValue([]);
});
afterEach(() => vi.unstubAllEnvs());

describe("visibilityFor: hosts", () => {
  it(
    "decides from any host no ACL names, as every page does by default: a grant pinned to 127.0.0.1 shows " + "nothing",
    () => {
      const rights = {
        principal: "User:bob",
        superUser: false,
        acls: false,
        quotas: false,
        clusterAdmin: false,
        createdFor: [],
        problems: [],
      };
      const owner = {
        resourceType: "USER" as const,
        resourceName: "User:svc-orders",
        principal: "User:bob",
        operation: "DESCRIBE_TOKENS" as const,
      };
      expect(
        visibilityFor({ ...rights, userAcls: [acl({ ...owner, host: "127.0.0.1" })] }, OWNERS, config).tokenOwners,
      ).toEqual([]);
      expect(visibilityFor({ ...rights, userAcls: [acl(owner)] }, OWNERS, config).tokenOwners).toEqual([
        "User:svc-orders",
      ]);
    },
  );
});

describe("probeAuditRights", () => {
  it("a super user is not probed and sees everything", async () => {
    const rights = await probeAuditRights("User:admin", cred("admin"), config);
    expect(rights).toMatchObject({ superUser: true, clusterAdmin: true });
    expect(kafka.describeAcls).not.toHaveBeenCalled();
    expect(visibilityFor(rights, OWNERS, config).all).toBe(true);
  });

  it("Kafka's refusals mean no ACL, quota or token-owner visibility, and no problem to report", async () => {
    const rights = await probeAuditRights("User:alice", cred("alice"), config);
    expect(rights).toEqual({
      principal: "User:alice",
      superUser: false,
      acls: false,
      quotas: false,
      clusterAdmin: false,
      userAcls: null,
      createdFor: [],
      problems: [],
    });
    const v = visibilityFor(rights, OWNERS, config);
    expect(v).toEqual({
      all: false,
      principal: "User:alice",
      categories: [],
      signInFailures: false,
      asSubject: ["token", "token-request", "scram"],
      tokenOwners: [],
      tokenRequestOwners: [],
    });
    // The probes are narrow: the cluster's own ACLs, the USER ACLs, one quota entity.
    expect(kafka.describeAcls.mock.calls.map((c) => c[1])).toEqual([
      expect.objectContaining({ resourceType: "CLUSTER", resourceName: "kafka-cluster", patternType: "MATCH" }),
      expect.objectContaining({ resourceType: "USER", resourceName: null }),
    ]);
    expect(kafka.describeClientQuotas.mock.calls[0]?.[1]).toEqual({
      components: [{ entityType: "user", matchType: "EXACT", match: "alice" }],
      strict: true,
    });
  });

  it("an unreachable broker grants nothing and is reported", async () => {
    kafka.describeAcls.mockRejectedValue(unreachable());
    const rights = await probeAuditRights("User:ops", cred("ops"), config);
    expect(rights).toMatchObject({ acls: false, clusterAdmin: false, problems: ["Kafka is unreachable."] });
  });

  it(
    "DESCRIBE on CLUSTER shows ACL events; ALTER on CLUSTER (from the readable ACLs) makes a cluster " +
      "admin; DESCRIBE_CONFIGS shows quota events",
    async () => {
      aclsReadable([acl({ operation: "DESCRIBE" })]);
      const reader = await probeAuditRights("User:ops", cred("ops"), config);
      expect(reader).toMatchObject({ acls: true, quotas: false, clusterAdmin: false });
      expect(visibilityFor(reader, OWNERS, config)).toMatchObject({ categories: ["acl"], signInFailures: false });

      aclsReadable([acl({ operation: "ALTER" })]);
      kafka.describeClientQuotas.mockResolvedValue([]);
      const admin = await probeAuditRights("User:ops", cred("ops"), config);
      expect(admin).toMatchObject({ acls: true, quotas: true, clusterAdmin: true });
      expect(visibilityFor(admin, OWNERS, config)).toMatchObject({
        categories: ["acl", "quota", "session", "other", "scram"],
        signInFailures: true,
      });

      // A DENY on ALTER beats the ALLOW: not a cluster admin, although it may describe ACLs.
      aclsReadable([acl({ operation: "ALL" }), acl({ operation: "ALTER", permissionType: "DENY" })]);
      expect(await probeAuditRights("User:ops", cred("ops"), config)).toMatchObject({
        acls: true,
        clusterAdmin: false,
      });
    },
  );
});

describe("visibilityFor: token owners", () => {
  it(
    "token rows of owners with DESCRIBE_TOKENS; token-request rows also of owners with " +
      "CREATE_TOKENS; judged with the policy core (prefixes, DENY)",
    async () => {
      aclsReadable([
        acl({ operation: "DESCRIBE" }),
        acl({ resourceType: "USER", resourceName: "User:svc-", patternType: "PREFIXED", operation: "DESCRIBE_TOKENS" }),
        acl({
          resourceType: "USER",
          resourceName: "User:svc-billing",
          operation: "DESCRIBE_TOKENS",
          permissionType: "DENY",
        }),
        acl({ resourceType: "USER", resourceName: "User:svc-billing", operation: "CREATE_TOKENS" }),
        acl({
          resourceType: "USER",
          resourceName: "User:bob",
          operation: "CREATE_TOKENS",
          principal: "User:someone-else",
        }),
      ]);
      const rights = await probeAuditRights("User:ops", cred("ops"), config);
      const v = visibilityFor(rights, OWNERS, config);
      expect(v.tokenOwners).toEqual(["User:svc-orders"]);
      expect(v.tokenRequestOwners).toEqual(["User:svc-orders", "User:svc-billing"]);
      expect(describeVisibility(rights, v).join("\n")).toContain(
        "Token events of owners you have DESCRIBE_TOKENS on: User:svc-orders.",
      );
    },
  );
});

describe("visibilityFor: without readable ACLs", () => {
  it(
    "token-request rows of owners Kafka shows the viewer created tokens for (as the Token requests " +
      "page judges deciders); token rows only as a subject",
    async () => {
      const token = (owner: string, requester: string) => ({
        tokenId: owner,
        hmac: "x",
        owner,
        requester,
        renewers: [],
        issueTimestamp: 0,
        expiryTimestamp: 1,
        maxTimestamp: 1,
      });
      kafka.describeDelegationTokens.mockResolvedValue([
        token("User:svc-orders", "User:bob"),
        token("User:bob", "User:bob"),
        token("User:svc-billing", "User:admin"),
      ]);
      const rights = await probeAuditRights("User:bob", cred("bob"), config);
      expect(rights.createdFor).toEqual(["User:svc-orders"]);
      expect(visibilityFor(rights, OWNERS, config)).toMatchObject({
        tokenOwners: [],
        tokenRequestOwners: ["User:svc-orders"],
      });
    },
  );
});

describe("auditRightsFor", () => {
  it("asks Kafka once per session for at most RIGHTS_TTL_MS", async () => {
    const alice = viewer("alice", "session-1");
    await auditRightsFor(alice, 1_000);
    await auditRightsFor(alice, 1_000 + RIGHTS_TTL_MS - 1);
    expect(kafka.describeAcls).toHaveBeenCalledTimes(2);
    await auditRightsFor(alice, 1_000 + RIGHTS_TTL_MS);
    expect(kafka.describeAcls).toHaveBeenCalledTimes(4);
    // Another session of the same principal asks again; Basic (no session) is never cached.
    await auditRightsFor(viewer("alice", "session-2"), 1_000);
    await auditRightsFor(viewer("alice"), 1_000);
    await auditRightsFor(viewer("alice"), 1_000);
    expect(kafka.describeAcls).toHaveBeenCalledTimes(10);
  });

  it("does not cache an answer Kafka could not give", async () => {
    kafka.describeAcls.mockRejectedValue(unreachable());
    await auditRightsFor(viewer("ops", "s"), 0);
    await auditRightsFor(viewer("ops", "s"), 1);
    expect(kafka.describeAcls).toHaveBeenCalledTimes(4);
  });
});

describe("listAuditFor", () => {
  it("turns the rights into the database filter and returns the page with what the viewer can see", async () => {
    db.listVisibleAudit.mockResolvedValue({ events: [], nextCursor: null });
    const r = await listAuditFor(viewer("alice"), { limit: 10 });
    expect(r).toMatchObject({ ok: true, data: { events: [], nextCursor: null, problems: [] } });
    expect(r.ok && r.data.visibility.join(" ")).toContain("Kafka does not let you describe ACLs");
    expect(db.listVisibleAudit).toHaveBeenCalledWith(
      expect.objectContaining({ all: false, principal: "User:alice", categories: [], signInFailures: false }),
      { limit: 10, clusterId: "default" },
    );
    // Without readable USER ACLs no owner can be granted: the owners are not even read.
    expect(db.auditedTokenOwners).not.toHaveBeenCalled();
  });

  it("an unreadable cursor is a field error on cursor", async () => {
    const { InvalidCursorError } = await import("@/lib/db/audit");
    db.listVisibleAudit.mockRejectedValue(
      new InvalidCursorError("invalid audit cursor; start again from the first page"),
    );
    expect(await listAuditFor(viewer("admin"), { cursor: "x" })).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { cursor: [expect.any(String)] },
    });
  });
});
