/**
 * Delegation tokens as the signed-in viewer (KIP-48, KIP-373): list, create, renew,
 * expire. Used by the Tokens page, its server actions and /api/v1/tokens*.
 *
 * Kafka decides everything: creating for another owner needs CREATE_TOKENS on
 * USER:<owner>, only the owner and renewers renew or expire, and a refusal comes back
 * as KafkaOperationError whose message names the missing permission.
 *
 * The HMAC is the token's password. The console keeps none: a new token's HMAC is
 * returned once to the caller (never stored, logged or audited), and renew/expire take it
 * from the caller again, because Kafka identifies the token by its HMAC. Every create,
 * renew and expire attempt goes through auditedMutation (intent before Kafka, outcome
 * after), with category "token", the token id, and owner and renewers as subjects.
 */
import "server-only";
import { describeDelegationTokens, isKafkaOperationError } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import type { DelegationToken } from "@/lib/policy";
import type {
  TokenCreated,
  TokenCreateInput,
  TokenExpireInput,
  TokenExpiryResult,
  TokenList,
  TokenRenewInput,
} from "@/lib/schemas/tokens";
import { formatRelative, toTokenView } from "./token-view";
import { auditedMutation, failureOutcome, type KafkaWriter } from "./audited-mutation";

export const kafkaCodeOf = (error: unknown): string | null => (isKafkaOperationError(error) ? error.code : null);

/** Tokens the viewer may see (own, requested, renewer, or DESCRIBE_TOKENS on the owner), without HMACs. */
export async function listTokens(viewer: Viewer, now = Date.now()): Promise<ActionResult<TokenList>> {
  try {
    const tokens = await describeDelegationTokens(viewer.credential, null);
    return { ok: true, data: { tokens: tokens.map((t) => toTokenView(t, viewer.principal, now)), now } };
  } catch (error) {
    return toErrorResult(error, "describe delegation tokens");
  }
}

/** Create as the viewer; the HMAC is in the answer and nowhere else. */
export async function createToken(viewer: Viewer, input: TokenCreateInput): Promise<ActionResult<TokenCreated>> {
  const owner = input.owner ?? viewer.principal;
  const request = { owner, renewers: input.renewers, maxLifetimeMs: input.maxLifetimeMs };
  return auditedMutation(
    {
      viewer,
      action: "token.create",
      category: "token",
      target: `token for ${owner}`,
      request,
      subjects: [owner, ...input.renewers],
    },
    async (kafka) => {
      const token = await kafka.createDelegationToken(viewer.credential, {
        ...(input.owner !== null && input.owner !== viewer.principal ? { owner: input.owner } : {}),
        renewers: input.renewers,
        ...(input.maxLifetimeMs !== null ? { maxLifetimeMs: input.maxLifetimeMs } : {}),
      });
      const view = toTokenView(token, viewer.principal, Date.now());
      return {
        result: { ok: true, data: { token: view, hmac: token.hmac } },
        audit: {
          outcome: "success",
          target: `token ${token.tokenId}`,
          after: {
            tokenId: token.tokenId,
            owner: token.owner,
            requester: token.requester,
            renewers: token.renewers,
            expiryTimestamp: token.expiryTimestamp,
            maxTimestamp: token.maxTimestamp,
          },
          message: `Created token ${token.tokenId} for ${token.owner}.`,
        },
      };
    },
  );
}

/**
 * Which token the pasted HMAC is, among those the viewer can describe (Kafka's describe
 * answer carries HMACs; they are compared here and never leave the server). Null when
 * the viewer cannot see it: Kafka still decides.
 */
async function identify(viewer: Viewer, hmac: string, tokenId: string): Promise<ActionResult<DelegationToken | null>> {
  let tokens: DelegationToken[];
  try {
    tokens = await describeDelegationTokens(viewer.credential, null);
  } catch {
    return { ok: true, data: null };
  }
  const normalised = hmac.trim();
  const byHmac = tokens.find((t) => t.hmac === normalised) ?? null;
  if (tokenId !== "" && byHmac !== null && byHmac.tokenId !== tokenId) {
    return {
      ok: false,
      code: "VALIDATION",
      message: `This HMAC belongs to another token (${byHmac.tokenId}), not ${tokenId}. Paste the HMAC of ${tokenId}.`,
    };
  }
  if (tokenId !== "" && byHmac === null && tokens.some((t) => t.tokenId === tokenId)) {
    return {
      ok: false,
      code: "VALIDATION",
      message: `This is not the HMAC of token ${tokenId}. Paste the HMAC that was shown when it was created.`,
    };
  }
  return { ok: true, data: byHmac };
}

async function changeExpiry(
  viewer: Viewer,
  verb: "renew" | "expire",
  input: { tokenId: string; hmac: string; periodMs: number },
  call: (kafka: KafkaWriter) => Promise<number>,
): Promise<ActionResult<TokenExpiryResult>> {
  const found = await identify(viewer, input.hmac, input.tokenId);
  const token = found.ok ? found.data : null;
  const tokenId = token?.tokenId ?? (input.tokenId || null);
  const spec = {
    viewer,
    action: `token.${verb}`,
    category: "token" as const,
    target: tokenId ? `token ${tokenId}` : "token (unknown id)",
    request: { tokenId, periodMs: input.periodMs },
    before: token
      ? {
          owner: token.owner,
          renewers: token.renewers,
          expiryTimestamp: token.expiryTimestamp,
          maxTimestamp: token.maxTimestamp,
        }
      : undefined,
    // Unknown when the viewer cannot describe the token: the event is then the actor's alone.
    subjects: token ? [token.owner, ...token.renewers] : [],
  };
  return auditedMutation<TokenExpiryResult>(spec, async (kafka) => {
    // A pasted HMAC of another token: refused before Kafka, recorded as an attempt.
    if (!found.ok) return { result: found, audit: failureOutcome(found) };
    const expiry = await call(kafka);
    const now = Date.now();
    const removed = verb === "expire" && input.periodMs < 0;
    const name = tokenId ? `Token ${tokenId}` : "The token";
    const message = removed
      ? `${name} was expired now and removed.`
      : verb === "renew"
        ? `${name} renewed: it now expires ${formatRelative(expiry, now)} (${new Date(expiry).toISOString()}).`
        : `${name} now expires ${formatRelative(expiry, now)} (${new Date(expiry).toISOString()}).`;
    return {
      result: { ok: true, data: { tokenId, expiryTimestamp: removed ? null : expiry, message } },
      audit: { outcome: "success", after: removed ? { removed: true } : { expiryTimestamp: expiry }, message },
    };
  });
}

export function renewToken(viewer: Viewer, input: TokenRenewInput): Promise<ActionResult<TokenExpiryResult>> {
  const periodMs = Math.round(input.periodHours * 3_600_000);
  const renew = (kafka: KafkaWriter) => kafka.renewDelegationToken(viewer.credential, input.hmac, periodMs);
  return changeExpiry(viewer, "renew", { tokenId: input.tokenId, hmac: input.hmac, periodMs }, renew);
}

export function expireToken(viewer: Viewer, input: TokenExpireInput): Promise<ActionResult<TokenExpiryResult>> {
  const expire = (kafka: KafkaWriter) => kafka.expireDelegationToken(viewer.credential, input.hmac, input.periodMs);
  return changeExpiry(viewer, "expire", input, expire);
}
