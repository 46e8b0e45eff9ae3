/**
 * Benchmarks of the policy core, with Kafka's own authorizer as the yardstick.
 *
 *   npm run bench -- policy              full run (about 6 minutes), writes bench/policy-report.json
 *   npm run bench -- policy --quick      shorter timings, 5,000-resource rows, one mixed run (smoke test)
 *   npm run bench -- policy --no-java    skip the JVM side (Kafka's figures and the ratios are null)
 *   npm run bench -- policy --mixed-only only the realistic-mixed row (with BENCH_MIXED_FILE=path
 *                                        its workload file is kept, to profile a row process by hand)
 *   npm run bench -- plan                only the blast radius of an ACL change (part 4), bench/report.json
 *   npm run bench -- preview             an ACL import's preview (5,000 into 100,000), scripts/acl-preview-measure.ts
 *   npm run bench -- grants              10,000 live grants at 100,000 ACLs: expiry, dashboard, sweep (grants.ts)
 *   npm run bench -- history             the history journal: 300,000 ACLs, 10,000 changes a day for 90 days
 *                                        (history.ts), bench/history-report.json; --days N --acls N shrink it
 *   npm run bench                        both suites
 *
 * What is measured:
 *  1. TS/Kafka rows: the policy core (AclIndex + authorize) against Kafka 4.1.1's
 *     StandardAuthorizer (java/AuthorizerHarness.java times its own loop in the JVM), in
 *     two shapes, each side of each row in a fresh process of its own (a new Node
 *     process, then a new JVM) that builds its ACLs, warms up and measures:
 *     - `kafka-benchmark`: Kafka's jmh-benchmarks AuthorizerBenchmark.testAuthorizer
 *       (resourceCount 5,000 and 200,000, aclCount 10 per resource, denyPercentage
 *       20/50/90: thousands of host-specific ACLs on the resource; one request, WRITE on
 *       TOPIC "foo-bar35_resource-95" by User:test-user from 127.0.0.1, repeated). Both
 *       sides build the same ACLs from the same seeded generator; the ACL counts and the
 *       decision are checked to be equal.
 *     - `realistic-mixed`: 100,000 ACLs shaped like a large multi-team cluster (topics,
 *       groups, transactional ids, the cluster; LITERAL, PREFIXED and `*`; 3,000 users,
 *       50 groups and `User:*`; 10% DENY; mostly host `*`) and 2,000 different requests
 *       (principals with and without ACLs, names under the prefixes and names nobody
 *       named, every operation of each type including DESCRIBE / DESCRIBE_CONFIGS that
 *       READ, WRITE, ALTER_CONFIGS... imply, client hosts), one file read by both sides.
 *       Each round asks every request once; Kafka gets them as the broker asks (a
 *       prebuilt request context and Action list each), with audit logging off. Three
 *       pairs of runs; every decision of every run must agree, or the bench fails.
 *     Per row: ns per request (best measurement window, wall clock and CPU time of the
 *     measuring thread), TS/Kafka ratios of both, build/load time, peak RSS.
 *  2. On a realistic set of 100,000 ACLs: building the index (AclIndex.build), one MATCH
 *     lookup (index.matching: every ACL that applies to one topic) and the
 *     effective-permission matrix of that topic (effectiveForResource).
 *
 * The machine these run on is shared, so every figure is the least disturbed one: the
 * best of N runs, or the best of 10 equal windows of a timed loop (the same on the JVM
 * side); the means/medians are printed beside them.
 *  3. Peak RSS of this Node process during part 2 (the 300 MB budget is for that part);
 *     each row process reports its own.
 *
 * Part 2 runs first, in this process with Node's default heap settings; the 200,000-
 * resource rows (over 2 million ACLs) get an 8 GB heap in their own processes.
 *
 *  4. (suite `plan`) The blast radius of one ACL change over the same 100,000 ACLs, a
 *     universe of 10,000 topics and 5,000 principals (plus the hosts the ACLs name and one
 *     they do not, the groups and transactional ids of the ACLs, the cluster): a DENY
 *     `User:*` WRITE on a PREFIXED topic name (`team7.`, 200 of the topics) and on a
 *     LITERAL one. Timed from the ACL list as Kafka returns it: computePlan, blastRadius
 *     (which indexes only the ACLs that can apply to the resources the change touches), a
 *     walk over every decision change (each row built once, none kept) and the summary;
 *     beside it the same from an AclIndex of the whole set built beforehand.
 *     In its own child process with Node's default heap settings, so its peak RSS is its
 *     own (budget 300 MB). Reported: the slower case's time from the list, the decisions
 *     the two cases compared (each class of equivalent requests counted in full), the
 *     child's peak RSS after the list runs (`peakRssMb`) and at the end, with the
 *     whole-set index as well (`peakRssWithIndexMb`); per case the details.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { ROOT } from "../java-harness";
import { round } from "./measure";
import { planBench, planChild } from "./plan";
import { tsKafkaBenchmarkRow, tsMixedRow, type RowSpec } from "./policy-rows";
import { policySuite } from "./policy-suite";

// ---- processes ---------------------------------------------------------------------------
//
// The parent runs the 100k-ACL part with Node's default heap settings, so its peak RSS is
// that part's (what the 300 MB budget is about). Every TS/Kafka row runs each side in a
// fresh process of its own (scripts/bench/policy-rows.ts), this script again told the row
// through BENCH_ROW; the 200,000-resource rows, which hold over 2M ACLs, get a big heap
// there. The plan part runs in a child told by BENCH_PLAN_OUT. Children report back via a
// file.

const PLAN_CHILD = process.env.BENCH_PLAN_OUT !== undefined;
const ROW_CHILD = process.env.BENCH_ROW !== undefined;

/** Runs another suite's entry and exits with what it says (1 when it throws). */
async function exitWith(run: () => Promise<number>): Promise<never> {
  process.exit(await run().then(undefined, (e: Error) => (console.error(e.stack ?? String(e)), 1)));
}

// `npm run bench -- console`: the console against kafka-acls.sh (scripts/bench/console.ts).
if (process.argv[2] === "console") {
  await exitWith(async () => (await (await import("./console")).main(process.argv.slice(3)), 0));
}

// `npm run bench -- preview`: an ACL import's preview over the realistic mix (scripts/acl-preview-measure.ts).
if (process.argv[2] === "preview") {
  process.exit(await import("../acl-preview-measure").then((m) => (m.main(process.argv.slice(3)), 0)));
}

const args = process.argv.slice(2);
const suiteArg = args.find((a) => !a.startsWith("--"));
// Grants that end by themselves at 10,000 live grants and 100,000 ACLs (scripts/bench/grants.ts).
if (suiteArg === "grants") {
  const out = path.join(ROOT, "bench", "report.json");
  let report: Record<string, unknown> = {};
  try {
    report = JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>;
  } catch {
    // no earlier report
  }
  report.grants = await (await import("./grants")).grantsBench();
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, out)}`);
  process.exit(0);
}
// The history journal at 300,000 ACLs and 10,000 changes a day for 90 days (scripts/bench/history.ts).
if (suiteArg === "history") {
  // It runs the console's server-only modules: again under the react-server condition.
  if (!process.execArgv.includes("--conditions=react-server")) {
    const { spawnSync } = await import("node:child_process");
    const child = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", process.argv[1]!, ...process.argv.slice(2)],
      { stdio: "inherit" },
    );
    process.exit(child.status ?? 1);
  }
  const out = path.join(ROOT, "bench", "history-report.json");
  const report = await (await import("./history")).historyBench(args);
  if (!args.includes("--days") && !args.includes("--acls")) {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwrote ${path.relative(ROOT, out)}`);
  } else console.log(JSON.stringify(report, null, 2));
  process.exit(0);
}
// The auditor views' exports (scripts/bench-ui.ts).
if (suiteArg === "ui") process.exit(await (await import("../bench-ui")).runUiBench());
if (suiteArg !== undefined && suiteArg !== "policy" && suiteArg !== "plan") {
  console.error(
    `unknown benchmark "${suiteArg}"; usage: npm run bench -- ` +
      `[policy|plan|grants|history|preview|console|ui] [--quick] [--no-java]`,
  );
  process.exit(2);
}
const RUN_POLICY = suiteArg === undefined || suiteArg === "policy";
const RUN_PLAN = suiteArg === undefined || suiteArg === "plan";

async function main(): Promise<void> {
  if (ROW_CHILD) {
    const spec = JSON.parse(process.env.BENCH_ROW!) as RowSpec;
    const result =
      spec.workload === "kafka-benchmark"
        ? tsKafkaBenchmarkRow(spec.resourceCount, spec.aclCount, spec.denyPercentage)
        : tsMixedRow(spec.file);
    writeFileSync(process.env.BENCH_ROW_OUT!, JSON.stringify(result));
    return;
  }
  if (PLAN_CHILD) {
    writeFileSync(process.env.BENCH_PLAN_OUT!, JSON.stringify(planBench()));
    return;
  }
  const out = path.join(ROOT, "bench", "report.json");
  let report: Record<string, unknown> = {};
  try {
    report = JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>;
  } catch {
    // no earlier report
  }
  if (RUN_POLICY) {
    // The policy rows have a committed report of their own.
    const policyOut = path.join(ROOT, "bench", "policy-report.json");
    const policy = await policySuite();
    mkdirSync(path.dirname(policyOut), { recursive: true });
    writeFileSync(policyOut, `${JSON.stringify(policy, null, 2)}\n`);
    console.log(`\nwrote ${path.relative(ROOT, policyOut)}`);
    delete report.policy;
  }
  if (RUN_PLAN) {
    console.log("");
    const plan = planChild();
    report.plan = {
      blastRadiusMs: round(Math.max(...plan.cases.map((c) => c.bestMs))),
      decisionsChecked: plan.cases.reduce((n, c) => n + c.decisionsChecked, 0),
      peakRssMb: round(plan.peakRssMb),
      peakRssWithIndexMb: round(plan.peakRssWithIndexMb),
      cases: plan.cases.map((c) => ({
        change: c.name,
        ms: round(c.bestMs),
        medianMs: round(c.medianMs),
        fromIndexMs: round(c.fromIndexMs),
        cpuMedianMs: round(c.cpuMedianMs),
        decisionsChecked: c.decisionsChecked,
        decisionChanges: c.decisionChanges,
        universeRequests: c.universeRequests,
      })),
    };
  }
  if (!RUN_PLAN) return;
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, out)}`);
}

await main();
