/**
 * Sessions of people signed in with single sign-on (#21, docs/sso.md). The session row keeps the
 * provider's tokens encrypted like a password (lib/auth/crypto.ts); `mechanism` is OAUTHBEARER
 * and `username` the principal's name the access token carries.
 *
 * Kafka is sent the current access token at every connection and re-authentication
 * (lib/kafka/client.ts asks `oauth.token()`), and the connections are kept per session. The tokens
 * are refreshed once two thirds of the access token's life has passed, one refresh at a time per
 * session: concurrent requests of this instance share one, and other instances wait on the
 * session row's lock and then find the new tokens (lib/db/session.ts updateSessionCredential).
 * When the provider refuses the refresh (the person signed out there, was disabled, or the
 * refresh token expired), the session ends at that request, audited, as a revoked password ends
 * one. When the provider cannot be reached, the session goes on with the token it has (an outage
 * must not sign everyone out); Kafka refuses it once it expires.
 */
import { decryptSecret, encryptSecret } from "@/lib/auth/crypto";
import { deleteSession, getSession, hashSessionId, updateSessionCredential, type Session } from "@/lib/db/session";
import type { KafkaCredential } from "@/lib/kafka";
import { endSessionAsRevoked } from "./revoked";
import { endSessionUrl, refreshTokens, RefreshError, type SsoTokens } from "./oidc";

export const SSO_MECHANISM = "OAUTHBEARER";

export function isSsoSession(session: Pick<Session, "mechanism">): boolean {
  return session.mechanism === SSO_MECHANISM;
}

interface StoredSso {
  sso: SsoTokens;
}

export function encodeTokens(tokens: SsoTokens): string {
  return encryptSecret(JSON.stringify({ sso: tokens } satisfies StoredSso));
}

/** The tokens a session row holds; throws when the row cannot be read (key changed, tampered). */
export function decodeTokens(encrypted: string): SsoTokens {
  const stored = JSON.parse(decryptSecret(encrypted)) as Partial<StoredSso>;
  if (!stored.sso || typeof stored.sso.accessToken !== "string") throw new Error("not a single sign-on session");
  return stored.sso;
}

/** Whether two thirds of the access token's life has passed (or it expired). */
export function refreshDue(tokens: Pick<SsoTokens, "obtainedAt" | "expiresAt">, now: number = Date.now()): boolean {
  const life = Math.max(0, tokens.expiresAt - tokens.obtainedAt);
  return now >= tokens.obtainedAt + (life * 2) / 3;
}

type Freshness = { tokens: SsoTokens } | { ended: string } | { unreachable: string; tokens: SsoTokens };

/** Refreshes under way, per session id hash. */
const refreshes = new Map<string, Promise<Freshness>>();

async function refreshSession(sessionId: string, clusterId: string): Promise<Freshness> {
  let outcome: Freshness = { ended: "the session is gone" };
  const stored = await updateSessionCredential(sessionId, async (encrypted) => {
    const tokens = decodeTokens(encrypted);
    if (!refreshDue(tokens)) {
      outcome = { tokens }; // another instance refreshed while this one waited for the lock
      return null;
    }
    try {
      const next = await refreshTokens(clusterId, tokens);
      outcome = { tokens: next };
      return encodeTokens(next);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcome = error instanceof RefreshError && !error.refused ? { unreachable: message, tokens } : { ended: message };
      return null;
    }
  });
  return stored === null ? { ended: "the session is gone" } : outcome;
}

/** The session's tokens, refreshed first when due (one refresh per session at a time). */
async function freshTokens(sessionId: string, session: Session, tokens: SsoTokens): Promise<Freshness> {
  if (!refreshDue(tokens)) return { tokens };
  const hash = hashSessionId(sessionId);
  let pending = refreshes.get(hash);
  if (!pending) {
    pending = refreshSession(sessionId, session.clusterId).finally(() => refreshes.delete(hash));
    refreshes.set(hash, pending);
  }
  const outcome = await pending;
  if ("ended" in outcome) await endSsoSession(sessionId, session, outcome.ended);
  else if ("unreachable" in outcome)
    console.warn(
      `[console] could not refresh the single sign-on of ${session.principal} (${outcome.unreachable}); ` +
        "the session continues with its current token.",
    );
  return outcome;
}

/** The provider no longer gives this session tokens: end it everywhere it is used. */
async function endSsoSession(sessionId: string, session: Session, why: string): Promise<void> {
  await endSessionAsRevoked(
    sessionId,
    session,
    `The identity provider no longer accepts this sign-in (${why}); the session was ended.`,
  );
}

/** Kafka credential of a session: its connections are kept by the session and ask for the current token. */
export function ssoCredential(sessionId: string, session: Pick<Session, "username" | "clusterId">): KafkaCredential {
  return {
    username: session.username,
    password: "",
    mechanism: SSO_MECHANISM,
    clusterId: session.clusterId,
    oauth: { key: `session:${hashSessionId(sessionId)}`, token: () => currentAccessToken(sessionId) },
  };
}

/** The access token to send Kafka now for this session; rejects once the session has ended. */
export async function currentAccessToken(sessionId: string): Promise<string> {
  const session = await getSession(sessionId);
  if (!session || !isSsoSession(session)) throw new Error("The single sign-on session has ended; sign in again.");
  const outcome = await freshTokens(sessionId, session, decodeTokens(session.encryptedCredential));
  if ("ended" in outcome) throw new Error(`The single sign-on session has ended (${outcome.ended}); sign in again.`);
  return outcome.tokens.accessToken;
}

/**
 * Whether a single sign-on session may go on now: its tokens readable, and refreshed when due.
 * False when the provider refused the refresh (the session was ended) or the row is unreadable.
 */
export async function ssoSessionLives(sessionId: string, session: Session): Promise<boolean> {
  let tokens: SsoTokens;
  try {
    tokens = decodeTokens(session.encryptedCredential);
  } catch {
    await deleteSession(sessionId);
    return false;
  }
  return !("ended" in (await freshTokens(sessionId, session, tokens)));
}

/**
 * Where to send the browser after the console's sign-out so the provider's session ends too: its
 * end-session address with this session's ID token (null: not a single sign-on session of
 * `clusterId`, or the provider offers no sign-out). Read before the session is deleted.
 */
export async function providerSignOutUrl(
  sessionId: string,
  clusterId: string,
  postLogoutRedirectUri: string,
): Promise<URL | null> {
  const session = await getSession(sessionId);
  if (!session || session.clusterId !== clusterId || !isSsoSession(session)) return null;
  let idToken: string | null;
  try {
    idToken = decodeTokens(session.encryptedCredential).idToken;
  } catch {
    idToken = null;
  }
  return endSessionUrl(clusterId, idToken, postLogoutRedirectUri);
}
