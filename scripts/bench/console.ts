/**
 * `npm run bench -- console`: the console as a user meets it, at 100,000 and 300,000 ACLs,
 * beside Kafka's own `kafka-acls.sh` on the same broker (issue #8's targets).
 *
 *   npm run bench -- console                       100k and 300k (about an hour on 2 busy cores)
 *   npm run bench -- console --sizes 10000 --window 5 --runs 3   a quick look while developing
 *
 * Flags: --sizes a,b (ACLs, ascending; default 100000,300000), --window S (seconds of the
 * 20-user run, 30), --users N (20), --runs N (warm runs per question, 5), --no-cli,
 * --no-build (serve the existing build), --working-tree (build this checkout as it is,
 * uncommitted changes included, instead of the last commit), --profile (the console
 * server runs with --cpu-prof; profiles in /tmp/ksc-bench-profiles/), --chunk N (ACLs per import
 * plan, 10000), --out FILE (bench/console-report.json).
 *
 * What is measured is the last commit (HEAD): it is exported with `git archive` into
 * /tmp/ksc-bench-src (node_modules hard-linked, the generated Prisma client copied), built
 * there into .next-bench and served from there, so edits in progress in the checkout
 * neither break the build nor leak into the figures. That build skips Next's type check
 * (ignoreBuildErrors in the copy's next.config.ts): types are npm test's business.
 *
 * What it does, all on its own resources (nothing touches the shared dev broker or database):
 *  1. A fresh broker (scripts/kafka.sh with KAFKA_STATE_DIR=/tmp/kafka-bench, ports
 *     29092/29093, its TLS listeners on 29094/29095, JMX on 29096 for the request counters),
 *     a fresh PostgreSQL database ksc_bench (migrated), a production build in .next-bench,
 *     the console's own server
 *     (scripts/server.ts) on 127.0.0.1:3412, and 200 topics named like the ACLs' topics.
 *  2. For each size: the ACLs (scripts/acl-store-measure.ts's realistic mix: topics,
 *     groups, transactional ids, the cluster; LITERAL and PREFIXED; ~3,000 principals,
 *     User:* and Group: ones; 10% DENY; 40% host-pinned) are imported THROUGH THE
 *     CONSOLE: acl.import plans (POST /api/v1/plans, then POST /api/v1/plans/{id}/apply)
 *     of --chunk ACLs each, signed in as admin. Then the server is restarted, so that
 *     the first request of each question is a cold one (the snapshot is read from Kafka).
 *  3. Each question through the API: the first (cold) request, then --runs warm ones
 *     (median). A filter change asks with a different value each run (nothing is the
 *     same question twice). The resources index is the Resources page (there is no API
 *     for it); the rest are /api/v1 routes.
 *  4. --users sessions (each signed in on its own) for --window seconds, each looping
 *     "a random page of the list, then a random filter": p50/p99 and throughput.
 *  5. Writes: 500 new bindings in one POST /api/v1/acls, then all 500 deleted in one
 *     DELETE, each with the broker's CreateAcls/DeleteAcls/DescribeAcls counters (JMX)
 *     before and after; kafka-acls.sh adds and removes 500 of its own the same way.
 *  6. The server's RSS (VmRSS of its /proc status) after all that: right after the writes,
 *     then each second while it is left idle for 15 s; the last reading is checked against
 *     the target ("after the run"); the peak (VmHWM) is reported too.
 *  7. The same questions through kafka-acls.sh (fresh JVM per call, the JVM start
 *     included, output counted, not kept), medians; the ratio is console / CLI.
 * Everything it started is stopped at the end, also on failure or Ctrl-C.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { realisticAcls } from "../acl-store-measure";
import { AclCli } from "./kafka-cli";
import { createTopics } from "./console-load";
import {
  ADMIN,
  DATABASE_URL,
  DB_NAME,
  DIST_DIR,
  KAFKA_PORT,
  parseOptions,
  PORT,
  ROOT,
  SNAPSHOT_DIR,
  STATE_DIR,
} from "./console-options";
import { table, writeReport } from "./console-report";
import {
  appDir,
  build,
  cleanup,
  exportHead,
  freshBroker,
  freshDatabase,
  git,
  log,
  serverEnv,
  setApp,
  startServer,
  stopServer,
} from "./console-server";
import { runSize, type SizeReport } from "./console-size";

export async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the server and the broker`);
    void cleanup().then(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  const started = new Date();
  let commit = "";
  try {
    Object.assign(serverEnv, process.env, {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: DIST_DIR,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_URL,
      KAFKA_PORT: String(KAFKA_PORT),
      CONSOLE_SECRET_KEY: randomBytes(32).toString("base64"),
    });
    delete serverEnv.KAFKA_BOOTSTRAP_SERVERS;
    // This process's own Kafka calls (topic creation) go to the bench broker too.
    process.env.KAFKA_PORT = String(KAFKA_PORT);
    delete process.env.KAFKA_BOOTSTRAP_SERVERS;

    setApp(options.workingTree ? ROOT : SNAPSHOT_DIR);
    commit = options.workingTree
      ? `${git("rev-parse", "HEAD")} + uncommitted changes`
      : options.build
        ? git("rev-parse", "HEAD")
        : readFileSync(path.join(SNAPSHOT_DIR, ".bench-commit"), "utf8").trim();
    if (options.build) {
      if (!options.workingTree) {
        log(`exporting ${commit} into ${SNAPSHOT_DIR}`);
        exportHead();
        writeFileSync(path.join(SNAPSHOT_DIR, ".bench-commit"), `${commit}\n`);
      }
      build();
    } else if (!existsSync(path.join(appDir(), DIST_DIR, "BUILD_ID")))
      throw new Error(`--no-build: there is no build in ${path.join(appDir(), DIST_DIR)}`);

    log(`a fresh broker in ${STATE_DIR} on 127.0.0.1:${KAFKA_PORT}`);
    freshBroker();
    log(`a fresh database ${DB_NAME}`);
    await freshDatabase();

    const max = options.sizes[options.sizes.length - 1]!;
    const all = realisticAcls(max);
    const topics = await createTopics(all);
    log(`${topics} topics created`);
    const cli = options.cli ? new AclCli(`127.0.0.1:${KAFKA_PORT}`, STATE_DIR, ADMIN) : null;

    let pid = await startServer(options, "load");
    const reports: SizeReport[] = [];
    let loaded = 0;
    for (const size of options.sizes) {
      const [sized, nextPid] = await runSize(options, all, loaded, size, cli, pid);
      pid = nextPid;
      loaded = size;
      reports.push(sized);
      // Written after each size: a later size that fails keeps the earlier ones.
      writeReport({ options, started, commit }, reports);
    }
    await stopServer();
    const report = writeReport({ options, started, commit }, reports);
    console.log(table(reports));
    console.log(
      `\n${
        report.pass
          ? "every target met"
          : `targets missed: ${reports
              .flatMap((r) =>
                Object.entries(r.pass)
                  .filter(([, ok]) => !ok)
                  .map(([k]) => `${k} at ${r.acls}`),
              )
              .join(", ")}`
      }; report in ${path.relative(ROOT, options.out)}`,
    );
  } finally {
    await cleanup();
  }
}
