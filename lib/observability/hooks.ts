/**
 * What the console's server (scripts/server.ts) measures about work done deep inside the
 * Next bundle, without the bundle importing prom-client: lib/kafka calls
 * `recordKafkaCall`, which hands the call to the sink the server installed on globalThis
 * (lib/observability/metrics.ts). Without a server (tests, `next dev`, scripts) nothing
 * is installed and the call costs one property read.
 *
 * On globalThis because the bundle and the server load their own copies of this module.
 */
export interface ObservabilitySink {
  /** A Kafka API call as the console made it: which API, "ok" or the error code, how long. */
  kafkaCall(api: string, outcome: string, seconds: number): void;
}

const slot = globalThis as typeof globalThis & { __kafkaSecurityConsoleObservability?: ObservabilitySink };

export function installObservabilitySink(sink: ObservabilitySink | undefined): void {
  slot.__kafkaSecurityConsoleObservability = sink;
}

/** Records one Kafka call (started at `startedAt`, a performance.now() reading). */
export function recordKafkaCall(api: string, outcome: string, startedAt: number): void {
  const sink = slot.__kafkaSecurityConsoleObservability;
  if (sink) sink.kafkaCall(api, outcome, (performance.now() - startedAt) / 1000);
}
