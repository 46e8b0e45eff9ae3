/**
 * The policy suite (parts 1-3): the 100,000-ACL part in this process, then the TS/Kafka
 * rows, printed as a table and returned as the policy section of the report.
 */
import os from "node:os";

import { AclIndex, effectiveForResource } from "../../lib/policy/index";
import { bestOf, fmt, peakRssMb, round, timeLoop } from "./measure";
import { MEASURE_MS, MIXED_ONLY, QUICK, SEED, TS_MEASURE_MS, TS_WARMUP_MS, WARMUP_MS } from "./policy-options";
import { kafkaBenchmarkRows, kafkaVersionSeen, realisticMixedRow } from "./policy-rows";
import { realisticAcls } from "./policy-workloads";

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
  console.log(
    `100,000 ACLs (${index100k.size} distinct), Node default heap settings; wall time best of N (median, CPU median):`,
  );
  console.log(
    `  index build, AclIndex.build                    ${fmt(build.bestMs)} ms (median ${fmt(build.medianMs)}, ` +
      `CPU ${fmt(build.cpuMedianMs)}, first ${fmt(build.firstMs)})   target < 500 ms`,
  );
  console.log(
    `  MATCH lookup, index.matching (${most} ACLs on ${topic})   ${fmt(match.nsPerOpBest / 1000, 2)} µs ` +
      `(mean ${fmt(match.nsPerOp / 1000, 2)})   target < 200 µs`,
  );
  console.log(
    `  topic matrix, effectiveForResource (${matrixShape.rows.length} principals ` +
      `x ${matrixShape.rows[0]?.operations.length ?? 0} operations)   ${fmt(matrix.bestMs, 2)} ms ` +
      `(median ${fmt(matrix.medianMs, 2)}, CPU ${fmt(matrix.cpuMedianMs, 2)})   target < 20 ms`,
  );
  console.log(`  peak RSS of this process   ${fmt(peak)} MB   target < 300 MB`);
  return {
    indexBuildMs: build.bestMs,
    matchLookupUs: match.nsPerOpBest / 1000,
    topicMatrixMs: matrix.bestMs,
    peakRssMb: peak,
  };
}

/** Parts 1-3: the policy section of the report. */
export async function policySuite(): Promise<unknown> {
  console.log(
    `policy bench${QUICK ? " (quick)" : ""}: node ${process.version}, seed ${SEED}, ${os.cpus().length} CPUs ` +
      `(${os.cpus()[0]?.model ?? "?"})`,
  );
  const part2 = MIXED_ONLY ? null : hundredThousand();

  console.log("");
  console.log(
    `TS/Kafka rows: each side of each row in a fresh process (Node, then JVM), ${WARMUP_MS} ms warm-up ` +
      `and ${MEASURE_MS} ms measured inside it`,
  );
  const rows = [...(MIXED_ONLY ? [] : await kafkaBenchmarkRows()), await realisticMixedRow()];

  console.log("");
  console.log(
    "ns per request: best of 10 measurement windows (mean over all windows in brackets); ratio = TS best / " +
      "Kafka best; CPU: the same in CPU time of the measuring thread",
  );
  const header = [
    "workload",
    "resources",
    "deny %",
    "ACLs",
    "requests",
    "TS ns",
    "(mean)",
    "Kafka ns",
    "(mean)",
    "TS/Kafka",
    "TS CPU ns",
    "Kafka CPU ns",
    "CPU ratio",
    "TS build ms",
    "Kafka load ms",
  ];
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
  console.log(
    `kafka-benchmark: worst ratio ${Math.max(...shape.map((r) => r.ratio ?? 0)).toFixed(4)} (target <= 1.0); ` +
      `decision ${shape[0]?.decision ?? "?"} on both sides`,
  );
  console.log(
    `realistic-mixed: ratio ${fmt(mixed.ratio, 3)} (runs ${mixed.runRatios?.join(", ") ?? ""}), in thread CPU ` +
      `time ${fmt(mixed.cpuRatio, 3)} (runs ${mixed.runCpuRatios?.join(", ") ?? ""}); target <= 0.30; ` +
      `${mixed.allowed} allowed, ${mixed.denied} denied, ${mixed.decisionsAgreed} decisions agreed with Kafka`,
  );
  if (part2) console.log(`peak RSS: ${fmt(part2.peakRssMb)} MB for the 100k-ACL part (this process)`);

  const r3 = (n: number | null | undefined): number | null => (n === null || n === undefined ? null : round(n));
  return {
    generatedAt: new Date().toISOString(),
    node: process.version,
    kafka: kafkaVersionSeen(),
    cpus: os.cpus().length,
    quick: QUICK,
    method:
      "Each side of each row runs in a fresh process (Node for the policy core, a JVM for Kafka's " +
      "StandardAuthorizer), " +
      `builds its ACLs, warms up ${WARMUP_MS} ms and measures ${MEASURE_MS} ms in 10 windows; ns per request ` +
      `is the best window, ` +
      "in wall-clock time (ratio) and in CPU time of the measuring thread (cpuRatio: what the other processes " +
      "of a shared machine disturb least; " +
      "it leaves out work on other threads, such as the JVM's parallel garbage collection, which favours Kafka). " +
      "kafka-benchmark: Kafka's AuthorizerBenchmark.testAuthorizer (one request repeated; Kafka audit-logs the " +
      "denial as in that benchmark). " +
      "realistic-mixed: 100,000 ACLs and 2,000 different requests read by both sides from one file, audit " +
      "logging off on Kafka's side; " +
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
