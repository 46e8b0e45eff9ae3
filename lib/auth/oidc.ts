/**
 * The console as an OpenID Connect client (#21, docs/sso.md), with `openid-client` 6: discovery
 * from the cluster's issuer, the authorization code flow with PKCE, state and nonce, refresh, and
 * RP-initiated sign-out. The access token is what Kafka is sent (SASL/OAUTHBEARER); the console
 * verifies it as the brokers do (signature against the provider's keys, issuer, audience, expiry)
 * and names the principal by the same claim (`principalClaim`, the brokers'
 * `sasl.oauthbearer.sub.claim.name`). Nothing here touches the database (lib/auth/oidc-session.ts
 * keeps the tokens).
 */
import { createHash } from "node:crypto";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import * as client from "openid-client";
import { findCluster } from "@/lib/clusters";
import type { OidcSettings } from "@/lib/oidc-settings";

/** Why a sign-in with the provider did not happen; each has its own message on the sign-in page. */
export type SsoFailureCode =
  /** The cluster has no provider configured. */
  | "not-configured"
  /** The provider could not be reached (discovery, token or key endpoint). */
  | "unavailable"
  /** No sign-in of this browser is waiting for this answer: replayed, forged, expired, or from another browser. */
  | "no-pending"
  /** The provider said no (the person cancelled, or may not use the console). */
  | "refused"
  /** The answer or its tokens failed a check: state, nonce, issuer, audience, signature, expiry. */
  | "invalid"
  /** The access token names no principal in the claim the brokers use. */
  | "no-principal"
  /** Kafka refused the person's token. */
  | "kafka-refused"
  /** Too many failed sign-ins from this client. */
  | "throttled";

export class SsoError extends Error {
  override name = "SsoError";
  constructor(
    readonly code: SsoFailureCode,
    message: string,
  ) {
    super(message);
  }
}

interface Provider {
  settings: OidcSettings;
  config: client.Configuration;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/** Discovery per cluster and issuer; a failed one is forgotten, so the next sign-in tries again. */
const providers = new Map<string, Promise<Provider>>();

function settingsOf(clusterId: string): OidcSettings {
  const settings = findCluster(clusterId)?.oidc;
  if (!settings) throw new SsoError("not-configured", "Single sign-on is not configured for this cluster.");
  return settings;
}

function isLoopbackHttp(issuer: string): boolean {
  return new URL(issuer).protocol === "http:";
}

async function discover(settings: OidcSettings): Promise<Provider> {
  const options = isLoopbackHttp(settings.issuer) ? { execute: [client.allowInsecureRequests] } : undefined;
  let config: client.Configuration;
  try {
    config = await client.discovery(
      new URL(settings.issuer),
      settings.clientId,
      settings.clientSecret ?? undefined,
      settings.clientSecret === null ? client.None() : undefined,
      { ...options, timeout: 10 },
    );
  } catch (error) {
    throw new SsoError(
      "unavailable",
      `The identity provider (${settings.name}) cannot be reached: ${describe(error)}.`,
    );
  }
  const jwksUri = config.serverMetadata().jwks_uri;
  if (!jwksUri)
    throw new SsoError("unavailable", `The identity provider (${settings.name}) publishes no signing keys.`);
  return { settings, config, keys: createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000 }) };
}

export async function providerOf(clusterId: string): Promise<Provider> {
  const settings = settingsOf(clusterId);
  const key = `${clusterId}\u0000${settings.issuer}\u0000${settings.clientId}`;
  let pending = providers.get(key);
  if (!pending) {
    pending = discover(settings);
    providers.set(key, pending);
    pending.catch(() => providers.delete(key));
  }
  return pending;
}

/** What the console remembers, in the browser, between sending it to the provider and its answer. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  clusterId: string;
  next: string;
  redirectUri: string;
  /** Epoch ms; a sign-in not finished within PENDING_MS is refused. */
  at: number;
}

export const PENDING_MS = 10 * 60_000;

export const PENDING_COOKIE_PREFIX = "ksc_oidc_";

/** One cookie per sign-in under way (two tabs do not overwrite each other's), named after its state. */
export function pendingCookieName(state: string): string {
  return `${PENDING_COOKIE_PREFIX}${createHash("sha256").update(state).digest("hex").slice(0, 20)}`;
}

/** The provider's authorization address for a new sign-in, and what to remember until it answers. */
export async function beginSignIn(
  clusterId: string,
  next: string,
  redirectUri: string,
): Promise<{ url: URL; pending: PendingSignIn }> {
  const { settings, config } = await providerOf(clusterId);
  const pending: PendingSignIn = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    clusterId,
    next,
    redirectUri,
    at: Date.now(),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: settings.scopes.join(" "),
    code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: "S256",
    state: pending.state,
    nonce: pending.nonce,
    ...(settings.resource ? { resource: settings.resource } : {}),
  });
  return { url, pending };
}

/** The tokens of a finished sign-in or a refresh. */
export interface SsoTokens {
  accessToken: string;
  refreshToken: string | null;
  idToken: string | null;
  /** From the access token's `exp` (epoch ms). */
  expiresAt: number;
  /** When they were obtained (epoch ms). */
  obtainedAt: number;
  /** The principal's name (the claim the brokers use) and the provider's subject. */
  name: string;
  subject: string;
}

function describe(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError)
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error;
  if (!(error instanceof Error)) return String(error);
  // openid-client says "invalid response encountered"; what was invalid is in the cause.
  const cause = error.cause instanceof Error ? error.cause.message : null;
  return cause && cause !== error.message ? `${error.message} (${cause})` : error.message;
}

function isNetworkFailure(error: unknown): boolean {
  if (error instanceof SsoError) return error.code === "unavailable";
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) return false;
  const cause = (error as { cause?: unknown })?.cause;
  const text = [error, cause].map((e) => (e instanceof Error ? `${e.name} ${e.message}` : String(e))).join(" ");
  return /fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|timeout|aborted|ENOTFOUND|EAI_AGAIN/i.test(text);
}

/**
 * Verifies an access token as the brokers will (signature by one of the provider's keys, issuer,
 * audience when configured, expiry) and reads the principal's name from the configured claim.
 */
export async function verifyAccessToken(
  clusterId: string,
  accessToken: string,
): Promise<{ name: string; subject: string; expiresAt: number }> {
  const { settings, config, keys } = await providerOf(clusterId);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(accessToken, keys, {
      issuer: config.serverMetadata().issuer,
      ...(settings.audience ? { audience: settings.audience } : {}),
      requiredClaims: ["exp"],
      clockTolerance: 5,
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWKSTimeout || isNetworkFailure(error))
      throw new SsoError("unavailable", `The identity provider's signing keys cannot be fetched: ${describe(error)}.`);
    const why =
      error instanceof joseErrors.JWTExpired
        ? "it has expired"
        : error instanceof joseErrors.JWTClaimValidationFailed
          ? `its ${error.claim} claim is not what this cluster expects`
          : error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWSSignatureVerificationFailed
            ? "it is not signed by the provider's keys"
            : "it is not a token of the provider (a signed JWT)";
    throw new SsoError("invalid", `The access token was refused: ${why}.`);
  }
  const name = payload[settings.principalClaim];
  if (typeof name !== "string" || name.trim() === "")
    throw new SsoError(
      "no-principal",
      `The access token has no "${settings.principalClaim}" claim, which the brokers name the principal by.`,
    );
  return { name, subject: typeof payload.sub === "string" ? payload.sub : name, expiresAt: payload.exp! * 1000 };
}

async function tokensFrom(
  clusterId: string,
  response: client.TokenEndpointResponse,
  previous?: Pick<SsoTokens, "refreshToken" | "idToken">,
): Promise<SsoTokens> {
  const obtainedAt = Date.now();
  const verified = await verifyAccessToken(clusterId, response.access_token);
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? previous?.refreshToken ?? null,
    idToken: response.id_token ?? previous?.idToken ?? null,
    expiresAt: verified.expiresAt,
    obtainedAt,
    name: verified.name,
    subject: verified.subject,
  };
}

/**
 * Finishes a sign-in: the provider's answer (`callbackParams`, the callback's query) checked
 * against what this browser remembered (state, nonce, PKCE verifier), the code exchanged, the
 * ID token checked by the library (issuer, audience, nonce), the access token verified.
 */
export async function finishSignIn(pending: PendingSignIn, callbackParams: URLSearchParams): Promise<SsoTokens> {
  if (Date.now() - pending.at > PENDING_MS)
    throw new SsoError("no-pending", "This sign-in took longer than 10 minutes. Start it again.");
  const { config } = await providerOf(pending.clusterId);
  const callback = new URL(pending.redirectUri);
  callback.search = callbackParams.toString();
  let response: client.TokenEndpointResponse;
  try {
    response = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    if (isNetworkFailure(error))
      throw new SsoError("unavailable", `The identity provider cannot be reached: ${describe(error)}.`);
    if (error instanceof client.AuthorizationResponseError)
      throw new SsoError("refused", `The identity provider did not sign you in (${describe(error)}).`);
    if (error instanceof client.ResponseBodyError)
      throw new SsoError("invalid", `The identity provider refused the sign-in's code (${describe(error)}).`);
    throw new SsoError("invalid", `The identity provider's answer failed the console's checks: ${describe(error)}.`);
  }
  return tokensFrom(pending.clusterId, response);
}

/** Why a refresh did not give new tokens: the provider refused (the sign-in is over) or could not be asked. */
export class RefreshError extends Error {
  override name = "RefreshError";
  constructor(
    readonly refused: boolean,
    message: string,
  ) {
    super(message);
  }
}

export async function refreshTokens(clusterId: string, previous: SsoTokens): Promise<SsoTokens> {
  if (!previous.refreshToken) throw new RefreshError(true, "the sign-in has no refresh token and its token expired");
  let provider: Provider;
  try {
    provider = await providerOf(clusterId);
  } catch (error) {
    throw new RefreshError(false, describe(error));
  }
  try {
    const response = await client.refreshTokenGrant(
      provider.config,
      previous.refreshToken,
      provider.settings.resource ? { resource: provider.settings.resource } : undefined,
    );
    const tokens = await tokensFrom(clusterId, response, previous);
    if (tokens.subject !== previous.subject)
      throw new RefreshError(true, "the refreshed token names another person than the session's");
    return tokens;
  } catch (error) {
    if (error instanceof RefreshError) throw error;
    if (isNetworkFailure(error)) throw new RefreshError(false, describe(error));
    throw new RefreshError(true, describe(error));
  }
}

/** Where to send the browser to end the provider's session too (null: the provider cannot). */
export async function endSessionUrl(
  clusterId: string,
  idToken: string | null,
  postLogoutRedirectUri: string,
): Promise<URL | null> {
  try {
    const { config } = await providerOf(clusterId);
    if (!config.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(config, {
      post_logout_redirect_uri: postLogoutRedirectUri,
      ...(idToken ? { id_token_hint: idToken } : { client_id: config.clientMetadata().client_id }),
    });
  } catch {
    return null;
  }
}

/** Forgets every discovery (tests). */
export function resetOidcProvidersForTests(): void {
  providers.clear();
}
