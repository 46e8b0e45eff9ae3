/**
 * How the policy bench times things on a shared machine: the best of N runs, or the best
 * of equal windows of a timed loop (with wall and CPU time), peak RSS, and the figures'
 * formatting.
 */
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
export const gc = vm.runInNewContext("gc") as () => void;

export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

function nowNs(): bigint {
  return process.hrtime.bigint();
}

/**
 * Runs `fn` for warmupMs, then measures for measureMs cut into `windows` equal slices.
 * Returns the mean ns per call over the whole measurement (what JMH reports), the best
 * window (the figure least disturbed by other processes on a shared machine) and the best
 * window in CPU time of this thread (time the process spent waiting for a core left out).
 */
export function timeLoop(
  fn: () => unknown,
  warmupMs: number,
  measureMs: number,
  windows = 10,
): { nsPerOp: number; nsPerOpBest: number; cpuNsPerOpBest: number; iterations: number; sink: unknown } {
  let sink: unknown;
  const warmEnd = nowNs() + BigInt(warmupMs) * 1_000_000n;
  while (nowNs() < warmEnd) for (let i = 0; i < 16; i++) sink = fn();
  const windowNs = BigInt(Math.max(1, Math.floor((measureMs * 1_000_000) / windows)));
  let iterations = 0;
  let totalNs = 0;
  let best = Number.POSITIVE_INFINITY;
  let cpuBest = Number.POSITIVE_INFINITY;
  for (let w = 0; w < windows; w++) {
    const cpu0 = process.threadCpuUsage();
    const start = nowNs();
    const end = start + windowNs;
    let n = 0;
    let t: bigint;
    do {
      sink = fn();
      n++;
      t = nowNs();
    } while (t < end);
    const ns = Number(t - start);
    const cpu = process.threadCpuUsage(cpu0);
    iterations += n;
    totalNs += ns;
    best = Math.min(best, ns / n);
    cpuBest = Math.min(cpuBest, ((cpu.user + cpu.system) * 1000) / n);
  }
  return { nsPerOp: totalNs / iterations, nsPerOpBest: best, cpuNsPerOpBest: cpuBest, iterations, sink };
}

/**
 * Wall and CPU time of `runs` calls of `fn` (after one untimed call). With `collectFirst`
 * each call starts after a full GC, so that the garbage of the previous call is not
 * collected inside the next one (for the index build; a full GC before a small call
 * makes it slower than it is in steady use).
 */
export function bestOf(
  runs: number,
  fn: () => unknown,
  collectFirst = false,
): { bestMs: number; medianMs: number; cpuMedianMs: number; firstMs: number } {
  const t0 = performance.now();
  fn();
  const firstMs = performance.now() - t0;
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (collectFirst) gc();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    fn();
    walls.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  return { bestMs: Math.min(...walls), medianMs: median(walls), cpuMedianMs: median(cpus), firstMs };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export const fmt = (n: number | null | undefined, digits = 1): string =>
  n === null || n === undefined || Number.isNaN(n) ? "n/a" : n.toFixed(digits);

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
