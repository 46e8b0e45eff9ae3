/**
 * Loads a realistic ACL set (scripts/acl-store-measure.ts's shape) into a broker through
 * CreateAcls in batches, or deletes exactly that set again, and times the console's own
 * snapshot fetch over it. For load tests of a PRIVATE dev broker; it refuses the shared
 * one (port 9092) unless --shared is given.
 *
 *   KAFKA_PORT=19092 npx tsx scripts/acl-load.ts load 300000
 *   KAFKA_PORT=19092 npx tsx scripts/acl-load.ts fetch          # time DescribeAcls into a store
 *   KAFKA_PORT=19092 npx tsx scripts/acl-load.ts delete 300000
 *
 * Prints one JSON line per step. Runs as the dev super user admin/admin-secret.
 */
import { createAclsV3, deleteAclsV3 } from "@platformatic/kafka";
import { ANY_ACL_FILTER } from "../lib/policy/acl/filter";
import { describeAclStore, describeAcls } from "../lib/kafka/acls";
import { anyBrokerConnection, closeAllConnections, withAdmin } from "../lib/kafka/client";
import { kafkaConfig } from "../lib/kafka/config";
import { bindingToWire, filterToWire } from "../lib/kafka/wire";
import type { KafkaCredential } from "../lib/kafka/types";
import { realisticAcls } from "./acl-store-measure";

const ADMIN: KafkaCredential = { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" };
const BATCH = 2_000;

const [command = "", countArg = "300000", ...flags] = process.argv.slice(2);
const count = Number(countArg);
const servers = kafkaConfig().bootstrapServers;
if (servers.some((s) => s.endsWith(":9092")) && !flags.includes("--shared")) {
  console.error(`refusing to ${command} ACLs on ${servers.join(",")} (the shared dev broker); set KAFKA_PORT to a private broker or pass --shared`);
  process.exit(2);
}

async function inBatches(what: "create" | "delete"): Promise<void> {
  const acls = realisticAcls(count);
  const t0 = performance.now();
  let failed = 0;
  await withAdmin(ADMIN, what === "create" ? "CreateAcls" : "DeleteAcls", async (admin) => {
    const connection = await anyBrokerConnection(admin);
    for (let i = 0; i < acls.length; i += BATCH) {
      const batch = acls.slice(i, i + BATCH);
      if (what === "create") {
        const r = await createAclsV3.api.async(connection, batch.map(bindingToWire));
        failed += r.results.filter((x) => x.errorCode !== 0).length;
      } else {
        const r = await deleteAclsV3.api.async(connection, batch.map((b) => filterToWire({ ...b })));
        failed += r.filterResults.filter((x) => x.errorCode !== 0).length;
      }
      if ((i / BATCH) % 25 === 0) console.error(`${what}: ${i + batch.length} of ${acls.length}`);
    }
  });
  console.log(JSON.stringify({ step: what, acls: acls.length, batches: Math.ceil(acls.length / BATCH), failed, seconds: Math.round(performance.now() - t0) / 1000 }));
}

async function fetchTimes(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const { store } = await describeAclStore(ADMIN, ANY_ACL_FILTER);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    const t1 = performance.now();
    store.index();
    const indexMs = performance.now() - t1;
    const p0 = performance.now();
    await describeAcls(ADMIN, { ...ANY_ACL_FILTER, resourceType: "TOPIC", resourceName: "console/right-proof", patternType: "LITERAL" });
    const proofMs = performance.now() - p0;
    console.log(
      JSON.stringify({
        step: "fetch",
        acls: store.size,
        describeIntoStoreMs: Math.round(wall),
        nodeCpuMs: Math.round((cpu.user + cpu.system) / 1000),
        authorizerIndexMs: Math.round(indexMs),
        narrowProofDescribeMs: Math.round(proofMs),
        rssMb: Math.round(process.memoryUsage().rss / 1048576),
      }),
    );
  }
}

try {
  if (command === "load") await inBatches("create");
  else if (command === "delete") await inBatches("delete");
  else if (command === "fetch") await fetchTimes();
  else {
    console.error("usage: npx tsx scripts/acl-load.ts load|fetch|delete [count] [--shared]");
    process.exitCode = 2;
  }
} finally {
  await closeAllConnections();
}
