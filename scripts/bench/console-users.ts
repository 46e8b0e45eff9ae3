/**
 * The console bench's concurrent users: each signed in on its own, looping "a random page
 * of the list, then a random filter" for the window; latency percentiles and throughput.
 */
import { ApiError, percentile, round, type ConsoleUser } from "./console-http";
import { q, type Sample } from "./console-questions";
import { serverCpuMs } from "./console-server";

// ---- twenty users ---------------------------------------------------------------------------

export interface Concurrency {
  users: number;
  seconds: number;
  requests: number;
  errors: number;
  firstError: string | null;
  throughputPerS: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The server's CPU time over the window / requests, and / window (1 = one core busy all along). */
  serverCpuMsPerRequest: number;
  serverCores: number;
}

export async function concurrentUsers(
  users: ConsoleUser[],
  s: Sample,
  pages: number,
  windowS: number,
  pid: number,
): Promise<Concurrency> {
  const cpu0 = serverCpuMs(pid);
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const times: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const t0 = performance.now();
  const end = t0 + windowS * 1000;
  const one = async (user: ConsoleUser, path: string) => {
    try {
      const r = await user.get(path);
      times.push(r.ms);
    } catch (error) {
      errors++;
      firstError ??= error instanceof ApiError ? error.message : String(error);
    }
  };
  await Promise.all(
    users.map(async (user) => {
      while (performance.now() < end) {
        await one(user, `/api/v1/acls?${q({ page: 1 + rand(pages) })}`);
        if (performance.now() >= end) break;
        const f = rand(3);
        const filter: Record<string, string | number> =
          f === 0
            ? { principal: s.principals[rand(s.principals.length)]! }
            : f === 1
              ? { resourceName: s.topics[rand(s.topics.length)]! }
              : { operation: s.operations[rand(s.operations.length)]!, page: 1 + rand(5) };
        await one(user, `/api/v1/acls?${q(filter)}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = serverCpuMs(pid) - cpu0;
  return {
    serverCpuMsPerRequest: round(cpu / Math.max(1, times.length)),
    serverCores: Math.round((cpu / 1000 / seconds) * 100) / 100,
    users: users.length,
    seconds: round(seconds),
    requests: times.length,
    errors,
    firstError,
    throughputPerS: round(times.length / seconds),
    p50Ms: Math.round(percentile(times, 50)),
    p90Ms: Math.round(percentile(times, 90)),
    p99Ms: Math.round(percentile(times, 99)),
    maxMs: Math.round(Math.max(...times)),
  };
}
