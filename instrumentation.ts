/**
 * Runs once when the Next server starts (Node runtime only):
 *
 *   1. Checks every setting (lib/settings-check.ts) and refuses to start with the list of
 *      problems: a bad value stops the start, it never becomes NaN or a silent default.
 *   2. Schedules the console database's clean-up (expired sessions, overdue token HMACs)
 *      in every console instance.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertSettings } = await import("./lib/settings-check");
  assertSettings();
  if (!process.env.DATABASE_URL) return;
  const { startDbMaintenance } = await import("./lib/db/maintenance");
  startDbMaintenance();
}
