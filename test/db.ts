/**
 * Test support for the integration tests: a fresh, uniquely named database on the
 * machine's PostgreSQL (TEST_PG_ADMIN_URL, default postgresql://postgres@127.0.0.1:5432/postgres),
 * dropped again by `drop()`. Names start with ksc_test_ so leftovers are easy to spot.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(purpose: string): Promise<TestDatabase> {
  const name = `ksc_test_${purpose.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: ADMIN_URL });
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}

/**
 * A fresh migrated database that getPrisma() uses (DATABASE_URL points at it) until
 * `teardown()`, which disconnects Prisma, restores DATABASE_URL and drops the database.
 */
export async function useMigratedTestDatabase(purpose: string): Promise<TestDatabase & { teardown(): Promise<void> }> {
  const { migrate } = await import("@/lib/db/migrate");
  const { disconnectPrisma } = await import("@/lib/db/client");
  const db = await createTestDatabase(purpose);
  await migrate(db.url);
  const previous = process.env.DATABASE_URL;
  await disconnectPrisma();
  process.env.DATABASE_URL = db.url;
  return {
    ...db,
    async teardown() {
      await disconnectPrisma();
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
      await db.drop();
    },
  };
}
