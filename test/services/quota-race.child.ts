/**
 * One "console instance" for lib/services/quotas.integration.test.ts: a separate Node
 * process with its own Prisma pool and Kafka connections, sharing only DATABASE_URL with
 * the others. It warms up, prints "ready", waits for "go" on stdin (so every instance starts its
 * requests at the same moment), sends QUOTA_RACE_COUNT parallel alterations of distinct
 * sub-quotas {user: QUOTA_RACE_USER, client-id: QUOTA_RACE_PREFIX-<i>} = QUOTA_RACE_VALUE
 * as the super user, and prints one JSON line with the codes it got back.
 *
 * Run with `npx tsx --conditions=react-server` (server-only resolves to its empty module).
 */
import { createInterface } from "node:readline";
import { disconnectPrisma, getPrisma } from "@/lib/db/client";
import { closeAllConnections } from "@/lib/kafka";
import { alterQuota } from "@/lib/services/quotas";

const user = process.env.QUOTA_RACE_USER ?? "";
const prefix = process.env.QUOTA_RACE_PREFIX ?? "c";
const count = Number(process.env.QUOTA_RACE_COUNT ?? "10");
const value = Number(process.env.QUOTA_RACE_VALUE ?? "400");
const admin = {
  sessionId: null,
  principal: "User:admin",
  credential: { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" as const },
};

async function main() {
  if (!user) throw new Error("QUOTA_RACE_USER is not set");
  // Warm up (Kafka connection, database pool) so that after "go" the instances really race.
  await alterQuota(admin, {
    entity: { user, "client-id": `${prefix}-warm-up` },
    key: "producer_byte_rate",
    value,
    dryRun: true,
  });
  await getPrisma().$queryRaw`SELECT 1`;
  const lines = createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => lines.on("line", (l) => l.trim() === "go" && resolve()));
  process.stdout.write("ready\n");
  await go;
  lines.close();
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      alterQuota(admin, {
        entity: { user, "client-id": `${prefix}-${i}` },
        key: "producer_byte_rate",
        value,
        dryRun: false,
      }),
    ),
  );
  process.stdout.write(JSON.stringify({ codes: results.map((r) => (r.ok ? "OK" : r.code)) }) + "\n");
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await closeAllConnections().catch(() => {});
    await disconnectPrisma().catch(() => {});
  });
