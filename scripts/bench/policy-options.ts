/**
 * The flags of the policy and plan suites (scripts/bench/main.ts lists them), and the
 * settings they imply for every part of those suites.
 */
const args = process.argv.slice(2);

export const QUICK = args.includes("--quick");
export const WITH_JAVA = !args.includes("--no-java");
/** Only the realistic-mixed row (for profiling the authorize path against Kafka quickly). */
export const MIXED_ONLY = args.includes("--mixed-only");

/** Warm-up and measurement inside each row's process, the same on both sides. */
export const WARMUP_MS = QUICK ? 500 : 3000;
export const MEASURE_MS = QUICK ? 500 : 3000;
/** The MATCH lookup of part 2. */
export const TS_WARMUP_MS = QUICK ? 300 : 1500;
export const TS_MEASURE_MS = QUICK ? 500 : 2500;
export const SEED = 20_241_130;

/** The heap of the row processes of the 200,000-resource rows (over 2 million ACLs). */
export const HEAP_MB = 8192;
