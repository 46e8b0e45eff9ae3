/**
 * Delegation tokens (KIP-48, KIP-373) as a KRaft cluster handles them: the broker's checks in
 * core/.../server/KafkaApis.scala (handleCreateTokenRequest, allowTokenRequests,
 * handleDescribeTokensRequest), the controller's in
 * metadata/.../controller/DelegationTokenControlManager.java, and describe's filter in
 * core/.../server/DelegationTokenManager.scala (filterToken). Time is a parameter (`now`).
 *
 * Guard ladders, in Kafka's order (the first failing guard is the error):
 *  create:   REQUEST_NOT_ALLOWED (PLAINTEXT; SSL as User:ANONYMOUS; token-authenticated)
 *            -> AUTHORIZATION_FAILED (owner != requester and no CREATE_TOKENS on USER:<owner>)
 *            -> INVALID_PRINCIPAL_TYPE (a renewer whose type is not `User`)
 *            -> AUTH_DISABLED (empty secret key; checked by the controller, so after the above)
 *  renew:    REQUEST_NOT_ALLOWED -> AUTH_DISABLED -> NOT_FOUND -> EXPIRED -> OWNER_MISMATCH
 *  expire:   REQUEST_NOT_ALLOWED -> AUTH_DISABLED -> NOT_FOUND -> OWNER_MISMATCH
 *            -> (period < 0: removed now, even if expired) -> EXPIRED
 *  describe: REQUEST_NOT_ALLOWED -> AUTH_DISABLED -> owners [] = nothing, null = all.
 * Only the owner and the renewers may renew or expire; the requester of a token created for
 * someone else may describe it but not renew it.
 *
 * Arithmetic is Java `long` arithmetic, done in BigInt: create and expire saturate at
 * Long.MAX_VALUE (DelegationTokenControlManager#sum), renew does not (`now + period`
 * wraps, as in Kafka; only reachable with an expiry.time.ms near Long.MAX_VALUE). A token is
 * expired when `maxTimestamp < now` or `expiryTimestamp < now` — strictly: a token whose
 * expiry equals `now` still renews. Values are returned as JS numbers; Long.MAX_VALUE comes
 * out as 2^63, the same number JSON.parse gives for Kafka's 9223372036854775807.
 */
import type { AclOperation, DelegationToken, ResourceType } from "../types";
import { sha512, tokenHmac, utf8 } from "../crypto/sha512";

export const TOKEN_ERRORS = [
  "NONE",
  "DELEGATION_TOKEN_AUTH_DISABLED",
  "DELEGATION_TOKEN_NOT_FOUND",
  "DELEGATION_TOKEN_OWNER_MISMATCH",
  "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED",
  "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
  "DELEGATION_TOKEN_EXPIRED",
  "INVALID_PRINCIPAL_TYPE",
] as const;
export type TokenError = (typeof TOKEN_ERRORS)[number];

export const SECURITY_PROTOCOLS = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] as const;
export type SecurityProtocol = (typeof SECURITY_PROTOCOLS)[number];

/** KafkaPrincipal.USER_TYPE: the only principal type a renewer may have. */
export const USER_PRINCIPAL_TYPE = "User";
/** KafkaPrincipal.ANONYMOUS: what a one-way SSL client authenticates as. */
export const ANONYMOUS_PRINCIPAL = "User:ANONYMOUS";

export interface TokenConfig {
  /** delegation.token.secret.key; null or "" disables tokens. */
  secretKey: string | null;
  /** delegation.token.max.lifetime.ms (Kafka default 7 days). */
  maxLifetimeMs: number;
  /** delegation.token.expiry.time.ms (Kafka default 1 day). */
  expiryTimeMs: number;
}

export interface TokenConnection {
  /** The authenticated principal, `Type:name`. */
  principal: string;
  securityProtocol: SecurityProtocol;
  /** True when the connection itself authenticated with a delegation token. */
  tokenAuthenticated: boolean;
}

/**
 * May `principal` do `operation` on the LITERAL resource `resourceType:resourceName`?
 * The ACL decision including super users (see `aclIsAllowed` in ./acl-bridge).
 */
export type IsAllowed = (
  principal: string,
  operation: AclOperation,
  resourceType: ResourceType,
  resourceName: string,
) => boolean;

export interface TokenContext {
  config: TokenConfig;
  connection: TokenConnection;
  isAllowed: IsAllowed;
  /** The broker's/controller's clock, ms since the epoch. */
  now: number;
}

export interface CreateTokenRequest {
  /** `Type:name` of the owner (KIP-373); null, absent or a principal with an empty name means the requester. */
  owner?: string | null;
  renewers?: readonly string[];
  /** Requested max lifetime; <= 0 or absent = the server default. */
  maxLifetimeMs?: number;
  /** The token id; absent = derived deterministically from the request (Kafka uses a random Uuid). */
  tokenId?: string;
}

export interface CreateTokenResult {
  error: TokenError;
  owner: string;
  requester: string;
  token: DelegationToken | null;
}

/** Renew and expire look a token up by its HMAC (standard Base64), as Kafka does. */
export interface RenewTokenRequest {
  hmac: string;
  /** <= 0 = delegation.token.expiry.time.ms; larger values are capped at it. */
  renewPeriodMs: number;
}

export interface ExpireTokenRequest {
  hmac: string;
  /** < 0 removes the token now; >= 0 sets expiry to min(max, now + period). */
  expiryTimePeriodMs: number;
}

export interface RenewTokenResult {
  error: TokenError;
  expiryTimestamp: number | null;
  /** The token after the change (null on error). */
  token: DelegationToken | null;
}

export interface ExpireTokenResult {
  error: TokenError;
  expiryTimestamp: number | null;
  /** The token after the change; null when removed or on error. */
  token: DelegationToken | null;
  removed: boolean;
}

export interface DescribeTokensRequest {
  /** null = every token; [] = none; otherwise tokens whose owner, requester or a renewer is listed. */
  owners: readonly string[] | null;
}

export interface DescribeTokensResult {
  error: TokenError;
  tokens: DelegationToken[];
}

// ---- Java long arithmetic -------------------------------------------------------

const LONG_MAX = (1n << 63n) - 1n;
const LONG_MIN = -(1n << 63n);

function toLong(n: number): bigint {
  if (n >= 2 ** 63) return LONG_MAX;
  if (n < -(2 ** 63)) return LONG_MIN;
  return BigInt(Math.trunc(n));
}
const wrap = (v: bigint) => BigInt.asIntN(64, v);
/** DelegationTokenControlManager#sum, including its own overflow behaviour for negative durations. */
const saturatingSum = (now: bigint, duration: bigint) =>
  now > wrap(LONG_MAX - duration) ? LONG_MAX : wrap(now + duration);
const minLong = (a: bigint, b: bigint) => (a < b ? a : b);

// ---- principals and checks --------------------------------------------------------

/** Split `Type:name` at the first colon. */
export function principalParts(principal: string): { type: string; name: string } {
  const i = principal.indexOf(":");
  return i < 0 ? { type: principal, name: "" } : { type: principal.slice(0, i), name: principal.slice(i + 1) };
}

/** KafkaApis#allowTokenRequests */
export function allowTokenRequests(connection: TokenConnection): boolean {
  if (connection.tokenAuthenticated) return false;
  if (connection.securityProtocol === "PLAINTEXT") return false;
  return !(connection.securityProtocol === "SSL" && connection.principal === ANONYMOUS_PRINCIPAL);
}

/** KafkaConfig.tokenAuthEnabled / DelegationTokenControlManager#isEnabled */
export function tokensEnabled(config: TokenConfig): boolean {
  return config.secretKey !== null && config.secretKey !== "";
}

/** TokenInformation#ownerOrRenewer: the owner, the requester, or a renewer (used by describe). */
export function isOwnerRequesterOrRenewer(token: DelegationToken, principal: string): boolean {
  return token.owner === principal || token.requester === principal || token.renewers.includes(principal);
}

/** DelegationTokenControlManager#allowedToRenew: the owner or a renewer — not the requester. */
export function mayRenew(token: DelegationToken, principal: string): boolean {
  return token.owner === principal || token.renewers.includes(principal);
}

/** The sweeper's and renew's test: strictly past max or expiry. */
export function isTokenExpired(token: DelegationToken, now: number): boolean {
  return token.maxTimestamp < now || token.expiryTimestamp < now;
}

/** What the periodic sweep leaves (DelegationTokenControlManager#sweepExpiredDelegationTokens). */
export function sweepExpiredTokens(tokens: readonly DelegationToken[], now: number): DelegationToken[] {
  return tokens.filter((t) => !isTokenExpired(t, now));
}

/** May `requester` create a token owned by `owner`? (the KIP-373 check, without the connection guard) */
export function mayCreateTokenFor(isAllowed: IsAllowed, requester: string, owner: string): boolean {
  return owner === requester || isAllowed(requester, "CREATE_TOKENS", "USER", owner);
}

/**
 * A Kafka-looking token id (22 characters of URL-safe Base64, like Uuid#toString) derived
 * from the request, so that the same inputs give the same id. Never one already in use.
 */
export function deriveTokenId(seed: string, taken: (id: string) => boolean): string {
  for (let attempt = 0; ; attempt++) {
    const bytes = sha512(utf8(`${seed}\u0000${attempt}`)).slice(0, 16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4, as java.util.UUID.randomUUID
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    const id = btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    if (!id.startsWith("-") && !taken(id)) return id;
  }
}

// ---- the four APIs ------------------------------------------------------------------

export function createToken(
  ctx: TokenContext,
  tokens: readonly DelegationToken[],
  request: CreateTokenRequest,
): CreateTokenResult {
  const requester = ctx.connection.principal;
  const ownerName = request.owner ? principalParts(request.owner).name : "";
  const owner = request.owner && ownerName !== "" ? request.owner : requester;
  const fail = (error: TokenError): CreateTokenResult => ({ error, owner, requester, token: null });

  if (!allowTokenRequests(ctx.connection)) return fail("DELEGATION_TOKEN_REQUEST_NOT_ALLOWED");
  if (owner !== requester && !ctx.isAllowed(requester, "CREATE_TOKENS", "USER", owner))
    return fail("DELEGATION_TOKEN_AUTHORIZATION_FAILED");
  const renewers = [...(request.renewers ?? [])];
  if (renewers.some((r) => principalParts(r).type !== USER_PRINCIPAL_TYPE)) return fail("INVALID_PRINCIPAL_TYPE");
  if (!tokensEnabled(ctx.config)) return fail("DELEGATION_TOKEN_AUTH_DISABLED");

  const now = toLong(ctx.now);
  let maxLifetime = toLong(ctx.config.maxLifetimeMs);
  const requested = toLong(request.maxLifetimeMs ?? -1);
  if (requested > 0n) maxLifetime = minLong(maxLifetime, requested);
  const maxTimestamp = saturatingSum(now, maxLifetime);
  const expiryTimestamp = minLong(maxTimestamp, saturatingSum(now, toLong(ctx.config.expiryTimeMs)));

  const tokenId =
    request.tokenId ??
    deriveTokenId(JSON.stringify([owner, requester, renewers, ctx.now, request.maxLifetimeMs ?? null]), (id) =>
      tokens.some((t) => t.tokenId === id),
    );
  const token: DelegationToken = {
    tokenId,
    hmac: tokenHmac(ctx.config.secretKey!, tokenId),
    owner,
    requester,
    renewers,
    issueTimestamp: Number(now),
    expiryTimestamp: Number(expiryTimestamp),
    maxTimestamp: Number(maxTimestamp),
  };
  return { error: "NONE", owner, requester, token };
}

function findByHmac(tokens: readonly DelegationToken[], hmac: string): DelegationToken | undefined {
  return tokens.find((t) => t.hmac === hmac);
}

export function renewToken(
  ctx: TokenContext,
  tokens: readonly DelegationToken[],
  request: RenewTokenRequest,
): RenewTokenResult {
  const fail = (error: TokenError): RenewTokenResult => ({ error, expiryTimestamp: null, token: null });
  if (!allowTokenRequests(ctx.connection)) return fail("DELEGATION_TOKEN_REQUEST_NOT_ALLOWED");
  if (!tokensEnabled(ctx.config)) return fail("DELEGATION_TOKEN_AUTH_DISABLED");
  const token = findByHmac(tokens, request.hmac);
  if (!token) return fail("DELEGATION_TOKEN_NOT_FOUND");
  if (isTokenExpired(token, ctx.now)) return fail("DELEGATION_TOKEN_EXPIRED");
  if (!mayRenew(token, ctx.connection.principal)) return fail("DELEGATION_TOKEN_OWNER_MISMATCH");

  let period = toLong(ctx.config.expiryTimeMs);
  const requested = toLong(request.renewPeriodMs);
  if (requested > 0n) period = minLong(period, requested);
  const expiry = Number(minLong(toLong(token.maxTimestamp), wrap(toLong(ctx.now) + period)));
  return { error: "NONE", expiryTimestamp: expiry, token: { ...token, expiryTimestamp: expiry } };
}

export function expireToken(
  ctx: TokenContext,
  tokens: readonly DelegationToken[],
  request: ExpireTokenRequest,
): ExpireTokenResult {
  const fail = (error: TokenError): ExpireTokenResult => ({
    error,
    expiryTimestamp: null,
    token: null,
    removed: false,
  });
  if (!allowTokenRequests(ctx.connection)) return fail("DELEGATION_TOKEN_REQUEST_NOT_ALLOWED");
  if (!tokensEnabled(ctx.config)) return fail("DELEGATION_TOKEN_AUTH_DISABLED");
  const token = findByHmac(tokens, request.hmac);
  if (!token) return fail("DELEGATION_TOKEN_NOT_FOUND");
  if (!mayRenew(token, ctx.connection.principal)) return fail("DELEGATION_TOKEN_OWNER_MISMATCH");
  const period = toLong(request.expiryTimePeriodMs);
  if (period < 0n) return { error: "NONE", expiryTimestamp: Number(toLong(ctx.now)), token: null, removed: true };
  if (isTokenExpired(token, ctx.now)) return fail("DELEGATION_TOKEN_EXPIRED");
  const expiry = Number(minLong(toLong(token.maxTimestamp), saturatingSum(toLong(ctx.now), period)));
  return { error: "NONE", expiryTimestamp: expiry, token: { ...token, expiryTimestamp: expiry }, removed: false };
}

export function describeTokens(
  ctx: TokenContext,
  tokens: readonly DelegationToken[],
  request: DescribeTokensRequest,
): DescribeTokensResult {
  if (!allowTokenRequests(ctx.connection)) return { error: "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", tokens: [] };
  if (!tokensEnabled(ctx.config)) return { error: "DELEGATION_TOKEN_AUTH_DISABLED", tokens: [] };
  const { owners } = request;
  if (owners !== null && owners.length === 0) return { error: "NONE", tokens: [] };
  const caller = ctx.connection.principal;
  const visible = tokens.filter((token) => {
    if (owners !== null && !owners.some((o) => isOwnerRequesterOrRenewer(token, o))) return false;
    if (isOwnerRequesterOrRenewer(token, caller)) return true;
    return (
      ctx.isAllowed(caller, "DESCRIBE", "DELEGATION_TOKEN", token.tokenId) ||
      ctx.isAllowed(caller, "DESCRIBE_TOKENS", "USER", token.owner)
    );
  });
  return { error: "NONE", tokens: visible };
}

/** Replace or remove a token in a store after a successful change. */
export function applyTokenChange(
  tokens: readonly DelegationToken[],
  result: { error: TokenError; token: DelegationToken | null; removed?: boolean },
  hmac: string,
): DelegationToken[] {
  if (result.error !== "NONE") return [...tokens];
  if (result.removed) return tokens.filter((t) => t.hmac !== hmac);
  if (!result.token) return [...tokens];
  const i = tokens.findIndex((t) => t.tokenId === result.token!.tokenId);
  return i < 0 ? [...tokens, result.token] : tokens.map((t, j) => (j === i ? result.token! : t));
}
