/**
 * The console bench's fixed resources (its broker, database, build and port), its flags
 * (scripts/bench/console.ts lists them) and the targets of issue #8 it checks.
 */
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const NAME = "bench";
export const PORT = 3412;
export const KAFKA_PORT = 29092;
export const KAFKA_CONTROLLER_PORT = 29093;
export const JMX_PORT = 29096; // 29094/29095: the broker's SASL_SSL and mTLS listeners (KAFKA_PORT+2, +3)
export const STATE_DIR = `/tmp/kafka-${NAME}`;
export const DIST_DIR = `.next-${NAME}`;
export const DB_NAME = `ksc_${NAME}`;
export const PG_BASE = process.env.BENCH_PG_BASE ?? "postgresql://postgres@127.0.0.1:5432";
export const DATABASE_URL = `${PG_BASE}/${DB_NAME}`;
export const BASE = `http://127.0.0.1:${PORT}`;
export const ADMIN = { username: "admin", password: "admin-secret" };
export const TOPICS = 200;
export const SNAPSHOT_DIR = "/tmp/ksc-bench-src";

// ---- options ------------------------------------------------------------------------------

export interface Options {
  sizes: number[];
  windowS: number;
  users: number;
  runs: number;
  cli: boolean;
  build: boolean;
  profile: boolean;
  chunk: number;
  out: string;
  workingTree: boolean;
}

export function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i >= 0) return argv[i + 1];
    return argv.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
  };
  const num = (flag: string, fallback: number): number => {
    const v = value(flag);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} takes a positive number (got "${v}")`);
    return n;
  };
  const sizes = (value("--sizes") ?? "100000,300000").split(",").map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1000))
    throw new Error("--sizes takes ACL counts of 1000 or more, e.g. --sizes 10000,100000");
  return {
    sizes: [...sizes].sort((a, b) => a - b),
    windowS: num("--window", 30),
    users: num("--users", 20),
    runs: num("--runs", 5),
    cli: !argv.includes("--no-cli"),
    build: !argv.includes("--no-build"),
    profile: argv.includes("--profile"),
    chunk: num("--chunk", 10_000),
    out: path.resolve(ROOT, value("--out") ?? "bench/console-report.json"),
    workingTree: argv.includes("--working-tree"),
  };
}

// ---- targets (issue #8) ---------------------------------------------------------------------

export type TargetKey =
  "listPage" | "filter" | "accessOrDetail" | "resourcesIndex" | "concurrentP99" | "create500" | "rssMb" | "peakRssMb";
export const TARGETS: Record<TargetKey, { "100k": number; "300k": number; what: string }> = {
  listPage: { "100k": 150, "300k": 300, what: "ACL list page 1, any page N (ms)" },
  filter: { "100k": 100, "300k": 200, what: "filter change: principal, resource name, operation (ms)" },
  accessOrDetail: { "100k": 30, "300k": 60, what: "access check; topic detail with the matrix (ms)" },
  resourcesIndex: { "100k": 200, "300k": 400, what: "resources index (ms)" },
  concurrentP99: { "100k": 1000, "300k": 2000, what: "20 concurrent users, list and filter, p99 (ms)" },
  create500: { "100k": 2000, "300k": 3000, what: "create 500 ACLs in one request (ms)" },
  rssMb: { "100k": 450, "300k": 600, what: "Next server RSS after the run, once idle for 15 s (MB)" },
  // Issue #17: the same bound while busy, not only once idle.
  peakRssMb: {
    "100k": 450,
    "300k": 600,
    what: "Next server peak RSS (VmHWM) from its restart through the users' run and the writes (MB)",
  },
};
/** Sizes up to 100k are held to the 100k column, larger ones to the 300k column. */
export const tierOf = (size: number): "100k" | "300k" => (size <= 100_000 ? "100k" : "300k");
