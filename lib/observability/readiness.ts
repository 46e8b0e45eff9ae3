/**
 * Readiness: the console can serve when its database answers and Kafka is reachable.
 *
 * Kafka is proven reachable with an ApiVersions exchange with one of the bootstrap
 * brokers (TLS when the console is configured for it). Kafka answers ApiVersions before
 * any SASL authentication, so the probe needs no credential: the console has none of its
 * own (it acts as each signed-in user), and a load balancer's probe must never hold a
 * user's password. The database is asked `select 1` through the console's pool.
 *
 * Load balancers probe often and many at once: one answer is reused for CACHE_MS and
 * concurrent probes share the check in progress, so a probe storm costs Kafka and the
 * database at most one exchange each per CACHE_MS. Each check gives up after TIMEOUT_MS.
 * A TLS failure is logged as what it is (an untrusted certificate, TLS spoken to a
 * plaintext listener or the other way round), as sign-in reports it.
 */
import net from "node:net";
import tls, { type ConnectionOptions } from "node:tls";
import { plaintextToTlsMessage, transportFailureMessage } from "../kafka/errors";

export const READY_CACHE_MS = 1_500;
export const READY_TIMEOUT_MS = 2_000;

const API_VERSIONS = 18;

/** Resolves once `host:port` answered an ApiVersions v0 request without an error code. */
export function kafkaApiVersions(server: string, options: { tls?: ConnectionOptions; timeoutMs?: number; clientId?: string } = {}): Promise<void> {
  const separator = server.lastIndexOf(":");
  const host = server.slice(0, separator).replace(/^\[(.*)\]$/, "$1");
  const port = Number(server.slice(separator + 1));
  const correlationId = Math.floor(Math.random() * 0x7fffffff);
  const clientId = Buffer.from(options.clientId ?? "kafka-security-console-readiness");
  const request = Buffer.alloc(4 + 2 + 2 + 4 + 2 + clientId.length);
  request.writeInt32BE(request.length - 4, 0);
  request.writeInt16BE(API_VERSIONS, 4);
  request.writeInt16BE(0, 6);
  request.writeInt32BE(correlationId, 8);
  request.writeInt16BE(clientId.length, 12);
  clientId.copy(request, 14);

  return new Promise<void>((resolve, reject) => {
    const socket = options.tls
      ? tls.connect({ ...options.tls, host, port, servername: net.isIP(host) ? undefined : host })
      : net.connect({ host, port });
    let received = Buffer.alloc(0);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new Error("timed out")), options.timeoutMs ?? READY_TIMEOUT_MS);
    socket.once(options.tls ? "secureConnect" : "connect", () => socket.write(request));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // Size, correlation id and error code are all this needs of the answer.
      if (received.length < 10) return;
      if (received.readInt32BE(4) !== correlationId) return finish(new Error("not a Kafka answer"));
      const errorCode = received.readInt16BE(8);
      finish(errorCode === 0 ? undefined : new Error(`ApiVersions error ${errorCode}`));
    });
    socket.on("error", (error: Error) => finish(new Error(transportFailureMessage(error, { tls: Boolean(options.tls), server }) ?? error.message, { cause: error })));
    // A plaintext listener answers ApiVersions; one that hangs up on it probably speaks TLS.
    socket.on("close", () => finish(new Error(options.tls ? "closed before answering" : plaintextToTlsMessage(server))));
  });
}

/** Resolves when any of `servers` answers (they are asked at the same time). */
export function anyKafkaBrokerAnswers(servers: readonly string[], options: { tls?: ConnectionOptions; timeoutMs?: number } = {}): Promise<void> {
  return Promise.any(servers.map((server) => kafkaApiVersions(server, options))).then(() => undefined);
}

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
export function readinessProbe(checks: ReadinessChecks, options: { cacheMs?: number; timeoutMs?: number; now?: () => number } = {}) {
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
      reason instanceof AggregateError ? reason.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join("; ") : reason instanceof Error ? reason.message : String(reason);
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
