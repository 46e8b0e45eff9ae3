/**
 * Loads a realistic ACL set (scripts/acl-store-measure.ts's shape) into a broker through
 * CreateAcls in batches, or deletes exactly that set again, and times the console's own
 * snapshot fetch over it. For load tests of a PRIVATE dev broker; it refuses the shared
 * one (port 9092) unless --shared is given.
 *
 *   KAFKA_PORT=19092 npx tsx scripts/acl-load.ts load 300000
 *   KAFKA_PORT=19092 npx tsx scripts/acl-load.ts fetch          # time DescribeAcls into a store
 *   KAFKA_PORT=19092 npx node --conditions=react-server --import tsx scripts/acl-load.ts snapshot
 *   KAFKA_PORT=19092 npx tsx scripts/acl-load.ts write 500 --deletes=10   # through createAcls/deleteAcls
 *   KAFKA_PORT=19092 npx tsx scripts/acl-load.ts delete 300000
 *
 * Prints one JSON line per step. Runs as the dev super user admin/admin-secret.
 */
import { createAclsV3, deleteAclsV3 } from "@platformatic/kafka";
import { ANY_ACL_FILTER } from "../lib/policy/acl/filter";
import { createAcls, deleteAcls, describeAclStore, describeAcls } from "../lib/kafka/acls";
import { anyBrokerConnection, closeAllConnections, withAdmin } from "../lib/kafka/client";
import { kafkaConfig } from "../lib/kafka-config";
import { bindingToWire, filterToWire } from "../lib/kafka/wire";
import type { KafkaCredential } from "../lib/kafka/types";
import v8 from "node:v8";
import vm from "node:vm";
import { AclIndex } from "../lib/policy/acl/acl-index";
import type { AclSnapshotCache } from "../lib/services/acl-snapshot";
import { explainAccessDecision } from "../lib/services/access-check-explain";
import { buildResourceDetail } from "../lib/services/resources-view";
import { realisticAcls } from "./acl-store-measure";

const ADMIN: KafkaCredential = { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" };
const BATCH = 2_000;

const [command = "", countArg = "300000", ...flags] = process.argv.slice(2);
const count = Number(countArg);
const servers = kafkaConfig().bootstrapServers;
if (servers.some((s) => s.endsWith(":9092")) && !flags.includes("--shared")) {
  console.error(
    `refusing to ${command} ACLs on ${servers.join(",")} (the shared dev broker); set KAFKA_PORT to a private ` +
      `broker or pass --shared`,
  );
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
        const r = await deleteAclsV3.api.async(
          connection,
          batch.map((b) => filterToWire({ ...b })),
        );
        failed += r.filterResults.filter((x) => x.errorCode !== 0).length;
      }
      if ((i / BATCH) % 25 === 0) console.error(`${what}: ${i + batch.length} of ${acls.length}`);
    }
  });
  console.log(
    JSON.stringify({
      step: what,
      acls: acls.length,
      batches: Math.ceil(acls.length / BATCH),
      failed,
      seconds: Math.round(performance.now() - t0) / 1000,
    }),
  );
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
    await describeAcls(ADMIN, {
      ...ANY_ACL_FILTER,
      resourceType: "TOPIC",
      resourceName: "console/right-proof",
      patternType: "LITERAL",
    });
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

/**
 * `count` bindings with nothing in common (so the confirmation describes every ACL),
 * created through the adapter, then the first `deletes` of them deleted (one exact filter
 * each). Beware: Kafka's controller scans every ACL once per DeleteAcls filter
 * (AclControlManager.deleteAclsForFilter), so deleting 500 at 300,000 ACLs keeps it busy
 * for minutes; keep `deletes` small on a big set.
 */
async function writeTimes(deletes: number): Promise<void> {
  const batch = realisticAcls(count, 7).map((b, i) => ({ ...b, principal: `User:load-write-${i % 37}` }));
  const steps: [string, () => Promise<{ error: unknown }[]>][] = [
    [`create ${batch.length}`, () => createAcls(ADMIN, batch)],
  ];
  if (deletes > 0)
    steps.push([
      `delete ${deletes}`,
      () =>
        deleteAcls(
          ADMIN,
          batch.slice(0, deletes).map((b) => ({ ...b })),
        ),
    ]);
  for (const [what, run] of steps) {
    const t0 = performance.now();
    const results = await run();
    console.log(
      JSON.stringify({
        step: what,
        ms: Math.round(performance.now() - t0),
        failed: results.filter((r) => r.error !== null).length,
      }),
    );
  }
}

/** CPU ms of this process for `f` (the machine is shared: wall time measures the neighbours too). */
async function cpu<T>(f: () => T | Promise<T>): Promise<[T, number, number]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await f();
  const c = process.cpuUsage(c0);
  return [r, Math.round((c.user + c.system) / 100) / 10, Math.round(performance.now() - t0)];
}

/** The console's snapshot over the broker's ACLs: cold and warm reads, queries, decisions, memory. */
async function snapshotTimes(): Promise<void> {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  /** Heap plus ArrayBuffers (the store's columns live outside the JS heap), after a full GC. */
  const heap = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return Math.round((m.heapUsed + m.arrayBuffers) / 1048576);
  };
  const heapBefore = heap();
  // A server-only module: this command runs with `node --conditions=react-server --import tsx`.
  const { AclSnapshotCache, createKafkaAclSnapshotSource } = await import("../lib/services/acl-snapshot");
  const cache = new AclSnapshotCache(createKafkaAclSnapshotSource(), { maxAgeMs: 600_000, proofMaxAgeMs: 30_000 });
  await measureWith(cache, heap, heapBefore);
  cache.clear();
  // WeakRef targets touched in this job stay alive until it ends: let it end first.
  await new Promise((resolve) => setTimeout(resolve, 0));
  console.log(
    JSON.stringify({ step: "released", heapMb: heap(), rssMb: Math.round(process.memoryUsage().rss / 1048576) }),
  );
  if (process.env.ACL_LOAD_HEAP_SNAPSHOT) v8.writeHeapSnapshot(process.env.ACL_LOAD_HEAP_SNAPSHOT);
}

async function measureWith(cache: AclSnapshotCache, heap: () => number, heapBefore: number): Promise<void> {
  const viewer = { sessionId: "measure", principal: "User:admin", credential: ADMIN };
  const [cold, coldCpu, coldWall] = await cpu(() => cache.get(viewer));
  if (!cold.ok) throw new Error(cold.message);
  const snapshot = cold.snapshot;
  const heapStore = heap();
  // A topic with a LITERAL ACL (about 30 ACLs apply to it), and the cluster (2% of all ACLs apply to it).
  const some = snapshot.query({ resourceType: "TOPIC", patternType: "LITERAL", page: 777, pageSize: 1 }).acls[0]!;
  const cluster = {
    principal: some.principal,
    host: "10.1.0.7",
    operation: "IDEMPOTENT_WRITE" as const,
    resourceType: "CLUSTER" as const,
    resourceName: "kafka-cluster",
  };
  const assumptions = { superUsers: ["User:admin"], allowEveryoneIfNoAclFound: false, source: "measure", warnings: [] };
  const request = {
    principal: some.principal,
    host: "10.1.0.7",
    operation: "READ" as const,
    resourceType: some.resourceType,
    resourceName: some.resourceName,
  };
  /** Best of 5 (CPU ms): the first call of each also pays for compiling the code. */
  const q = async (f: () => unknown) => {
    let best = Infinity;
    for (let i = 0; i < 5; i++) best = Math.min(best, (await cpu(f))[1]);
    return best;
  };
  const once = async (f: () => unknown) => (await cpu(f))[1];
  const firstTimes = {
    principalFilter: await once(() => snapshot.query({ principal: some.principal })),
    operationFilter: await once(() => snapshot.query({ operation: "WRITE", page: 3 })),
  };
  const accessCheck = await q(() =>
    explainAccessDecision(request, snapshot.matching(request.resourceType, request.resourceName), assumptions),
  );
  const clusterAccessCheck = await q(() =>
    explainAccessDecision(cluster, snapshot.matching("CLUSTER", "kafka-cluster"), assumptions),
  );
  const clusterApplicable = snapshot.countMatching("CLUSTER", "kafka-cluster");
  const topicApplicable = snapshot.countMatching(some.resourceType, some.resourceName);
  const resourceDetail = await q(() =>
    buildResourceDetail(
      some.resourceType,
      some.resourceName,
      AclIndex.build(snapshot.matching(some.resourceType, some.resourceName)),
      assumptions,
    ),
  );
  const [, changeCpu] = await cpu(() =>
    snapshot.store.withChange([{ ...some, principal: "User:measure-new" }], [some]),
  );
  const [, indexCpu] = await cpu(() => snapshot.index());
  const heapIndex = heap();
  const [, warmCpu, warmWall] = await cpu(() => cache.get(viewer));
  const [, refreshCpu, refreshWall] = await cpu(() => cache.get(viewer, { forceRefresh: true }));
  console.log(
    JSON.stringify({
      step: "snapshot",
      acls: snapshot.size,
      coldGet: { cpuMs: coldCpu, wallMs: coldWall },
      wholeClusterAuthorizerIndexCpuMs: indexCpu,
      withChangeOneCreateOneDeleteCpuMs: changeCpu,
      warmGetCpuMs: warmCpu,
      warmGetWallMs: warmWall,
      forcedRefreshUnchanged: { cpuMs: refreshCpu, wallMs: refreshWall },
      heapMb: { before: heapBefore, withSnapshot: heapStore, plusWholeClusterIndex: heapIndex },
      firstCallCpuMs: firstTimes,
      bestOf5CpuMs: {
        page1: await q(() => snapshot.query({ page: 1 })),
        page50: await q(() => snapshot.query({ page: 50 })),
        principalFilter: await q(() => snapshot.query({ principal: some.principal, page: 2 })),
        resourceNameFilter: await q(() => snapshot.query({ resourceName: some.resourceName })),
        namePrefixFilter: await q(() => snapshot.query({ resourceNamePrefix: some.resourceName.slice(0, 6) })),
        operationFilter: await q(() => snapshot.query({ operation: "WRITE", page: 3 })),
        principalContains: await q(() => snapshot.query({ principalContains: "app-12" })),
        sortedByPrincipalPage40: await q(() => snapshot.query({ sort: "principal", page: 40 })),
        accessCheck,
        resourceDetail,
        clusterAccessCheck,
      },
      applicableAcls: { topic: topicApplicable, cluster: clusterApplicable },
      rssMb: Math.round(process.memoryUsage().rss / 1048576),
    }),
  );
}

try {
  if (command === "snapshot") await snapshotTimes();
  else if (command === "write") await writeTimes(Number(flags.find((f) => f.startsWith("--deletes="))?.slice(10) ?? 0));
  else if (command === "load") await inBatches("create");
  else if (command === "delete") await inBatches("delete");
  else if (command === "fetch") await fetchTimes();
  else {
    console.error("usage: npx tsx scripts/acl-load.ts load|fetch|snapshot|write|delete [count] [--shared]");
    process.exitCode = 2;
  }
} finally {
  await closeAllConnections();
}
