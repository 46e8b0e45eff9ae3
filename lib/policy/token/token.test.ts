import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { AclBinding, DelegationToken } from "../types";
import { tokenHmac } from "../crypto/sha512";
import { aclIsAllowed } from "./acl-bridge";
import {
  applyTokenChange,
  createToken,
  describeTokens,
  expireToken,
  isTokenExpired,
  renewToken,
  sweepExpiredTokens,
  type TokenConnection,
  type TokenContext,
} from "./token";

const DAY = 24 * 60 * 60 * 1000;
const LONG_MAX = 2 ** 63; // Long.MAX_VALUE as a JS number
const T0 = 1_700_000_000_000;
const config = { secretKey: "testKey", maxLifetimeMs: 7 * DAY, expiryTimeMs: DAY };
const sasl = (principal: string): TokenConnection => ({
  principal,
  securityProtocol: "SASL_PLAINTEXT",
  tokenAuthenticated: false,
});
const ctx = (principal: string, now = T0, acls: AclBinding[] = [], superUsers: string[] = []): TokenContext => ({
  config,
  connection: sasl(principal),
  now,
  isAllowed: aclIsAllowed(acls, { superUsers }, "127.0.0.1"),
});
const userAcl = (principal: string, operation: "CREATE_TOKENS" | "DESCRIBE_TOKENS", owner: string): AclBinding => ({
  resourceType: "USER",
  resourceName: owner,
  patternType: "LITERAL",
  principal,
  host: "*",
  operation,
  permissionType: "ALLOW",
});

function created(c: TokenContext, tokens: DelegationToken[], req: Parameters<typeof createToken>[2]): DelegationToken {
  const r = createToken(c, tokens, req);
  expect(r.error).toBe("NONE");
  return r.token!;
}

describe("DelegationTokenRequestsTest.testDelegationTokenRequests (KRaft), step by step", () => {
  it("create, describe, filter by renewer, renew, expire, invalid renewer type, not found, sweep", () => {
    const admin = "User:admin";
    let store: DelegationToken[] = [];
    const token1 = created(ctx(admin), store, { renewers: ["User:renewer1"], tokenId: "token1" });
    store = [token1];
    expect(token1).toMatchObject({
      owner: admin,
      requester: admin,
      renewers: ["User:renewer1"],
      issueTimestamp: T0,
      expiryTimestamp: T0 + DAY,
      maxTimestamp: T0 + 7 * DAY,
    });
    expect(token1.hmac).toBe(tokenHmac("testKey", "token1"));
    expect(describeTokens(ctx(admin), store, { owners: null })).toEqual({ error: "NONE", tokens: [token1] });

    const token2 = created(ctx(admin), store, { renewers: ["User:renewer2"], tokenId: "token2" });
    store = [...store, token2];
    expect(describeTokens(ctx(admin), store, { owners: null }).tokens).toEqual([token1, token2]);
    // "get tokens for renewer2": the owners filter also matches renewers
    expect(describeTokens(ctx(admin), store, { owners: ["User:renewer2"] }).tokens).toEqual([token2]);

    const renewed = renewToken(ctx(admin, T0 + 1000), store, { hmac: token1.hmac, renewPeriodMs: -1 });
    expect(renewed).toMatchObject({ error: "NONE", expiryTimestamp: T0 + 1000 + DAY });
    store = applyTokenChange(store, renewed, token1.hmac);
    expect(describeTokens(ctx(admin), store, { owners: null }).tokens[0]!.expiryTimestamp).toBe(T0 + 1000 + DAY);

    for (const t of [token1, token2]) {
      const r = expireToken(ctx(admin), store, { hmac: t.hmac, expiryTimePeriodMs: -1 }); // Admin default: -1
      expect(r).toMatchObject({ error: "NONE", expiryTimestamp: T0, removed: true });
      store = applyTokenChange(store, r, t.hmac);
    }
    expect(describeTokens(ctx(admin), store, { owners: null }).tokens).toEqual([]);

    expect(createToken(ctx(admin), store, { renewers: ["Group:Renewer4"] }).error).toBe("INVALID_PRINCIPAL_TYPE");
    expect(renewToken(ctx(admin), store, { hmac: token1.hmac, renewPeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_NOT_FOUND",
    );

    // a token with a 1 s lifetime is gone after the sweep
    const token5 = created(ctx(admin), store, { renewers: ["User:renewer1"], maxLifetimeMs: 1000, tokenId: "token5" });
    expect(token5.maxTimestamp).toBe(T0 + 1000);
    store = sweepExpiredTokens([token5], T0 + 10_000);
    expect(describeTokens(ctx(admin, T0 + 10_000), store, { owners: null }).tokens).toEqual([]);
    expect(expireToken(ctx(admin, T0 + 10_000), store, { hmac: token5.hmac, expiryTimePeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_NOT_FOUND",
    );
    expect(describeTokens(ctx(admin), [token5], { owners: ["User:Unknown"] }).tokens).toEqual([]);
  });
});

describe("connection restrictions — KafkaApis.allowTokenRequests (DelegationTokenRequestsOnPlainTextTest)", () => {
  const token = created(ctx("User:alice"), [], { tokenId: "t" });
  const ops = {
    create: (c: TokenContext) => createToken(c, [token], {}).error,
    renew: (c: TokenContext) => renewToken(c, [token], { hmac: token.hmac, renewPeriodMs: -1 }).error,
    expire: (c: TokenContext) => expireToken(c, [token], { hmac: token.hmac, expiryTimePeriodMs: -1 }).error,
    describe: (c: TokenContext) => describeTokens(c, [token], { owners: null }).error,
  };
  it.each([
    ["PLAINTEXT", { principal: "User:alice", securityProtocol: "PLAINTEXT", tokenAuthenticated: false }],
    [
      "one-way SSL (User:ANONYMOUS)",
      { principal: "User:ANONYMOUS", securityProtocol: "SSL", tokenAuthenticated: false },
    ],
    ["token-authenticated SASL", { principal: "User:alice", securityProtocol: "SASL_SSL", tokenAuthenticated: true }],
  ] as const)("%s: all four APIs return DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", (_name, connection) => {
    const c = { ...ctx("User:alice"), connection };
    for (const op of Object.values(ops)) expect(op(c)).toBe("DELEGATION_TOKEN_REQUEST_NOT_ALLOWED");
  });
  it("two-way SSL with a real principal is allowed", () => {
    const c = {
      ...ctx("User:alice"),
      connection: { principal: "User:alice", securityProtocol: "SSL", tokenAuthenticated: false } as const,
    };
    for (const op of Object.values(ops)) expect(op(c)).toBe("NONE");
  });
});

describe("DelegationTokenRequestsWithDisableTokenFeatureTest: empty secret key", () => {
  it.each([null, ""])("secret %j: every API returns DELEGATION_TOKEN_AUTH_DISABLED", (secretKey) => {
    const c = { ...ctx("User:alice"), config: { ...config, secretKey } };
    expect(createToken(c, [], {}).error).toBe("DELEGATION_TOKEN_AUTH_DISABLED");
    expect(renewToken(c, [], { hmac: "x", renewPeriodMs: -1 }).error).toBe("DELEGATION_TOKEN_AUTH_DISABLED");
    expect(expireToken(c, [], { hmac: "x", expiryTimePeriodMs: -1 }).error).toBe("DELEGATION_TOKEN_AUTH_DISABLED");
    expect(describeTokens(c, [], { owners: null }).error).toBe("DELEGATION_TOKEN_AUTH_DISABLED");
  });
  it("the broker's authorization and renewer checks come before the controller's disabled check", () => {
    const c = { ...ctx("User:alice"), config: { ...config, secretKey: "" } };
    expect(createToken(c, [], { owner: "User:bob" }).error).toBe("DELEGATION_TOKEN_AUTHORIZATION_FAILED");
    expect(createToken(c, [], { renewers: ["Group:g"] }).error).toBe("INVALID_PRINCIPAL_TYPE");
  });
});

describe("KIP-373: tokens for other owners (DelegationTokenEndToEndAuthorizationWithOwnerTest)", () => {
  const requester = "User:scram-user2";
  const client = "User:client";
  const acls = [userAcl(requester, "CREATE_TOKENS", client), userAcl(requester, "DESCRIBE_TOKENS", client)];

  it("CREATE_TOKENS on USER:<owner principal> lets the requester create for that owner; the token records both", () => {
    const r = createToken(ctx(requester, T0, acls), [], { owner: client, tokenId: "k" });
    expect(r).toMatchObject({ error: "NONE", owner: client, requester, token: { owner: client, requester } });
  });

  it("testCreateTokenForOtherUserFails: no CREATE_TOKENS on that user -> DELEGATION_TOKEN_AUTHORIZATION_FAILED", () => {
    expect(createToken(ctx(requester, T0, acls), [], { owner: "User:other-client-principal" })).toMatchObject({
      error: "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
      owner: "User:other-client-principal",
      requester,
      token: null,
    });
  });

  it("CREATE_TOKENS on CLUSTER is not what Kafka checks", () => {
    const clusterAcl: AclBinding = {
      ...userAcl(requester, "CREATE_TOKENS", client),
      resourceType: "CLUSTER",
      resourceName: "kafka-cluster",
    };
    expect(createToken(ctx(requester, T0, [clusterAcl]), [], { owner: client }).error).toBe(
      "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
    );
  });

  it("a super user may create for anyone; an owner with an empty name means the requester", () => {
    expect(createToken(ctx("User:admin", T0, [], ["User:admin"]), [], { owner: "User:joe" }).error).toBe("NONE");
    expect(createToken(ctx(requester), [], { owner: "User:" })).toMatchObject({ error: "NONE", owner: requester });
    expect(createToken(ctx(requester), [], { owner: requester }).error).toBe("NONE");
  });

  it("testDescribeTokenForOtherUserPasses / Fails: DESCRIBE_TOKENS on USER:<owner>", () => {
    const t = created(ctx(client), [], { tokenId: "c1" });
    const other = created(ctx("User:other-client-principal"), [], { tokenId: "o1" });
    const store = [t, other];
    expect(describeTokens(ctx(requester, T0, acls), store, { owners: [client] }).tokens).toEqual([t]);
    expect(describeTokens(ctx(requester, T0, acls), store, { owners: null }).tokens).toEqual([t]);
    expect(
      describeTokens(ctx("User:describe-token-fail-principal", T0, acls), store, {
        owners: ["User:other-client-principal"],
      }).tokens,
    ).toEqual([]);
  });

  it("DESCRIBE on DELEGATION_TOKEN:<id> reveals that one token", () => {
    const t = created(ctx(client), [], { tokenId: "c1" });
    const acl: AclBinding = {
      ...userAcl("User:eve", "DESCRIBE_TOKENS", client),
      resourceType: "DELEGATION_TOKEN",
      resourceName: "c1",
      operation: "DESCRIBE",
    };
    expect(describeTokens(ctx("User:eve", T0, [acl]), [t], { owners: null }).tokens).toEqual([t]);
    expect(describeTokens(ctx("User:eve"), [t], { owners: null }).tokens).toEqual([]);
  });

  it("owners [] returns nothing, even to the owner", () => {
    const t = created(ctx(client), [], { tokenId: "c1" });
    expect(describeTokens(ctx(client), [t], { owners: [] })).toEqual({ error: "NONE", tokens: [] });
  });

  it(
    "the requester may describe, but not renew or expire (DELEGATION_TOKEN_OWNER_MISMATCH); owner and " +
      "renewers may",
    () => {
      const t = created(ctx(requester, T0, acls), [], { owner: client, renewers: ["User:r"], tokenId: "k" });
      expect(describeTokens(ctx(requester), [t], { owners: null }).tokens).toEqual([t]);
      expect(renewToken(ctx(requester), [t], { hmac: t.hmac, renewPeriodMs: -1 }).error).toBe(
        "DELEGATION_TOKEN_OWNER_MISMATCH",
      );
      expect(expireToken(ctx(requester), [t], { hmac: t.hmac, expiryTimePeriodMs: -1 }).error).toBe(
        "DELEGATION_TOKEN_OWNER_MISMATCH",
      );
      expect(renewToken(ctx(client), [t], { hmac: t.hmac, renewPeriodMs: -1 }).error).toBe("NONE");
      expect(renewToken(ctx("User:r"), [t], { hmac: t.hmac, renewPeriodMs: -1 }).error).toBe("NONE");
      expect(
        renewToken(ctx("User:admin", T0, [], ["User:admin"]), [t], { hmac: t.hmac, renewPeriodMs: -1 }).error,
      ).toBe("DELEGATION_TOKEN_OWNER_MISMATCH");
    },
  );
});

describe(
  "lifetime arithmetic — DelegationTokenControlManager (KRaft), vs the deleted ZooKeeper " +
    "DelegationTokenManagerTest",
  () => {
    const owner = "User:owner";
    const t = () => created(ctx(owner), [], { tokenId: "t" });

    it("create: requested max lifetime caps the configured one; <= 0 means the default", () => {
      expect(created(ctx(owner), [], { maxLifetimeMs: 2 * DAY })).toMatchObject({
        maxTimestamp: T0 + 2 * DAY,
        expiryTimestamp: T0 + DAY,
      });
      expect(created(ctx(owner), [], { maxLifetimeMs: 30 * DAY }).maxTimestamp).toBe(T0 + 7 * DAY);
      expect(created(ctx(owner), [], { maxLifetimeMs: 0 }).maxTimestamp).toBe(T0 + 7 * DAY);
      expect(created(ctx(owner), [], { maxLifetimeMs: 3600_000 })).toMatchObject({
        maxTimestamp: T0 + 3600_000,
        expiryTimestamp: T0 + 3600_000,
      });
    });

    it("create saturates at Long.MAX_VALUE", () => {
      const c = { ...ctx(owner), config: { ...config, maxLifetimeMs: LONG_MAX, expiryTimeMs: LONG_MAX } };
      expect(created(c, [], {})).toMatchObject({ maxTimestamp: LONG_MAX, expiryTimestamp: LONG_MAX });
    });

    it("renew by 8 days gives now + 1 day in KRaft (ZooKeeper gave the 7-day max)", () => {
      expect(renewToken(ctx(owner, T0 + 10), [t()], { hmac: t().hmac, renewPeriodMs: 8 * DAY }).expiryTimestamp).toBe(
        T0 + 10 + DAY,
      );
      expect(renewToken(ctx(owner, T0 + 10), [t()], { hmac: t().hmac, renewPeriodMs: 3600_000 }).expiryTimestamp).toBe(
        T0 + 10 + 3600_000,
      );
    });

    it("renew never goes past the max timestamp", () => {
      const short = created(ctx(owner), [], { tokenId: "s", maxLifetimeMs: DAY + 100 });
      expect(renewToken(ctx(owner, T0 + DAY), [short], { hmac: short.hmac, renewPeriodMs: -1 }).expiryTimestamp).toBe(
        T0 + DAY + 100,
      );
    });

    it(
      "expiry is strict: a token whose expiry equals now still renews; one ms later it is " +
        "DELEGATION_TOKEN_EXPIRED",
      () => {
        expect(renewToken(ctx(owner, T0 + DAY), [t()], { hmac: t().hmac, renewPeriodMs: -1 }).error).toBe("NONE");
        expect(renewToken(ctx(owner, T0 + DAY + 1), [t()], { hmac: t().hmac, renewPeriodMs: -1 }).error).toBe(
          "DELEGATION_TOKEN_EXPIRED",
        );
      },
    );

    it("renew does not saturate: with expiry.time.ms near Long.MAX_VALUE, now + period wraps as in Kafka", () => {
      const c = { ...ctx(owner), config: { ...config, maxLifetimeMs: LONG_MAX, expiryTimeMs: LONG_MAX } };
      const token = created(c, [], { tokenId: "w" });
      expect(token.expiryTimestamp).toBe(LONG_MAX); // create saturates
      expect(renewToken(c, [token], { hmac: token.hmac, renewPeriodMs: -1 }).expiryTimestamp).toBeLessThan(0);
    });

    it("renew checks expiry before ownership (KRaft order)", () => {
      expect(renewToken(ctx("User:stranger", T0 + 2 * DAY), [t()], { hmac: t().hmac, renewPeriodMs: -1 }).error).toBe(
        "DELEGATION_TOKEN_EXPIRED",
      );
    });

    it("expire with a period >= 0 sets expiry to min(max, now + period) — it can extend past expiry.time.ms", () => {
      expect(expireToken(ctx(owner), [t()], { hmac: t().hmac, expiryTimePeriodMs: 3 * DAY })).toMatchObject({
        error: "NONE",
        expiryTimestamp: T0 + 3 * DAY,
        removed: false,
      });
      expect(expireToken(ctx(owner), [t()], { hmac: t().hmac, expiryTimePeriodMs: 30 * DAY }).expiryTimestamp).toBe(
        T0 + 7 * DAY,
      );
      expect(expireToken(ctx(owner), [t()], { hmac: t().hmac, expiryTimePeriodMs: 0 }).expiryTimestamp).toBe(T0);
    });

    it("expire with < 0 removes even an expired token; with >= 0 an expired token is DELEGATION_TOKEN_EXPIRED", () => {
      const later = T0 + 2 * DAY;
      expect(expireToken(ctx(owner, later), [t()], { hmac: t().hmac, expiryTimePeriodMs: -1 })).toMatchObject({
        error: "NONE",
        removed: true,
        expiryTimestamp: later,
      });
      expect(expireToken(ctx(owner, later), [t()], { hmac: t().hmac, expiryTimePeriodMs: 10 }).error).toBe(
        "DELEGATION_TOKEN_EXPIRED",
      );
    });

    it("ownership is checked before expiry on expire", () => {
      expect(
        expireToken(ctx("User:stranger", T0 + 2 * DAY), [t()], { hmac: t().hmac, expiryTimePeriodMs: 10 }).error,
      ).toBe("DELEGATION_TOKEN_OWNER_MISMATCH");
    });

    it("describe shows expired tokens until the sweep removes them", () => {
      expect(describeTokens(ctx(owner, T0 + 2 * DAY), [t()], { owners: null }).tokens).toHaveLength(1);
      expect(sweepExpiredTokens([t()], T0 + DAY)).toHaveLength(1);
      expect(sweepExpiredTokens([t()], T0 + DAY + 1)).toHaveLength(0);
    });

    it(
      "derived token ids are 22-character URL-safe Base64, deterministic, and never collide with existing " + "ones",
      () => {
        const a = created(ctx(owner), [], {});
        const b = created(ctx(owner), [], {});
        expect(a.tokenId).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(b.tokenId).toBe(a.tokenId);
        expect(created(ctx(owner), [a], {}).tokenId).not.toBe(a.tokenId);
      },
    );
  },
);

describe("aclIsAllowed: the client host as Kafka's InetAddress#getHostAddress writes it", () => {
  it("an IPv6 client ::1 matches an ACL host 0:0:0:0:0:0:0:1, never an ACL host ::1", () => {
    const acl = (host: string): AclBinding => ({ ...userAcl("User:joe", "DESCRIBE_TOKENS", "User:owner"), host });
    const asked = (acls: AclBinding[], clientHost: string) =>
      aclIsAllowed(acls, { superUsers: [] }, clientHost)("User:joe", "DESCRIBE_TOKENS", "USER", "User:owner");
    expect(asked([acl("0:0:0:0:0:0:0:1")], "::1")).toBe(true);
    expect(asked([acl("::1")], "::1")).toBe(false);
    expect(asked([acl("1.2.3.4")], "::ffff:1.2.3.4")).toBe(true);
    expect(asked([acl("*")], "::1")).toBe(true);
  });
});

describe("properties", () => {
  const tokenArb = fc.record({
    issue: fc.integer({ min: 0, max: 2 ** 45 }),
    life: fc.integer({ min: 1, max: 30 * DAY }),
    expiry: fc.integer({ min: 1, max: 30 * DAY }),
  });

  it("an expired token never renews", () => {
    fc.assert(
      fc.property(
        tokenArb,
        fc.integer({ min: 0, max: 60 * DAY }),
        fc.integer({ min: -5, max: 10 * DAY }),
        fc.boolean(),
        ({ issue, life, expiry }, dt, period, asRenewer) => {
          const c0: TokenContext = {
            ...ctx("User:o", issue),
            config: { ...config, maxLifetimeMs: life, expiryTimeMs: expiry },
          };
          const token = created(c0, [], { renewers: ["User:r"], tokenId: "x" });
          const now = issue + dt;
          const r = renewToken({ ...c0, now, connection: sasl(asRenewer ? "User:r" : "User:o") }, [token], {
            hmac: token.hmac,
            renewPeriodMs: period,
          });
          if (isTokenExpired(token, now)) expect(r.error).toBe("DELEGATION_TOKEN_EXPIRED");
          else {
            expect(r.error).toBe("NONE");
            expect(r.expiryTimestamp!).toBeLessThanOrEqual(token.maxTimestamp);
            expect(r.expiryTimestamp!).toBeGreaterThanOrEqual(now);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("created tokens satisfy issue <= expiry <= max, and only owner and renewers can renew", () => {
    fc.assert(
      fc.property(
        tokenArb,
        fc.constantFrom("User:o", "User:r", "User:q", "User:x"),
        ({ issue, life, expiry }, caller) => {
          const c0: TokenContext = {
            ...ctx("User:q", issue, [userAcl("User:q", "CREATE_TOKENS", "User:o")]),
            config: { ...config, maxLifetimeMs: life, expiryTimeMs: expiry },
          };
          const token = created(c0, [], { owner: "User:o", renewers: ["User:r"], tokenId: "x" });
          expect(token.issueTimestamp).toBeLessThanOrEqual(token.expiryTimestamp);
          expect(token.expiryTimestamp).toBeLessThanOrEqual(token.maxTimestamp);
          const r = renewToken({ ...c0, connection: sasl(caller) }, [token], { hmac: token.hmac, renewPeriodMs: -1 });
          expect(r.error === "NONE").toBe(caller === "User:o" || caller === "User:r");
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("DelegationTokenManagerTest (deleted with ZooKeeper mode), adapted to KRaft", () => {
  const H = 3600_000;

  it(
    "testDescribeToken: owner filter matches owner, requester or renewer; visibility by role, DESCRIBE on " +
      "the token, or DESCRIBE_TOKENS",
    () => {
      const make = (requester: string, owner: string, renewers: string[], id: string) =>
        created(ctx(requester, T0, [userAcl(requester, "CREATE_TOKENS", owner)]), [], {
          owner,
          renewers,
          maxLifetimeMs: H,
          tokenId: id,
        });
      const store = [
        make("User:owner1", "User:owner1", ["User:renewer1", "User:renewer2"], "t1"),
        make("User:owner2", "User:owner2", ["User:renewer3"], "t2"),
        make("User:owner3", "User:owner3", ["User:renewer4"], "t3"),
        make("User:owner4", "User:owner4", ["User:owner1", "User:renewer4"], "t4"),
        make("User:requester1", "User:owner5", ["User:renewer1"], "t5"),
      ];
      const ids = (caller: string, owners: string[] | null, acls: AclBinding[] = []) =>
        describeTokens(ctx(caller, T0, acls), store, { owners }).tokens.map((t) => t.tokenId);
      const describeAcl = (principal: string, tokenId: string): AclBinding => ({
        resourceType: "DELEGATION_TOKEN",
        resourceName: tokenId,
        patternType: "LITERAL",
        principal,
        host: "*",
        operation: "DESCRIBE",
        permissionType: "ALLOW",
      });

      expect(ids("User:owner1", ["User:unknown"])).toEqual([]);
      expect(ids("User:owner1", [])).toEqual([]);
      expect(ids("User:owner1", ["User:owner1"])).toEqual(["t1", "t4"]);
      expect(ids("User:owner1", null)).toEqual(["t1", "t4"]);
      expect(ids("User:unknown", null)).toEqual([]);
      expect(ids("User:owner1", ["User:owner1", "User:renewer4"])).toEqual(["t1", "t4"]);
      expect(ids("User:requester1", ["User:owner5"])).toEqual(["t5"]);
      expect(ids("User:owner1", ["User:owner1", "User:renewer4"], [describeAcl("User:owner1", "t3")])).toEqual([
        "t1",
        "t3",
        "t4",
      ]);
      expect(ids("User:renewer4", ["User:renewer4"])).toEqual(["t3", "t4"]);
      expect(ids("User:renewer2", ["User:renewer2", "User:renewer3"])).toEqual(["t1"]);
      expect(ids("User:renewer2", ["User:renewer2", "User:renewer3"], [describeAcl("User:renewer2", "t2")])).toEqual([
        "t1",
        "t2",
      ]);
    },
  );

  it("testRenewToken, with KRaft's capped renew period", () => {
    const owner = "User:owner";
    const token = created(ctx(owner), [], { renewers: ["User:renewer"], tokenId: "r" });
    expect(token).toMatchObject({ issueTimestamp: T0, expiryTimestamp: T0 + DAY, maxTimestamp: T0 + 7 * DAY });
    expect(renewToken(ctx(owner), [token], { hmac: "dGVzdA==", renewPeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_NOT_FOUND",
    );
    expect(renewToken(ctx("User:Unknown"), [token], { hmac: token.hmac, renewPeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_OWNER_MISMATCH",
    );
    let now = T0 + DAY; // expiry == now: still valid
    let r = renewToken(ctx(owner, now), [token], { hmac: token.hmac, renewPeriodMs: -1 });
    expect(r).toMatchObject({ error: "NONE", expiryTimestamp: now + DAY });
    now += DAY;
    r = renewToken(ctx(owner, now), [r.token!], { hmac: token.hmac, renewPeriodMs: H });
    expect(r).toMatchObject({ error: "NONE", expiryTimestamp: now + H });
    now += H;
    r = renewToken(ctx(owner, now), [r.token!], { hmac: token.hmac, renewPeriodMs: 8 * DAY });
    expect(r).toMatchObject({ error: "NONE", expiryTimestamp: now + DAY }); // ZooKeeper: the max (T0 + 7 days)
    now += 8 * DAY;
    expect(renewToken(ctx(owner, now), [r.token!], { hmac: token.hmac, renewPeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_EXPIRED",
    );
  });

  it("testExpireToken and testRemoveTokenHmac", () => {
    const owner = "User:owner";
    const token = created(ctx(owner), [], { renewers: ["User:renewer"], tokenId: "e" });
    expect(expireToken(ctx(owner), [token], { hmac: "dGVzdA==", expiryTimePeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_NOT_FOUND",
    );
    expect(expireToken(ctx("User:Unknown"), [token], { hmac: token.hmac, expiryTimePeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_OWNER_MISMATCH",
    );
    let now = T0 + DAY;
    const r = expireToken(ctx(owner, now), [token], { hmac: token.hmac, expiryTimePeriodMs: 2 * H });
    expect(r).toMatchObject({ error: "NONE", expiryTimestamp: now + 2 * H });
    now += 8 * DAY;
    expect(renewToken(ctx(owner, now), [r.token!], { hmac: token.hmac, renewPeriodMs: -1 }).error).toBe(
      "DELEGATION_TOKEN_EXPIRED",
    );
    const gone = expireToken(ctx(owner, now), [r.token!], { hmac: token.hmac, expiryTimePeriodMs: -1 });
    expect(gone).toMatchObject({ error: "NONE", expiryTimestamp: now, removed: true });
    expect(applyTokenChange([r.token!], gone, token.hmac)).toEqual([]);
  });
});
