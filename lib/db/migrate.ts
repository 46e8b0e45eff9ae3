/**
 * The console's migration runner. The Prisma CLI cannot migrate on these machines
 * (its schema engine is a binary download), so migrations are hand-written SQL in
 * prisma/migrations/<timestamp>_<name>/migration.sql, applied here with `pg`.
 *
 * - Tracking table `_console_migrations (name, checksum, applied_at)`; checksum is
 *   SHA-256 of the file with line endings normalised to LF.
 * - A session advisory lock serialises concurrent runners (several console instances
 *   starting at once on one database): the second waits, then finds nothing to do.
 * - Each migration runs in its own transaction together with its tracking row, so a
 *   failing migration leaves nothing behind and is reported with the SQL error, the
 *   line it failed on and the file. Statements that cannot run inside a transaction
 *   (CREATE INDEX CONCURRENTLY, ALTER TYPE ... ADD VALUE before PG 12) are not supported.
 * - Refuses to run (throws) when an applied migration's file changed (checksum drift),
 *   when an applied migration is missing from disk (database is newer than this code),
 *   or when there are no migrations at all: never a silent no-op.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export const MIGRATIONS_TABLE = "_console_migrations";
/** Arbitrary constant for pg_advisory_lock (int8); "ksc-migr" in ASCII. */
const LOCK_KEY = "7742899386574418546";

export class MigrationError extends Error {
  override name = "MigrationError";
}

export interface MigrationFile {
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

export interface MigrateOptions {
  /** Directory holding <name>/migration.sql folders; defaults to prisma/migrations of this repository. */
  migrationsDir?: string;
}

export function defaultMigrationsDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../prisma/migrations");
}

export function checksumOf(sql: string): string {
  return createHash("sha256").update(sql.replace(/\r\n/g, "\n")).digest("hex");
}

/** Reads the migrations on disk, in name order (names start with a sortable timestamp). */
export function readMigrations(dir: string = defaultMigrationsDir()): MigrationFile[] {
  if (!existsSync(dir)) throw new MigrationError(`migrations directory ${dir} does not exist`);
  const names = readdirSync(dir)
    .filter((n) => statSync(path.join(dir, n)).isDirectory())
    .sort();
  const out: MigrationFile[] = [];
  for (const name of names) {
    const file = path.join(dir, name, "migration.sql");
    if (!existsSync(file)) throw new MigrationError(`migration ${name} has no migration.sql (${file})`);
    const sql = readFileSync(file, "utf8");
    if (sql.trim() === "") throw new MigrationError(`migration ${name} is empty (${file})`);
    out.push({ name, file, sql, checksum: checksumOf(sql) });
  }
  if (out.length === 0) throw new MigrationError(`no migrations found in ${dir}`);
  return out;
}

function lineOf(sql: string, position: string | undefined): number | undefined {
  const pos = Number(position);
  if (!Number.isFinite(pos) || pos <= 0) return undefined;
  return sql.slice(0, pos - 1).split("\n").length;
}

/** Redacts the password of a connection string for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "<unparseable connection string>";
  }
}

/**
 * Applies every pending migration to the database at `connectionString`.
 * Returns the names applied by this call (empty when the database was up to date).
 */
export async function migrate(
  connectionString: string,
  log: (s: string) => void = () => {},
  options: MigrateOptions = {},
): Promise<{ applied: string[] }> {
  const migrations = readMigrations(options.migrationsDir);
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
  } catch (e) {
    throw new MigrationError(
      `cannot connect to the console database at ${redactUrl(connectionString)}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  // A connection-level error (server gone) must not crash the process as an unhandled 'error' event.
  client.on("error", (e) => log(`database connection error: ${e.message}`));
  const applied: string[] = [];
  try {
    const locked = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`);
    if (!locked.rows[0]?.ok) {
      log("another console instance is migrating this database; waiting for it");
      await client.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
    }
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (
           name TEXT PRIMARY KEY,
           checksum TEXT NOT NULL,
           applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
         )`,
      );
      const done = await client.query<{ name: string; checksum: string }>(
        `SELECT name, checksum FROM "${MIGRATIONS_TABLE}" ORDER BY name`,
      );
      const onDisk = new Map(migrations.map((m) => [m.name, m]));
      for (const row of done.rows) {
        const m = onDisk.get(row.name);
        if (!m) {
          throw new MigrationError(
            `the database has migration ${row.name} applied, which is not ` +
              `in ${options.migrationsDir ?? defaultMigrationsDir()}: ` +
              "it was migrated by a newer version of the console (or a migration was deleted). Refusing to continue.",
          );
        }
        if (m.checksum !== row.checksum) {
          throw new MigrationError(
            `migration ${row.name} was changed after it was applied (checksum in ` +
              `database ${row.checksum.slice(0, 12)}…, ` +
              `file ${m.checksum.slice(0, 12)}… at ${m.file}). Applied migrations must never be edited: ` +
              "restore the original file and add a new migration for the change.",
          );
        }
      }
      const appliedNames = new Set(done.rows.map((r) => r.name));
      for (const m of migrations) {
        if (appliedNames.has(m.name)) continue;
        log(`applying migration ${m.name}`);
        await client.query("BEGIN");
        try {
          // Re-check inside the transaction: on the embedded database all connections share
          // one backend session, so the advisory lock does not exclude a second runner there.
          const again = await client.query(`SELECT 1 FROM "${MIGRATIONS_TABLE}" WHERE name = $1`, [m.name]);
          if (again.rowCount) {
            await client.query("ROLLBACK");
            log(`migration ${m.name} was applied meanwhile by another runner`);
            continue;
          }
          await client.query(m.sql);
          await client.query(`INSERT INTO "${MIGRATIONS_TABLE}" (name, checksum) VALUES ($1, $2)`, [
            m.name,
            m.checksum,
          ]);
          await client.query("COMMIT");
        } catch (e) {
          await client.query("ROLLBACK").catch(() => {});
          const err = e as Error & { position?: string; code?: string; detail?: string };
          const line = lineOf(m.sql, err.position);
          throw new MigrationError(
            `migration ${m.name} failed and was rolled back: ${err.message}` +
              (err.code ? ` (SQLSTATE ${err.code})` : "") +
              (line ? ` at line ${line}` : "") +
              ` of ${m.file}` +
              (err.detail ? `\n${err.detail}` : ""),
            { cause: e },
          );
        }
        applied.push(m.name);
        log(`applied migration ${m.name}`);
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
  return { applied };
}
