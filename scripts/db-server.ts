/**
 * Runs the embedded console database (PGlite over the PostgreSQL wire protocol) on its
 * own, in the foreground, until Ctrl-C: `npx tsx scripts/db-server.ts [--migrate]`.
 *
 * Data: EMBEDDED_DB_DIR (default .data/pglite). Port: EMBEDDED_DB_PORT (default 54329,
 * 0 = any free port). Prints the DATABASE_URL to use from other processes, e.g.
 * `DATABASE_URL=<url> npm run dev`. With --migrate, applies pending migrations first.
 */
import { DEFAULT_DATA_DIR, startEmbeddedDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";

async function main(): Promise<void> {
  const dataDir = process.env.EMBEDDED_DB_DIR ?? DEFAULT_DATA_DIR;
  const db = await startEmbeddedDatabase({ dataDir });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the embedded database`);
    db.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  if (process.argv.includes("--migrate")) {
    try {
      const { applied } = await migrate(db.url, (s) => console.log(s));
      console.log(applied.length ? `applied ${applied.length} migration(s)` : "database is up to date");
    } catch (e) {
      await db.stop();
      throw e;
    }
  }
  console.log(`embedded database (PGlite) in ${db.dataDir}`);
  console.log(`DATABASE_URL=${db.url}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
