/**
 * The sign-in throttle, shared by every console instance on one database.
 *
 * Policy, per key (client source + lower-case username, see lib/auth/sign-in.ts):
 * the first FREE_FAILURES attempts go to Kafka at once; after that, attempt n+1 must
 * wait BASE_DELAY_MS * 2^(n - FREE_FAILURES) (1 s, 2 s, 4 s, ... at most MAX_DELAY_MS)
 * after attempt n was let through, and only when no earlier attempt is still waiting for
 * Kafka. A key with no attempt for WINDOW_MS starts over. A success gives its attempt
 * back, and forgets the key when no other attempt is in flight.
 *
 * An attempt is counted *before* Kafka is asked, in one INSERT ... ON CONFLICT DO UPDATE
 * whose WHERE is the policy: the row lock serialises concurrent attempts on every
 * instance, so a burst of 50 parallel guesses gets exactly FREE_FAILURES of them to Kafka
 * (plus one more for each wait that elapses while the burst is still arriving: a burst
 * that lasts under a second gets none). Refused attempts change nothing, so waiting out
 * the delay always works.
 *
 * in_flight counts attempts let through whose answer is not back yet. An instance that
 * dies mid-attempt leaves it raised; after IN_FLIGHT_STALE_MS it is ignored.
 *
 * An attempt refused while others of its key are in flight waits for them (polling the
 * row, at most SIGN_IN_WAIT_MS) instead of failing at once: a success among them gives
 * its attempt back, so five tabs signing in at once with the right password all get in.
 * Waiting lets nothing more through than arriving later would: once nothing is in
 * flight, an attempt still refused is refused at once.
 *
 * There is deliberately no cap per username across all clients: anyone could then slow
 * a user's own sign-in from everywhere by guessing wrong from a few addresses. Per
 * client, one IPv6 /64 counts as one client (lib/auth/client-address.ts addressSource).
 */
import { getPrisma } from "./client";
import type { PrismaClient } from "../generated/prisma/client";

export const FREE_FAILURES = 3;
export const WINDOW_MS = 15 * 60_000;
export const BASE_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 60_000;
/** Longer than any sign-in takes (5 s to connect, 30 s per request, no retries). */
export const IN_FLIGHT_STALE_MS = 60_000;
/** How long a refused attempt waits at most for the attempts of its key in flight. */
export const SIGN_IN_WAIT_MS = 10_000;
const WAIT_POLL_MS = 100;

export type ThrottleDecision = { allowed: true; attempt: number } | { allowed: false; retryAfterMs: number };

/** How an attempt that was let through ended. */
export type AttemptOutcome =
  /** Kafka accepted the credential: its attempt is given back (the key forgotten when none other is in flight). */
  | "success"
  /** Kafka refused it (or anything else went wrong): the attempt stays counted. */
  | "failure"
  /** Kafka could not be asked (broker unreachable): the attempt is given back. */
  | "not-asked";

/** How long attempt `attempts + 1` must wait after attempt `attempts` was let through. */
export function delayAfterMs(attempts: number): number {
  if (attempts < FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempts - FREE_FAILURES, 30));
}

type Db = Pick<PrismaClient, "$queryRaw" | "$executeRaw">;

/**
 * Counts an attempt for `key` and says whether it may go to Kafka; one statement.
 * Call finishSignInAttempt once Kafka has answered an allowed attempt.
 */
export async function beginSignInAttempt(
  key: string,
  now: Date = new Date(),
  db: Db = getPrisma(),
): Promise<ThrottleDecision> {
  const staleBefore = new Date(now.getTime() - WINDOW_MS);
  const inFlightStaleBefore = new Date(now.getTime() - IN_FLIGHT_STALE_MS);
  const rows = await db.$queryRaw<{ attempts: number }[]>`
    INSERT INTO sign_in_throttle AS t (key, attempts, in_flight, window_started_at, last_attempt_at)
    VALUES (${key}, 1, 1, ${now}::timestamptz, ${now}::timestamptz)
    ON CONFLICT (key) DO UPDATE SET
      attempts = CASE WHEN t.last_attempt_at <= ${staleBefore}::timestamptz THEN 1 ELSE t.attempts + 1 END,
      in_flight = CASE
        WHEN t.last_attempt_at <= ${inFlightStaleBefore}::timestamptz THEN 1
        ELSE t.in_flight + 1 END,
      window_started_at = CASE WHEN t.last_attempt_at <= ${staleBefore}::timestamptz
        THEN ${now}::timestamptz ELSE t.window_started_at END,
      last_attempt_at = ${now}::timestamptz
    WHERE t.last_attempt_at <= ${staleBefore}::timestamptz
       OR t.attempts < ${FREE_FAILURES}::int
       OR (
         ${now}::timestamptz >= t.last_attempt_at
           + LEAST(
               ${MAX_DELAY_MS}::float8,
               ${BASE_DELAY_MS}::float8 * power(2::float8, LEAST(t.attempts - ${FREE_FAILURES}::int, 30))
             )
             * interval '1 millisecond'
         AND (t.in_flight <= 0 OR t.last_attempt_at <= ${inFlightStaleBefore}::timestamptz)
       )
    RETURNING t.attempts`;
  const row = rows[0];
  if (row) return { allowed: true, attempt: Number(row.attempts) };
  return { allowed: false, retryAfterMs: await retryAfterMs(key, now, db) };
}

/** How long `key` must still wait (at least 1 s for a refused attempt). Only for the message. */
async function retryAfterMs(key: string, now: Date, db: Db): Promise<number> {
  const rows = await db.$queryRaw<{ attempts: number; in_flight: number; last_attempt_at: Date }[]>`
    SELECT attempts, in_flight, last_attempt_at FROM sign_in_throttle WHERE key = ${key}`;
  const row = rows[0];
  if (!row) return BASE_DELAY_MS;
  const waitDelay = row.last_attempt_at.getTime() + delayAfterMs(Number(row.attempts)) - now.getTime();
  return Math.max(BASE_DELAY_MS, waitDelay);
}

/** Whether an attempt of `key` let through is still waiting for Kafka (and not stale). */
async function attemptInFlight(key: string, now: Date, db: Db): Promise<boolean> {
  const inFlightStaleBefore = new Date(now.getTime() - IN_FLIGHT_STALE_MS);
  const rows = await db.$queryRaw<{ key: string }[]>`
    SELECT key FROM sign_in_throttle
    WHERE key = ${key} AND in_flight > 0 AND last_attempt_at > ${inFlightStaleBefore}::timestamptz`;
  return rows.length > 0;
}

/**
 * beginSignInAttempt, waiting (at most `maxWaitMs`) while attempts of `key` are in flight:
 * each that ends may let this one through (a success gives its attempt back). Refused at
 * once when nothing is in flight, and after the wait.
 */
export async function awaitSignInAttempt(
  key: string,
  maxWaitMs: number = SIGN_IN_WAIT_MS,
  db: Db = getPrisma(),
): Promise<ThrottleDecision> {
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    const decision = await beginSignInAttempt(key, new Date(), db);
    if (decision.allowed || Date.now() >= deadline || !(await attemptInFlight(key, new Date(), db))) return decision;
    await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** Records how an allowed attempt ended. */
export async function finishSignInAttempt(key: string, outcome: AttemptOutcome, db: Db = getPrisma()): Promise<void> {
  if (outcome === "success") {
    // Its attempt back; with nothing else in flight the key starts over (the failures before are forgotten).
    // One UPDATE, so an attempt begun meanwhile on another instance is never lost; then a row back at zero goes.
    await db.$executeRaw`
      UPDATE sign_in_throttle
      SET attempts = CASE WHEN in_flight <= 1 THEN 0 ELSE GREATEST(attempts - 1, 0) END,
        in_flight = GREATEST(in_flight - 1, 0)
      WHERE key = ${key}`;
    await db.$executeRaw`DELETE FROM sign_in_throttle WHERE key = ${key} AND attempts = 0 AND in_flight = 0`;
  } else if (outcome === "not-asked") {
    await db.$executeRaw`
      UPDATE sign_in_throttle SET in_flight = GREATEST(in_flight - 1, 0), attempts = GREATEST(attempts - 1, 0)
      WHERE key = ${key}`;
  } else {
    await db.$executeRaw`UPDATE sign_in_throttle SET in_flight = GREATEST(in_flight - 1, 0) WHERE key = ${key}`;
  }
}

/** Deletes keys with no attempt for WINDOW_MS (they would start over anyway); returns how many. */
export async function deleteStaleSignInThrottles(now: Date = new Date(), db: Db = getPrisma()): Promise<number> {
  const staleBefore = new Date(now.getTime() - WINDOW_MS);
  return db.$executeRaw`DELETE FROM sign_in_throttle WHERE last_attempt_at <= ${staleBefore}::timestamptz`;
}
