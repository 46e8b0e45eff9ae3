/**
 * Sign-in with Kafka credentials. The broker is the judge: a credential is good when
 * a SASL handshake with it succeeds. The console then keeps the credential encrypted
 * (AES-256-GCM) in the session row and acts as that principal for every Kafka call.
 *
 * Guessing is slowed by the shared sign-in throttle (lib/db/sign-in-throttle.ts), keyed
 * by client source and username, so a noisy client cannot lock a user out everywhere.
 * Every attempt is counted before Kafka is asked; one refused while others of its key are
 * in flight waits for them (a success gives its attempt back), so parallel correct
 * sign-ins are not turned away.
 *
 * A credential can be revoked in Kafka while a session holds it. So a session proves its
 * credential again with a fresh SASL handshake once CREDENTIAL_REVERIFY_MINUTES have
 * passed since the last proof (and at once after a pooled call of that user failed
 * authentication). When Kafka refuses it, the session is deleted, the user's pooled
 * connections are closed and the viewer is signed out. When Kafka cannot be reached, the
 * session is NOT ended (an outage must not sign everyone out): it continues, and the
 * proof is tried again after UNREACHABLE_RETRY_MS. Basic-auth credentials are remembered
 * for at most BASIC_CACHE_MS (never longer than the re-proof period); a credential Kafka
 * refused is never remembered, so each retry goes through the throttle.
 */
import { createHash } from "node:crypto";
import { encryptSecret, decryptSecret } from "@/lib/auth/crypto";
import { addressSource } from "@/lib/auth/client-address";
import {
  createSession,
  deleteSession,
  getSession,
  hashSessionId,
  markSessionVerified,
  type Session,
} from "@/lib/db/session";
import { recordSignInFailure } from "@/lib/db/sign-in-audit";
import { awaitSignInAttempt, finishSignInAttempt, type AttemptOutcome } from "@/lib/db/sign-in-throttle";
import { env } from "@/lib/env";
import {
  closeConnectionsFor,
  lastCredentialRejection,
  rememberRejection,
  verifyCredentials,
  type KafkaCredential,
} from "@/lib/kafka";
import { defaultClusterId, findCluster } from "@/lib/clusters";
import type { SignInInput } from "@/lib/schemas/session";
import { toErrorResult } from "@/lib/kafka/error-result";
import { isSsoSession, ssoCredential, ssoSessionLives } from "@/lib/auth/oidc-session";
import { endSessionAsRevoked } from "@/lib/auth/revoked";
import type { ActionResult } from "@/lib/schemas/result";

export interface Viewer {
  sessionId: string | null;
  principal: string;
  credential: KafkaCredential;
}

type Failure = Extract<ActionResult<never>, { ok: false }>;

export function sessionTtlMs(): number {
  return env().SESSION_TTL_HOURS * 3_600_000;
}

export function reverifyMs(): number {
  return env().CREDENTIAL_REVERIFY_MINUTES * 60_000;
}

/** Throttle key: the client's source and the username, so one noisy client cannot lock others out. */
export function throttleKey(clientAddress: string, username: string): string {
  return `${addressSource(clientAddress)}|${username.toLowerCase()}`;
}

/**
 * The credential `input` gives, for the cluster it names (the default cluster when none),
 * or why it cannot be tried there: no such cluster, or a mechanism that cluster does not offer.
 */
export function credentialFor(input: SignInInput): ActionResult<KafkaCredential> {
  const clusterId = input.cluster || defaultClusterId();
  const cluster = findCluster(clusterId);
  if (!cluster)
    return {
      ok: false,
      code: "VALIDATION",
      message: `No cluster has the id "${clusterId}".`,
      fieldErrors: { cluster: ["Choose one of the clusters offered"] },
    };
  if (cluster.oidc?.only)
    return {
      ok: false,
      code: "VALIDATION",
      message: `${cluster.displayName} offers single sign-on only: sign in with ${cluster.oidc.name}.`,
      fieldErrors: { cluster: [`Sign in with ${cluster.oidc.name}`] },
    };
  if (!cluster.saslMechanisms.includes(input.mechanism)) {
    const offered = cluster.saslMechanisms.join(", ");
    return {
      ok: false,
      code: "VALIDATION",
      message: `${cluster.displayName} offers ${offered}, not ${input.mechanism}.`,
      fieldErrors: { mechanism: [`Choose one of ${offered}`] },
    };
  }
  return {
    ok: true,
    data: { username: input.username, password: input.password, mechanism: input.mechanism, clusterId },
  };
}

/** Proves the credential with the broker of its cluster, counting the attempt in the throttle first. */
export async function proveCredential(
  input: SignInInput,
  clientAddress: string,
): Promise<ActionResult<{ principal: string; credential: KafkaCredential }>> {
  const asked = credentialFor(input);
  if (!asked.ok) return asked;
  const credential = asked.data;
  const key = throttleKey(clientAddress, input.username);
  const decision = await awaitSignInAttempt(key);
  if (!decision.allowed) {
    const seconds = Math.ceil(decision.retryAfterMs / 1000);
    return { ok: false, code: "THROTTLED", message: `Too many failed sign-ins. Try again in ${seconds} s.` };
  }
  let outcome: AttemptOutcome = "failure";
  try {
    const { principal } = await verifyCredentials(credential);
    outcome = "success";
    return { ok: true, data: { principal, credential } };
  } catch (error) {
    const result = toErrorResult(error, "sign in");
    if (result.code === "BROKER_UNAVAILABLE") outcome = "not-asked";
    if (result.code === "INVALID_CREDENTIALS") {
      return {
        ok: false,
        code: "INVALID_CREDENTIALS",
        message: `Kafka rejected these credentials (${input.mechanism}). Check the username, password and mechanism.`,
      };
    }
    return result;
  } finally {
    await finishSignInAttempt(key, outcome);
  }
}

/** Puts a refused sign-in on the audit trail, folded per client and username (lib/db/sign-in-audit.ts). */
export async function auditFailedSignIn(input: SignInInput, clientAddress: string, failure: Failure): Promise<void> {
  if (failure.code !== "INVALID_CREDENTIALS" && failure.code !== "THROTTLED") return;
  const clusterId = input.cluster || defaultClusterId();
  await recordSignInFailure({
    // Recorded on the cluster tried (an unknown one never gets here: refused as VALIDATION), shown to its admins only.
    clusterId: findCluster(clusterId) ? clusterId : defaultClusterId(),
    clientAddress,
    clientSource: addressSource(clientAddress),
    username: input.username,
    mechanism: input.mechanism,
    code: failure.code,
    message: failure.message,
  });
}

export async function signIn(
  input: SignInInput,
  clientAddress: string,
): Promise<ActionResult<{ sessionId: string; principal: string; expiresAt: Date }>> {
  const proven = await proveCredential(input, clientAddress);
  if (!proven.ok) return proven;
  const { principal, credential } = proven.data;
  const encryptedCredential = encryptSecret(JSON.stringify({ password: credential.password }));
  const session = await createSession({
    principal,
    username: credential.username,
    mechanism: credential.mechanism,
    encryptedCredential,
    ttlMs: sessionTtlMs(),
    clusterId: credential.clusterId,
  });
  return { ok: true, data: { sessionId: session.id, principal, expiresAt: session.expiresAt } };
}

type Reproof = "verified" | "refused" | "unreachable";

/** After Kafka could not be reached for a re-proof, how long the session is not asked again. */
export const UNREACHABLE_RETRY_MS = 30_000;
const MAX_TRACKED = 10_000;
/** Re-proofs under way, per session id hash: concurrent requests of one session share one. */
const reproofs = new Map<string, Promise<Reproof>>();
/** Session id hash -> epoch ms before which an unreachable broker is not asked again. */
const unreachableUntil = new Map<string, number>();

function reproofDue(session: Session, now: Date): boolean {
  const verifiedAt = session.verifiedAt.getTime();
  if (now.getTime() - verifiedAt >= reverifyMs()) return true;
  const rejected = lastCredentialRejection(session);
  return rejected !== undefined && rejected > verifiedAt;
}

async function reprove(sessionId: string, session: Session, credential: KafkaCredential, now: Date): Promise<Reproof> {
  const hash = hashSessionId(sessionId);
  try {
    await verifyCredentials(credential);
  } catch (error) {
    const result = toErrorResult(error, "prove a session's credential again");
    if (result.code === "INVALID_CREDENTIALS") {
      await endRevokedSession(sessionId, session);
      return "refused";
    }
    unreachableUntil.delete(hash);
    unreachableUntil.set(hash, Date.now() + UNREACHABLE_RETRY_MS);
    if (unreachableUntil.size > MAX_TRACKED) unreachableUntil.delete(unreachableUntil.keys().next().value!);
    console.warn(
      `[console] could not prove the Kafka credential of ${session.principal} again (${result.code}); ` +
        `the session continues and the proof is retried in ${UNREACHABLE_RETRY_MS / 1000} s.`,
    );
    return "unreachable";
  }
  unreachableUntil.delete(hash);
  await markSessionVerified(sessionId, now);
  return "verified";
}

/** Kafka refused the session's credential: end the session everywhere it is used. */
async function endRevokedSession(sessionId: string, session: Session): Promise<void> {
  rememberRejection(session); // the user's other sessions prove theirs at their next request
  forgetBasicCredentials(session);
  await endSessionAsRevoked(
    sessionId,
    session,
    "Kafka no longer accepts this session's credential (it was changed or deleted); the session was ended.",
  );
}

/**
 * The viewer behind a session cookie value, or null when absent, expired, unreadable, or
 * when Kafka no longer accepts its credential (re-proved every CREDENTIAL_REVERIFY_MINUTES).
 */
export async function viewerFromSessionId(
  sessionId: string | undefined,
  now: Date = new Date(),
): Promise<Viewer | null> {
  if (!sessionId) return null;
  const session = await getSession(sessionId, now);
  if (!session) return null;
  if (isSsoSession(session)) {
    if (!(await ssoSessionLives(sessionId, session))) return null;
    return { sessionId, principal: session.principal, credential: ssoCredential(sessionId, session) };
  }
  let password: string;
  try {
    ({ password } = JSON.parse(decryptSecret(session.encryptedCredential)) as { password: string });
  } catch {
    // The key changed or the row was tampered with: the session is useless, drop it.
    await deleteSession(sessionId);
    return null;
  }
  const credential: KafkaCredential = {
    username: session.username,
    password,
    mechanism: session.mechanism as KafkaCredential["mechanism"],
    clusterId: session.clusterId,
  };
  const viewer: Viewer = { sessionId, principal: session.principal, credential };
  if (!reproofDue(session, now)) return viewer;

  const hash = hashSessionId(sessionId);
  const retryAt = unreachableUntil.get(hash);
  if (retryAt !== undefined && Date.now() < retryAt) return viewer;
  let pending = reproofs.get(hash);
  if (!pending) {
    pending = reprove(sessionId, session, credential, now).finally(() => reproofs.delete(hash));
    reproofs.set(hash, pending);
  }
  return (await pending) === "refused" ? null : viewer;
}

/** Ends the session; returns the cluster it was for (null when there was no such session). */
export async function signOut(sessionId: string): Promise<string | null> {
  const session = await getSession(sessionId);
  await deleteSession(sessionId);
  if (session) await closeConnectionsFor(session);
  return session?.clusterId ?? null;
}

/** Basic-auth callers are proven once and then remembered briefly, keyed by a hash of the credential. */
const basicCache = new Map<string, { principal: string; credential: KafkaCredential; at: number }>();
/** Proofs under way per credential hash: concurrent requests with one credential share one. */
const basicProofs = new Map<string, Promise<ActionResult<{ principal: string }>>>();
const BASIC_CACHE_MAX_MS = 60_000;

/** How long a proven Basic credential is remembered: 60 s, never longer than the re-proof period. */
export function basicCacheMs(): number {
  return Math.min(BASIC_CACHE_MAX_MS, reverifyMs());
}

function forgetBasicCredentials(user: { username: string; clusterId: string }): void {
  for (const [key, entry] of basicCache)
    if (entry.credential.username === user.username && entry.credential.clusterId === user.clusterId)
      basicCache.delete(key);
}

export async function viewerFromBasic(input: SignInInput, clientAddress: string): Promise<ActionResult<Viewer>> {
  const asked = credentialFor(input);
  if (!asked.ok) return asked;
  const credential = asked.data;
  const cacheKey = createHash("sha256")
    .update(`${credential.clusterId}\0${input.mechanism}\0${input.username}\0${input.password}`)
    .digest("hex");
  const cached = basicCache.get(cacheKey);
  if (cached) {
    const rejected = lastCredentialRejection(credential);
    if (Date.now() - cached.at < basicCacheMs() && (rejected === undefined || rejected < cached.at)) {
      return { ok: true, data: { sessionId: null, principal: cached.principal, credential } };
    }
    basicCache.delete(cacheKey);
  }
  let pending = basicProofs.get(cacheKey);
  if (!pending) {
    pending = (async (): Promise<ActionResult<{ principal: string }>> => {
      const proven = await proveCredential(input, clientAddress);
      if (!proven.ok) {
        await auditFailedSignIn(input, clientAddress, proven);
        return proven;
      }
      if (basicCache.size > 1000) basicCache.clear();
      basicCache.set(cacheKey, { principal: proven.data.principal, credential, at: Date.now() });
      return { ok: true, data: { principal: proven.data.principal } };
    })().finally(() => basicProofs.delete(cacheKey));
    basicProofs.set(cacheKey, pending);
  }
  const proven = await pending;
  if (!proven.ok) return proven;
  return { ok: true, data: { sessionId: null, principal: proven.data.principal, credential } };
}
