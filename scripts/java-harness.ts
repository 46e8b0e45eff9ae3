/**
 * Compiles and drives java/AuthorizerHarness.java: a long-running JVM that answers
 * authorization questions with Apache Kafka's real StandardAuthorizer (jars from
 * .kafka/lib, fetched by `bash scripts/kafka.sh jars`). Used by the differential
 * test (lib/policy/differential.integration.test.ts) and by `npm run bench -- policy`.
 *
 *   npx tsx scripts/java-harness.ts compile     compile only (into .kafka/harness/)
 *   npx tsx scripts/java-harness.ts ping        compile, start, print Kafka's version
 *
 * KAFKA_LIB_DIR overrides the jar folder (default .kafka/lib).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

export const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = path.join(ROOT, "java", "AuthorizerHarness.java");
const CLASSES = path.join(ROOT, ".kafka", "harness");
const MAIN_CLASS = "AuthorizerHarness";

export function kafkaLibDir(): string {
  return process.env.KAFKA_LIB_DIR ?? path.join(ROOT, ".kafka", "lib");
}

function hasAuthorizerJars(dir: string): boolean {
  if (!existsSync(dir)) return false;
  const jars = readdirSync(dir);
  return jars.some((f) => /^kafka-metadata-.*\.jar$/.test(f)) && jars.some((f) => /^jackson-databind-.*\.jar$/.test(f));
}

/** Makes sure Kafka's jars are there: runs `bash scripts/kafka.sh jars` (a no-op when they are current). */
export function ensureKafkaJars(): string {
  const dir = kafkaLibDir();
  if (process.env.KAFKA_LIB_DIR === undefined) {
    const r = spawnSync("bash", [path.join(ROOT, "scripts", "kafka.sh"), "jars"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
    });
    if (r.status !== 0) {
      throw new Error(`bash scripts/kafka.sh jars failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    }
  }
  if (!hasAuthorizerJars(dir)) {
    throw new Error(
      `Kafka's jars (kafka-metadata, jackson-databind) are not in ${dir}; run: bash scripts/kafka.sh jars`,
    );
  }
  return dir;
}

function classpathSep(): string {
  return process.platform === "win32" ? ";" : ":";
}

/** Compiles the harness into .kafka/harness/ unless the class file is newer than the source. */
/**
 * Compiles one of the project's Java helpers against Kafka's jars into `classesDir`
 * (again only when the source is newer than its class) and returns the classpath to
 * run it with.
 */
export function compileJavaAgainstKafka(
  source: string,
  classesDir: string,
): { classes: string; lib: string; classpath: string } {
  const lib = ensureKafkaJars();
  const classFile = path.join(classesDir, `${path.basename(source, ".java")}.class`);
  const fresh = existsSync(classFile) && statSync(classFile).mtimeMs >= statSync(source).mtimeMs;
  if (!fresh) {
    mkdirSync(classesDir, { recursive: true });
    const r = spawnSync(
      "javac",
      ["-encoding", "UTF-8", "--release", "17", "-nowarn", "-cp", path.join(lib, "*"), "-d", classesDir, source],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        encoding: "utf8",
      },
    );
    if (r.error) throw new Error(`javac could not be started (is a JDK 17+ on PATH?): ${r.error.message}`);
    if (r.status !== 0) throw new Error(`javac failed:\n${r.stdout}\n${r.stderr}`);
  }
  return { classes: classesDir, lib, classpath: [classesDir, path.join(lib, "*")].join(path.delimiter) };
}

export function compileHarness(): { classes: string; lib: string } {
  const { classes, lib } = compileJavaAgainstKafka(SOURCE, CLASSES);
  return { classes, lib };
}

// ---- protocol types -------------------------------------------------------------------

export interface HarnessAcl {
  resourceType: string;
  resourceName: string;
  patternType: string;
  principal: string;
  host: string;
  operation: string;
  permissionType: string;
}

export interface HarnessRequest {
  principal: string;
  host: string;
  operation: string;
  resourceType: string;
  resourceName: string;
}

export type HarnessByTypeRequest = Omit<HarnessRequest, "resourceName">;

/** An AclBindingFilter: null name/principal/host match anything; ANY/MATCH as in Kafka. */
export interface HarnessFilter {
  resourceType: string;
  resourceName: string | null;
  patternType: string;
  principal: string | null;
  host: string | null;
  operation: string;
  permissionType: string;
}

export interface HarnessCase {
  acls: readonly HarnessAcl[];
  superUsers: readonly string[];
  allowEveryoneIfNoAclFound: boolean;
  requests: readonly HarnessRequest[];
  byType?: readonly HarnessByTypeRequest[];
  /** Filters to run through StandardAuthorizer.acls(filter). */
  filters?: readonly HarnessFilter[];
}

/** The rule Kafka's audit log names for a decision (read from StandardAuthorizerData by the harness). */
export type HarnessRule =
  | { kind: "superUser" | "default" | "noAclMatched"; consistent?: boolean }
  | { kind: "acl"; acl: HarnessAcl; consistent?: boolean };

export type HarnessDecision =
  { decision: "ALLOWED" | "DENIED"; byDefault?: boolean; rule?: HarnessRule } | { error: string };

export interface HarnessAnswer {
  aclCount: number;
  results: HarnessDecision[];
  byType: HarnessDecision[];
  /** Per filter, the ACLs Kafka returned. */
  filters: HarnessAcl[][];
}

export interface HarnessBenchCommand {
  resourceCount: number;
  aclCount: number;
  denyPercentage: number;
  seed: number;
  warmupMs: number;
  measureMs: number;
  /** The measurement is cut into this many windows (default 10). */
  windows?: number;
  logIfDenied?: boolean;
}

export interface HarnessBenchAnswer {
  aclsLoaded: number;
  loadMs: number;
  decision: "ALLOWED" | "DENIED";
  /** Mean over the whole measurement (what JMH reports). */
  nsPerOp: number;
  /** The best window: the figure least disturbed by other processes on the machine. */
  nsPerOpBest: number;
  /** The best window in CPU time of the measuring thread. */
  cpuNsPerOpBest: number;
  iterations: number;
  heapUsedMb: number;
}

export interface HarnessBenchRequestsCommand {
  /** A JSON file {"acls": HarnessAcl[], "requests": HarnessRequest[]}. */
  file: string;
  warmupMs: number;
  measureMs: number;
  windows?: number;
}

export interface HarnessBenchRequestsAnswer {
  aclsLoaded: number;
  loadMs: number;
  /** One letter per request, in order: A = ALLOWED, D = DENIED, E = Kafka threw. */
  decisions: string;
  /** Per request: mean over the whole measurement, and the best window. */
  nsPerOp: number;
  nsPerOpBest: number;
  /** Per request, the best window in CPU time of the measuring thread. */
  cpuNsPerOpBest: number;
  iterations: number;
}

export class HarnessTimeoutError extends Error {
  constructor(ms: number) {
    super(`Kafka's StandardAuthorizer did not answer within ${ms} ms (the JVM was killed and will be restarted)`);
    this.name = "HarnessTimeoutError";
  }
}

// ---- the long-running JVM -------------------------------------------------------------

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

export interface HarnessOptions {
  /** -Xmx in MB (default 512). */
  heapMb?: number;
  /** Extra JVM flags. */
  jvmArgs?: string[];
}

export class KafkaAuthorizerHarness {
  private proc: ChildProcessWithoutNullStreams | undefined;
  private pending: Pending[] = [];
  private nextId = 1;
  private stderrTail = "";
  private closed = false;

  private constructor(
    private readonly cp: string,
    private readonly options: HarnessOptions,
  ) {}

  /** Compiles if needed, starts the JVM and waits for its first answer. */
  static async start(options: HarnessOptions = {}): Promise<KafkaAuthorizerHarness> {
    const { classes, lib } = compileHarness();
    const h = new KafkaAuthorizerHarness([classes, path.join(lib, "*")].join(classpathSep()), options);
    h.spawn();
    await h.ping();
    return h;
  }

  private spawn(): void {
    const args = [
      `-Xmx${this.options.heapMb ?? 512}m`,
      "-Dlog4j2.level=WARN",
      ...(this.options.jvmArgs ?? []),
      "-cp",
      this.cp,
      MAIN_CLASS,
    ];
    const proc = spawn("java", args, { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    this.proc = proc;
    this.stderrTail = "";
    proc.stderr.setEncoding("utf8");
    proc.stderr.on("data", (d: string) => {
      this.stderrTail = (this.stderrTail + d).slice(-4000);
    });
    createInterface({ input: proc.stdout }).on("line", (line) => {
      if (this.proc !== proc) return;
      const p = this.pending.shift();
      if (!p) return;
      if (p.timer) clearTimeout(p.timer);
      try {
        p.resolve(JSON.parse(line));
      } catch (e) {
        p.reject(new Error(`harness wrote a non-JSON line: ${line.slice(0, 200)} (${String(e)})`));
      }
    });
    proc.on("exit", (code, signal) => {
      if (this.proc !== proc) return;
      this.proc = undefined;
      const err = new Error(`the harness JVM exited (code ${code}, signal ${signal}); stderr:\n${this.stderrTail}`);
      for (const p of this.pending.splice(0)) {
        if (p.timer) clearTimeout(p.timer);
        p.reject(err);
      }
    });
  }

  private kill(): void {
    const proc = this.proc;
    this.proc = undefined;
    if (proc && proc.exitCode === null) proc.kill("SIGKILL");
  }

  /** Sends one command; on timeout the JVM is killed (Kafka may be spinning) and restarted for the next call. */
  send<T>(cmd: Record<string, unknown>, timeoutMs = 15_000): Promise<T> {
    if (this.closed) return Promise.reject(new Error("harness closed"));
    if (!this.proc) this.spawn();
    const proc = this.proc;
    if (!proc) return Promise.reject(new Error("harness JVM not running"));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (v: unknown) => void, reject, timer: undefined };
      entry.timer = setTimeout(() => {
        // Everything queued behind a hung command is lost with the JVM.
        const lost = this.pending.splice(0);
        this.kill();
        for (const p of lost) {
          if (p.timer) clearTimeout(p.timer);
          p.reject(p === entry ? new HarnessTimeoutError(timeoutMs) : new Error("harness restarted after a timeout"));
        }
      }, timeoutMs);
      this.pending.push(entry);
      proc.stdin.write(`${JSON.stringify({ id, ...cmd })}\n`);
    });
  }

  async ping(): Promise<string> {
    const r = await this.send<{ ok?: boolean; kafkaVersion?: string; error?: string }>({ cmd: "ping" }, 60_000);
    if (!r.ok) throw new Error(`harness ping failed: ${r.error ?? JSON.stringify(r)}`);
    return r.kafkaVersion ?? "unknown";
  }

  async authorize(c: HarnessCase, timeoutMs = 15_000): Promise<HarnessAnswer> {
    const r = await this.send<HarnessAnswer & { error?: string }>(
      { cmd: "authorize", ...c, byType: c.byType ?? [], filters: c.filters ?? [] },
      timeoutMs,
    );
    if (r.error) throw new Error(`harness error: ${r.error}`);
    return r;
  }

  async bench(c: HarnessBenchCommand, timeoutMs = 600_000): Promise<HarnessBenchAnswer> {
    const r = await this.send<HarnessBenchAnswer & { error?: string }>({ cmd: "bench", ...c }, timeoutMs);
    if (r.error) throw new Error(`harness error: ${r.error}`);
    return r;
  }

  /** Times StandardAuthorizer over a list of requests and ACLs read from a file (audit logging off). */
  async benchRequests(c: HarnessBenchRequestsCommand, timeoutMs = 600_000): Promise<HarnessBenchRequestsAnswer> {
    const r = await this.send<HarnessBenchRequestsAnswer & { error?: string }>(
      { cmd: "benchRequests", ...c },
      timeoutMs,
    );
    if (r.error) throw new Error(`harness error: ${r.error}`);
    return r;
  }

  /** Peak resident set of the JVM so far (Linux), in MB; undefined elsewhere. */
  peakRssMb(): number | undefined {
    const pid = this.proc?.pid;
    if (pid === undefined || process.platform !== "linux") return undefined;
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      return m?.[1] ? Number(m[1]) / 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const proc = this.proc;
    if (!proc) return;
    this.proc = undefined;
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        proc.kill("SIGKILL");
        resolve();
      }, 2_000);
      proc.once("exit", () => {
        clearTimeout(t);
        resolve();
      });
      proc.stdin.end();
    });
  }
}

// ---- CLI ------------------------------------------------------------------------------

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) {
  const cmd = process.argv[2] ?? "ping";
  if (cmd === "compile") {
    const { classes } = compileHarness();
    console.log(`harness compiled into ${path.relative(ROOT, classes)}`);
  } else if (cmd === "ping") {
    const h = await KafkaAuthorizerHarness.start();
    console.log(`StandardAuthorizer harness up, Kafka ${await h.ping()}`);
    await h.close();
  } else {
    console.error("usage: tsx scripts/java-harness.ts compile|ping");
    process.exit(2);
  }
}
