/**
 * `npm run seed`: the demo users, topics, groups, transactional id, ACLs and quotas on
 * the dev broker (or KAFKA_BOOTSTRAP_SERVERS), as admin, and the dev broker's service
 * principal for the console (scripts/seed/service-principal.ts). The data and the story it
 * tells are in scripts/seed/demo-data.ts.
 *
 * Once per cluster: the console database (DATABASE_URL) records that the cluster was
 * seeded, and the demo data is not written there again, so changes made in the console stay.
 * `--force` writes what is missing or changed regardless (and records it when DATABASE_URL
 * is set): `npm test` runs it so every run starts from the demo state.
 */
import { pathToFileURL } from "node:url";
import { closeAllConnections } from "@/lib/kafka";
import { seedDemoData, seedDemoDataOnce } from "./seed/seed-demo";
import { ensureDevServicePrincipal } from "./seed/service-principal";

export { seedDemoData };

async function main(): Promise<void> {
  const force = process.argv.includes("--force");
  const databaseUrl = process.env.DATABASE_URL;
  const log = (line: string) => console.log(line);
  try {
    if (!databaseUrl && !force) {
      throw new Error(
        "the demo data is written once per cluster, and the record of it is kept in the console database: set " +
          "DATABASE_URL, or pass --force to write it regardless (npm run seed -- --force)",
      );
    }
    const { seeded } = databaseUrl ? await seedDemoDataOnce(databaseUrl, log, { force }) : await seedDemoData(log);
    console.log(seeded ? "seed: done" : "seed: nothing written");
    const file = await ensureDevServicePrincipal(log);
    console.log(`seed: the console's service principal credentials are in ${file} (KAFKA_SERVICE_CREDENTIALS_FILE)`);
  } finally {
    await closeAllConnections();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: Error) => {
    console.error(`seed: ${error.message}`);
    process.exit(1);
  });
}
