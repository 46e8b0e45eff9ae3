/**
 * Conformance of the policy CLI with Apache Kafka 4.x, delegation tokens (KRaft).
 * How the cases are translated from Kafka's own tests: ./cli.ts.
 */
import { describe, expect, it } from "vitest";
import { acl, cli, DAY, NOW, kafkaHmac, tokenDoc, token, T } from "./cli";

// ---- delegation tokens --------------------------------------------------------------------

describe.concurrent("token (KRaft delegation tokens)", () => {
  const token1 = token("tokenOneAAAAAAAAAAAAAA", "User:admin", ["User:renewer1"]);
  const token2 = token("tokenTwoAAAAAAAAAAAAAA", "User:admin", ["User:renewer2"]);

  it(
    "DelegationTokenRequestsTest: create token1 with renewer1 (owner = requester, Kafka's lifetimes, HMAC of " +
      "the token id)",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "create", request: { renewers: ["User:renewer1"] } }));
      expect(out).toMatchObject({
        error: "NONE",
        owner: "User:admin",
        requester: "User:admin",
        renewers: ["User:renewer1"],
        issueTimestamp: NOW,
        expiryTimestamp: NOW + DAY,
        maxTimestamp: NOW + 7 * DAY,
      });
      expect(out.tokenId).toMatch(/^[A-Za-z0-9_-]{22}$/); // Uuid.randomUuid().toString()
      expect(out.hmac).toBe(kafkaHmac("testKey", out.tokenId));
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: create with maxlifeTimeMs(1000) caps both timestamps",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({ operation: "create", request: { renewers: ["User:renewer1"], maxLifetimeMs: 1000 } }),
      );
      expect(out).toMatchObject({
        error: "NONE",
        issueTimestamp: NOW,
        expiryTimestamp: NOW + 1000,
        maxTimestamp: NOW + 1000,
      });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: describe with owners [renewer2] returns the tokens renewer2 may renew",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({ operation: "describe", tokens: [token1, token2], request: { owners: ["User:renewer2"] } }),
      );
      expect(out).toEqual({ error: "NONE", tokens: [token2] });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: renew token1 (default period = delegation.token.expiry.time.ms)",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({ operation: "renew", tokens: [token1, token2], request: { hmac: token1.hmac } }),
      );
      expect(out).toMatchObject({ error: "NONE", expiryTimestamp: NOW + DAY });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: expire token1 (period -1 = now, token removed)",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({ operation: "expire", tokens: [token1, token2], request: { hmac: token1.hmac } }),
      );
      expect(out).toMatchObject({ error: "NONE", expiryTimestamp: NOW, removed: true });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: renew a deleted token is DELEGATION_TOKEN_NOT_FOUND",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({ operation: "renew", tokens: [token2], request: { hmac: token1.hmac } }),
      );
      expect(out.error).toBe("DELEGATION_TOKEN_NOT_FOUND");
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: a Group renewer is INVALID_PRINCIPAL_TYPE",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "create", request: { renewers: ["Group:Renewer4"] } }));
      expect(out).toMatchObject({ error: "INVALID_PRINCIPAL_TYPE", owner: "User:admin", requester: "User:admin" });
    },
    T,
  );

  it(
    "DelegationTokenRequestsOnPlainTextTest: token requests on PLAINTEXT are DELEGATION_TOKEN_REQUEST_NOT_ALLOWED",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({
          operation: "describe",
          connection: { principal: "User:ANONYMOUS", securityProtocol: "PLAINTEXT" },
          request: { owners: null },
        }),
      );
      expect(out).toEqual({ error: "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", tokens: [] });
    },
    T,
  );

  it(
    "DelegationTokenRequestsWithDisableTokenFeatureTest: no secret key, every request is " +
      "DELEGATION_TOKEN_AUTH_DISABLED",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "expire", config: {}, request: { hmac: "" } }));
      expect(out.error).toBe("DELEGATION_TOKEN_AUTH_DISABLED");
    },
    T,
  );

  it(
    "SaslSslAdminIntegrationTest.testCreateTokenWithOverflowTimestamp: lifetimes of Long.MAX_VALUE saturate " +
      "instead of wrapping",
    async () => {
      const max = 2 ** 63; // what JSON.parse makes of Long.MAX_VALUE (9223372036854775807)
      const out = await cli(
        "token",
        tokenDoc({
          operation: "create",
          config: { secretKey: "testKey", maxLifetimeMs: max, expiryTimeMs: max },
          request: { maxLifetimeMs: max },
        }),
      );
      expect(out).toMatchObject({ error: "NONE", issueTimestamp: NOW, expiryTimestamp: max, maxTimestamp: max });
    },
    T,
  );

  it(
    "SaslSslAdminIntegrationTest.testExpireDelegationToken: expiring an expired token with a period >= 0 is " +
      "DELEGATION_TOKEN_EXPIRED",
    async () => {
      const expired = { ...token1, expiryTimestamp: NOW - 1, maxTimestamp: NOW - 1 };
      const out = await cli(
        "token",
        tokenDoc({ operation: "expire", tokens: [expired], request: { hmac: expired.hmac, expiryTimePeriodMs: 1 } }),
      );
      expect(out.error).toBe("DELEGATION_TOKEN_EXPIRED");
    },
    T,
  );

  it(
    "DelegationTokenEndToEndAuthorizationWithOwnerTest.testCreateTokenForOtherUserFails: CREATE_TOKENS only on " +
      "USER:User:client",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({
          operation: "create",
          connection: { principal: "User:scram-user2", securityProtocol: "SASL_SSL", tokenAuthenticated: false },
          superUsers: ["User:admin"],
          acls: [
            acl("USER", "User:client", "LITERAL", "User:scram-user2", "*", "CREATE_TOKENS", "ALLOW"),
            acl("USER", "User:client", "LITERAL", "User:scram-user2", "*", "DESCRIBE_TOKENS", "ALLOW"),
          ],
          // CreateDelegationTokenRequest's own fields (what CreateDelegationTokenOptions().owner(p) sends)
          request: { ownerPrincipalType: "User", ownerPrincipalName: "other-client-principal" },
        }),
      );
      expect(out).toEqual({
        error: "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
        owner: "User:other-client-principal",
        requester: "User:scram-user2",
      });
    },
    T,
  );

  it(
    "DelegationTokenEndToEndAuthorizationWithOwnerTest.testDescribeTokenForOtherUserFails: no DESCRIBE_TOKENS " +
      "on the owner, nothing returned",
    async () => {
      const otherToken = token("otherTokenAAAAAAAAAAAA", "User:other-client-principal", []);
      const out = await cli(
        "token",
        tokenDoc({
          operation: "describe",
          connection: {
            principal: "User:describe-token-fail-principal",
            securityProtocol: "SASL_SSL",
            tokenAuthenticated: false,
          },
          acls: [
            acl(
              "USER",
              "User:other-client-principal",
              "LITERAL",
              "User:other-client-requester-principal",
              "*",
              "DESCRIBE_TOKENS",
              "ALLOW",
            ),
          ],
          tokens: [otherToken],
          // DescribeDelegationTokenRequest's owners, as Kafka's wire message spells them
          request: { owners: [{ principalType: "User", principalName: "other-client-principal" }] },
        }),
      );
      expect(out).toEqual({ error: "NONE", tokens: [] });
    },
    T,
  );
});
