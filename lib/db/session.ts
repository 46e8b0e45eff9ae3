/**
 * Sign-in sessions. The cookie value (the session id) is 32 random bytes, base64url.
 * The table stores only SHA-256(id) (hex) as its key, so reading the database (a
 * backup, a leak) does not yield a cookie that works. The Kafka credential is stored
 * as given, which callers encrypt first (lib/auth/crypto.ts).
 *
 * Expiry is absolute (set at creation). getSession returns null for an expired session
 * and deletes it; deleteExpiredSessions sweeps the rest. lastSeenAt is refreshed at most
 * once a minute per session, so page loads do not each cost a write.
 *
 * verifiedAt is when Kafka last accepted the stored credential (the sign-in, then each
 * periodic re-proof, lib/auth/sign-in.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { getPrisma } from "./client";

export const TOUCH_INTERVAL_MS = 60_000;

export interface Session {
  /** The cookie value the caller passed in (the database only has its hash). */
  id: string;
  principal: string;
  username: string;
  mechanism: string;
  encryptedCredential: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  verifiedAt: Date;
  /** The cluster the credential was proven on (lib/clusters.ts); the session counts only there. */
  clusterId: string;
}

export interface NewSession {
  principal: string;
  username: string;
  mechanism: string;
  encryptedCredential: string;
  ttlMs: number;
  /** Absent: the database's default, "default" (the environment's one cluster). */
  clusterId?: string;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashSessionId(id: string): string {
  return createHash("sha256").update(id, "utf8").digest("hex");
}

export async function createSession(
  input: NewSession,
  now: Date = new Date(),
): Promise<{ id: string; expiresAt: Date }> {
  if (!Number.isFinite(input.ttlMs) || input.ttlMs <= 0)
    throw new RangeError(`session ttlMs must be a positive number of milliseconds, got ${input.ttlMs}`);
  const id = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + input.ttlMs);
  await getPrisma().session.create({
    data: {
      idHash: hashSessionId(id),
      principal: input.principal,
      username: input.username,
      mechanism: input.mechanism,
      encryptedCredential: input.encryptedCredential,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      verifiedAt: now,
      ...(input.clusterId !== undefined ? { clusterId: input.clusterId } : {}),
    },
  });
  return { id, expiresAt };
}

/** The live session for a cookie value, or null when unknown, malformed or expired. */
export async function getSession(id: string, now: Date = new Date()): Promise<Session | null> {
  if (!ID_PATTERN.test(id)) return null;
  const prisma = getPrisma();
  const idHash = hashSessionId(id);
  const row = await prisma.session.findUnique({ where: { idHash } });
  if (!row) return null;
  if (row.expiresAt.getTime() <= now.getTime()) {
    await prisma.session.deleteMany({ where: { idHash, expiresAt: { lte: now } } });
    return null;
  }
  let lastSeenAt = row.lastSeenAt;
  if (now.getTime() - lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    // Conditional, so concurrent requests for one session write at most once per interval.
    await prisma.session.updateMany({
      where: { idHash, lastSeenAt: { lte: new Date(now.getTime() - TOUCH_INTERVAL_MS) } },
      data: { lastSeenAt: now },
    });
    lastSeenAt = now;
  }
  return {
    id,
    principal: row.principal,
    username: row.username,
    mechanism: row.mechanism,
    encryptedCredential: row.encryptedCredential,
    createdAt: row.createdAt,
    lastSeenAt,
    expiresAt: row.expiresAt,
    verifiedAt: row.verifiedAt,
    clusterId: row.clusterId,
  };
}

/** Records that Kafka accepted the session's credential again at `at` (never moves it back). */
export async function markSessionVerified(id: string, at: Date = new Date()): Promise<void> {
  await getPrisma().session.updateMany({
    where: { idHash: hashSessionId(id), verifiedAt: { lt: at } },
    data: { verifiedAt: at },
  });
}

/** Deletes the session (sign-out). Returns whether one existed. */
export async function deleteSession(id: string): Promise<boolean> {
  const { count } = await getPrisma().session.deleteMany({ where: { idHash: hashSessionId(id) } });
  return count > 0;
}

/** Deletes every expired session; returns how many. */
export async function deleteExpiredSessions(now: Date = new Date()): Promise<number> {
  const { count } = await getPrisma().session.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/**
 * Replaces the session's stored credential under its row lock: `update` sees the credential as
 * stored now (after any other instance's update) and returns the new one, or null to keep it.
 * Answers the credential as stored afterwards, or null when the session is gone. Single sign-on
 * refreshes its tokens this way, one refresh at a time per session across instances.
 */
export async function updateSessionCredential(
  id: string,
  update: (encryptedCredential: string) => Promise<string | null>,
  timeoutMs = 30_000,
): Promise<string | null> {
  const idHash = hashSessionId(id);
  return getPrisma().$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<{ encrypted_credential: string }[]>`
        SELECT encrypted_credential FROM session WHERE id_hash = ${idHash} FOR UPDATE`;
      const current = rows[0]?.encrypted_credential;
      if (current === undefined) return null;
      const next = await update(current);
      if (next === null) return current;
      await tx.session.update({ where: { idHash }, data: { encryptedCredential: next, verifiedAt: new Date() } });
      return next;
    },
    { maxWait: 15_000, timeout: timeoutMs },
  );
}
