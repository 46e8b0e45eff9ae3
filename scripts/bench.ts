/**
 * Benchmarks of the policy core, with Kafka's own authorizer as the yardstick.
 *
 *   npm run bench -- policy            full run (about 3 minutes), writes bench/report.json
 *   npm run bench -- policy --quick    shorter timings, 5,000-resource rows only (smoke test)
 *   npm run bench -- policy --no-java  skip the JVM side (javaNsPerOp and ratio are null)
 *   npm run bench -- plan              only the blast radius of an ACL change (part 4)
 *   npm run bench                      both suites
 *
 * bench/report.json keeps the sections of the suites that did not run.
 *
 * What is measured:
 *  1. Kafka's jmh-benchmarks AuthorizerBenchmark.testAuthorizer workload (resourceCount
 *     5,000 and 200,000, aclCount 10 per resource, denyPercentage 20/50/90; WRITE on TOPIC
 *     "foo-bar35_resource-95" by User:test-user from 127.0.0.1), decided by the policy core
 *     (AclIndex + authorize, in this process) and by Kafka 4.1.1's StandardAuthorizer
 *     (java/AuthorizerHarness.java times its own loop in the JVM). Both sides build the
 *     same ACLs from the same seeded generator; the ACL counts and the decision are
 *     checked to be equal before anything is timed.
 *  2. On a realistic set of 100,000 ACLs: building the index (AclIndex.build), one MATCH
 *     lookup (index.matching: every ACL that applies to one topic) and the
 *     effective-permission matrix of that topic (effectiveForResource).
 *
 * The machine these run on is shared, so every figure is the least disturbed one: the
 * best of N runs, or the best of 10 equal windows of a timed loop (the same on the JVM
 * side); the means/medians are printed beside them.
 *  3. Peak RSS of this Node process during part 2 (the 300 MB budget is for that part) and,
 *     printed separately, over the whole run (the 2M-ACL rows need far more).
 *
 * Part 2 runs first, in this process with Node's default heap settings; the authorizer
 * rows run in a child process with an 8 GB heap limit (the 200,000-resource rows hold over
 * 2 million ACLs), so the two peak-RSS figures are separate.
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
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

import { ANY_OTHER_HOST, AclIndex, authorize, blastRadius, computePlan, effectiveForResource, type AuthorizeRequest, type PlanResource, type PlanUniverse } from "../lib/policy/index";
import type { AclBinding, AclOperation, ResourceType } from "../lib/policy/types";
import { KafkaAuthorizerHarness, ROOT, type HarnessBenchAnswer } from "./java-harness";

const HEAP_MB = 8192;

// ---- processes ---------------------------------------------------------------------------
//
// The parent runs the 100k-ACL part with Node's default heap settings, so its peak RSS is
// that part's (what the 300 MB budget is about). The authorizer rows, which hold over 2M
// ACLs at 200,000 resources, run in a child with a big heap and report back via a file.

const ROWS_CHILD = process.env.BENCH_ROWS_OUT !== undefined;
const PLAN_CHILD = process.env.BENCH_PLAN_OUT !== undefined;

// `npm run bench -- console`: the console against kafka-acls.sh (scripts/bench-console.ts).
if (process.argv[2] === "console") process.exit(await import("./bench-console").then((m) => m.main(process.argv.slice(3))).then(() => 0, (e: Error) => (console.error(e.stack ?? String(e)), 1)));

const args = process.argv.slice(2);
const suiteArg = args.find((a) => !a.startsWith("--"));
if (suiteArg !== undefined && suiteArg !== "policy" && suiteArg !== "plan") {
  console.error(`unknown benchmark "${suiteArg}"; usage: npm run bench -- [policy|plan] [--quick] [--no-java]`);
  process.exit(2);
}
const RUN_POLICY = suiteArg === undefined || suiteArg === "policy";
const RUN_PLAN = suiteArg === undefined || suiteArg === "plan";
const QUICK = args.includes("--quick");
const WITH_JAVA = !args.includes("--no-java");

const TS_WARMUP_MS = QUICK ? 300 : 1500;
const TS_MEASURE_MS = QUICK ? 500 : 2500;
const JAVA_WARMUP_MS = QUICK ? 500 : 3000;
const JAVA_MEASURE_MS = QUICK ? 500 : 3000;
const SEED = 20_241_130;

// ---- helpers -----------------------------------------------------------------------------

/** mulberry32: the same generator as AuthorizerHarness.Mulberry32, bit for bit. */
function mulberry32(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

function nowNs(): bigint {
  return process.hrtime.bigint();
}

/**
 * Runs `fn` for warmupMs, then measures for measureMs cut into `windows` equal slices.
 * Returns the mean ns per call over the whole measurement (what JMH reports) and the best
 * window (the figure least disturbed by other processes on a shared machine).
 */
function timeLoop(fn: () => unknown, warmupMs: number, measureMs: number, windows = 10): { nsPerOp: number; nsPerOpBest: number; iterations: number; sink: unknown } {
  let sink: unknown;
  const warmEnd = nowNs() + BigInt(warmupMs) * 1_000_000n;
  while (nowNs() < warmEnd) for (let i = 0; i < 16; i++) sink = fn();
  const windowNs = BigInt(Math.max(1, Math.floor((measureMs * 1_000_000) / windows)));
  let iterations = 0;
  let totalNs = 0;
  let best = Number.POSITIVE_INFINITY;
  for (let w = 0; w < windows; w++) {
    const start = nowNs();
    const end = start + windowNs;
    let n = 0;
    let t: bigint;
    do {
      sink = fn();
      n++;
      t = nowNs();
    } while (t < end);
    const ns = Number(t - start);
    iterations += n;
    totalNs += ns;
    best = Math.min(best, ns / n);
  }
  return { nsPerOp: totalNs / iterations, nsPerOpBest: best, iterations, sink };
}

/**
 * Wall and CPU time of `runs` calls of `fn` (after one untimed call). With `collectFirst`
 * each call starts after a full GC, so that the garbage of the previous call is not
 * collected inside the next one (for the index build; a full GC before a small call
 * makes it slower than it is in steady use).
 */
function bestOf(runs: number, fn: () => unknown, collectFirst = false): { bestMs: number; medianMs: number; cpuMedianMs: number; firstMs: number } {
  const t0 = performance.now();
  fn();
  const firstMs = performance.now() - t0;
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (collectFirst) gc();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    fn();
    walls.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  return { bestMs: Math.min(...walls), medianMs: median(walls), cpuMedianMs: median(cpus), firstMs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

const fmt = (n: number | null | undefined, digits = 1): string => (n === null || n === undefined || Number.isNaN(n) ? "n/a" : n.toFixed(digits));

// ---- 1. Kafka's AuthorizerBenchmark workload -----------------------------------------------

const RESOURCE_NAME_PREFIX = "foo-bar35_resource-";
const HOST_PRE_COUNT = 1000;
const BY_TYPE_HOST = "127.0.0.2";

/** AuthorizerBenchmark.prepareAclCache, in the order AuthorizerHarness.benchmarkAcls builds it. */
function benchmarkAcls(resourceCount: number, aclCount: number, denyPercentage: number, seed: number): AclBinding[] {
  const rand = mulberry32(seed);
  const eps = 1e-9;
  const principal = "User:test-user";
  const acls: AclBinding[] = [];
  const entry = (resourceType: ResourceType, resourceName: string, patternType: "LITERAL" | "PREFIXED", p: string, host: string, permissionType: "ALLOW" | "DENY"): AclBinding => ({
    resourceType,
    resourceName,
    patternType,
    principal: p,
    host,
    operation: "READ",
    permissionType,
  });
  for (let resourceId = 0; resourceId < resourceCount; resourceId++) {
    const type: ResourceType = resourceId % 10 === 0 ? "GROUP" : "TOPIC";
    const name = RESOURCE_NAME_PREFIX + resourceId;
    const pattern = resourceId % 5 === 0 ? "PREFIXED" : "LITERAL";
    for (let aclId = 0; aclId < aclCount; aclId++) {
      const p = principal + (aclId === 0 ? "" : String(aclId));
      acls.push(entry(type, name, pattern, p, "*", "ALLOW"));
      if (rand() * 100.0 - eps < denyPercentage) acls.push(entry(type, name, pattern, p, "*", "DENY"));
    }
  }
  for (let hostId = 0; hostId < HOST_PRE_COUNT; hostId++) {
    acls.push(entry("TOPIC", RESOURCE_NAME_PREFIX, "PREFIXED", principal, `127.0.0.${hostId}`, "ALLOW"));
    if (rand() * 100.0 - eps < denyPercentage) acls.push(entry("TOPIC", RESOURCE_NAME_PREFIX, "PREFIXED", principal, `127.0.0.${hostId}`, "DENY"));
  }
  for (let hostId = 0; hostId < Math.floor(resourceCount / 10); hostId++) {
    // Kafka's benchmark really writes "127.0.0" + hostId (no dot) here.
    const hostName = `127.0.0${hostId}`;
    if (hostName === BY_TYPE_HOST) continue;
    acls.push(entry("TOPIC", "*", "LITERAL", principal, hostName, "ALLOW"));
    if (rand() * 100.0 - eps < denyPercentage) acls.push(entry("TOPIC", "*", "LITERAL", principal, hostName, "DENY"));
  }
  return acls;
}

/** AuthorizerBenchmark.testAuthorizer's action and request context. */
const BENCH_REQUEST: AuthorizeRequest = {
  principal: "User:test-user",
  host: "127.0.0.1",
  operation: "WRITE",
  resourceType: "TOPIC",
  resourceName: RESOURCE_NAME_PREFIX + 95,
};

interface AuthorizerRow {
  resourceCount: number;
  aclCount: number;
  denyPercentage: number;
  tsNsPerOp: number;
  javaNsPerOp: number | null;
  ratio: number | null;
}

interface AuthorizerExtra {
  acls: number;
  tsMeanNsPerOp: number;
  javaMeanNsPerOp: number | null;
  tsBuildMs: number;
  javaLoadMs: number | null;
  decision: string;
}

function tsAuthorizerRow(resourceCount: number, aclCount: number, denyPercentage: number): { best: number; mean: number; acls: number; buildMs: number; decision: string } {
  let acls: AclBinding[] | null = benchmarkAcls(resourceCount, aclCount, denyPercentage, SEED);
  const t0 = performance.now();
  const index = AclIndex.build(acls);
  const buildMs = performance.now() - t0;
  const count = acls.length;
  acls = null;
  const decision = authorize(index, BENCH_REQUEST).decision;
  const r = timeLoop(() => authorize(index, BENCH_REQUEST), TS_WARMUP_MS, TS_MEASURE_MS);
  return { best: r.nsPerOpBest, mean: r.nsPerOp, acls: count, buildMs, decision };
}

// ---- 2. a realistic 100,000-ACL set -------------------------------------------------------------

const TOPIC_OPERATIONS: AclOperation[] = ["ALL", "READ", "WRITE", "CREATE", "DELETE", "ALTER", "DESCRIBE", "DESCRIBE_CONFIGS", "ALTER_CONFIGS"];

/**
 * 100,000 ACLs shaped like a large multi-team cluster: 50 teams x 20 services x 20 topics
 * (names share the stems `teamN.` and `teamN.svcM.`), PREFIXED ACLs on those stems,
 * LITERAL ACLs per topic for 3,000 application principals, consumer groups and
 * transactional ids, some `User:*`, LITERAL `*`, host-pinned and DENY entries.
 */
function realisticAcls(total: number, seed: number): AclBinding[] {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (n: number): number => Math.floor(rand() * n);
  const hosts = ["*", "*", "*", "*", "*", "*", "10.1.0.7", "10.1.0.8", "10.2.3.4", "192.168.10.20"];
  const out: AclBinding[] = [];
  const seen = new Set<string>();
  const push = (b: AclBinding): void => {
    const k = `${b.resourceType}|${b.resourceName}|${b.patternType}|${b.principal}|${b.host}|${b.operation}|${b.permissionType}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(b);
  };
  const principal = (): string => (rand() < 0.02 ? "User:*" : rand() < 0.1 ? `Group:team${int(50)}` : `User:app-${int(3000)}`);
  const acl = (resourceType: ResourceType, resourceName: string, patternType: "LITERAL" | "PREFIXED", operation: AclOperation): AclBinding => ({
    resourceType,
    resourceName,
    patternType,
    principal: principal(),
    host: pick(hosts),
    operation,
    permissionType: rand() < 0.1 ? "DENY" : "ALLOW",
  });
  for (let i = 0; i < 20; i++) push(acl("TOPIC", "*", "LITERAL", pick(["DESCRIBE", "DESCRIBE_CONFIGS", "READ"])));
  while (out.length < total) {
    const team = int(50);
    const svc = int(20);
    const r = rand();
    if (r < 0.62) push(acl("TOPIC", `team${team}.svc${svc}.topic${int(20)}`, "LITERAL", pick(TOPIC_OPERATIONS)));
    else if (r < 0.72) push(acl("TOPIC", `team${team}.svc${svc}.`, "PREFIXED", pick(TOPIC_OPERATIONS)));
    else if (r < 0.76) push(acl("TOPIC", `team${team}.`, "PREFIXED", pick(TOPIC_OPERATIONS)));
    else if (r < 0.92) push(acl("GROUP", `team${team}.svc${svc}.consumer${int(5)}`, rand() < 0.3 ? "PREFIXED" : "LITERAL", pick(["READ", "DESCRIBE", "DELETE"] as AclOperation[])));
    else if (r < 0.98) push(acl("TRANSACTIONAL_ID", `team${team}.svc${svc}.tx${int(3)}`, "LITERAL", pick(["WRITE", "DESCRIBE"] as AclOperation[])));
    else push(acl("CLUSTER", "kafka-cluster", "LITERAL", pick(["IDEMPOTENT_WRITE", "DESCRIBE", "CREATE"] as AclOperation[])));
  }
  return out;
}

// ---- 4. the blast radius of one ACL change ------------------------------------------------------

interface PlanCase {
  name: string;
  bestMs: number;
  medianMs: number;
  cpuMedianMs: number;
  fromIndexMs: number;
  decisionsChecked: number;
  decisionChanges: number;
  universeRequests: number;
}

interface PlanResult {
  cases: PlanCase[];
  peakRssMb: number;
  peakRssWithIndexMb: number;
}

/** 10,000 topics (team0..49 x svc0..19 x topic0..9), 5,000 principals, the ACLs' hosts plus one they do not name. */
function benchUniverse(acls: readonly AclBinding[]): PlanUniverse {
  const resources: PlanResource[] = [];
  for (let t = 0; t < 50; t++) for (let s = 0; s < 20; s++) for (let k = 0; k < 10; k++) resources.push({ resourceType: "TOPIC", resourceName: `team${t}.svc${s}.topic${k}` });
  const others = new Map<string, PlanResource>();
  const hosts = new Set<string>();
  for (const b of acls) {
    if (b.host !== "*") hosts.add(b.host);
    if (b.resourceType !== "TOPIC" && b.patternType === "LITERAL" && b.resourceName !== "*") others.set(`${b.resourceType}|${b.resourceName}`, { resourceType: b.resourceType, resourceName: b.resourceName });
  }
  hosts.add(ANY_OTHER_HOST);
  const principals = [...Array.from({ length: 4950 }, (_, i) => `User:app-${i}`), ...Array.from({ length: 50 }, (_, i) => `Group:team${i}`)];
  return { principals, hosts: [...hosts], resources: [...resources, ...others.values()] };
}

function planBench(): PlanResult {
  const acls = realisticAcls(100_000, SEED);
  const universe = benchUniverse(acls);
  const topics = universe.resources.filter((r) => r.resourceType === "TOPIC").length;
  console.log(`blast radius of one ACL change: ${acls.length} ACLs, ${topics} topics (${universe.resources.length} resources), ${universe.principals.length} principals, ${universe.hosts.length} hosts`);
  const deny = (patternType: "LITERAL" | "PREFIXED", resourceName: string): AclBinding => ({
    resourceType: "TOPIC",
    resourceName,
    patternType,
    principal: "User:*",
    host: "*",
    operation: "WRITE",
    permissionType: "DENY",
  });
  const changes = [
    { name: "DENY User:* WRITE TOPIC PREFIXED team7.", binding: deny("PREFIXED", "team7.") },
    { name: "DENY User:* WRITE TOPIC LITERAL team7.svc3.topic4", binding: deny("LITERAL", "team7.svc3.topic4") },
  ];
  interface Measured {
    full: ReturnType<typeof bestOf>;
    checked: number;
    rows: number;
    universeRequests: number;
  }
  // Plan, blast radius, every row walked once, the summary. A full GC before each run:
  // every run starts from the same heap, so the peak RSS is the blast radius's, not the
  // garbage of earlier runs.
  const measure = (binding: AclBinding, current: AclIndex | readonly AclBinding[]): Measured => {
    const m = { checked: 0, rows: 0, universeRequests: 0 };
    const full = bestOf(QUICK ? 3 : 11, () => {
      const plan = computePlan({ current, create: [binding] });
      const blast = blastRadius({ before: current, change: { create: plan.create, delete: plan.delete }, universe });
      let walked = 0;
      blast.forEach(() => {
        walked++;
      });
      blast.summary();
      if (walked !== blast.total) throw new Error(`walked ${walked} rows of ${blast.total}`);
      m.checked = blast.checked;
      m.rows = blast.total;
      m.universeRequests = blast.universeRequests;
    }, true);
    return { full, ...m };
  };
  // From the ACL list as Kafka returns it, then (peak RSS noted in between) from an index
  // of the whole set that the caller built beforehand.
  const fromList = changes.map(({ binding }) => measure(binding, acls));
  const peak = peakRssMb();
  const index = AclIndex.build(acls);
  const fromIndex = changes.map(({ binding }) => measure(binding, index));
  const cases = changes.map(({ name }, i): PlanCase => {
    const l = fromList[i]!;
    const x = fromIndex[i]!;
    console.log(
      `  ${name}: ${l.rows} decision changes, ${l.checked} decisions compared (of ${l.universeRequests} in the universe)\n` +
        `    from the ACL list ${fmt(l.full.bestMs)} ms (median ${fmt(l.full.medianMs)}, CPU ${fmt(l.full.cpuMedianMs)}); from a prebuilt index ${fmt(x.full.bestMs)} ms   target < 1000 ms`,
    );
    return {
      name,
      bestMs: l.full.bestMs,
      medianMs: l.full.medianMs,
      cpuMedianMs: l.full.cpuMedianMs,
      fromIndexMs: x.full.bestMs,
      decisionsChecked: l.checked,
      decisionChanges: l.rows,
      universeRequests: l.universeRequests,
    };
  });
  const peakWithIndex = peakRssMb();
  console.log(`  peak RSS of this process   ${fmt(peak)} MB from the ACL list, ${fmt(peakWithIndex)} MB with the whole-set index as well   target < 300 MB`);
  return { cases, peakRssMb: peak, peakRssWithIndexMb: peakWithIndex };
}

/** Part 4 in a child with Node's default heap settings, so the peak RSS is its own. */
function planChild(): PlanResult {
  const out = path.join(os.tmpdir(), `policy-bench-plan-${process.pid}.json`);
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit", env: { ...process.env, BENCH_PLAN_OUT: out } });
  if (child.status !== 0) throw new Error(`the plan child failed (exit ${child.status})`);
  const result = JSON.parse(readFileSync(out, "utf8")) as PlanResult;
  rmSync(out, { force: true });
  return result;
}

// ---- run ---------------------------------------------------------------------------------------

interface RowsResult {
  rows: AuthorizerRow[];
  extras: AuthorizerExtra[];
  peakRssMb: number;
  javaPeakRssMb: number | null;
}

/** Part 1, in the big-heap child. */
async function authorizerRows(): Promise<RowsResult> {
  const resourceCounts = QUICK ? [5_000] : [5_000, 200_000];
  const denyPercentages = [20, 50, 90];
  const aclCount = 10;
  const rows: AuthorizerRow[] = [];
  const extras: AuthorizerExtra[] = [];
  let harness: KafkaAuthorizerHarness | undefined;
  let javaPeakRssMb: number | null = null;
  if (WITH_JAVA) {
    harness = await KafkaAuthorizerHarness.start({ heapMb: 10_240, jvmArgs: ["-XX:+UseParallelGC"] });
  }
  try {
    for (const resourceCount of resourceCounts) {
      for (const denyPercentage of denyPercentages) {
        gc();
        const ts = tsAuthorizerRow(resourceCount, aclCount, denyPercentage);
        gc();
        let java: HarnessBenchAnswer | undefined;
        if (harness) {
          java = await harness.bench({ resourceCount, aclCount, denyPercentage, seed: SEED, warmupMs: JAVA_WARMUP_MS, measureMs: JAVA_MEASURE_MS, logIfDenied: true });
          javaPeakRssMb = Math.max(javaPeakRssMb ?? 0, harness.peakRssMb() ?? 0);
          if (java.aclsLoaded !== ts.acls) throw new Error(`workload mismatch: Kafka loaded ${java.aclsLoaded} ACLs, the policy core ${ts.acls}`);
          if (java.decision !== ts.decision) throw new Error(`decision mismatch on the benchmark request: Kafka ${java.decision}, policy core ${ts.decision}`);
        }
        const javaNsPerOp = java ? java.nsPerOpBest : null;
        rows.push({ resourceCount, aclCount, denyPercentage, tsNsPerOp: ts.best, javaNsPerOp, ratio: javaNsPerOp ? ts.best / javaNsPerOp : null });
        extras.push({
          acls: ts.acls,
          tsMeanNsPerOp: ts.mean,
          javaMeanNsPerOp: java ? java.nsPerOp : null,
          tsBuildMs: ts.buildMs,
          javaLoadMs: java ? java.loadMs : null,
          decision: ts.decision,
        });
        console.log(`  measured resourceCount=${resourceCount} deny=${denyPercentage}%: ${ts.acls} ACLs, TS ${fmt(ts.best)} ns/op, Kafka ${fmt(javaNsPerOp)} ns/op (best windows)`);
      }
    }
  } finally {
    await harness?.close();
  }
  return { rows, extras, peakRssMb: peakRssMb(), javaPeakRssMb };
}

/** Part 2, in the parent with default heap settings. */
function hundredThousand(): { indexBuildMs: number; matchLookupUs: number; topicMatrixMs: number; peakRssMb: number } {
  const acls100k = realisticAcls(100_000, SEED);
  let index100k = AclIndex.build([]);
  const build = bestOf(
    QUICK ? 3 : 7,
    () => {
      index100k = AclIndex.build(acls100k);
    },
    true,
  );

  // The topic with the most applicable ACLs among a sample (literal + both prefixes + `*`).
  let topic = "team0.svc0.topic0";
  let most = -1;
  for (let t = 0; t < 50; t += 7) {
    for (let s = 0; s < 20; s += 3) {
      for (let n = 0; n < 20; n += 4) {
        const name = `team${t}.svc${s}.topic${n}`;
        const k = index100k.matching("TOPIC", name).length;
        if (k > most) {
          most = k;
          topic = name;
        }
      }
    }
  }
  const match = timeLoop(() => index100k.matching("TOPIC", topic), TS_WARMUP_MS, TS_MEASURE_MS);
  const matrixShape = effectiveForResource(index100k, "TOPIC", topic);
  const matrix = bestOf(QUICK ? 5 : 21, () => effectiveForResource(index100k, "TOPIC", topic));
  const peak = peakRssMb();

  console.log("");
  console.log(`100,000 ACLs (${index100k.size} distinct), Node default heap settings; wall time best of N (median, CPU median):`);
  console.log(
    `  index build, AclIndex.build                    ${fmt(build.bestMs)} ms (median ${fmt(build.medianMs)}, CPU ${fmt(build.cpuMedianMs)}, first ${fmt(build.firstMs)})   target < 500 ms`,
  );
  console.log(`  MATCH lookup, index.matching (${most} ACLs on ${topic})   ${fmt(match.nsPerOpBest / 1000, 2)} µs (mean ${fmt(match.nsPerOp / 1000, 2)})   target < 200 µs`);
  console.log(
    `  topic matrix, effectiveForResource (${matrixShape.rows.length} principals x ${matrixShape.rows[0]?.operations.length ?? 0} operations)   ${fmt(matrix.bestMs, 2)} ms (median ${fmt(matrix.medianMs, 2)}, CPU ${fmt(matrix.cpuMedianMs, 2)})   target < 20 ms`,
  );
  console.log(`  peak RSS of this process   ${fmt(peak)} MB   target < 300 MB`);
  return { indexBuildMs: build.bestMs, matchLookupUs: match.nsPerOpBest / 1000, topicMatrixMs: matrix.bestMs, peakRssMb: peak };
}

async function main(): Promise<void> {
  if (ROWS_CHILD) {
    const result = await authorizerRows();
    writeFileSync(process.env.BENCH_ROWS_OUT!, JSON.stringify(result));
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
  if (RUN_POLICY) report.policy = await policySuite();
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
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, out)}`);
}

/** Parts 1-3. */
async function policySuite(): Promise<unknown> {
  console.log(`policy bench${QUICK ? " (quick)" : ""}: node ${process.version}, seed ${SEED}`);
  const part2 = hundredThousand();

  console.log("");
  console.log(`AuthorizerBenchmark rows (child process, --max-old-space-size=${HEAP_MB}):`);
  const rowsOut = path.join(os.tmpdir(), `policy-bench-rows-${process.pid}.json`);
  const child = spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${HEAP_MB}`, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_ROWS_OUT: rowsOut },
  });
  if (child.status !== 0) throw new Error(`the authorizer-rows child failed (exit ${child.status})`);
  const { rows, extras, peakRssMb: childPeak, javaPeakRssMb } = JSON.parse(readFileSync(rowsOut, "utf8")) as RowsResult;
  rmSync(rowsOut, { force: true });

  console.log("");
  console.log("AuthorizerBenchmark.testAuthorizer workload (WRITE TOPIC foo-bar35_resource-95 by User:test-user@127.0.0.1; both sides: " + (extras[0]?.decision ?? "?") + ")");
  console.log("ns/op: best of 10 measurement windows (mean over all windows in brackets); ratio = TS best / Kafka best");
  const header = ["resources", "acl/res", "deny %", "ACLs", "TS ns/op", "(mean)", "Kafka ns/op", "(mean)", "TS/Kafka", "TS build ms", "Kafka load ms"];
  const table = rows.map((r, i) => [
    String(r.resourceCount),
    String(r.aclCount),
    String(r.denyPercentage),
    String(extras[i]?.acls ?? ""),
    fmt(r.tsNsPerOp),
    `(${fmt(extras[i]?.tsMeanNsPerOp)})`,
    fmt(r.javaNsPerOp),
    `(${fmt(extras[i]?.javaMeanNsPerOp)})`,
    r.ratio === null ? "n/a" : r.ratio.toFixed(5),
    fmt(extras[i]?.tsBuildMs),
    fmt(extras[i]?.javaLoadMs),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...table.map((row) => row[c]!.length)));
  const line = (cells: string[]): string => cells.map((cell, c) => cell.padStart(widths[c]!)).join("  ");
  console.log(line(header));
  for (const row of table) console.log(line(row));
  const worst = Math.max(...rows.map((r) => r.ratio ?? 0));
  console.log(`worst ratio ${worst.toFixed(4)} (target <= 1.0)`);
  console.log("");
  console.log(
    `peak RSS: ${fmt(part2.peakRssMb)} MB for the 100k-ACL part (this process); ${fmt(childPeak)} MB for the authorizer rows (child, up to ${Math.max(...extras.map((e) => e.acls))} ACLs)` +
      (javaPeakRssMb ? `; Kafka JVM ${fmt(javaPeakRssMb)} MB` : ""),
  );

  return {
    authorizer: rows.map((r) => ({
      resourceCount: r.resourceCount,
      aclCount: r.aclCount,
      denyPercentage: r.denyPercentage,
      tsNsPerOp: round(r.tsNsPerOp),
      javaNsPerOp: r.javaNsPerOp === null ? null : round(r.javaNsPerOp),
      ratio: r.ratio === null ? null : Number(r.ratio.toFixed(6)),
    })),
    indexBuildMs: round(part2.indexBuildMs),
    matchLookupUs: round(part2.matchLookupUs),
    topicMatrixMs: round(part2.topicMatrixMs),
    peakRssMb: round(part2.peakRssMb),
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

await main();
