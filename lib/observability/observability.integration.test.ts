/**
 * Readiness and Kafka metrics against the real dev broker (KAFKA_BOOTSTRAP_SERVERS or
 * 127.0.0.1:9092) and PostgreSQL (DATABASE_URL): no mocks.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { closeAllConnections, describeCluster, kafkaConfig, listTopics, verifyCredentials } from "@/lib/kafka";
import { disconnectPrisma, getPrisma } from "@/lib/db/client";
import { installObservabilitySink } from "./hooks";
import { createMetrics } from "./metrics";
import { anyKafkaBrokerAnswers, kafkaApiVersions } from "../kafka/api-versions";
import { readinessProbe } from "./readiness";

const admin = { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" as const };

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

afterAll(async () => {
  installObservabilitySink(undefined);
  await closeAllConnections();
  await disconnectPrisma();
});

describe("Kafka reachability without a credential", () => {
  it("a bootstrap broker answers ApiVersions before any SASL authentication", async () => {
    const { bootstrapServers, tls } = kafkaConfig();
    await expect(kafkaApiVersions(bootstrapServers[0]!, { tls })).resolves.toBeUndefined();
    // One reachable broker among unreachable ones is enough.
    await expect(
      anyKafkaBrokerAnswers([`127.0.0.1:${await closedPort()}`, bootstrapServers[0]!], { tls }),
    ).resolves.toBeUndefined();
  });

  it("a closed port, and a listener that is not Kafka, are not reachable Kafka", async () => {
    await expect(kafkaApiVersions(`127.0.0.1:${await closedPort()}`)).rejects.toThrow(/ECONNREFUSED/);
    const notKafka = http.createServer((_req, res) => res.end("hello"));
    await new Promise<void>((r) => notKafka.listen(0, "127.0.0.1", r));
    try {
      const started = Date.now();
      await expect(
        kafkaApiVersions(`127.0.0.1:${(notKafka.address() as net.AddressInfo).port}`, { timeoutMs: 1_000 }),
      ).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      notKafka.close();
      notKafka.closeAllConnections();
    }
  });

  it("readiness: up with the database and the broker, down when the broker is unreachable", async () => {
    const { bootstrapServers, tls } = kafkaConfig();
    const database = () => getPrisma().$queryRaw`select 1`;
    const up = readinessProbe(
      { database, kafka: () => anyKafkaBrokerAnswers(bootstrapServers, { tls }) },
      { cacheMs: 0 },
    );
    expect(await up.check()).toEqual({ ready: true, problems: [] });
    const port = await closedPort();
    const down = readinessProbe(
      { database, kafka: () => anyKafkaBrokerAnswers([`127.0.0.1:${port}`]) },
      { cacheMs: 0 },
    );
    const result = await down.check();
    expect(result.ready).toBe(false);
    expect(result.problems.join()).toContain("kafka:");
  });
});

describe("Kafka calls in the metrics", () => {
  it("counts the console's Kafka calls by API and outcome, with their latency", async () => {
    const metrics = createMetrics({
      kafkaPooledConnections: () => 0,
      aclSnapshots: () => [],
      lastReady: () => undefined,
    });
    await describeCluster(admin);
    await listTopics(admin);
    await expect(verifyCredentials({ ...admin, password: "wrong-password" })).rejects.toMatchObject({
      code: "SASL_AUTHENTICATION_FAILED",
    });
    const { body } = await metrics.render();
    expect(body).toMatch(/ksc_kafka_requests_total\{api="Metadata",outcome="ok"\} [1-9]/);
    expect(body).toMatch(/ksc_kafka_requests_total\{api="SaslAuthenticate",outcome="SASL_AUTHENTICATION_FAILED"\} 1/);
    expect(body).toMatch(/ksc_kafka_request_duration_seconds_count\{api="Metadata"\} [1-9]/);
    expect(body).not.toContain("wrong-password");
  });
});
