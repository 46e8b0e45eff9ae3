/**
 * Readiness: the console can serve when its database answers and Kafka is reachable.
 *
 * Kafka is proven reachable with an ApiVersions exchange with one of the bootstrap
 * brokers (TLS when the console is configured for it; lib/kafka/api-versions.ts). Kafka
 * answers ApiVersions before any SASL authentication, so the probe needs no credential:
 * the console has none of its own (it acts as each signed-in user), and a load
 * balancer's probe must never hold a user's password. The database is asked `select 1` through the console's pool.
 *
 * Load balancers probe often and many at once: one answer is reused for CACHE_MS and
 * concurrent probes share the check in progress, so a probe storm costs Kafka and the
 * database at most one exchange each per CACHE_MS. Each check gives up after TIMEOUT_MS.
 * A TLS failure is logged as what it is (an untrusted certificate, TLS spoken to a
 * plaintext listener or the other way round), as sign-in reports it.
 */
import { API_VERSIONS_TIMEOUT_MS } from "../kafka/api-versions";

export const READY_CACHE_MS = 1_500;
export const READY_TIMEOUT_MS = API_VERSIONS_TIMEOUT_MS;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timed out")), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

export interface ReadinessChecks {
  database(): Promise<unknown>;
  kafka(): Promise<unknown>;
}

export interface ReadinessResult {
  ready: boolean;
  /** For the console's own log only, never for the answer: which check failed and why. */
  problems: string[];
}

/**
 * A readiness probe over `checks`, its answer cached for `cacheMs` and shared by
 * concurrent callers.
 */
export function readinessProbe(
  checks: ReadinessChecks,
  options: { cacheMs?: number; timeoutMs?: number; now?: () => number } = {},
) {
  const cacheMs = options.cacheMs ?? READY_CACHE_MS;
  const timeoutMs = options.timeoutMs ?? READY_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  let last: { at: number; result: ReadinessResult } | undefined;
  let inflight: Promise<ReadinessResult> | undefined;

  const run = async (): Promise<ReadinessResult> => {
    const attempt = (check: () => Promise<unknown>) => withTimeout(Promise.resolve().then(check), timeoutMs);
    const outcomes = await Promise.allSettled([attempt(() => checks.database()), attempt(() => checks.kafka())]);
    const problems: string[] = [];
    const describe = (reason: unknown) =>
      reason instanceof AggregateError
        ? reason.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join("; ")
        : reason instanceof Error
          ? reason.message
          : String(reason);
    if (outcomes[0].status === "rejected") problems.push(`database: ${describe(outcomes[0].reason)}`);
    if (outcomes[1].status === "rejected") problems.push(`kafka: ${describe(outcomes[1].reason)}`);
    return { ready: problems.length === 0, problems };
  };

  return {
    check(): Promise<ReadinessResult> {
      if (last && now() - last.at < cacheMs) return Promise.resolve(last.result);
      inflight ??= run()
        .then((result) => {
          last = { at: now(), result };
          return result;
        })
        .finally(() => {
          inflight = undefined;
        });
      return inflight;
    },
    /** The last answer, if any probe asked. */
    last: (): boolean | undefined => last?.result.ready,
  };
}
