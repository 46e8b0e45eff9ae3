/**
 * `npm run db:migrate`: applies pending migrations (prisma/migrations) and prints them.
 *
 * Target: DATABASE_URL when set. Otherwise the embedded database: if an embedded server
 * is running for EMBEDDED_DB_DIR (default .data/pglite) it is migrated through its URL;
 * if not, it is started just for the migration and stopped again.
 * Exit status 1 with the error on any failure (never a silent no-op).
 */
import { DEFAULT_DATA_DIR, runningEmbeddedDatabase, startEmbeddedDatabase } from "../lib/db/embedded";
import { migrate, redactUrl } from "../lib/db/migrate";

async function main(): Promise<void> {
  const log = (s: string) => console.log(s);
  let url = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (url) {
    console.log(`migrating ${redactUrl(url)}`);
  } else {
    const dataDir = process.env.EMBEDDED_DB_DIR ?? DEFAULT_DATA_DIR;
    const running = runningEmbeddedDatabase(dataDir);
    if (running) {
      url = running.url;
      console.log(`migrating the running embedded database (pid ${running.pid}) at ${url}`);
    } else {
      const db = await startEmbeddedDatabase({ dataDir, port: 0 });
      url = db.url;
      stop = db.stop;
      console.log(`migrating the embedded database in ${db.dataDir}`);
    }
  }
  try {
    const { applied } = await migrate(url, log);
    console.log(
      applied.length
        ? `applied ${applied.length} migration(s): ${applied.join(", ")}`
        : "database is up to date, nothing applied",
    );
  } finally {
    await stop?.();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
