/**
 * Extra console processes for the e2e specs: scripts/server.ts (as `npm start` runs it)
 * over the e2e run's production build (NEXT_DIST_DIR), database and environment, with
 * `settings` on top, on a port the system picks (PORT=0). Resolves once it logged
 * "Ready on"; its JSON log lines are kept for the test to read.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

export interface Instance {
  name: string;
  url: string;
  /** The metrics port's /metrics, when METRICS_PORT is set. */
  metricsUrl?: string;
  child: ChildProcess;
  /** Everything the process wrote (stdout and stderr). */
  output(): string;
  /** Its JSON log lines. */
  lines(): Record<string, unknown>[];
  exited: Promise<number | null>;
}

export async function startInstance(name: string, settings: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "debug", ...settings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const lines = () =>
    output
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = lines().find((l) => String(l.msg).includes("Ready on"));
    if (ready)
      return {
        name,
        url: String(ready.url),
        metricsUrl: ready.metricsUrl as string | undefined,
        child,
        output: () => output,
        lines,
        exited,
      };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`console ${name} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
