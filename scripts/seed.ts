/**
 * `npm run seed`: the demo users, topics, groups, transactional id, ACLs and quotas on
 * the dev broker (or KAFKA_BOOTSTRAP_SERVERS), as admin. Safe to run again: it adds only
 * what is missing and says "already seeded" when nothing is. The data and the story it
 * tells are in scripts/seed/demo-data.ts.
 */
import { pathToFileURL } from "node:url";
import { closeAllConnections } from "@/lib/kafka";
import { seedDemoData } from "./seed/seed-demo";

export { seedDemoData };

async function main(): Promise<void> {
  try {
    const { seeded } = await seedDemoData((line) => console.log(line));
    console.log(seeded ? "seed: done" : "seed: already seeded, nothing changed");
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
