import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllConnections, verifyCredentials } from "./client";
import { deleteScramCredential, describeScramUsers, upsertScramCredential } from "./scram";
import { ADMIN, createScramUser, dropScramUser, runId } from "@/test/kafka/fixtures";
import type { KafkaCredential } from "./types";

const id = runId();
const user = `it-scram-${id}`;
const outsider = `it-scram-outsider-${id}`;
let outsiderCred: KafkaCredential;

beforeAll(async () => {
  outsiderCred = await createScramUser(outsider);
});

afterAll(async () => {
  await deleteScramCredential(ADMIN, user, "SCRAM-SHA-256").catch(() => undefined);
  await deleteScramCredential(ADMIN, user, "SCRAM-SHA-512").catch(() => undefined);
  await dropScramUser(outsider);
  await closeAllConnections();
});

describe("SCRAM credentials as the super user", () => {
  it("creates credentials for both mechanisms that the broker then accepts for sign-in", async () => {
    await upsertScramCredential(ADMIN, user, "SCRAM-SHA-512", "first-password", 4096);
    await upsertScramCredential(ADMIN, user, "SCRAM-SHA-256", "first-password");

    const [described] = await describeScramUsers(ADMIN, [user]);
    expect(described?.error).toBeNull();
    expect(described?.credentials).toEqual(
      expect.arrayContaining([
        { mechanism: "SCRAM-SHA-512", iterations: 4096 },
        { mechanism: "SCRAM-SHA-256", iterations: 8192 },
      ]),
    );
    await expect(
      verifyCredentials({ username: user, password: "first-password", mechanism: "SCRAM-SHA-512" }),
    ).resolves.toEqual({
      principal: `User:${user}`,
    });
    await expect(
      verifyCredentials({ username: user, password: "first-password", mechanism: "SCRAM-SHA-256" }),
    ).resolves.toBeDefined();
  });

  it("replaces a password: the old one stops working, the new one works", async () => {
    await upsertScramCredential(ADMIN, user, "SCRAM-SHA-512", "second-password", 8192);
    await expect(
      verifyCredentials({ username: user, password: "second-password", mechanism: "SCRAM-SHA-512" }),
    ).resolves.toBeDefined();
    await expect(
      verifyCredentials({ username: user, password: "first-password", mechanism: "SCRAM-SHA-512" }),
    ).rejects.toMatchObject({
      code: "SASL_AUTHENTICATION_FAILED",
    });
  });

  it("lists all users when asked for null, and marks unknown users RESOURCE_NOT_FOUND", async () => {
    const all = await describeScramUsers(ADMIN, null);
    expect(all.map((u) => u.user)).toEqual(expect.arrayContaining(["admin", user]));
    const [unknown] = await describeScramUsers(ADMIN, [`nobody-${id}`]);
    expect(unknown?.error?.code).toBe("RESOURCE_NOT_FOUND");
    expect(unknown?.credentials).toEqual([]);
  });

  it("rejects iterations below Kafka's minimum with a readable reason", async () => {
    await expect(upsertScramCredential(ADMIN, user, "SCRAM-SHA-512", "x", 100)).rejects.toMatchObject({
      code: "UNACCEPTABLE_CREDENTIAL",
      api: "AlterUserScramCredentials",
    });
  });

  it("deletes one mechanism: sign-in with it fails, the other still works", async () => {
    await deleteScramCredential(ADMIN, user, "SCRAM-SHA-256");
    await expect(
      verifyCredentials({ username: user, password: "first-password", mechanism: "SCRAM-SHA-256" }),
    ).rejects.toMatchObject({
      code: "SASL_AUTHENTICATION_FAILED",
    });
    await expect(
      verifyCredentials({ username: user, password: "second-password", mechanism: "SCRAM-SHA-512" }),
    ).resolves.toBeDefined();
    await expect(deleteScramCredential(ADMIN, user, "SCRAM-SHA-256")).rejects.toMatchObject({
      code: "RESOURCE_NOT_FOUND",
    });
  });
});

describe("SCRAM credentials as a principal without cluster permissions", () => {
  it("cannot list users (DESCRIBE on the cluster) nor change a password (ALTER on the cluster)", async () => {
    await expect(describeScramUsers(outsiderCred, null)).rejects.toMatchObject({
      code: "CLUSTER_AUTHORIZATION_FAILED",
      message: `Kafka refused DescribeUserScramCredentials: User:${outsider} needs DESCRIBE on CLUSTER kafka-cluster.`,
    });
    await expect(upsertScramCredential(outsiderCred, "admin", "SCRAM-SHA-512", "pwned")).rejects.toMatchObject({
      code: "CLUSTER_AUTHORIZATION_FAILED",
      message: `Kafka refused AlterUserScramCredentials: User:${outsider} needs ALTER on CLUSTER kafka-cluster.`,
    });
    await expect(verifyCredentials(ADMIN)).resolves.toBeDefined();
  });
});
