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
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

import { ANY_OTHER_HOST, AclIndex, authorize, blastRadius, computePlan, effectiveForResource, type AuthorizeRequest, type PlanResource, type PlanUniverse } from "../lib/policy/index";
import type { AclBinding, AclOperation, ResourceType } from "../lib/policy/types";
import { KafkaAuthorizerHarness, ROOT } from "./java-harness";

const HEAP_MB = 8192;

// ---- processes ---------------------------------------------------------------------------
//
// The parent runs the 100k-ACL part with Node's default heap settings, so its peak RSS is
// that part's (what the 300 MB budget is about). Every TS/Kafka row runs each side in a
// fresh process of its own (see "run" below); the 200,000-resource rows, which hold over
// 2M ACLs, get a big heap there. Children report back via a file.

const PLAN_CHILD = process.env.BENCH_PLAN_OUT !== undefined;

// `npm run bench -- console`: the console against kafka-acls.sh (scripts/bench-console.ts).
if (process.argv[2] === "console") process.exit(await import("./bench-console").then((m) => m.main(process.argv.slice(3))).then(() => 0, (e: Error) => (console.error(e.stack ?? String(e)), 1)));

// `npm run bench -- preview`: an ACL import's preview over the realistic mix (scripts/acl-preview-measure.ts).
if (process.argv[2] === "preview") process.exit(await import("./acl-preview-measure").then((m) => (m.main(process.argv.slice(3)), 0)));

const args = process.argv.slice(2);
const suiteArg = args.find((a) => !a.startsWith("--"));
if (suiteArg === "ui") process.exit(await (await import("./bench-ui")).runUiBench()); // the auditor views' exports (scripts/bench-ui.ts)
if (suiteArg !== undefined && suiteArg !== "policy" && suiteArg !== "plan") {
  console.error(`unknown benchmark "${suiteArg}"; usage: npm run bench -- [policy|plan] [--quick] [--no-java]`);
  process.exit(2);
}
const RUN_POLICY = suiteArg === undefined || suiteArg === "policy";
const RUN_PLAN = suiteArg === undefined || suiteArg === "plan";
const QUICK = args.includes("--quick");
const WITH_JAVA = !args.includes("--no-java");
/** Only the realistic-mixed row (for profiling the authorize path against Kafka quickly). */
const MIXED_ONLY = args.includes("--mixed-only");

/** Warm-up and measurement inside each row's process, the same on both sides. */
const WARMUP_MS = QUICK ? 500 : 3000;
const MEASURE_MS = QUICK ? 500 : 3000;
/** The MATCH lookup of part 2. */
const TS_WARMUP_MS = QUICK ? 300 : 1500;
const TS_MEASURE_MS = QUICK ? 500 : 2500;
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
 * Returns the mean ns per call over the whole measurement (what JMH reports), the best
 * window (the figure least disturbed by other processes on a shared machine) and the best
 * window in CPU time of this thread (time the process spent waiting for a core left out).
 */
function timeLoop(fn: () => unknown, warmupMs: number, measureMs: number, windows = 10): { nsPerOp: number; nsPerOpBest: number; cpuNsPerOpBest: number; iterations: number; sink: unknown } {
  let sink: unknown;
  const warmEnd = nowNs() + BigInt(warmupMs) * 1_000_000n;
  while (nowNs() < warmEnd) for (let i = 0; i < 16; i++) sink = fn();
  const windowNs = BigInt(Math.max(1, Math.floor((measureMs * 1_000_000) / windows)));
  let iterations = 0;
  let totalNs = 0;
  let best = Number.POSITIVE_INFINITY;
  let cpuBest = Number.POSITIVE_INFINITY;
  for (let w = 0; w < windows; w++) {
    const cpu0 = process.threadCpuUsage();
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
    const cpu = process.threadCpuUsage(cpu0);
    iterations += n;
    totalNs += ns;
    best = Math.min(best, ns / n);
    cpuBest = Math.min(cpuBest, ((cpu.user + cpu.system) * 1000) / n);
  }
  return { nsPerOp: totalNs / iterations, nsPerOpBest: best, cpuNsPerOpBest: cpuBest, iterations, sink };
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

/** One row, measured in a process of its own (see runTsRow and runJavaRow). */
type RowSpec =
  | { workload: "kafka-benchmark"; resourceCount: number; aclCount: number; denyPercentage: number }
  | { workload: "realistic-mixed"; file: string };

/** What one side measured for one row. Times are per request. */
interface SideResult {
  best: number;
  mean: number;
  /** Best window in CPU time of the measuring thread. */
  cpuBest: number;
  acls: number;
  /** Index build (TS) or authorizer load (Kafka), ms. */
  buildMs: number;
  /** One letter per request, in order: A = ALLOWED, D = DENIED (E = Kafka threw). */
  decisions: string;
  peakRssMb: number | null;
}

function tsKafkaBenchmarkRow(resourceCount: number, aclCount: number, denyPercentage: number): SideResult {
  let acls: AclBinding[] | null = benchmarkAcls(resourceCount, aclCount, denyPercentage, SEED);
  const t0 = performance.now();
  const index = AclIndex.build(acls);
  const buildMs = performance.now() - t0;
  const count = acls.length;
  acls = null;
  const decision = authorize(index, BENCH_REQUEST).decision;
  const r = timeLoop(() => authorize(index, BENCH_REQUEST), WARMUP_MS, MEASURE_MS);
  return { best: r.nsPerOpBest, mean: r.nsPerOp, cpuBest: r.cpuNsPerOpBest, acls: count, buildMs, decisions: decision === "ALLOWED" ? "A" : "D", peakRssMb: peakRssMb() };
}

/** The realistic-mixed row: every request of the file in turn, round after round. */
function tsMixedRow(file: string): SideResult {
  const input = JSON.parse(readFileSync(file, "utf8")) as MixedWorkload;
  const t0 = performance.now();
  const index = AclIndex.build(input.acls);
  const buildMs = performance.now() - t0;
  const requests = input.requests;
  const n = requests.length;
  let decisions = "";
  for (const r of requests) decisions += authorize(index, r).decision === "ALLOWED" ? "A" : "D";
  const round = (): number => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if (authorize(index, requests[i]!).decision === "ALLOWED") allowed++;
    return allowed;
  };
  const r = timeLoop(round, WARMUP_MS, MEASURE_MS);
  return { best: r.nsPerOpBest / n, mean: r.nsPerOp / n, cpuBest: r.cpuNsPerOpBest / n, acls: index.size, buildMs, decisions, peakRssMb: peakRssMb() };
}

// ---- the realistic-mixed row: 100,000 ACLs, 2,000 different requests ---------------------------

interface MixedWorkload {
  acls: AclBinding[];
  requests: AuthorizeRequest[];
}

const MIXED_REQUESTS = 2_000;
const CLIENT_HOSTS = ["10.1.0.7", "10.1.0.8", "10.2.3.4", "192.168.10.20", "10.9.8.7", "172.16.0.5", "10.0.0.12"];
const REQUEST_OPERATIONS: Partial<Record<ResourceType, readonly AclOperation[]>> = {
  TOPIC: ["READ", "WRITE", "DESCRIBE", "DESCRIBE", "DESCRIBE_CONFIGS", "CREATE", "DELETE", "ALTER", "ALTER_CONFIGS"],
  GROUP: ["READ", "DESCRIBE", "DELETE"],
  TRANSACTIONAL_ID: ["WRITE", "DESCRIBE"],
  CLUSTER: ["IDEMPOTENT_WRITE", "DESCRIBE", "CREATE", "CLUSTER_ACTION", "ALTER", "DESCRIBE_CONFIGS"],
};

/**
 * Requests the way a cluster gets them: 70% derived from a random ACL (its principal, or
 * another one; its resource, or a name under its prefix; its operation, the DESCRIBE /
 * DESCRIBE_CONFIGS it implies, or another operation of the type; its host or a client
 * host), 30% anything (principals without ACLs, topics nobody named, other hosts).
 * Never `User:*` as the requester (Kafka throws on that) and never ALL (not a request).
 */
function mixedRequests(acls: readonly AclBinding[], count: number, seed: number): AuthorizeRequest[] {
  const rand = mulberry32(seed ^ 0x5bd1e995);
  const int = (n: number): number => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const anyPrincipal = (): string => (rand() < 0.1 ? `Group:team${int(50)}` : rand() < 0.2 ? `User:unknown-${int(500)}` : `User:app-${int(3000)}`);
  const anyName = (type: ResourceType): string => {
    const stem = `team${int(55)}.svc${int(22)}`;
    if (type === "TOPIC") return rand() < 0.1 ? `orders-${int(100)}` : `${stem}.topic${int(25)}`;
    if (type === "GROUP") return `${stem}.consumer${int(7)}`;
    if (type === "TRANSACTIONAL_ID") return `${stem}.tx${int(4)}`;
    return "kafka-cluster";
  };
  const implied = (op: AclOperation, type: ResourceType): AclOperation => {
    if (op === "DESCRIBE_CONFIGS" || op === "ALTER_CONFIGS") return "DESCRIBE_CONFIGS";
    return REQUEST_OPERATIONS[type]!.includes("DESCRIBE") ? "DESCRIBE" : op;
  };
  const out: AuthorizeRequest[] = [];
  while (out.length < count) {
    if (rand() < 0.7) {
      let b = acls[int(acls.length)]!;
      // Cluster checks (IDEMPOTENT_WRITE, CREATE...) are rare next to topic and group ones,
      // and the one cluster resource has ~2,000 ACLs that Kafka scans one by one: keep
      // them about 1% of the requests, so they do not dominate Kafka's average.
      while (b.resourceType === "CLUSTER" && rand() < 0.75) b = acls[int(acls.length)]!;
      const type = b.resourceType;
      const ops = REQUEST_OPERATIONS[type]!;
      const name = b.patternType === "PREFIXED" ? `${b.resourceName}${pick(["topic", "consumer", "tx", "x"])}${int(30)}` : b.resourceName === "*" ? anyName(type) : b.resourceName;
      const r = rand();
      const operation = r < 0.45 && b.operation !== "ALL" ? b.operation : r < 0.75 ? implied(b.operation, type) : pick(ops);
      const principal = b.principal === "User:*" || rand() < 0.15 ? anyPrincipal() : b.principal;
      const host = b.host !== "*" && rand() < 0.8 ? b.host : pick(CLIENT_HOSTS);
      out.push({ principal, host, operation, resourceType: type, resourceName: name });
    } else {
      const r = rand();
      const type: ResourceType = r < 0.62 ? "TOPIC" : r < 0.85 ? "GROUP" : r < 0.99 ? "TRANSACTIONAL_ID" : "CLUSTER";
      out.push({ principal: anyPrincipal(), host: pick(CLIENT_HOSTS), operation: pick(REQUEST_OPERATIONS[type]!), resourceType: type, resourceName: anyName(type) });
    }
  }
  return out;
}

function mixedWorkload(): MixedWorkload {
  const acls = realisticAcls(100_000, SEED);
  return { acls, requests: mixedRequests(acls, MIXED_REQUESTS, SEED) };
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
//
// Every row runs each side in a fresh process of its own, one after the other: the policy
// core in a new Node process (this script again, told the row through BENCH_ROW), then
// Kafka's StandardAuthorizer in a new JVM. Each process builds its ACLs, warms up for
// WARMUP_MS and measures for MEASURE_MS; nothing from an earlier row (heap, JIT state,
// garbage of 2 million ACLs) is left in it.

const ROW_CHILD = process.env.BENCH_ROW !== undefined;

/** One row of the report. Times are ns per request, best measurement window. */
interface RowReport {
  workload: "kafka-benchmark" | "realistic-mixed";
  acls: number;
  requests: number;
  tsNsPerOp: number;
  javaNsPerOp: number | null;
  ratio: number | null;
  /** The same in CPU time of the measuring thread (best window), and their ratio. */
  tsCpuNsPerOp: number;
  javaCpuNsPerOp: number | null;
  cpuRatio: number | null;
  tsMeanNsPerOp: number;
  javaMeanNsPerOp: number | null;
  tsBuildMs: number;
  javaLoadMs: number | null;
  tsPeakRssMb: number | null;
  javaPeakRssMb: number | null;
  resourceCount?: number;
  aclCount?: number;
  denyPercentage?: number;
  decision?: string;
  /** realistic-mixed: the ratios of each TS/Kafka pair of runs (the row's ratios are their medians). */
  runRatios?: number[];
  runCpuRatios?: number[];
  decisionsAgreed?: number;
  allowed?: number;
  denied?: number;
  mix?: Record<string, number>;
}

/** The policy core's side of one row, in a fresh Node process. */
function runTsRow(spec: RowSpec, heapMb?: number): SideResult {
  const out = path.join(os.tmpdir(), `policy-bench-row-${process.pid}.json`);
  const heap = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  const child = spawnSync(process.execPath, [...process.execArgv, ...heap, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_ROW: JSON.stringify(spec), BENCH_ROW_OUT: out },
  });
  if (child.status !== 0) throw new Error(`the policy-core row process failed (exit ${child.status}) for ${JSON.stringify(spec)}`);
  const result = JSON.parse(readFileSync(out, "utf8")) as SideResult;
  rmSync(out, { force: true });
  return result;
}

let kafkaVersion: string | null = null;

/** Kafka's side of one row, in a fresh JVM (started, used for this row only, stopped). */
async function runJavaRow(spec: RowSpec, heapMb: number): Promise<SideResult> {
  const harness = await KafkaAuthorizerHarness.start({ heapMb, jvmArgs: ["-XX:+UseParallelGC"] });
  try {
    kafkaVersion ??= await harness.ping();
    if (spec.workload === "kafka-benchmark") {
      const a = await harness.bench({ ...spec, seed: SEED, warmupMs: WARMUP_MS, measureMs: MEASURE_MS, logIfDenied: true });
      return { best: a.nsPerOpBest, mean: a.nsPerOp, cpuBest: a.cpuNsPerOpBest, acls: a.aclsLoaded, buildMs: a.loadMs, decisions: a.decision === "ALLOWED" ? "A" : "D", peakRssMb: harness.peakRssMb() ?? null };
    }
    const a = await harness.benchRequests({ file: spec.file, warmupMs: WARMUP_MS, measureMs: MEASURE_MS });
    return { best: a.nsPerOpBest, mean: a.nsPerOp, cpuBest: a.cpuNsPerOpBest, acls: a.aclsLoaded, buildMs: a.loadMs, decisions: a.decisions, peakRssMb: harness.peakRssMb() ?? null };
  } finally {
    await harness.close();
  }
}

/** Kafka's AuthorizerBenchmark shape: thousands of ACLs on the resource, one request repeated. */
async function kafkaBenchmarkRows(): Promise<RowReport[]> {
  const resourceCounts = QUICK ? [5_000] : [5_000, 200_000];
  const rows: RowReport[] = [];
  for (const resourceCount of resourceCounts) {
    for (const denyPercentage of [20, 50, 90]) {
      const spec: RowSpec = { workload: "kafka-benchmark", resourceCount, aclCount: 10, denyPercentage };
      const big = resourceCount > 10_000;
      const ts = runTsRow(spec, big ? HEAP_MB : undefined);
      const java = WITH_JAVA ? await runJavaRow(spec, big ? 10_240 : 1_024) : null;
      if (java && java.acls !== ts.acls) throw new Error(`workload mismatch: Kafka loaded ${java.acls} ACLs, the policy core ${ts.acls}`);
      if (java && java.decisions !== ts.decisions) throw new Error(`decision mismatch on the benchmark request: Kafka ${java.decisions}, policy core ${ts.decisions}`);
      rows.push({
        workload: "kafka-benchmark",
        resourceCount,
        aclCount: 10,
        denyPercentage,
        acls: ts.acls,
        requests: 1,
        decision: ts.decisions === "A" ? "ALLOWED" : "DENIED",
        ...sides(ts, java),
        ratio: java ? ts.best / java.best : null,
        cpuRatio: java ? ts.cpuBest / java.cpuBest : null,
      });
      console.log(`  kafka-benchmark resources=${resourceCount} deny=${denyPercentage}%: ${ts.acls} ACLs, TS ${fmt(ts.best)} ns/op, Kafka ${fmt(java?.best)} ns/op`);
    }
  }
  return rows;
}

function sides(ts: SideResult, java: SideResult | null): Omit<RowReport, "workload" | "acls" | "requests" | "ratio" | "cpuRatio"> {
  return {
    tsNsPerOp: ts.best,
    javaNsPerOp: java ? java.best : null,
    tsCpuNsPerOp: ts.cpuBest,
    javaCpuNsPerOp: java ? java.cpuBest : null,
    tsMeanNsPerOp: ts.mean,
    javaMeanNsPerOp: java ? java.mean : null,
    tsBuildMs: ts.buildMs,
    javaLoadMs: java ? java.buildMs : null,
    tsPeakRssMb: ts.peakRssMb,
    javaPeakRssMb: java ? java.peakRssMb : null,
  };
}

/**
 * The realistic-mixed row: 100,000 ACLs and 2,000 different requests, written to one file
 * that both sides read. Runs RUNS pairs (policy core, then Kafka, each in a fresh
 * process); every pair must agree on every decision. The row's ratio is the median of
 * the pairs' ratios (both sides of a pair ran within seconds of each other).
 */
async function realisticMixedRow(): Promise<RowReport> {
  const workload = mixedWorkload();
  // BENCH_MIXED_FILE keeps the workload (for profiling a row process by hand, see the header).
  const keep = process.env.BENCH_MIXED_FILE;
  const file = keep ?? path.join(os.tmpdir(), `policy-bench-mixed-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(workload));
  const spec: RowSpec = { workload: "realistic-mixed", file };
  const runs = QUICK ? 1 : 3;
  const pairs: { ts: SideResult; java: SideResult | null }[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const ts = runTsRow(spec);
      const java = WITH_JAVA ? await runJavaRow(spec, 2_048) : null;
      if (java) checkAgreement(workload.requests, ts.decisions, java.decisions);
      pairs.push({ ts, java });
      console.log(
        `  realistic-mixed run ${i + 1}/${runs}: TS ${fmt(ts.best)} ns/request (CPU ${fmt(ts.cpuBest)}), Kafka ${fmt(java?.best)} (CPU ${fmt(java?.cpuBest)})` +
          (java ? `, TS/Kafka ${(ts.best / java.best).toFixed(3)} (CPU ${(ts.cpuBest / java.cpuBest).toFixed(3)}), all ${workload.requests.length} decisions agree` : ""),
      );
    }
  } finally {
    if (keep === undefined) rmSync(file, { force: true });
  }
  // The median pair by wall-clock ratio gives the row's other figures; both ratios are
  // the medians over the pairs.
  const key = (p: (typeof pairs)[number]): number => (p.java ? p.ts.best / p.java.best : p.ts.best);
  const order = pairs.map((_, i) => i).sort((a, b) => key(pairs[a]!) - key(pairs[b]!));
  const mid = pairs[order[Math.floor(order.length / 2)]!]!;
  const runRatios = pairs.flatMap((p) => (p.java ? [p.ts.best / p.java.best] : []));
  const runCpuRatios = pairs.flatMap((p) => (p.java ? [p.ts.cpuBest / p.java.cpuBest] : []));
  const decisions = mid.ts.decisions;
  const mix: Record<string, number> = {};
  for (const r of workload.requests) {
    mix[r.resourceType] = (mix[r.resourceType] ?? 0) + 1;
    if (r.operation === "DESCRIBE" || r.operation === "DESCRIBE_CONFIGS") mix.impliedOperationRequests = (mix.impliedOperationRequests ?? 0) + 1;
  }
  mix.principals = new Set(workload.requests.map((r) => r.principal)).size;
  mix.resources = new Set(workload.requests.map((r) => `${r.resourceType}:${r.resourceName}`)).size;
  mix.hosts = new Set(workload.requests.map((r) => r.host)).size;
  return {
    workload: "realistic-mixed",
    acls: mid.ts.acls,
    requests: workload.requests.length,
    ...sides(mid.ts, mid.java),
    ratio: runRatios.length > 0 ? median(runRatios) : null,
    cpuRatio: runCpuRatios.length > 0 ? median(runCpuRatios) : null,
    runRatios: runRatios.map((r) => Number(r.toFixed(4))),
    runCpuRatios: runCpuRatios.map((r) => Number(r.toFixed(4))),
    decisionsAgreed: mid.java ? workload.requests.length : 0,
    allowed: [...decisions].filter((d) => d === "A").length,
    denied: [...decisions].filter((d) => d === "D").length,
    mix,
  };
}

/** Fails the bench, loudly, when the two engines disagree on any request. */
function checkAgreement(requests: readonly AuthorizeRequest[], ts: string, java: string): void {
  const wrong: string[] = [];
  for (let i = 0; i < requests.length; i++) {
    if (ts[i] !== java[i]) wrong.push(`  ${JSON.stringify(requests[i])}: policy core ${ts[i]}, Kafka ${java[i] ?? "?"} (A allowed, D denied, E Kafka threw)`);
  }
  if (ts.length !== requests.length || java.length !== requests.length) wrong.push(`  answer counts: policy core ${ts.length}, Kafka ${java.length}, requests ${requests.length}`);
  if (wrong.length > 0) {
    throw new Error(`THE POLICY CORE AND KAFKA DISAGREE on ${wrong.length} of ${requests.length} requests:\n${wrong.slice(0, 20).join("\n")}`);
  }
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
  if (ROW_CHILD) {
    const spec = JSON.parse(process.env.BENCH_ROW!) as RowSpec;
    const result = spec.workload === "kafka-benchmark" ? tsKafkaBenchmarkRow(spec.resourceCount, spec.aclCount, spec.denyPercentage) : tsMixedRow(spec.file);
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

/** Parts 1-3: the policy section of the report. */
async function policySuite(): Promise<unknown> {
  console.log(`policy bench${QUICK ? " (quick)" : ""}: node ${process.version}, seed ${SEED}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"})`);
  const part2 = MIXED_ONLY ? null : hundredThousand();

  console.log("");
  console.log(`TS/Kafka rows: each side of each row in a fresh process (Node, then JVM), ${WARMUP_MS} ms warm-up and ${MEASURE_MS} ms measured inside it`);
  const rows = [...(MIXED_ONLY ? [] : await kafkaBenchmarkRows()), await realisticMixedRow()];

  console.log("");
  console.log("ns per request: best of 10 measurement windows (mean over all windows in brackets); ratio = TS best / Kafka best; CPU: the same in CPU time of the measuring thread");
  const header = ["workload", "resources", "deny %", "ACLs", "requests", "TS ns", "(mean)", "Kafka ns", "(mean)", "TS/Kafka", "TS CPU ns", "Kafka CPU ns", "CPU ratio", "TS build ms", "Kafka load ms"];
  const table = rows.map((r) => [
    r.workload,
    r.resourceCount === undefined ? "" : String(r.resourceCount),
    r.denyPercentage === undefined ? "" : String(r.denyPercentage),
    String(r.acls),
    String(r.requests),
    fmt(r.tsNsPerOp),
    `(${fmt(r.tsMeanNsPerOp)})`,
    fmt(r.javaNsPerOp),
    `(${fmt(r.javaMeanNsPerOp)})`,
    r.ratio === null ? "n/a" : r.ratio.toFixed(r.workload === "realistic-mixed" ? 3 : 5),
    fmt(r.tsCpuNsPerOp),
    fmt(r.javaCpuNsPerOp),
    r.cpuRatio === null ? "n/a" : r.cpuRatio.toFixed(r.workload === "realistic-mixed" ? 3 : 5),
    fmt(r.tsBuildMs),
    fmt(r.javaLoadMs),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...table.map((row) => row[c]!.length)));
  const line = (cells: string[]): string => cells.map((cell, c) => cell.padStart(widths[c]!)).join("  ");
  console.log(line(header));
  for (const row of table) console.log(line(row));
  const shape = rows.filter((r) => r.workload === "kafka-benchmark");
  const mixed = rows.find((r) => r.workload === "realistic-mixed")!;
  console.log(`kafka-benchmark: worst ratio ${Math.max(...shape.map((r) => r.ratio ?? 0)).toFixed(4)} (target <= 1.0); decision ${shape[0]?.decision ?? "?"} on both sides`);
  console.log(
    `realistic-mixed: ratio ${fmt(mixed.ratio, 3)} (runs ${mixed.runRatios?.join(", ") ?? ""}), in thread CPU time ${fmt(mixed.cpuRatio, 3)} (runs ${mixed.runCpuRatios?.join(", ") ?? ""}); target <= 0.30; ` +
      `${mixed.allowed} allowed, ${mixed.denied} denied, ${mixed.decisionsAgreed} decisions agreed with Kafka`,
  );
  if (part2) console.log(`peak RSS: ${fmt(part2.peakRssMb)} MB for the 100k-ACL part (this process)`);

  const r3 = (n: number | null | undefined): number | null => (n === null || n === undefined ? null : round(n));
  return {
    generatedAt: new Date().toISOString(),
    node: process.version,
    kafka: kafkaVersion,
    cpus: os.cpus().length,
    quick: QUICK,
    method:
      "Each side of each row runs in a fresh process (Node for the policy core, a JVM for Kafka's StandardAuthorizer), " +
      `builds its ACLs, warms up ${WARMUP_MS} ms and measures ${MEASURE_MS} ms in 10 windows; ns per request is the best window, ` +
      "in wall-clock time (ratio) and in CPU time of the measuring thread (cpuRatio: what the other processes of a shared machine disturb least; " +
      "it leaves out work on other threads, such as the JVM's parallel garbage collection, which favours Kafka). " +
      "kafka-benchmark: Kafka's AuthorizerBenchmark.testAuthorizer (one request repeated; Kafka audit-logs the denial as in that benchmark). " +
      "realistic-mixed: 100,000 ACLs and 2,000 different requests read by both sides from one file, audit logging off on Kafka's side; " +
      `ratios = the medians of ${QUICK ? 1 : 3} pairs of runs, every decision of every run compared.`,
    rows: rows.map((r) => ({
      ...r,
      tsNsPerOp: round(r.tsNsPerOp),
      javaNsPerOp: r3(r.javaNsPerOp),
      ratio: r.ratio === null ? null : Number(r.ratio.toFixed(6)),
      tsCpuNsPerOp: round(r.tsCpuNsPerOp),
      javaCpuNsPerOp: r3(r.javaCpuNsPerOp),
      cpuRatio: r.cpuRatio === null ? null : Number(r.cpuRatio.toFixed(6)),
      tsMeanNsPerOp: round(r.tsMeanNsPerOp),
      javaMeanNsPerOp: r3(r.javaMeanNsPerOp),
      tsBuildMs: round(r.tsBuildMs),
      javaLoadMs: r3(r.javaLoadMs),
      tsPeakRssMb: r3(r.tsPeakRssMb),
      javaPeakRssMb: r3(r.javaPeakRssMb),
    })),
    indexBuildMs: r3(part2?.indexBuildMs),
    matchLookupUs: r3(part2?.matchLookupUs),
    topicMatrixMs: r3(part2?.topicMatrixMs),
    peakRssMb: r3(part2?.peakRssMb),
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

await main();
