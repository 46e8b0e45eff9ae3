/**
 * The console's Prometheus metrics (prom-client), one registry per process:
 *
 *   ksc_http_request_duration_seconds{method,route,status}  request latency; `route` is
 *       the page or route pattern Next matched (/api/v1/plans/[id]), never the raw
 *       address with its ids (lib/observability/routes.ts)
 *   ksc_http_requests_in_flight                             requests being served
 *   ksc_kafka_requests_total{api,outcome}                   Kafka calls by API and "ok"
 *       or Kafka's error code (lib/kafka/client.ts reports them through hooks.ts)
 *   ksc_kafka_request_duration_seconds{api}                 their latency
 *   ksc_kafka_pooled_connections                            pooled Admin connections
 *       (one per signed-in credential in use)
 *   ksc_acl_snapshot_age_seconds / ksc_acl_snapshot_acls     the shared ACL snapshot's age
 *       and size (absent while none is held)
 *   ksc_ready                                               the last readiness answer (1 up, 0 down)
 *   plus Node's process metrics (CPU, memory, event loop lag, handles).
 *
 * The server (scripts/server.ts) creates it and serves it on METRICS_PORT or at
 * /api/metrics behind METRICS_TOKEN; nothing is exposed unless one of them is set.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { AclSnapshotInfo } from "../services/acl-snapshot";
import { installObservabilitySink } from "./hooks";

export interface MetricSources {
  /** Pooled Kafka connections of this process. */
  kafkaPooledConnections(): number;
  /** The ACL snapshots held now (one per cluster). */
  aclSnapshots(): (AclSnapshotInfo | null)[];
  /** The last readiness answer, if any was asked for. */
  lastReady(): boolean | undefined;
}

export interface ConsoleMetrics {
  registry: Registry;
  /** Records a served request; `route` is already normalised. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  requestStarted(): void;
  requestFinished(): void;
  /** The registry in Prometheus' text format, and its content type. */
  render(): Promise<{ body: string; contentType: string }>;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The ACL snapshots held by this process (lib/services/acl-snapshot.ts keeps them on globalThis). */
export function heldAclSnapshots(): (AclSnapshotInfo | null)[] {
  const caches = (
    globalThis as {
      __kafkaSecurityConsoleAclSnapshots?: Map<string, { heldSnapshotInfo?: () => AclSnapshotInfo | null }>;
    }
  ).__kafkaSecurityConsoleAclSnapshots;
  return caches ? [...caches.values()].map((cache) => cache.heldSnapshotInfo?.() ?? null) : [];
}

export function createMetrics(sources: MetricSources): ConsoleMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requestDuration = new Histogram({
    name: "ksc_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const inFlight = new Gauge({ name: "ksc_http_requests_in_flight", help: "HTTP requests being served.", registers });
  const kafkaCalls = new Counter({
    name: "ksc_kafka_requests_total",
    help: 'Kafka API calls made by the console, by API and outcome ("ok" or Kafka\'s error code).',
    labelNames: ["api", "outcome"] as const,
    registers,
  });
  const kafkaDuration = new Histogram({
    name: "ksc_kafka_request_duration_seconds",
    help: "Time of a Kafka API call made by the console, by API.",
    labelNames: ["api"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  new Gauge({
    name: "ksc_kafka_pooled_connections",
    help: "Pooled Kafka Admin connections (one per signed-in credential in use).",
    registers,
    collect() {
      this.set(sources.kafkaPooledConnections());
    },
  });
  new Gauge({
    name: "ksc_acl_snapshot_age_seconds",
    help: "Age of the shared ACL snapshot (absent while none is held).",
    registers,
    collect() {
      this.reset();
      const held = sources.aclSnapshots().filter((s) => s !== null);
      if (held.length > 0) this.set(Math.max(...held.map((s) => s.ageMs)) / 1000);
    },
  });
  new Gauge({
    name: "ksc_acl_snapshot_acls",
    help: "ACLs in the shared ACL snapshot (absent while none is held).",
    registers,
    collect() {
      this.reset();
      const held = sources.aclSnapshots().filter((s) => s !== null);
      if (held.length > 0) this.set(held.reduce((n, s) => n + s.size, 0));
    },
  });
  new Gauge({
    name: "ksc_ready",
    help:
      "The last readiness answer: 1 when the database and Kafka were reachable, 0 when not (absent before the " +
      "first probe).",
    registers,
    collect() {
      this.reset();
      const ready = sources.lastReady();
      if (ready !== undefined) this.set(ready ? 1 : 0);
    },
  });

  installObservabilitySink({
    kafkaCall(api, outcome, seconds) {
      kafkaCalls.inc({ api, outcome });
      kafkaDuration.observe({ api }, seconds);
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requestDuration.observe({ method, route, status: String(status) }, seconds);
    },
    requestStarted: () => inFlight.inc(),
    requestFinished: () => inFlight.dec(),
    async render() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}
