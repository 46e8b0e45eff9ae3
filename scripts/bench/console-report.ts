/**
 * The console bench's report: bench/console-report.json (written after each size, so a
 * later size that fails keeps the earlier ones) and the Markdown table printed at the end.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { round } from "./console-http";
import { TARGETS, type Options, type TargetKey } from "./console-options";
import type { Measured } from "./console-questions";
import type { SizeReport } from "./console-size";

// ---- the report -----------------------------------------------------------------------------

export function table(sizes: SizeReport[]): string {
  const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
  const cell = (m: Measured | undefined) => {
    if (!m) return "-";
    const ratio = m.ratio !== null ? ` (CLI x${m.ratio})` : "";
    return `${fmt(m.medianMs)}${ratio}${m.target ? (m.target.pass ? "" : " ✗") : ""}`;
  };
  const lines = [
    `| measure (API, warm median; cold first request) ` +
      `| ${sizes.map((s) => `${s.acls.toLocaleString("en")} ACLs`).join(" | ")} | target ` +
      `(${sizes.map((s) => s.tier).join(" / ")}) |`,
    `| --- | ${sizes.map(() => "---").join(" | ")} | --- |`,
  ];
  const row = (label: string, key: string, target: TargetKey | null) => {
    const cells = sizes.map((s) => {
      const m = s.questions.find((x) => x.key === key);
      return m ? `${cell(m)}; cold ${fmt(m.coldMs)}; CPU ${Math.round(m.serverCpuMsPerRequest)} ms` : "-";
    });
    lines.push(
      `| ${label} | ${cells.join(" | ")} ` +
        `| ${target ? sizes.map((s) => `< ${TARGETS[target][s.tier]} ms`).join(" / ") : ""} |`,
    );
  };
  row("ACL list, page 1", "listPage1", "listPage");
  row("ACL list, page 50", "listPage50", "listPage");
  row("ACL list, last page", "listLastPage", "listPage");
  row("filter: principal", "filterPrincipal", "filter");
  row("filter: resource name", "filterResourceName", "filter");
  row("filter: operation", "filterOperation", "filter");
  row("access check", "accessCheck", "accessOrDetail");
  row("topic detail with the matrix", "topicDetail", "accessOrDetail");
  row("resources index (page)", "resourcesIndex", "resourcesIndex");
  row("ACLs page (HTML)", "aclsPage", null);
  const mark = (ok: boolean) => (ok ? "" : " ✗");
  lines.push(
    `| ${sizes[0]?.concurrency.users ?? 20} users, list + filter: p50 / p99, throughput | ${sizes
      .map(
        (s) =>
          `${fmt(s.concurrency.p50Ms)} / ${fmt(s.concurrency.p99Ms)}${mark(s.pass.concurrentP99)}, ` +
          `${s.concurrency.throughputPerS}/s${s.concurrency.errors ? `, ${s.concurrency.errors} errors` : ""}`,
      )
      .join(" | ")} | p99 ${sizes.map((s) => `< ${TARGETS.concurrentP99[s.tier] / 1000} s`).join(" / ")} |`,
  );
  lines.push(
    `| create 500 ACLs, one request (broker requests) | ${sizes
      .map((s) => {
        const c = s.writes.create500;
        const req = c.brokerRequests
          ? ` (${c.brokerRequests.CreateAcls} Create, ${c.brokerRequests.DescribeAcls} Describe)`
          : "";
        return (
          `${fmt(c.ms)}${s.writes.ratio !== null ? ` (CLI x${s.writes.ratio})` : ""}${req}` +
          `${mark(s.pass.create500)}`
        );
      })
      .join(" | ")} | ${sizes.map((s) => `< ${TARGETS.create500[s.tier] / 1000} s`).join(" / ")} |`,
  );
  const delete500 = (s: (typeof sizes)[number]) => {
    const { ms, brokerRequests } = s.writes.delete500;
    const requests = brokerRequests
      ? ` (${brokerRequests.DeleteAcls} Delete, ${brokerRequests.DescribeAcls} Describe)`
      : "";
    const cli = s.writes.cliDelete500 ? `; CLI ${fmt(s.writes.cliDelete500.ms)}` : "";
    return `${fmt(ms)}${requests}${cli}`;
  };
  const rss = (s: (typeof sizes)[number]) =>
    `${s.memory.rssMb} MB (${s.memory.rssRightAfterMb} MB; ${s.memory.peakRssMb} MB)${mark(s.pass.rssMb)}`;
  const peak = (s: (typeof sizes)[number]) =>
    `${s.memory.peakAfterUsersMb} MB; ${s.memory.peakRssMb} MB${mark(s.pass.peakRssMb)}`;
  const targets = (target: { "100k": number; "300k": number }) =>
    sizes.map((s) => `< ${target[s.tier]} MB`).join(" / ");
  const users = sizes[0]?.concurrency.users ?? "";
  lines.push(`| delete the 500, one request (kafka-acls.sh: its own 500) | ${sizes.map(delete500).join(" | ")} | |`);
  lines.push(
    `| Next server RSS after the run, idle 15 s (right after; peak) | ${sizes.map(rss).join(" | ")} | ` +
      `${targets(TARGETS.rssMb)} |`,
  );
  lines.push(
    `| Next server peak RSS: after the ${users} users; after the writes | ${sizes.map(peak).join(" | ")} | ` +
      `${targets(TARGETS.peakRssMb)} |`,
  );
  lines.push(
    `| import through acl.import plans ` +
      `| ${sizes.map((s) => `${Math.round(s.load.seconds)} s (${s.load.aclsPerS}/s)`).join(" | ")} | |`,
  );
  return lines.join("\n");
}

/** What the report says about the run besides its sizes. */
export interface RunInfo {
  options: Options;
  started: Date;
  /** The commit measured (with "+ uncommitted changes" under --working-tree). */
  commit: string;
}

export function writeReport({ options, started, commit }: RunInfo, reports: SizeReport[]) {
  const report = {
    suite: "console",
    issue: 8,
    commit,
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? null,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      loadAverage: os.loadavg().map((x) => round(x)),
    },
    options: {
      sizes: options.sizes,
      users: options.users,
      windowS: options.windowS,
      runs: options.runs,
      cli: options.cli,
      chunk: options.chunk,
      profile: options.profile,
    },
    notes: [
      "Times are wall-clock milliseconds from sending the request to the last byte of the answer, on a shared " +
        "2-core machine.",
      "Each question is asked once cold (the first request after the server restarted over the loaded ACLs) " +
        "and then --runs times warm; the median is what the target is checked against. Filter questions use a " +
        "different value each run.",
      "kafka-acls.sh runs in a fresh JVM per call (the JVM start included, as an operator meets it); its " +
        "output is counted, not printed. ratio = console / CLI.",
      "The CLI cannot page or filter by operation: those rows compare with --list of every ACL. The access " +
        "check and topic detail compare with --list --topic T --resource-pattern-type match (the ACLs that " +
        "apply).",
      "brokerRequests: the broker's RequestsPerSec counts (JMX) during the call, from every client (a " +
        "viewer-right proof or a snapshot refresh of the console counts too).",
      "serverCpuMsPerRequest: the console server's own CPU time (user + system, /proc/<pid>/stat) per request; " +
        "on this shared machine (load average in `machine`) wall times include waiting for a core, the CPU time " +
        "does not.",
      "Sizes up to 100,000 ACLs are held to the 100k targets, larger ones to the 300k targets.",
    ],
    targets: TARGETS,
    sizes: reports,
    sizesRun: reports.map((r) => r.acls),
    pass: reports.every((r) => Object.values(r.pass).every(Boolean)),
  };
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
