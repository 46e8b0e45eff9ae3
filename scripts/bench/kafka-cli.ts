/**
 * Kafka's own tools, run from the dev broker's jars (.kafka/lib, which the pom fills with
 * kafka-tools): `kafka-acls.sh` (org.apache.kafka.tools.AclCommand) as the yardstick of
 * the console bench, each call in a fresh JVM as an operator would run it, and JmxTool to
 * read the broker's request counters (how many DescribeAcls / CreateAcls / DeleteAcls a
 * console write cost).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

export const KAFKA_LIB = path.resolve(import.meta.dirname, "..", "..", ".kafka", "lib");

/** The JVM flags kafka-run-class.sh would use for a short-lived tool (client VM settings). */
const JVM = [
  "-Xshare:auto",
  "-XX:TieredStopAtLevel=1",
  "-XX:+UseSerialGC",
  "-Xmx1g",
  "-Djava.awt.headless=true",
  "-Dlog4j2.level=warn",
];

export interface ToolRun {
  ms: number;
  code: number;
  /** Bytes the tool printed on stdout (its answer). */
  bytes: number;
  /** The first lines of stdout and stderr, for error messages. */
  head: string;
}

/** Runs a main class with the broker's jars; stdout is counted, not kept (the CLI prints every ACL). */
export function runTool(mainClass: string, args: readonly string[]): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("java", [...JVM, "-cp", `${KAFKA_LIB}/*`, mainClass, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let bytes = 0;
    let head = "";
    const keep = (chunk: Buffer) => {
      if (head.length < 2000) head += chunk.toString("utf8", 0, Math.min(chunk.length, 2000 - head.length));
    };
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      keep(chunk);
    });
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - t0, code: code ?? 1, bytes, head }));
  });
}

/** kafka-acls.sh as the admin user (SCRAM-SHA-512) against one broker. */
export class AclCli {
  private readonly config: string;

  constructor(
    private readonly bootstrap: string,
    stateDir: string,
    credential: { username: string; password: string },
  ) {
    this.config = path.join(stateDir, "bench-admin.properties");
    writeFileSync(
      this.config,
      [
        "security.protocol=SASL_PLAINTEXT",
        "sasl.mechanism=SCRAM-SHA-512",
        `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required ` +
          `username="${credential.username}" password="${credential.password}";`,
        "",
      ].join("\n"),
      { mode: 0o600 },
    );
  }

  async run(args: readonly string[]): Promise<ToolRun> {
    const r = await runTool("org.apache.kafka.tools.AclCommand", [
      "--bootstrap-server",
      this.bootstrap,
      "--command-config",
      this.config,
      ...args,
    ]);
    // AclCommand prints "Error while executing ACL command" on stdout and exits 1.
    if (r.code !== 0 || r.head.startsWith("Error while executing"))
      throw new Error(`kafka-acls.sh ${args.join(" ")} failed (exit ${r.code}): ${r.head.slice(0, 500)}`);
    return r;
  }
}

/** Kafka's request counters (kafka.network RequestMetrics RequestsPerSec Count) through JMX. */
export async function requestCounts(jmxPort: number, requests: readonly string[]): Promise<Record<string, number>> {
  const args = [
    "--jmx-url",
    `service:jmx:rmi:///jndi/rmi://127.0.0.1:${jmxPort}/jmxrmi`,
    "--one-time",
    "true",
    "--report-format",
    "properties",
    "--attributes",
    "Count",
  ];
  for (const r of requests)
    args.push("--object-name", `kafka.network:type=RequestMetrics,name=RequestsPerSec,request=${r},*`);
  const run = await new Promise<{ code: number; out: string }>((resolve, reject) => {
    const child = spawn("java", [...JVM, "-cp", `${KAFKA_LIB}/*`, "org.apache.kafka.tools.JmxTool", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
  });
  if (run.code !== 0) throw new Error(`JmxTool failed: ${run.out.slice(0, 500)}`);
  const counts: Record<string, number> = Object.fromEntries(requests.map((r) => [r, 0]));
  // properties format: one line per attribute, `kafka.network:...,request=X,version=N:Count=123`
  for (const line of run.out.split("\n")) {
    const m = /request=([A-Za-z]+)[^:]*:Count=(\d+)/.exec(line);
    if (m && m[1]! in counts) counts[m[1]!]! += Number(m[2]);
  }
  if (Object.values(counts).every((n) => n === 0))
    throw new Error(`JmxTool answered no request counts: ${run.out.slice(0, 300)}`);
  return counts;
}
