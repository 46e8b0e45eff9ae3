import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllConnections, closeConnectionsFor, pooledConnectionCount, verifyCredentials } from "./client";
import { describeCluster } from "./cluster";
import { loadKafkaConfig } from "@/lib/kafka-config";
import { KafkaOperationError } from "./errors";
import { ADMIN, createScramUser, dropScramUser, runId } from "@/test/kafka/fixtures";
import type { KafkaCredential } from "./types";

const user = `it-conn-${runId()}`;
let scramUser: KafkaCredential;

beforeAll(async () => {
  scramUser = await createScramUser(user);
});

afterAll(async () => {
  await dropScramUser(user);
  await closeAllConnections();
});

describe("verifyCredentials", () => {
  it("accepts the admin over SCRAM-SHA-512 and SCRAM-SHA-256, and a static PLAIN user", async () => {
    await expect(verifyCredentials(ADMIN)).resolves.toEqual({ principal: "User:admin" });
    await expect(verifyCredentials({ ...ADMIN, mechanism: "SCRAM-SHA-256" })).resolves.toEqual({
      principal: "User:admin",
    });
    await expect(
      verifyCredentials({ username: "alice", password: "alice-secret", mechanism: "PLAIN" }),
    ).resolves.toEqual({
      principal: "User:alice",
    });
  });

  it("accepts a SCRAM user created through the adapter", async () => {
    await expect(verifyCredentials(scramUser)).resolves.toEqual({ principal: `User:${user}` });
  });

  it("rejects a wrong password with SASL_AUTHENTICATION_FAILED and a message naming the user", async () => {
    const error = await verifyCredentials({ ...scramUser, password: "not-the-password" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect((error as KafkaOperationError).code).toBe("SASL_AUTHENTICATION_FAILED");
    expect((error as KafkaOperationError).message).toBe(
      `Kafka rejected the credentials of ${user}: wrong username, password or SASL mechanism.`,
    );
  });

  it("rejects a mechanism the user has no credential for", async () => {
    // The user only has SCRAM-SHA-512; SCRAM-SHA-256 must fail even with the right password.
    const error = await verifyCredentials({ ...scramUser, mechanism: "SCRAM-SHA-256" }).catch((e: unknown) => e);
    expect((error as KafkaOperationError).code).toBe("SASL_AUTHENTICATION_FAILED");
  });

  it("reports an unreachable broker as BROKER_UNAVAILABLE, not as bad credentials", async () => {
    const config = loadKafkaConfig({ KAFKA_BOOTSTRAP_SERVERS: "127.0.0.1:1" });
    const error = await verifyCredentials(ADMIN, config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect((error as KafkaOperationError).code).toBe("BROKER_UNAVAILABLE");
    expect((error as KafkaOperationError).message).toMatch(/^Kafka is unreachable: .*127\.0\.0\.1:1/);
  });
});

describe("connection pool", () => {
  it("reuses one connection per credential and closes them per user", async () => {
    await closeConnectionsFor(scramUser);
    await describeCluster(scramUser);
    await describeCluster(scramUser);
    expect(pooledConnectionCount(user)).toBe(1);

    // Same user, another mechanism/password: a separate connection, never the old one.
    await describeCluster({ ...ADMIN, mechanism: "SCRAM-SHA-256" });
    expect(pooledConnectionCount("admin")).toBeGreaterThanOrEqual(1);

    await closeConnectionsFor(scramUser);
    expect(pooledConnectionCount(user)).toBe(0);
    // A closed user's next call opens a fresh connection.
    const cluster = await describeCluster(scramUser);
    expect(cluster.brokers.length).toBeGreaterThan(0);
    expect(pooledConnectionCount(user)).toBe(1);
  });

  it("does not keep a connection whose credential the broker rejects", async () => {
    const bad: KafkaCredential = { ...scramUser, password: "wrong" };
    await expect(describeCluster(bad)).rejects.toMatchObject({ code: "SASL_AUTHENTICATION_FAILED" });
    await closeConnectionsFor(scramUser);
    await expect(describeCluster(bad)).rejects.toMatchObject({ code: "SASL_AUTHENTICATION_FAILED" });
    expect(pooledConnectionCount(user)).toBe(0);
  });
});
