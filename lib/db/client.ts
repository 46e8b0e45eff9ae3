/**
 * The console's Prisma client: Prisma 7 (Wasm query compiler, no engine binary)
 * through @prisma/adapter-pg, connected to DATABASE_URL. The start
 * command sets DATABASE_URL (to the embedded PGlite server when the user did not set
 * one) before Next starts, so it is always set in the server.
 *
 * One client per process, cached on globalThis so Next dev's hot reload does not open
 * a new pool on every edit. Pool size: DATABASE_POOL_MAX (default 10, checked with the
 * other settings in lib/env.ts). DATABASE_URL is read at each call (databaseUrl()), not
 * through the cached settings: the launcher sets it when it serves the embedded database, and the integration
 * tests point it at a fresh database per file.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";
import { databaseUrl, env } from "../env";

type Cached = { client: PrismaClient; url: string };
const globalForPrisma = globalThis as typeof globalThis & { __kscPrisma?: Cached };

export class DatabaseConfigError extends Error {
  override name = "DatabaseConfigError";
}

/** The process-wide Prisma client for DATABASE_URL. Throws a DatabaseConfigError when DATABASE_URL is unset. */
export function getPrisma(): PrismaClient {
  const url = databaseUrl();
  if (!url) {
    throw new DatabaseConfigError(
      "DATABASE_URL is not set. Start the console with `npm start` (which serves an embedded database when " +
        "DATABASE_URL is unset), " +
        "or set DATABASE_URL=postgresql://user:password@host:5432/database and run `npm run db:migrate`.",
    );
  }
  const cached = globalForPrisma.__kscPrisma;
  if (cached && cached.url === url) return cached.client;
  if (cached) void cached.client.$disconnect().catch(() => {});
  const adapter = new PrismaPg(
    { connectionString: url, max: env().DATABASE_POOL_MAX },
    { onPoolError: (e) => console.error(`console database pool error: ${e.message}`) },
  );
  const client = new PrismaClient({ adapter });
  globalForPrisma.__kscPrisma = { client, url };
  return client;
}

/** Closes the cached client's pool (tests, scripts that exit). The next getPrisma() opens a new one. */
export async function disconnectPrisma(): Promise<void> {
  const cached = globalForPrisma.__kscPrisma;
  globalForPrisma.__kscPrisma = undefined;
  if (cached) await cached.client.$disconnect();
}
