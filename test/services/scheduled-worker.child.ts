/**
 * One "console instance" for lib/services/scheduled.integration.test.ts: a separate Node
 * process with its own Prisma pool, Kafka connections and pg-boss workers, sharing only
 * DATABASE_URL with the others. It starts the scheduled work (the grant-expiry and sweep
 * queues, polling every half second), prints "ready <pid>" (the pid of this process, not of
 * npx or tsx: the one to kill), and also runs the sweep in a loop
 * (every SWEEP_EVERY_MS), as the minute cron would, until it is stopped (SIGTERM: a clean
 * stop; the test also kills one with SIGKILL while it works).
 *
 * Run with `npx tsx --conditions=react-server` (server-only resolves to its empty module).
 */
import { disconnectPrisma } from "@/lib/db/client";
import { closeAllConnections } from "@/lib/kafka";
import { startScheduledWork, sweep } from "@/lib/services/scheduled";

const url = process.env.DATABASE_URL ?? "";
const every = Number(process.env.SWEEP_EVERY_MS ?? "300");
let stopping = false;

const log = (line: string) => process.stderr.write(`${line}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  if (!url) throw new Error("DATABASE_URL is not set");
  const queue = await startScheduledWork(url, { pollingIntervalSeconds: 0.5, log });
  process.on("SIGTERM", () => {
    stopping = true;
  });
  process.stdout.write(`ready ${process.pid}\n`);
  while (!stopping) {
    try {
      const r = await sweep();
      if (r.removed > 0 || r.failed > 0) process.stdout.write(`${JSON.stringify(r)}\n`);
    } catch (error) {
      log(`sweep: ${error instanceof Error ? error.message : String(error)}`);
    }
    await pause(every);
  }
  await queue.stop();
}

main()
  .catch((error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  })
  .finally(async () => {
    await closeAllConnections().catch(() => {});
    await disconnectPrisma().catch(() => {});
  });
