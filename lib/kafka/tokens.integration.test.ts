import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAcls } from "./acls";
import { closeAllConnections } from "./client";
import { KafkaOperationError } from "./errors";
import { ADMIN, createScramUser, dropScramUser, runId } from "@/test/kafka/fixtures";
import { createDelegationToken, describeDelegationTokens, expireDelegationToken, renewDelegationToken } from "./tokens";
import type { KafkaCredential } from "./types";

/** The dev broker's delegation.token.secret.key (scripts/kafka.sh). */
const DEV_SECRET = "dev-only-delegation-token-secret-key";

const id = runId();
const names = {
  owner: `it-tok-owner-${id}`,
  renewer: `it-tok-renewer-${id}`,
  issuer: `it-tok-issuer-${id}`,
  other: `it-tok-other-${id}`,
};
const creds: Record<keyof typeof names, KafkaCredential> = {} as Record<keyof typeof names, KafkaCredential>;
const p = (name: string) => `User:${name}`;

beforeAll(async () => {
  for (const [k, name] of Object.entries(names)) creds[k as keyof typeof names] = await createScramUser(name);
});

afterAll(async () => {
  const tokens = await describeDelegationTokens(ADMIN, null);
  // Only a token's owner or renewers may expire it (not even a super user), so each is
  // expired as its owner while that user still exists.
  const ownerCred = (principal: string) =>
    Object.entries(names).find(([, n]) => p(n) === principal)?.[0] as keyof typeof names | undefined;
  for (const t of tokens) {
    const key = ownerCred(t.owner);
    if (key) await expireDelegationToken(creds[key], t.hmac, -1).catch(() => undefined);
  }
  for (const name of Object.values(names)) await dropScramUser(name);
  await closeAllConnections();
});

describe("delegation tokens for oneself", () => {
  it(
    "creates a token whose HMAC is HmacSHA512(secret, tokenId) in Base64, owned and requested by the " + "caller",
    async () => {
      const before = Date.now();
      const token = await createDelegationToken(creds.owner, {
        renewers: [p(names.renewer)],
        maxLifetimeMs: 3_600_000,
      });
      expect(token.owner).toBe(p(names.owner));
      expect(token.requester).toBe(p(names.owner));
      expect(token.renewers).toEqual([p(names.renewer)]);
      expect(token.hmac).toBe(createHmac("sha512", DEV_SECRET).update(token.tokenId).digest("base64"));
      expect(token.issueTimestamp).toBeGreaterThanOrEqual(before - 5_000);
      expect(token.maxTimestamp).toBe(token.issueTimestamp + 3_600_000);
      expect(token.expiryTimestamp).toBeLessThanOrEqual(token.maxTimestamp);

      const mine = await describeDelegationTokens(creds.owner, null);
      expect(mine.map((t) => t.tokenId)).toContain(token.tokenId);
      // A renewer sees tokens it may renew.
      const asRenewer = await describeDelegationTokens(creds.renewer, null);
      expect(asRenewer.find((t) => t.tokenId === token.tokenId)?.hmac).toBe(token.hmac);
      // Someone unrelated sees nothing of it.
      expect((await describeDelegationTokens(creds.other, null)).map((t) => t.tokenId)).not.toContain(token.tokenId);
    },
  );

  it("lets the owner and renewers renew and expire, and refuses anyone else with OWNER_MISMATCH", async () => {
    const token = await createDelegationToken(creds.owner, { renewers: [p(names.renewer)], maxLifetimeMs: 3_600_000 });

    const renewed = await renewDelegationToken(creds.renewer, token.hmac, 60_000);
    expect(renewed).toBeGreaterThan(Date.now() + 50_000);
    expect(renewed).toBeLessThanOrEqual(token.maxTimestamp);

    const error = await renewDelegationToken(creds.other, token.hmac, 60_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect(error).toMatchObject({ code: "DELEGATION_TOKEN_OWNER_MISMATCH", api: "RenewDelegationToken" });
    expect((error as Error).message).toBe(
      "Kafka refused RenewDelegationToken (DELEGATION_TOKEN_OWNER_MISMATCH): only the token's owner and its " +
        "renewers may renew or expire it.",
    );

    await expireDelegationToken(creds.owner, token.hmac, -1);
    expect((await describeDelegationTokens(creds.owner, null)).map((t) => t.tokenId)).not.toContain(token.tokenId);
    await expect(renewDelegationToken(creds.owner, token.hmac, 60_000)).rejects.toMatchObject({
      code: "DELEGATION_TOKEN_NOT_FOUND",
    });
  });

  it("rejects a renewer that is not a User principal", async () => {
    await expect(createDelegationToken(creds.owner, { renewers: ["Group:ops"] })).rejects.toMatchObject({
      code: "INVALID_PRINCIPAL_TYPE",
    });
  });
});

describe("delegation tokens for another owner (KIP-373)", () => {
  it("refuses without CREATE_TOKENS on the owner's USER resource and says exactly that", async () => {
    const error = await createDelegationToken(creds.issuer, { owner: p(names.owner), renewers: [] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect(error).toMatchObject({ code: "DELEGATION_TOKEN_AUTHORIZATION_FAILED", api: "CreateDelegationToken" });
    expect((error as Error).message).toBe(
      `Kafka refused CreateDelegationToken: User:${names.issuer} needs CREATE_TOKENS on USER User:${names.owner}.`,
    );
  });

  it("creates for the owner once granted; the requester may describe but not renew it", async () => {
    await createAcls(ADMIN, [
      {
        resourceType: "USER",
        resourceName: p(names.owner),
        patternType: "LITERAL",
        principal: p(names.issuer),
        host: "*",
        operation: "CREATE_TOKENS",
        permissionType: "ALLOW",
      },
    ]);
    const token = await createDelegationToken(creds.issuer, { owner: p(names.owner), renewers: [] });
    expect(token.owner).toBe(p(names.owner));
    expect(token.requester).toBe(p(names.issuer));

    expect((await describeDelegationTokens(creds.issuer, null)).map((t) => t.tokenId)).toContain(token.tokenId);
    expect((await describeDelegationTokens(creds.owner, [p(names.owner)])).map((t) => t.tokenId)).toContain(
      token.tokenId,
    );
    await expect(renewDelegationToken(creds.issuer, token.hmac, 60_000)).rejects.toMatchObject({
      code: "DELEGATION_TOKEN_OWNER_MISMATCH",
    });
    await expect(renewDelegationToken(creds.owner, token.hmac, 60_000)).resolves.toBeGreaterThan(Date.now());

    // Granted for this owner only: another owner is still refused.
    await expect(createDelegationToken(creds.issuer, { owner: p(names.other), renewers: [] })).rejects.toMatchObject({
      code: "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
    });
  });

  it("shows others' tokens only with DESCRIBE_TOKENS on their USER resource", async () => {
    const token = await createDelegationToken(creds.owner, { renewers: [] });
    expect((await describeDelegationTokens(creds.other, null)).map((t) => t.tokenId)).not.toContain(token.tokenId);
    await createAcls(ADMIN, [
      {
        resourceType: "USER",
        resourceName: p(names.owner),
        patternType: "LITERAL",
        principal: p(names.other),
        host: "*",
        operation: "DESCRIBE_TOKENS",
        permissionType: "ALLOW",
      },
    ]);
    expect((await describeDelegationTokens(creds.other, null)).map((t) => t.tokenId)).toContain(token.tokenId);
  });
});
