import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllConnections, describeAcls, describeClientQuotas, KafkaOperationError } from "@/lib/kafka";
import type { KafkaCredential } from "@/lib/kafka";
import {
  consumeWithGroup,
  createAcls,
  createDelegationToken,
  deleteConsumerGroups,
  expireDelegationToken,
} from "@/lib/kafka/writes";
import { seedDemoData, SEED_ADMIN } from "./seed-demo";

const user = (name: string): KafkaCredential => ({
  username: name,
  password: `${name}-secret`,
  mechanism: "SCRAM-SHA-512",
});
const alice = user("alice");
const bob = user("bob");
const run = randomBytes(4).toString("hex");
const groups: string[] = [];
const hmacs: string[] = [];

const allAcls = () =>
  describeAcls(SEED_ADMIN, {
    resourceType: "ANY",
    resourceName: null,
    patternType: "ANY",
    principal: null,
    host: null,
    operation: "ANY",
    permissionType: "ANY",
  });

beforeAll(async () => {
  await seedDemoData();
}, 120_000);

afterAll(async () => {
  for (const hmac of hmacs) await expireDelegationToken(SEED_ADMIN, hmac, -1).catch(() => undefined);
  await deleteConsumerGroups(SEED_ADMIN, groups).catch(() => undefined);
  await closeAllConnections();
});

describe("the demo seed", () => {
  it("is idempotent: a second run reports already seeded and changes no ACL or quota", async () => {
    const aclsBefore = await allAcls();
    const quotasBefore = await describeClientQuotas(SEED_ADMIN, { components: [] });
    const lines: string[] = [];
    await expect(seedDemoData((line) => lines.push(line))).resolves.toEqual({ seeded: false });
    expect(lines).toEqual(["demo data: already seeded"]);
    expect((await allAcls()).length).toBe(aclsBefore.length);
    expect(await describeClientQuotas(SEED_ADMIN, { components: [] })).toEqual(quotasBefore);
  });

  it("lets alice read orders with her own consumer group", async () => {
    const group = `alice-${run}`;
    groups.push(group);
    const records = await consumeWithGroup(alice, group, "orders", { max: 3 });
    expect(records).toHaveLength(3);
    expect(
      records.map((r) => JSON.parse(r.value) as { orderId: string }).every((o) => o.orderId.startsWith("o-")),
    ).toBe(true);
  });

  it("refuses alice creating ACLs, saying she lacks ALTER on the cluster", async () => {
    const [result] = await createAcls(alice, [
      {
        resourceType: "TOPIC",
        resourceName: "payments-eu",
        patternType: "LITERAL",
        principal: "User:alice",
        host: "*",
        operation: "READ",
        permissionType: "ALLOW",
      },
    ]);
    expect(result?.error?.code).toBe("CLUSTER_AUTHORIZATION_FAILED");
    expect(result?.error?.message).toBe("Kafka refused CreateAcls: User:alice needs ALTER on CLUSTER kafka-cluster.");
  });

  it("keeps alice out of payments and bob out of payments-eu (DENY beats the prefixed ALLOW)", async () => {
    const aliceGroup = `alice-${run}-payments`;
    groups.push(aliceGroup);
    await expect(consumeWithGroup(alice, aliceGroup, "payments-us", { timeoutMs: 3_000 })).rejects.toMatchObject({
      code: "TOPIC_AUTHORIZATION_FAILED",
      message: "Kafka refused Fetch: User:alice needs READ on TOPIC payments-us.",
    });

    const bobGroup = `bob-${run}`;
    groups.push(bobGroup);
    const error = await consumeWithGroup(bob, bobGroup, "payments-eu", { timeoutMs: 3_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect((error as KafkaOperationError).code).toBe("TOPIC_AUTHORIZATION_FAILED");
    await expect(consumeWithGroup(bob, `${bobGroup}-us`, "payments-us", { max: 1, timeoutMs: 1_500 })).resolves.toEqual(
      [],
    );
    groups.push(`${bobGroup}-us`);
  });

  it("lets bob, not alice, create a delegation token for svc-orders", async () => {
    const token = await createDelegationToken(bob, { owner: "User:svc-orders", renewers: [] });
    hmacs.push(token.hmac);
    expect(token).toMatchObject({ owner: "User:svc-orders", requester: "User:bob" });
    await expect(createDelegationToken(alice, { owner: "User:svc-orders", renewers: [] })).rejects.toMatchObject({
      code: "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
      message: "Kafka refused CreateDelegationToken: User:alice needs CREATE_TOKENS on USER User:svc-orders.",
    });
  });

  it("has the svc-orders produce budget split among its client ids", async () => {
    const entries = await describeClientQuotas(SEED_ADMIN, {
      components: [{ entityType: "user", matchType: "EXACT", match: "svc-orders" }],
    });
    const produceRates = Object.fromEntries(
      entries.map((e) => [e.entity["client-id"] ?? "(user total)", e.values.producer_byte_rate]),
    );
    expect(produceRates).toEqual({ "(user total)": 1_048_576, "orders-api": 524_288, "orders-batch": 262_144 });
  });
});
