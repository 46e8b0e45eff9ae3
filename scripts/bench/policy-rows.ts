/**
 * The TS/Kafka rows of the policy bench (part 1): each side of each row in a fresh process
 * of its own, the policy core in a new Node process and Kafka's StandardAuthorizer in a new
 * JVM, and the row's report from what both sides measured.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { AclIndex, authorize, type AuthorizeRequest } from "../../lib/policy/index";
import type { AclBinding } from "../../lib/policy/types";
import { KafkaAuthorizerHarness } from "../java-harness";
import { fmt, median, peakRssMb, timeLoop } from "./measure";
import { HEAP_MB, MEASURE_MS, QUICK, SEED, WARMUP_MS, WITH_JAVA } from "./policy-options";
import { BENCH_REQUEST, benchmarkAcls, mixedWorkload, type MixedWorkload } from "./policy-workloads";

/** One row, measured in a process of its own (see runTsRow and runJavaRow). */
export type RowSpec =
  | { workload: "kafka-benchmark"; resourceCount: number; aclCount: number; denyPercentage: number }
  | { workload: "realistic-mixed"; file: string };

/** What one side measured for one row. Times are per request. */
export interface SideResult {
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

export function tsKafkaBenchmarkRow(resourceCount: number, aclCount: number, denyPercentage: number): SideResult {
  let acls: AclBinding[] | null = benchmarkAcls(resourceCount, aclCount, denyPercentage, SEED);
  const t0 = performance.now();
  const index = AclIndex.build(acls);
  const buildMs = performance.now() - t0;
  const count = acls.length;
  acls = null;
  const decision = authorize(index, BENCH_REQUEST).decision;
  const r = timeLoop(() => authorize(index, BENCH_REQUEST), WARMUP_MS, MEASURE_MS);
  return {
    best: r.nsPerOpBest,
    mean: r.nsPerOp,
    cpuBest: r.cpuNsPerOpBest,
    acls: count,
    buildMs,
    decisions: decision === "ALLOWED" ? "A" : "D",
    peakRssMb: peakRssMb(),
  };
}

/** The realistic-mixed row: every request of the file in turn, round after round. */
export function tsMixedRow(file: string): SideResult {
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
  return {
    best: r.nsPerOpBest / n,
    mean: r.nsPerOp / n,
    cpuBest: r.cpuNsPerOpBest / n,
    acls: index.size,
    buildMs,
    decisions,
    peakRssMb: peakRssMb(),
  };
}

// ---- run ---------------------------------------------------------------------------------------
//
// Every row runs each side in a fresh process of its own, one after the other: the policy
// core in a new Node process (this script again, told the row through BENCH_ROW), then
// Kafka's StandardAuthorizer in a new JVM. Each process builds its ACLs, warms up for
// WARMUP_MS and measures for MEASURE_MS; nothing from an earlier row (heap, JIT state,
// garbage of 2 million ACLs) is left in it.

/** One row of the report. Times are ns per request, best measurement window. */
export interface RowReport {
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
  if (child.status !== 0)
    throw new Error(`the policy-core row process failed (exit ${child.status}) for ${JSON.stringify(spec)}`);
  const result = JSON.parse(readFileSync(out, "utf8")) as SideResult;
  rmSync(out, { force: true });
  return result;
}

/** The Kafka version the harness reported (null until a JVM row ran). */
let kafkaVersion: string | null = null;

export function kafkaVersionSeen(): string | null {
  return kafkaVersion;
}

/** Kafka's side of one row, in a fresh JVM (started, used for this row only, stopped). */
async function runJavaRow(spec: RowSpec, heapMb: number): Promise<SideResult> {
  const harness = await KafkaAuthorizerHarness.start({ heapMb, jvmArgs: ["-XX:+UseParallelGC"] });
  try {
    kafkaVersion ??= await harness.ping();
    if (spec.workload === "kafka-benchmark") {
      const a = await harness.bench({
        ...spec,
        seed: SEED,
        warmupMs: WARMUP_MS,
        measureMs: MEASURE_MS,
        logIfDenied: true,
      });
      return {
        best: a.nsPerOpBest,
        mean: a.nsPerOp,
        cpuBest: a.cpuNsPerOpBest,
        acls: a.aclsLoaded,
        buildMs: a.loadMs,
        decisions: a.decision === "ALLOWED" ? "A" : "D",
        peakRssMb: harness.peakRssMb() ?? null,
      };
    }
    const a = await harness.benchRequests({ file: spec.file, warmupMs: WARMUP_MS, measureMs: MEASURE_MS });
    return {
      best: a.nsPerOpBest,
      mean: a.nsPerOp,
      cpuBest: a.cpuNsPerOpBest,
      acls: a.aclsLoaded,
      buildMs: a.loadMs,
      decisions: a.decisions,
      peakRssMb: harness.peakRssMb() ?? null,
    };
  } finally {
    await harness.close();
  }
}

/** Kafka's AuthorizerBenchmark shape: thousands of ACLs on the resource, one request repeated. */
export async function kafkaBenchmarkRows(): Promise<RowReport[]> {
  const resourceCounts = QUICK ? [5_000] : [5_000, 200_000];
  const rows: RowReport[] = [];
  for (const resourceCount of resourceCounts) {
    for (const denyPercentage of [20, 50, 90]) {
      const spec: RowSpec = { workload: "kafka-benchmark", resourceCount, aclCount: 10, denyPercentage };
      const big = resourceCount > 10_000;
      const ts = runTsRow(spec, big ? HEAP_MB : undefined);
      const java = WITH_JAVA ? await runJavaRow(spec, big ? 10_240 : 1_024) : null;
      if (java && java.acls !== ts.acls)
        throw new Error(`workload mismatch: Kafka loaded ${java.acls} ACLs, the policy core ${ts.acls}`);
      if (java && java.decisions !== ts.decisions)
        throw new Error(
          `decision mismatch on the benchmark request: Kafka ${java.decisions}, policy core ${ts.decisions}`,
        );
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
      console.log(
        `  kafka-benchmark resources=${resourceCount} deny=${denyPercentage}%: ${ts.acls} ACLs, ` +
          `TS ${fmt(ts.best)} ns/op, Kafka ${fmt(java?.best)} ns/op`,
      );
    }
  }
  return rows;
}

function sides(
  ts: SideResult,
  java: SideResult | null,
): Omit<RowReport, "workload" | "acls" | "requests" | "ratio" | "cpuRatio"> {
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
export async function realisticMixedRow(): Promise<RowReport> {
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
        `  realistic-mixed run ${i + 1}/${runs}: TS ${fmt(ts.best)} ns/request (CPU ${fmt(ts.cpuBest)}), ` +
          `Kafka ${fmt(java?.best)} (CPU ${fmt(java?.cpuBest)})` +
          (java
            ? `, TS/Kafka ${(ts.best / java.best).toFixed(3)} (CPU ${(ts.cpuBest / java.cpuBest).toFixed(3)}), ` +
              `all ${workload.requests.length} decisions agree`
            : ""),
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
    if (r.operation === "DESCRIBE" || r.operation === "DESCRIBE_CONFIGS")
      mix.impliedOperationRequests = (mix.impliedOperationRequests ?? 0) + 1;
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
    if (ts[i] !== java[i])
      wrong.push(
        `  ${JSON.stringify(requests[i])}: policy core ${ts[i]}, Kafka ${java[i] ?? "?"} (A allowed, D denied, ` +
          `E Kafka threw)`,
      );
  }
  if (ts.length !== requests.length || java.length !== requests.length)
    wrong.push(`  answer counts: policy core ${ts.length}, Kafka ${java.length}, requests ${requests.length}`);
  if (wrong.length > 0) {
    throw new Error(
      `THE POLICY CORE AND KAFKA DISAGREE on ${wrong.length} of ${requests.length} ` +
        `requests:\n${wrong.slice(0, 20).join("\n")}`,
    );
  }
}
