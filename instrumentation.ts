/**
 * Runs once when the Next server starts: schedules the console database's clean-up
 * (expired sessions, overdue token HMACs) in every console instance.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  const { startDbMaintenance } = await import("./lib/db/maintenance");
  startDbMaintenance();
}
