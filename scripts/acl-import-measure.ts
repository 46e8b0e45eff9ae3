/**
 * How applying an ACL import plan scales with the ACLs already in Kafka (issue #8): at each
 * size, the broker is first filled (raw CreateAcls, not timed) with scripts/acl-store-measure.ts's
 * realistic mix, then an acl.import plan's payload of --apply new ACLs is carried out through
 * the product's apply path (executeAclPlan: audited batches of ACL_APPLY_BATCH, Kafka's
 * confirmation, the shared snapshot kept current) and timed per batch; the process's RSS after.
 * For a PRIVATE broker only (refuses port 9092).
 *
 *   KAFKA_PORT=29192 DATABASE_URL=postgresql://postgres@127.0.0.1:5432/ksc_test_x \
 *     npx node --conditions=react-server --import tsx scripts/acl-import-measure.ts --sizes 10000,50000 --apply 2000
 *
 * Prints one JSON line per size.
 */
import { createAclsV3 } from "@platformatic/kafka";
import { anyBrokerConnection, closeAllConnections, withAdmin } from "../lib/kafka/client";
import { kafkaConfig } from "../lib/kafka-config";
import { bindingToWire } from "../lib/kafka/wire";
import type { KafkaCredential } from "../lib/kafka/types";
import { realisticAcls } from "./acl-store-measure";

const ADMIN: KafkaCredential = { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" };
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const sizes = arg("sizes", "10000,50000").split(",").map(Number);
const applyCount = Number(arg("apply", "2000"));

if (kafkaConfig().bootstrapServers.some((s) => s.endsWith(":9092"))) {
  console.error("refusing to load ACLs on the shared dev broker (port 9092): set KAFKA_PORT to a private broker");
  process.exit(2);
}

async function fill(from: number, to: number): Promise<void> {
  const acls = realisticAcls(to).slice(from);
  await withAdmin(ADMIN, "CreateAcls", async (admin) => {
    const connection = await anyBrokerConnection(admin);
    for (let i = 0; i < acls.length; i += 2000)
      await createAclsV3.api.async(connection, acls.slice(i, i + 2000).map(bindingToWire));
  });
}

async function main(): Promise<void> {
  // Server-only modules: run with `node --conditions=react-server --import tsx`.
  const { executeAclPlan } = await import("../lib/services/acl-plans");
  const { getAclSnapshot } = await import("../lib/services/acl-snapshot");
  const viewer = {
    sessionId: "import-measure",
    principal: "User:admin",
    credential: ADMIN,
    mechanism: "SCRAM-SHA-512",
  } as unknown as Parameters<typeof executeAclPlan>[0];
  let loaded = 0;
  for (const size of sizes) {
    await fill(loaded, size);
    loaded = size;
    // The raw fill is not confirmed: read until the broker shows all of it (two equal sizes).
    let warm = await getAclSnapshot(viewer, { forceRefresh: true });
    for (let last = -1; warm.ok && warm.snapshot.size !== last;) {
      last = warm.snapshot.size;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      warm = await getAclSnapshot(viewer, { forceRefresh: true });
    }
    if (!warm.ok) throw new Error(warm.message);
    const held = warm.snapshot.size;
    // New ACLs of the same shape (another seed, own principals): what an import adds.
    const create = realisticAcls(applyCount, 1000 + size).map((b, i) => ({
      ...b,
      principal: `User:import-measure-${size}-${i % 97}`,
    }));
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const { result } = await executeAclPlan(viewer, `measure-${size}`, { create, delete: [] });
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    if (!result.ok || result.data.outcome !== "success")
      throw new Error(`apply failed: ${result.ok ? result.data.message : result.message}`);
    const after = await getAclSnapshot(viewer);
    if (!after.ok) throw new Error(after.message);
    const kafka = await getAclSnapshot(viewer, { forceRefresh: true });
    if (!kafka.ok) throw new Error(kafka.message);
    const missing = create.filter((b) => !after.snapshot.has(b)).length;
    if (missing > 0 || kafka.snapshot.size !== after.snapshot.size) {
      throw new Error(
        `the snapshot after Apply (${after.snapshot.size} ACLs, ${missing} of the plan's missing) is not what ` +
          `Kafka holds (${kafka.snapshot.size})`,
      );
    }
    console.log(
      JSON.stringify({
        aclsBefore: size,
        applied: applyCount,
        batches: result.data.batches,
        msPerBatch: Math.round(wallMs / result.data.batches),
        nodeCpuMsPerBatch: Math.round((cpu.user + cpu.system) / 1000 / result.data.batches),
        aclsPerS: Math.round(applyCount / (wallMs / 1000)),
        aclsInKafkaBefore: held,
        snapshotSize: after.snapshot.size,
        rssMb: Math.round(process.memoryUsage().rss / 1048576),
      }),
    );
  }
  await closeAllConnections();
  process.exit(0);
}

await main();
