/**
 * Signing in with the cluster's OpenID Connect provider, and API calls with its access tokens
 * (#21, docs/sso.md). Kafka is still the judge: a sign-in counts only once the brokers accept the
 * person's access token (a SASL/OAUTHBEARER handshake), and the principal is the one they derive
 * from it. Refused answers are audited and throttled like wrong passwords, keyed by the client's
 * source (a callback carries no username).
 */
import { createHash } from "node:crypto";
import { decryptSecret, encryptSecret } from "@/lib/auth/crypto";
import { addressSource } from "@/lib/auth/client-address";
import { recordAudit } from "@/lib/db/audit";
import { createSession } from "@/lib/db/session";
import { recordSignInFailure } from "@/lib/db/sign-in-audit";
import { awaitSignInAttempt, finishSignInAttempt, type AttemptOutcome } from "@/lib/db/sign-in-throttle";
import { defaultClusterId, findCluster } from "@/lib/clusters";
import { verifyCredentials, type KafkaCredential } from "@/lib/kafka";
import { toErrorResult } from "@/lib/kafka/error-result";
import {
  beginSignIn,
  finishSignIn,
  pendingCookieName,
  SsoError,
  verifyAccessToken,
  type PendingSignIn,
  type SsoTokens,
} from "./oidc";
import { encodeTokens, SSO_MECHANISM } from "./oidc-session";
import { sessionTtlMs, type Viewer } from "./sign-in";

/** Where the audit trail and the throttle file a sign-in that names no user. */
export const SSO_USERNAME = "(single sign-on)";

export function ssoThrottleKey(clientAddress: string): string {
  return `${addressSource(clientAddress)}|${SSO_USERNAME}`;
}

/** The provider's address for a new sign-in, and the cookie that remembers it in this browser. */
export async function startSsoSignIn(
  clusterId: string,
  next: string,
  redirectUri: string,
): Promise<{ url: URL; cookieName: string; cookieValue: string }> {
  const { url, pending } = await beginSignIn(clusterId, next, redirectUri);
  return { url, cookieName: pendingCookieName(pending.state), cookieValue: encryptSecret(JSON.stringify(pending)) };
}

/** The sign-in a callback's cookie remembers, or null when it is absent or unreadable. */
export function readPending(cookieValue: string | undefined): PendingSignIn | null {
  if (!cookieValue) return null;
  try {
    const pending = JSON.parse(decryptSecret(cookieValue)) as PendingSignIn;
    return typeof pending.state === "string" && typeof pending.verifier === "string" ? pending : null;
  } catch {
    return null;
  }
}

function tokenCredential(clusterId: string, name: string, token: string, key: string): KafkaCredential {
  return {
    username: name,
    password: "",
    mechanism: SSO_MECHANISM,
    clusterId,
    oauth: { key, token: async () => token },
  };
}

/** Asks the brokers whether they accept the token; SsoError when they refuse it. */
async function proveWithKafka(clusterId: string, tokens: Pick<SsoTokens, "name" | "accessToken">): Promise<void> {
  try {
    await verifyCredentials(tokenCredential(clusterId, tokens.name, tokens.accessToken, "proof"));
  } catch (error) {
    const result = toErrorResult(error, "sign in");
    if (result.code === "INVALID_CREDENTIALS")
      throw new SsoError(
        "kafka-refused",
        `Kafka refused the access token of ${tokens.name}: the brokers' OAUTHBEARER listener does not trust this ` +
          "provider, or expects another issuer or audience.",
      );
    throw new SsoError("unavailable", result.message);
  }
}

export interface SsoSignedIn {
  sessionId: string;
  principal: string;
  expiresAt: Date;
  clusterId: string;
  next: string;
}

async function auditFailure(clusterId: string, clientAddress: string, failure: SsoError): Promise<void> {
  if (failure.code === "unavailable" || failure.code === "not-configured") return;
  await recordSignInFailure({
    clusterId: findCluster(clusterId) ? clusterId : defaultClusterId(),
    clientAddress,
    clientSource: addressSource(clientAddress),
    username: SSO_USERNAME,
    mechanism: SSO_MECHANISM,
    code: failure.code === "throttled" ? "THROTTLED" : "INVALID_CREDENTIALS",
    message: failure.message,
  });
}

/**
 * Finishes a sign-in from the provider's answer: the remembered sign-in (its cookie), the code
 * exchanged and every token checked, the brokers' acceptance, then a session. Throws SsoError,
 * audited and counted by the throttle (not when the provider or Kafka could not be asked).
 */
export async function completeSsoSignIn(
  pending: PendingSignIn | null,
  params: URLSearchParams,
  clientAddress: string,
  fallbackClusterId: string,
): Promise<SsoSignedIn> {
  const clusterId = pending?.clusterId ?? fallbackClusterId;
  const key = ssoThrottleKey(clientAddress);
  const decision = await awaitSignInAttempt(key);
  if (!decision.allowed) {
    const failure = new SsoError(
      "throttled",
      `Too many failed sign-ins. Try again in ${Math.ceil(decision.retryAfterMs / 1000)} s.`,
    );
    await auditFailure(clusterId, clientAddress, failure);
    throw failure;
  }
  let outcome: AttemptOutcome = "failure";
  try {
    if (!pending || pending.state !== params.get("state"))
      throw new SsoError(
        "no-pending",
        "This browser started no sign-in that this answer belongs to: it was already used, it was started in " +
          "another browser, or it was not started here at all. Nobody was signed in.",
      );
    const tokens = await finishSignIn(pending, params);
    await proveWithKafka(pending.clusterId, tokens);
    const principal = `User:${tokens.name}`;
    const session = await createSession({
      principal,
      username: tokens.name,
      mechanism: SSO_MECHANISM,
      encryptedCredential: encodeTokens(tokens),
      ttlMs: sessionTtlMs(),
      clusterId: pending.clusterId,
    });
    outcome = "success";
    await recordAudit({
      principal,
      action: "session.sign-in",
      target: principal,
      request: {
        method: "single sign-on (OIDC)",
        provider: findCluster(pending.clusterId)?.oidc?.issuer ?? null,
        subject: tokens.subject,
        mechanism: SSO_MECHANISM,
        client: clientAddress,
      },
      outcome: "success",
      category: "session",
      clusterId: pending.clusterId,
    });
    return {
      sessionId: session.id,
      principal,
      expiresAt: session.expiresAt,
      clusterId: pending.clusterId,
      next: pending.next,
    };
  } catch (error) {
    const failure =
      error instanceof SsoError
        ? error
        : new SsoError("invalid", `The sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    if (failure.code === "unavailable") outcome = "not-asked";
    await auditFailure(clusterId, clientAddress, failure);
    throw failure;
  } finally {
    await finishSignInAttempt(key, outcome);
  }
}

/** Bearer tokens verified lately (by hash): a script's calls are not each a throttle round trip. */
const verifiedBearers = new Map<string, { name: string; expiresAt: number; at: number }>();
const BEARER_CACHE_MS = 60_000;

/**
 * An API caller presenting an access token of the cluster's provider (`Authorization: Bearer`):
 * verified as the brokers verify it, then sent to Kafka as is (its connections kept by the token).
 */
export async function viewerFromBearer(
  clusterId: string,
  token: string,
  clientAddress: string,
): Promise<{ ok: true; viewer: Viewer } | { ok: false; failure: SsoError }> {
  const hash = createHash("sha256").update(`${clusterId}\u0000${token}`).digest("hex");
  const viewerOf = (name: string): Viewer => ({
    sessionId: null,
    principal: `User:${name}`,
    credential: tokenCredential(clusterId, name, token, `bearer:${hash}`),
  });
  const known = verifiedBearers.get(hash);
  if (known && Date.now() < Math.min(known.at + BEARER_CACHE_MS, known.expiresAt))
    return { ok: true, viewer: viewerOf(known.name) };
  const key = ssoThrottleKey(clientAddress);
  const decision = await awaitSignInAttempt(key);
  if (!decision.allowed) {
    const failure = new SsoError(
      "throttled",
      `Too many refused tokens. Try again in ${Math.ceil(decision.retryAfterMs / 1000)} s.`,
    );
    return { ok: false, failure };
  }
  let outcome: AttemptOutcome = "failure";
  try {
    const { name, expiresAt } = await verifyAccessToken(clusterId, token);
    outcome = "success";
    if (verifiedBearers.size >= 1000) verifiedBearers.delete(verifiedBearers.keys().next().value!);
    verifiedBearers.set(hash, { name, expiresAt, at: Date.now() });
    return { ok: true, viewer: viewerOf(name) };
  } catch (error) {
    const failure = error instanceof SsoError ? error : new SsoError("invalid", String(error));
    if (failure.code === "unavailable" || failure.code === "not-configured") outcome = "not-asked";
    await auditFailure(clusterId, clientAddress, failure);
    return { ok: false, failure };
  } finally {
    await finishSignInAttempt(key, outcome);
  }
}
