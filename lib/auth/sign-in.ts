/**
 * Sign-in with Kafka credentials. The broker is the judge: a credential is good when
 * a SASL handshake with it succeeds. The console then keeps the credential encrypted
 * (AES-256-GCM) in the session row and acts as that principal for every Kafka call.
 */
import { createHash } from "node:crypto";
import { encryptSecret, decryptSecret } from "@/lib/auth/crypto";
import { signInThrottle } from "@/lib/auth/rate-limit";
import { createSession, deleteSession, getSession } from "@/lib/db/session";
import { closeConnectionsFor, verifyCredentials, type KafkaCredential } from "@/lib/kafka";
import type { SignInInput } from "@/lib/schemas/session";
import { toErrorResult } from "@/lib/actions/errors";
import type { ActionResult } from "@/lib/actions/result";

export const SESSION_TTL_MS = Number(process.env.SESSION_TTL_HOURS ?? 8) * 3_600_000;

export interface Viewer {
  sessionId: string | null;
  principal: string;
  credential: KafkaCredential;
}

/** Throttle key: the client address and the username, so one noisy client cannot lock others out. */
function throttleKey(clientAddress: string, username: string): string {
  return `${clientAddress}|${username.toLowerCase()}`;
}

/** Proves the credential with the broker; applies the failed-attempt throttle. */
export async function proveCredential(
  input: SignInInput,
  clientAddress: string,
): Promise<ActionResult<{ principal: string; credential: KafkaCredential }>> {
  const key = throttleKey(clientAddress, input.username);
  const waitMs = signInThrottle.retryAfterMs(key);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    return { ok: false, code: "THROTTLED", message: `Too many failed sign-ins. Try again in ${seconds} s.` };
  }
  const credential: KafkaCredential = { username: input.username, password: input.password, mechanism: input.mechanism };
  try {
    const { principal } = await verifyCredentials(credential);
    signInThrottle.recordSuccess(key);
    return { ok: true, data: { principal, credential } };
  } catch (error) {
    const result = toErrorResult(error, "sign in");
    if (result.code === "INVALID_CREDENTIALS") {
      signInThrottle.recordFailure(key);
      return {
        ok: false,
        code: "INVALID_CREDENTIALS",
        message: `Kafka rejected these credentials (${input.mechanism}). Check the username, password and mechanism.`,
      };
    }
    return result;
  }
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
    ttlMs: SESSION_TTL_MS,
  });
  return { ok: true, data: { sessionId: session.id, principal, expiresAt: session.expiresAt } };
}

/** The viewer behind a session cookie value, or null when absent, expired or unreadable. */
export async function viewerFromSessionId(sessionId: string | undefined): Promise<Viewer | null> {
  if (!sessionId) return null;
  const session = await getSession(sessionId);
  if (!session) return null;
  try {
    const { password } = JSON.parse(decryptSecret(session.encryptedCredential)) as { password: string };
    return {
      sessionId,
      principal: session.principal,
      credential: { username: session.username, password, mechanism: session.mechanism as KafkaCredential["mechanism"] },
    };
  } catch {
    // The key changed or the row was tampered with: the session is useless, drop it.
    await deleteSession(sessionId);
    return null;
  }
}

export async function signOut(sessionId: string): Promise<void> {
  const viewer = await viewerFromSessionId(sessionId);
  await deleteSession(sessionId);
  if (viewer) await closeConnectionsFor(viewer.credential.username);
}

/** Basic-auth callers are proven once and then remembered briefly, keyed by a hash of the credential. */
const basicCache = new Map<string, { principal: string; at: number }>();
const BASIC_CACHE_MS = 60_000;

export async function viewerFromBasic(
  input: SignInInput,
  clientAddress: string,
): Promise<ActionResult<Viewer>> {
  const cacheKey = createHash("sha256").update(`${input.mechanism}\0${input.username}\0${input.password}`).digest("hex");
  const cached = basicCache.get(cacheKey);
  const credential: KafkaCredential = { username: input.username, password: input.password, mechanism: input.mechanism };
  if (cached && Date.now() - cached.at < BASIC_CACHE_MS) {
    return { ok: true, data: { sessionId: null, principal: cached.principal, credential } };
  }
  const proven = await proveCredential(input, clientAddress);
  if (!proven.ok) return proven;
  if (basicCache.size > 1000) basicCache.clear();
  basicCache.set(cacheKey, { principal: proven.data.principal, at: Date.now() });
  return { ok: true, data: { sessionId: null, principal: proven.data.principal, credential } };
}
