/**
 * What deleting N bindings costs on a broker that already holds many ACLs (issue #8), the
 * console's ways against Kafka's own: the same N bindings (a cartesian set that one
 * kafka-acls.sh --remove names: --topics x --allow-principals x --operations, ALLOW from
 * any host) are created, then deleted by each way in turn and created again in between.
 *
 * - console: deleteAclsAudited (one audited batch: one DeleteAcls,
 *   one confirming DescribeAcls) and executeAclPlan (an acl.delete plan's apply: audited
 *   batches of ACL_APPLY_BATCH, one confirmation for all);
 * - raw DeleteAcls with the exact filters: one request, batches of 200 one after the
 *   other, and the same batches sent at once (no confirmation, no audit);
 * - one confirming DescribeAcls alone (what the console adds to the raw request);
 * - kafka-acls.sh --remove --force (a fresh JVM, as an operator runs it).
 *
 * For a PRIVATE broker only (refuses port 9092), loaded first with scripts/acl-load.ts.
 *
 *   KAFKA_PORT=24092 DATABASE_URL=postgresql://postgres@127.0.0.1:5432/ksc_x \
 *     npx node --conditions=react-server --import tsx scripts/acl-delete-measure.ts --count 500 --runs 3
 *
 * Prints one JSON line per way and run, then a summary line (medians, wall ms).
 */
import os from "node:os";
import { createAclsV3, deleteAclsV3 } from "@platformatic/kafka";
import { bindingsVisible } from "../lib/kafka/acls";
import { anyBrokerConnection, closeAllConnections, withAdmin } from "../lib/kafka/client";
import { kafkaConfig } from "../lib/kafka-config";
import { bindingToWire, filterToWire } from "../lib/kafka/wire";
import type { KafkaCredential } from "../lib/kafka/types";
import type { AclBinding, AclOperation } from "../lib/policy/types";
import { AclCli } from "./bench/kafka-cli";

const ADMIN: KafkaCredential = { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" };
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const count = Number(arg("count", "500"));
const runs = Number(arg("runs", "3"));
const withCli = !process.argv.includes("--no-cli");
const servers = kafkaConfig().bootstrapServers;
if (servers.some((s) => s.endsWith(":9092"))) {
  console.error("refusing to measure on the shared dev broker (port 9092): set KAFKA_PORT to a private broker");
  process.exit(2);
}

/** `count` bindings (rounded up to 20) as topics x 4 principals x 5 operations. */
function cartesian(n: number): {
  bindings: AclBinding[];
  topics: string[];
  principals: string[];
  operations: AclOperation[];
} {
  const operations: AclOperation[] = ["READ", "WRITE", "DESCRIBE", "ALTER", "DESCRIBE_CONFIGS"];
  const principals = Array.from({ length: 4 }, (_, i) => `User:delete-measure-${i}`);
  const topics = Array.from(
    { length: Math.ceil(n / (operations.length * principals.length)) },
    (_, i) => `delete-measure.topic-${i}`,
  );
  const bindings: AclBinding[] = [];
  for (const resourceName of topics)
    for (const principal of principals)
      for (const operation of operations)
        bindings.push({
          resourceType: "TOPIC",
          resourceName,
          patternType: "LITERAL",
          principal,
          host: "*",
          operation,
          permissionType: "ALLOW",
        });
  return { bindings, topics, principals, operations };
}

const set = cartesian(count);
const bindings = set.bindings;

async function ms<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, Math.round(performance.now() - t0)];
}

/** Creates the set and waits until DescribeAcls shows all of it. */
async function recreate(): Promise<void> {
  await withAdmin(ADMIN, "CreateAcls", async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const r = await createAclsV3.api.async(connection, bindings.map(bindingToWire));
    if (r.results.some((x) => x.errorCode !== 0)) throw new Error("CreateAcls refused part of the set");
    for (let i = 0; !(await bindingsVisible(admin, bindings, true)); i++) {
      if (i > 100) throw new Error("the created set did not show up");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

async function gone(): Promise<boolean> {
  return withAdmin(ADMIN, "DescribeAcls", (admin) => bindingsVisible(admin, bindings, false));
}

async function rawDelete(batch: number, parallel: boolean): Promise<number> {
  return withAdmin(ADMIN, "DeleteAcls", async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const batches: AclBinding[][] = [];
    for (let i = 0; i < bindings.length; i += batch) batches.push(bindings.slice(i, i + batch));
    const send = (b: AclBinding[]) =>
      deleteAclsV3.api.async(
        connection,
        b.map((x) => filterToWire({ ...x })),
      );
    const answers = parallel
      ? await Promise.all(batches.map(send))
      : await batches.reduce<Promise<Awaited<ReturnType<typeof send>>[]>>(
          async (acc, b) => [...(await acc), await send(b)],
          Promise.resolve([]),
        );
    return answers.reduce((n, a) => n + a.filterResults.reduce((m, f) => m + f.matchingAcls.length, 0), 0);
  });
}

async function main(): Promise<void> {
  // Server-only modules: run with `node --conditions=react-server --import tsx`.
  const { deleteAclsAudited } = await import("../lib/services/acls");
  const { executeAclPlan } = await import("../lib/services/acl-plans");
  const { getAclSnapshot } = await import("../lib/services/acl-snapshot");
  const viewer = {
    sessionId: "delete-measure",
    principal: "User:admin",
    credential: ADMIN,
    mechanism: "SCRAM-SHA-512",
  } as unknown as Parameters<typeof executeAclPlan>[0];
  const held = await getAclSnapshot(viewer, { forceRefresh: true });
  if (!held.ok) throw new Error(held.message);
  const cli = withCli
    ? new AclCli(servers.join(","), os.tmpdir(), { username: ADMIN.username, password: ADMIN.password })
    : null;

  const ways: [string, () => Promise<unknown>][] = [
    [
      "console DELETE /api/v1/acls (deleteAclsAudited)",
      async () => {
        const r = await deleteAclsAudited(viewer, bindings);
        if (!r.ok || r.data.outcome !== "success") throw new Error(r.ok ? r.data.message : r.message);
      },
    ],
    [
      "console acl.delete plan apply (executeAclPlan)",
      async () => {
        const { result } = await executeAclPlan(viewer, `delete-measure-${Date.now()}`, {
          create: [],
          delete: bindings,
        });
        if (!result.ok || result.data.outcome !== "success")
          throw new Error(result.ok ? result.data.message : result.message);
      },
    ],
    ["raw DeleteAcls, one request", () => rawDelete(bindings.length, false)],
    ["raw DeleteAcls, batches of 200 in turn", () => rawDelete(200, false)],
    ["raw DeleteAcls, batches of 100 at once", () => rawDelete(100, true)],
  ];
  if (cli !== null) {
    const topicArgs = set.topics.flatMap((t) => ["--topic", t]);
    const principalArgs = set.principals.flatMap((p) => ["--allow-principal", p]);
    const operationArgs = set.operations.flatMap((o) => ["--operation", o.replace(/_/g, "")]);
    ways.push([
      "kafka-acls.sh --remove --force (one command)",
      async () => {
        const r = await cli.run(["--remove", "--force", ...topicArgs, ...principalArgs, ...operationArgs]);
        if (r.code !== 0) throw new Error(r.head);
      },
    ]);
  }
  const times = new Map<string, number[]>();
  const confirmTimes: number[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const [way, f] of ways) {
      await recreate();
      let error: string | null = null;
      const [, wall] = await ms(() =>
        f().catch((e: unknown) => void (error = e instanceof Error ? e.message : String(e))),
      );
      // A request that timed out may still be under way in the controller: wait until the set is gone.
      const [wasGone, confirm] = await ms(gone);
      let isGone = wasGone;
      for (let i = 0; !isGone && i < 600; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        isGone = await gone();
      }
      confirmTimes.push(confirm);
      if (!isGone) throw new Error(`${way} left some of the set`);
      if (error === null) times.set(way, [...(times.get(way) ?? []), wall]);
      console.log(
        JSON.stringify({
          way,
          run,
          bindings: bindings.length,
          aclsInKafka: held.snapshot.size + bindings.length,
          wallMs: wall,
          error,
        }),
      );
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    JSON.stringify({
      summary: true,
      bindings: bindings.length,
      aclsInKafka: held.snapshot.size + bindings.length,
      loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
      medianWallMs: Object.fromEntries([...times].map(([k, v]) => [k, median(v)])),
      oneConfirmingDescribeMs: median(confirmTimes),
    }),
  );
  await closeAllConnections();
  process.exit(0);
}

await main();
