/**
 * What the console bench starts and stops: its own broker (scripts/kafka.sh with JMX for
 * the request counters), the HEAD snapshot and its production build, a fresh database and
 * the console's server, and the readings of that server's CPU time and memory.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import {
  DATABASE_URL,
  DB_NAME,
  DIST_DIR,
  JMX_PORT,
  KAFKA_CONTROLLER_PORT,
  KAFKA_PORT,
  PG_BASE,
  ROOT,
  SNAPSHOT_DIR,
  STATE_DIR,
  type Options,
} from "./console-options";

// ---- processes ------------------------------------------------------------------------------

export const log = (line: string) => console.error(`[bench console] ${line}`);

const brokerEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  KAFKA_STATE_DIR: STATE_DIR,
  KAFKA_PORT: String(KAFKA_PORT),
  KAFKA_CONTROLLER_PORT: String(KAFKA_CONTROLLER_PORT),
  KAFKA_START_TIMEOUT: "600",
  // The heap flags are where kafka.sh takes extra JVM flags: JMX for the request counters.
  KAFKA_HEAP: [
    process.env.KAFKA_HEAP ?? "-Xmx2g -Xms256m",
    "-Dcom.sun.management.jmxremote",
    `-Dcom.sun.management.jmxremote.port=${JMX_PORT}`,
    `-Dcom.sun.management.jmxremote.rmi.port=${JMX_PORT}`,
    "-Dcom.sun.management.jmxremote.host=127.0.0.1",
    "-Djava.rmi.server.hostname=127.0.0.1",
    "-Dcom.sun.management.jmxremote.authenticate=false",
    "-Dcom.sun.management.jmxremote.ssl=false",
  ].join(" "),
});

function kafkaSh(command: "start" | "stop" | "reset"): void {
  const r = spawnSync("bash", [path.join(ROOT, "scripts/kafka.sh"), command], {
    cwd: ROOT,
    env: brokerEnv(),
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error(`scripts/kafka.sh ${command} failed (exit ${r.status})`);
}

/** Where the console is built and served from: the HEAD snapshot, or this checkout (--working-tree). */
let APP = ROOT;

export function setApp(dir: string): void {
  APP = dir;
}

export function appDir(): string {
  return APP;
}

export function git(...args: string[]): string {
  const r = spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** HEAD, exported into SNAPSHOT_DIR with the dependencies of this checkout. */
export function exportHead(): void {
  spawnSync("rm", ["-rf", SNAPSHOT_DIR]);
  mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const r = spawnSync("bash", ["-c", `git -C "${ROOT}" archive HEAD | tar -x -C "${SNAPSHOT_DIR}"`], {
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error("exporting HEAD failed");
  // Types are `npm test`'s business: a type error in a test or a script of the commit
  // (the server never loads them) must not keep the bench from building the console.
  const config = path.join(SNAPSHOT_DIR, "next.config.ts");
  const text = readFileSync(config, "utf8");
  if (!text.includes("const nextConfig: NextConfig = {"))
    throw new Error("next.config.ts has changed shape; update exportHead");
  writeFileSync(
    config,
    text.replace(
      "const nextConfig: NextConfig = {",
      "const nextConfig: NextConfig = {\n  typescript: { ignoreBuildErrors: true },",
    ),
  );
  for (const [from, how] of [
    ["node_modules", "-al"],
    ["lib/generated", "-a"],
  ] as const) {
    const c = spawnSync("cp", [how, path.join(ROOT, from), path.join(SNAPSHOT_DIR, from)], { stdio: "inherit" });
    if (c.status !== 0) throw new Error(`copying ${from} failed`);
  }
}

let brokerStarted = false;

/** A fresh broker in STATE_DIR (its earlier state removed), stopped again by cleanup(). */
export function freshBroker(): void {
  kafkaSh("reset");
  brokerStarted = true;
  kafkaSh("start");
}
let server: ChildProcess | null = null;
export const serverEnv: Record<string, string | undefined> = {};

export async function startServer(options: Options, label: string): Promise<number> {
  const nodeArgs = ["--import", "tsx", ...(process.env.BENCH_SERVER_NODE_FLAGS ?? "").split(" ").filter(Boolean)];
  if (options.profile) {
    const dir = path.join("/tmp/ksc-bench-profiles", label);
    mkdirSync(dir, { recursive: true });
    nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${dir}`);
  }
  const child = spawn(process.execPath, [...nodeArgs, "scripts/server.ts", "--exit-with-parent"], {
    cwd: APP,
    env: serverEnv as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  server = child;
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready on")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) =>
      reject(new Error(`the console server exited (code ${code}) before it was ready:\n${output.slice(-2000)}`)),
    );
  });
  const timeout = setTimeout(() => child.kill("SIGTERM"), 120_000);
  await ready.finally(() => clearTimeout(timeout));
  // Keep draining its output (a full pipe would stall it); errors are worth seeing.
  child.stdout.removeAllListeners("data");
  child.stdout.on("data", () => undefined);
  child.stderr.removeAllListeners("data");
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(`[server] ${chunk.toString()}`));
  return child.pid!;
}

export async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

let cleaning: Promise<void> | null = null;
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopServer().catch(() => undefined);
    if (brokerStarted) {
      brokerStarted = false;
      try {
        kafkaSh("stop");
      } catch (error) {
        log(String(error));
      }
    }
  })();
  return cleaning;
}

export async function freshDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await admin.end();
  }
  // The migrations of the console being measured.
  const r = spawnSync(path.join(APP, "node_modules/.bin/tsx"), ["scripts/db-migrate.ts"], {
    cwd: APP,
    env: { ...process.env, DATABASE_URL },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error("migrating the bench database failed");
}

export function build(): void {
  log(`building the console in ${APP} into ${DIST_DIR} (a few minutes)...`);
  const r = spawnSync(path.join(APP, "node_modules/.bin/next"), ["build"], {
    cwd: APP,
    env: serverEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`next build failed:\n${`${r.stdout}\n${r.stderr}`.slice(-4000)}`);
}

/** CPU time (user + system) the server process has used so far, ms (10 ms ticks). */
export function serverCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function serverMemory(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakRssMb: Math.round(kb("VmHWM") / 1024) };
}

/**
 * Seconds the server is left idle after the run before its RSS is read (V8 gives memory back once allocation stops).
 */
export const SETTLE_S = 15;

/**
 * RSS right after the run, then each second of SETTLE_S idle seconds; the last is what the target is checked against.
 */
export async function settledMemory(
  pid: number,
): Promise<{ rssMb: number; peakRssMb: number; rssRightAfterMb: number; rssEachSecondMb: number[] }> {
  const first = serverMemory(pid);
  const each: number[] = [];
  for (let i = 0; i < SETTLE_S; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    each.push(serverMemory(pid).rssMb);
  }
  const last = serverMemory(pid);
  return { rssMb: last.rssMb, peakRssMb: last.peakRssMb, rssRightAfterMb: first.rssMb, rssEachSecondMb: each };
}
