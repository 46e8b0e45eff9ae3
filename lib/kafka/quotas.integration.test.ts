import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllConnections } from "./client";
import { KafkaOperationError } from "./errors";
import { alterClientQuotas, describeClientQuotas, entityKey } from "./quotas";
import { ADMIN, createScramUser, dropScramUser, runId } from "@/test/kafka/fixtures";
import type { KafkaCredential, QuotaEntry } from "./types";

const id = runId();
const user = `it-quota-${id}`;
const outsider = `it-quota-outsider-${id}`;
// A documentation-range address unique to this run, so parallel suites never collide.
const ip = `198.51.100.${(parseInt(id.slice(0, 2), 16) % 254) + 1}`;
let outsiderCred: KafkaCredential;

const byEntity = (entries: QuotaEntry[]) => new Map(entries.map((e) => [entityKey(e.entity), e.values]));

beforeAll(async () => {
  outsiderCred = await createScramUser(outsider);
});

afterAll(async () => {
  await alterClientQuotas(ADMIN, [
    {
      entity: { user },
      ops: [
        { key: "producer_byte_rate", value: null },
        { key: "request_percentage", value: null },
      ],
    },
    { entity: { user, "client-id": "api" }, ops: [{ key: "producer_byte_rate", value: null }] },
    { entity: { user, "client-id": null }, ops: [{ key: "consumer_byte_rate", value: null }] },
    { entity: { ip }, ops: [{ key: "connection_creation_rate", value: null }] },
  ]);
  await dropScramUser(outsider);
  await closeAllConnections();
});

describe("client quotas as the super user", () => {
  it("sets user, user+client-id, user+<default client-id> and ip quotas and reads them back", async () => {
    const results = await alterClientQuotas(ADMIN, [
      {
        entity: { user },
        ops: [
          { key: "producer_byte_rate", value: 1_048_576 },
          { key: "request_percentage", value: 12.5 },
        ],
      },
      { entity: { user, "client-id": "api" }, ops: [{ key: "producer_byte_rate", value: 524_288 }] },
      { entity: { user, "client-id": null }, ops: [{ key: "consumer_byte_rate", value: 2_000 }] },
      { entity: { ip }, ops: [{ key: "connection_creation_rate", value: 30 }] },
    ]);
    expect(results.map((r) => r.error)).toEqual([null, null, null, null]);

    const forUser = byEntity(
      await describeClientQuotas(ADMIN, { components: [{ entityType: "user", matchType: "EXACT", match: user }] }),
    );
    expect(forUser.get(entityKey({ user }))).toEqual({ producer_byte_rate: 1_048_576, request_percentage: 12.5 });
    expect(forUser.get(entityKey({ user, "client-id": "api" }))).toEqual({ producer_byte_rate: 524_288 });
    expect(forUser.get(entityKey({ user, "client-id": null }))).toEqual({ consumer_byte_rate: 2_000 });
    expect(forUser.size).toBe(3);

    const ipQuotas = await describeClientQuotas(ADMIN, {
      components: [{ entityType: "ip", matchType: "EXACT", match: ip }],
      strict: true,
    });
    expect(ipQuotas).toEqual([{ entity: { ip }, values: { connection_creation_rate: 30 } }]);
  });

  it("strict filters return only entities with exactly the filter's types; DEFAULT finds <default>", async () => {
    const strict = await describeClientQuotas(ADMIN, {
      components: [{ entityType: "user", matchType: "EXACT", match: user }],
      strict: true,
    });
    expect(strict).toEqual([{ entity: { user }, values: { producer_byte_rate: 1_048_576, request_percentage: 12.5 } }]);

    const defaults = await describeClientQuotas(ADMIN, {
      components: [
        { entityType: "user", matchType: "EXACT", match: user },
        { entityType: "client-id", matchType: "DEFAULT", match: null },
      ],
      strict: true,
    });
    expect(defaults).toEqual([{ entity: { user, "client-id": null }, values: { consumer_byte_rate: 2_000 } }]);

    const anyClient = await describeClientQuotas(ADMIN, {
      components: [
        { entityType: "user", matchType: "EXACT", match: user },
        { entityType: "client-id", matchType: "SPECIFIED", match: null },
      ],
      strict: true,
    });
    // Kafka's SPECIFIED ("any") matches the named client and <default> alike.
    expect(anyClient.map((e) => entityKey(e.entity)).sort()).toEqual(
      [entityKey({ user, "client-id": "api" }), entityKey({ user, "client-id": null })].sort(),
    );
  });

  it("validateOnly checks without applying; removing a key with null deletes it", async () => {
    await alterClientQuotas(
      ADMIN,
      [{ entity: { user, "client-id": "api" }, ops: [{ key: "producer_byte_rate", value: 1 }] }],
      true,
    );
    let api = await describeClientQuotas(ADMIN, {
      components: [
        { entityType: "user", matchType: "EXACT", match: user },
        { entityType: "client-id", matchType: "EXACT", match: "api" },
      ],
      strict: true,
    });
    expect(api[0]?.values).toEqual({ producer_byte_rate: 524_288 });

    await alterClientQuotas(ADMIN, [
      { entity: { user, "client-id": "api" }, ops: [{ key: "producer_byte_rate", value: null }] },
    ]);
    api = await describeClientQuotas(ADMIN, {
      components: [
        { entityType: "user", matchType: "EXACT", match: user },
        { entityType: "client-id", matchType: "EXACT", match: "api" },
      ],
      strict: true,
    });
    expect(api).toEqual([]);
  });

  it("rejects invalid alterations per entity with Kafka's reason, applying the valid ones", async () => {
    const results = await alterClientQuotas(ADMIN, [
      { entity: { ip }, ops: [{ key: "producer_byte_rate", value: 10 }] },
      { entity: { user }, ops: [{ key: "producer_byte_rate", value: 0 }] },
      { entity: { user, "client-id": "api" }, ops: [{ key: "producer_byte_rate", value: 4_096 }] },
    ]);
    expect(results[0]?.error?.code).toBe("INVALID_REQUEST");
    expect(results[0]?.error?.message).toContain("producer_byte_rate");
    expect(results[1]?.error?.code).toBe("INVALID_REQUEST");
    expect(results[2]?.error).toBeNull();
    const api = await describeClientQuotas(ADMIN, {
      components: [
        { entityType: "user", matchType: "EXACT", match: user },
        { entityType: "client-id", matchType: "EXACT", match: "api" },
      ],
      strict: true,
    });
    expect(api[0]?.values).toEqual({ producer_byte_rate: 4_096 });
  });

  it("rejects an invalid filter (ip combined with user) as a whole", async () => {
    const error = await describeClientQuotas(ADMIN, {
      components: [
        { entityType: "user", matchType: "SPECIFIED", match: null },
        { entityType: "ip", matchType: "SPECIFIED", match: null },
      ],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect((error as KafkaOperationError).code).toBe("INVALID_REQUEST");
    // Malformed components reach the broker, which judges them (the policy core mirrors its answer).
    await expect(
      describeClientQuotas(ADMIN, { components: [{ entityType: "user", matchType: "EXACT", match: null }] }),
    ).rejects.toMatchObject({
      code: "INVALID_REQUEST",
    });
  });
});

describe("client quotas as a principal without cluster permissions", () => {
  it("cannot describe quotas and is told it needs DESCRIBE_CONFIGS on the cluster", async () => {
    const error = await describeClientQuotas(outsiderCred, { components: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CLUSTER_AUTHORIZATION_FAILED", api: "DescribeClientQuotas" });
    expect((error as Error).message).toBe(
      `Kafka refused DescribeClientQuotas: User:${outsider} needs DESCRIBE_CONFIGS on CLUSTER kafka-cluster.`,
    );
  });

  it("cannot alter quotas (per entity, ALTER_CONFIGS on the cluster) and nothing changes", async () => {
    const [result] = await alterClientQuotas(outsiderCred, [
      { entity: { user: outsider }, ops: [{ key: "producer_byte_rate", value: 1e9 }] },
    ]);
    expect(result?.error?.code).toBe("CLUSTER_AUTHORIZATION_FAILED");
    expect(result?.error?.message).toBe(
      `Kafka refused AlterClientQuotas: User:${outsider} needs ALTER_CONFIGS on CLUSTER kafka-cluster.`,
    );
    const after = await describeClientQuotas(ADMIN, {
      components: [{ entityType: "user", matchType: "EXACT", match: outsider }],
      strict: true,
    });
    expect(after).toEqual([]);
  });
});
