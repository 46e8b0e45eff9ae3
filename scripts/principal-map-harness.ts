/**
 * Drives java/PrincipalMapHarness.java: a long-running JVM that answers principal mapping
 * and java.util.regex questions with Apache Kafka's real classes and the JDK (jars from
 * .kafka/lib, see scripts/java-harness.ts). Used by the principal mapping differential test
 * (lib/policy/identity/principal-map.integration.test.ts).
 *
 *   npx tsx scripts/principal-map-harness.ts    compile, start, print Kafka's and Java's versions
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

import { ROOT, compileJavaAgainstKafka } from "./java-harness";

const SOURCE = path.join(ROOT, "java", "PrincipalMapHarness.java");
const CLASSES = path.join(ROOT, ".kafka", "principal-map-harness");

export type JavaResult = { name: string; principal: string } | { error: string; message: string | null };

export interface JavaRegexResult {
  matches: boolean;
  groups: (string | null)[] | null;
  lookingAt: boolean;
  replaceAll?: { value: string } | { error: string; message: string | null };
  replaceFirst?: { value: string } | { error: string; message: string | null };
  split: string[];
  error?: string;
}

export type JavaRegexAnswer =
  { compile: { error: string; message: string | null } } | { groupCount: number; results: JavaRegexResult[] };

export class HarnessTimeoutError extends Error {
  constructor(ms: number) {
    super(`the JVM did not answer within ${ms} ms (it was killed and restarts with the next question)`);
    this.name = "HarnessTimeoutError";
  }
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class PrincipalMapHarness {
  private proc: ChildProcessWithoutNullStreams | undefined;
  private pending: Pending[] = [];
  private nextId = 1;
  private stderrTail = "";

  private constructor(private readonly classpath: string) {}

  /** Compiles if needed, starts the JVM and waits for its first answer. */
  static async start(): Promise<PrincipalMapHarness> {
    const { classpath } = compileJavaAgainstKafka(SOURCE, CLASSES);
    const h = new PrincipalMapHarness(classpath);
    await h.ping();
    return h;
  }

  private spawn(): ChildProcessWithoutNullStreams {
    const proc = spawn(
      "java",
      ["-Xmx256m", "-Xss4m", "-Dlog4j2.level=WARN", "-cp", this.classpath, "PrincipalMapHarness"],
      { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
    );
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
      clearTimeout(p.timer);
      try {
        const answer = JSON.parse(line) as { harnessError?: string };
        if (answer.harnessError) p.reject(new Error(`harness: ${answer.harnessError}`));
        else p.resolve(answer);
      } catch (e) {
        p.reject(new Error(`harness wrote a non-JSON line: ${line.slice(0, 200)} (${String(e)})`));
      }
    });
    proc.on("exit", (code, signal) => {
      if (this.proc !== proc) return;
      this.proc = undefined;
      const err = new Error(`the harness JVM exited (code ${code}, signal ${signal}); stderr:\n${this.stderrTail}`);
      for (const p of this.pending.splice(0)) {
        clearTimeout(p.timer);
        p.reject(err);
      }
    });
    return proc;
  }

  /** One question; a JVM that does not answer in time (a pattern Java backtracks on for ever) is killed. */
  private send<T>(cmd: Record<string, unknown>, timeoutMs = 20_000): Promise<T> {
    const proc = this.proc ?? this.spawn();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = {
        resolve: resolve as (v: unknown) => void,
        reject,
        timer: setTimeout(() => {
          const lost = this.pending.splice(0);
          this.proc = undefined;
          proc.kill("SIGKILL");
          for (const p of lost) {
            clearTimeout(p.timer);
            p.reject(p === entry ? new HarnessTimeoutError(timeoutMs) : new Error("harness restarted after a timeout"));
          }
        }, timeoutMs),
      };
      this.pending.push(entry);
      proc.stdin.write(`${JSON.stringify({ id, ...cmd })}\n`);
    });
  }

  ping(): Promise<{ kafkaVersion: string; javaVersion: string }> {
    return this.send({ cmd: "ping" }, 60_000);
  }

  async principalMap(input: Record<string, unknown>): Promise<JavaResult[]> {
    return (await this.send<{ results: JavaResult[] }>({ ...input, cmd: "principal-map" })).results;
  }

  regex(pattern: string, inputs: readonly string[], replacement: string | null): Promise<JavaRegexAnswer> {
    return this.send({ cmd: "regex", pattern, inputs, replacement });
  }

  async caseMapping(inputs: readonly string[]): Promise<{ lower: string; upper: string }[]> {
    return (await this.send<{ results: { lower: string; upper: string }[] }>({ cmd: "case", inputs })).results;
  }

  async close(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.exitCode !== null) return;
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

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) {
  const h = await PrincipalMapHarness.start();
  const v = await h.ping();
  console.log(`principal mapping harness up: Kafka ${v.kafkaVersion}, Java ${v.javaVersion}`);
  await h.close();
}
