/**
 * Runs once when the Next server starts (Node runtime only):
 *
 *   1. Checks every setting (lib/settings-check.ts); with a bad one the server does not
 *      start: every problem is printed and the process exits 1. A bad value never becomes
 *      NaN or a silent default.
 *   2. Schedules the console database's clean-up (expired sessions, overdue token HMACs)
 *      in every console instance.
 *   3. Starts the job queue's workers (lib/services/scheduled.ts: grant expiries, request
 *      timeouts), in every instance; a queue that cannot start is logged and retried by
 *      nothing but a restart, and the console runs on without scheduled work.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { exitOnBadSettings } = await import("./lib/settings-check");
  exitOnBadSettings();
  const { databaseUrl } = await import("./lib/env");
  if (!databaseUrl()) return;
  const { startDbMaintenance } = await import("./lib/db/maintenance");
  startDbMaintenance();
  const { startScheduledWork } = await import("./lib/services/scheduled");
  await startScheduledWork(databaseUrl()!).catch((error: unknown) => {
    console.error(`[console] the job queue did not start: ${error instanceof Error ? error.message : String(error)}`);
  });
}
