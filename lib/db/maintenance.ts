/**
 * Periodic clean-up of the console database: deletes expired sessions, erases
 * delegation-token HMACs and requested SCRAM passwords whose retrieval deadline has
 * passed, and forgets sign-in
 * throttle keys with no attempt for the throttle's window. All are also enforced
 * on read (getSession returns null after expiry; retrieveHmacOnce refuses after the
 * deadline); this removes the data at rest. Safe to run from several console
 * instances at once (each step is a single idempotent statement).
 */
import { deleteExpiredSessions } from "./session";
import { purgeExpiredHmacs } from "./token-request";
import { purgeExpiredRequestSecrets } from "./change-request";
import { deleteStaleSignInThrottles } from "./sign-in-throttle";

export async function runDbMaintenance(
  now: Date = new Date(),
): Promise<{ expiredSessions: number; purgedHmacs: number; staleSignInThrottles: number }> {
  const expiredSessions = await deleteExpiredSessions(now);
  // A requested SCRAM password is a secret like an HMAC: counted with them.
  const purgedHmacs = (await purgeExpiredHmacs(now)) + (await purgeExpiredRequestSecrets(now));
  const staleSignInThrottles = await deleteStaleSignInThrottles(now);
  return { expiredSessions, purgedHmacs, staleSignInThrottles };
}

/**
 * Runs runDbMaintenance now and then every `intervalMs` (default 60 s) until the returned
 * function is called. The timer does not keep the process alive. Errors are logged, not thrown.
 */
export function startDbMaintenance(options: { intervalMs?: number; log?: (s: string) => void } = {}): () => void {
  const log = options.log ?? ((s: string) => console.error(s));
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    runDbMaintenance()
      .catch((e: unknown) => log(`console database maintenance failed: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        running = false;
      });
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
