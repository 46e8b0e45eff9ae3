/**
 * Delegation tokens (KIP-48, KIP-373) as the signed-in user, over the raw protocol
 * (CreateDelegationToken v3, Describe v3, Renew v2, Expire v2). Kafka's rules, enforced
 * by the broker and controller, not here:
 *  - creating for another owner needs CREATE_TOKENS on USER:<owner principal>;
 *  - only the owner and renewers renew or expire; the requester may only describe;
 *  - describe shows the caller's own tokens (owner, requester, renewer) plus those it has
 *    DESCRIBE_TOKENS on USER:<owner> or DESCRIBE on DELEGATION_TOKEN:<id> for;
 *  - all four are refused on PLAINTEXT and token-authenticated connections.
 * HMACs travel as standard Base64 (with padding), the form Kafka itself prints.
 */
import {
  createDelegationTokenV3,
  describeDelegationTokenV3,
  expireDelegationTokenV2,
  renewDelegationTokenV2,
  type Connection,
} from "@platformatic/kafka";
import type { DelegationToken } from "@/lib/policy/types";
import { anyBrokerConnection, principalOf, withAdmin } from "./client";
import { settle } from "./settle";
import { joinPrincipal, splitPrincipal } from "./wire";
import type { CreateDelegationTokenInput, KafkaCredential } from "./types";

const ms = (value: bigint): number => Number(value);

function hmacFromBase64(hmacBase64: string): Buffer {
  const hmac = Buffer.from(hmacBase64.trim(), "base64");
  if (hmac.length === 0) throw new Error("The token HMAC is empty or not Base64.");
  return hmac;
}

export async function createDelegationToken(
  cred: KafkaCredential,
  input: CreateDelegationTokenInput,
): Promise<DelegationToken> {
  const owner = input.owner ? splitPrincipal(input.owner) : null;
  const renewers = input.renewers.map(splitPrincipal);
  const maxLifetimeMs = BigInt(
    input.maxLifetimeMs !== undefined && input.maxLifetimeMs > 0 ? Math.floor(input.maxLifetimeMs) : -1,
  );
  const resources = input.owner ? { USER: input.owner } : { USER: principalOf(cred) };
  return withAdmin(cred, { api: "CreateDelegationToken", resources }, async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const r = await createDelegationTokenV3.api.async(
      connection,
      owner?.principalType ?? null,
      owner?.principalName ?? null,
      renewers,
      maxLifetimeMs,
    );
    // The requester may always describe the token; wait until the broker's cache has it,
    // so it can be listed, renewed and used right away.
    await settle(async () => {
      const described = await describeDelegationTokenV3.api.async(connection, null);
      return described.tokens.some((t) => t.tokenId === r.tokenId);
    });
    return {
      tokenId: r.tokenId,
      hmac: r.hmac.toString("base64"),
      owner: joinPrincipal({ principalType: r.principalType, principalName: r.principalName }),
      requester: joinPrincipal({
        principalType: r.tokenRequesterPrincipalType,
        principalName: r.tokenRequesterPrincipalName,
      }),
      // v3 does not echo the renewers; they are exactly the ones requested.
      renewers: renewers.map(joinPrincipal),
      issueTimestamp: ms(r.issueTimestampMs),
      expiryTimestamp: ms(r.expiryTimestampMs),
      maxTimestamp: ms(r.maxTimestampMs),
    };
  });
}

/**
 * Tokens the caller may see. `owners` null = all of them; otherwise tokens where one of
 * the principals is the owner, the requester or a renewer (Kafka's filter).
 */
export async function describeDelegationTokens(
  cred: KafkaCredential,
  owners: string[] | null,
): Promise<DelegationToken[]> {
  const filter = owners === null ? null : owners.map(splitPrincipal);
  return withAdmin(cred, "DescribeDelegationToken", async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const r = await describeDelegationTokenV3.api.async(connection, filter);
    return r.tokens
      .map((t) => ({
        tokenId: t.tokenId,
        hmac: t.hmac.toString("base64"),
        owner: joinPrincipal({ principalType: t.principalType, principalName: t.principalName }),
        requester: joinPrincipal({
          principalType: t.tokenRequesterPrincipalType,
          principalName: t.tokenRequesterPrincipalName,
        }),
        renewers: t.renewers.map(joinPrincipal),
        issueTimestamp: ms(t.issueTimestamp),
        expiryTimestamp: ms(t.expiryTimestamp),
        maxTimestamp: ms(t.maxTimestamp),
      }))
      .sort((a, b) => a.issueTimestamp - b.issueTimestamp || a.tokenId.localeCompare(b.tokenId));
  });
}

/** Extends the token's expiry by `periodMs` (capped by the broker); returns the new expiry timestamp. */
export async function renewDelegationToken(
  cred: KafkaCredential,
  hmacBase64: string,
  periodMs: number,
): Promise<number> {
  const hmac = hmacFromBase64(hmacBase64);
  return withAdmin(cred, "RenewDelegationToken", async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const r = await renewDelegationTokenV2.api.async(connection, hmac, BigInt(Math.floor(periodMs)));
    await settleExpiry(connection, hmac, r.expiryTimestampMs);
    return ms(r.expiryTimestampMs);
  });
}

/**
 * Sets the token's expiry to now + `periodMs`; a negative period removes it at once. Returns the new expiry timestamp.
 */
export async function expireDelegationToken(
  cred: KafkaCredential,
  hmacBase64: string,
  periodMs: number,
): Promise<number> {
  const hmac = hmacFromBase64(hmacBase64);
  return withAdmin(cred, "ExpireDelegationToken", async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const r = await expireDelegationTokenV2.api.async(connection, hmac, BigInt(Math.floor(periodMs)));
    await settleExpiry(connection, hmac, periodMs < 0 ? null : r.expiryTimestampMs);
    return ms(r.expiryTimestampMs);
  });
}

/** Waits until the broker's token cache shows the new expiry (null: the token is gone). */
async function settleExpiry(connection: Connection, hmac: Buffer, expiry: bigint | null): Promise<void> {
  await settle(async () => {
    const described = await describeDelegationTokenV3.api.async(connection, null);
    const token = described.tokens.find((t) => t.hmac.equals(hmac));
    return expiry === null ? token === undefined : token === undefined || token.expiryTimestamp === expiry;
  });
}
