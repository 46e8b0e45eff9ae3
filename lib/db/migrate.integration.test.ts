import { afterEach, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { defaultMigrationsDir, migrate, MigrationError, readMigrations } from "./migrate";
import { createTestDatabase, type TestDatabase } from "@/test/db";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function freshDb(): Promise<TestDatabase> {
  const db = await createTestDatabase("migrate");
  cleanups.push(() => db.drop());
  return db;
}

function copyOfMigrations(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "ksc-migrations-"));
  cpSync(defaultMigrationsDir(), dir, { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

async function tables(url: string): Promise<string[]> {
  const rows = await query<{ t: string }>(
    url,
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
  );
  return rows.map((r) => r.t);
}

/** Every table the migrations create, by name. */
const CONSOLE_TABLES = [
  "_console_migrations",
  "access_grant",
  "audit_event",
  "break_glass_review",
  "change_plan",
  "change_request",
  "cluster_webhook",
  "demo_seed",
  "drift_acknowledgement",
  "drift_revert",
  "grant_binding",
  "journal_checkpoint",
  "journal_coverage",
  "journal_entry",
  "journal_intent",
  "request_approval",
  "session",
  "sign_in_throttle",
  "token_request",
];

describe("migrate", () => {
  it("applies every migration to a fresh database, then is a no-op", async () => {
    const db = await freshDb();
    const logs: string[] = [];
    const first = await migrate(db.url, (s) => logs.push(s));
    const all = readMigrations().map((m) => m.name);
    expect(first.applied).toEqual(all);
    expect(logs).toContain(`applied migration ${all[0]}`);
    expect(await tables(db.url)).toEqual(CONSOLE_TABLES);

    const second = await migrate(db.url);
    expect(second.applied).toEqual([]);
    const rows = await query<{ name: string }>(db.url, "SELECT name FROM _console_migrations ORDER BY name");
    expect(rows.map((r) => r.name)).toEqual(all);
  });

  it("two runners starting at once apply each migration exactly once", async () => {
    const db = await freshDb();
    const [a, b] = await Promise.all([migrate(db.url), migrate(db.url)]);
    const all = readMigrations().map((m) => m.name);
    expect([...a.applied, ...b.applied].sort()).toEqual(all);
    expect(await tables(db.url)).toContain("token_request");
  });

  it("a broken migration fails with the SQL error and leaves nothing half-applied", async () => {
    const db = await freshDb();
    const dir = copyOfMigrations();
    mkdirSync(path.join(dir, "20990101000000_broken"));
    writeFileSync(
      path.join(dir, "20990101000000_broken", "migration.sql"),
      'CREATE TABLE "half_done" (id INT);\nALTER TABLE "session" ADD COLUMN "x" TEXT;\nSELECT * FROM ' +
        '"no_such_table";\n',
    );
    const err = await migrate(db.url, undefined, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toMatch(
      /migration 20990101000000_broken failed and was rolled back: relation "no_such_table" does not exist \(SQLSTATE 42P01\) at line 3/,
    );

    // The good migrations before it were committed; nothing of the broken one was.
    expect(await tables(db.url)).toEqual(CONSOLE_TABLES);
    const cols = await query<{ c: string }>(
      db.url,
      "SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'session' AND column_name = 'x'",
    );
    expect(cols).toEqual([]);
    const names = await query<{ name: string }>(db.url, "SELECT name FROM _console_migrations");
    expect(names.map((r) => r.name)).not.toContain("20990101000000_broken");

    // Running again fails again: never a silent no-op.
    await expect(migrate(db.url, undefined, { migrationsDir: dir })).rejects.toThrow(/20990101000000_broken failed/);
  });

  it("refuses to run when an applied migration was edited", async () => {
    const db = await freshDb();
    const dir = copyOfMigrations();
    await migrate(db.url, undefined, { migrationsDir: dir });
    const first = readMigrations(dir)[0]!;
    appendFileSync(first.file, '\nCREATE INDEX "sneaky" ON "session"("principal");\n');
    await expect(migrate(db.url, undefined, { migrationsDir: dir })).rejects.toThrow(
      new RegExp(`migration ${first.name} was changed after it was applied`),
    );
    const idx = await query(db.url, "SELECT 1 FROM pg_indexes WHERE indexname = 'sneaky'");
    expect(idx).toEqual([]);
  });

  it(
    "refuses a database migrated by a newer console, an empty migrations folder and an unreachable " + "server",
    async () => {
      const db = await freshDb();
      await migrate(db.url);
      await query(db.url, "INSERT INTO _console_migrations (name, checksum) VALUES ('29990101000000_future', 'x')");
      await expect(migrate(db.url)).rejects.toThrow(/29990101000000_future applied, which is not in .*newer version/);

      const empty = mkdtempSync(path.join(tmpdir(), "ksc-empty-"));
      cleanups.push(() => rmSync(empty, { recursive: true, force: true }));
      await expect(migrate(db.url, undefined, { migrationsDir: empty })).rejects.toThrow(/no migrations found/);

      await expect(migrate("postgresql://postgres:pw@127.0.0.1:1/nope")).rejects.toThrow(
        /cannot connect to the console database at postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nope/,
      );
    },
  );
});
