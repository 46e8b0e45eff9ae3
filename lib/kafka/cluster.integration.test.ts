import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AclBinding } from "@/lib/policy/types";
import { createAcls } from "./acls";
import { closeAllConnections } from "./client";
import { describeCluster, listConsumerGroups, listTopics, listTransactionalIds } from "./cluster";
import { consumeWithGroup, createTopics, deleteTopics, produce, produceTransactional } from "./data-plane";
import { KafkaOperationError } from "./errors";
import { ADMIN, createScramUser, dropScramUser, runId } from "@/test/kafka/fixtures";
import type { KafkaCredential } from "./types";

const id = runId();
const topic = `it-cluster-${id}`;
const hidden = `it-cluster-hidden-${id}`;
const group = `it-group-${id}`;
const txId = `it-tx-${id}`;
const reader = `it-reader-${id}`;
let readerCred: KafkaCredential;

const allow = (
  resourceType: AclBinding["resourceType"],
  resourceName: string,
  operation: AclBinding["operation"],
): AclBinding => ({
  resourceType,
  resourceName,
  patternType: "LITERAL",
  principal: `User:${reader}`,
  host: "*",
  operation,
  permissionType: "ALLOW",
});

beforeAll(async () => {
  readerCred = await createScramUser(reader);
  const created = await createTopics(ADMIN, [{ name: topic }, { name: hidden }]);
  expect(created.map((c) => c.error)).toEqual([null, null]);
});

afterAll(async () => {
  await deleteTopics(ADMIN, [topic, hidden]);
  await dropScramUser(reader);
  await closeAllConnections();
});

describe("describeCluster", () => {
  it("describes the single dev node to the admin and to an unprivileged user alike", async () => {
    const asAdmin = await describeCluster(ADMIN);
    expect(asAdmin.clusterId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(asAdmin.brokers).toEqual([
      { id: asAdmin.controllerId, host: "127.0.0.1", port: Number(process.env.KAFKA_PORT ?? 9092), rack: null },
    ]);
    expect(await describeCluster(readerCred)).toEqual(asAdmin);
  });
});

describe("listings are filtered by the caller's ACLs", () => {
  it(
    "lists a topic only to principals with DESCRIBE on it; createTopics reports an existing topic as " + "existed",
    async () => {
      expect(await listTopics(ADMIN)).toEqual(expect.arrayContaining([topic, hidden]));
      expect(await listTopics(readerCred)).not.toContain(topic);
      await createAcls(ADMIN, [allow("TOPIC", topic, "READ")]);
      const visible = await listTopics(readerCred);
      expect(visible).toContain(topic);
      expect(visible).not.toContain(hidden);
      expect(await createTopics(ADMIN, [{ name: topic }])).toEqual([{ name: topic, existed: true, error: null }]);
    },
  );

  it("lists consumer groups that exist because someone consumed, to those allowed to see them", async () => {
    await produce(ADMIN, topic, [
      { key: "k1", value: "first" },
      { key: "k2", value: "second" },
    ]);
    await createAcls(ADMIN, [allow("GROUP", group, "READ")]);
    const records = await consumeWithGroup(readerCred, group, topic, { max: 2 });
    expect(records.map((r) => r.value)).toEqual(["first", "second"]);

    const asAdmin = await listConsumerGroups(ADMIN);
    expect(asAdmin.find((g) => g.groupId === group)).toMatchObject({
      groupId: group,
      protocolType: "consumer",
      groupType: "classic",
    });
    // READ on the group implies DESCRIBE, so the reader sees its own group.
    expect((await listConsumerGroups(readerCred)).map((g) => g.groupId)).toContain(group);

    // The group committed its offsets: consuming again from the group reads nothing new.
    expect(await consumeWithGroup(readerCred, group, topic, { max: 2, timeoutMs: 1_500 })).toEqual([]);
  });

  it("lists transactional ids to the admin, not to principals without DESCRIBE on them", async () => {
    await produceTransactional(ADMIN, txId, topic, [{ value: "in a transaction" }]);
    const listing = await listTransactionalIds(ADMIN);
    // EndTxn answers once the commit is decided (PrepareCommit); the markers complete it a moment later.
    expect(listing.find((t) => t.transactionalId === txId)?.state).toMatch(/^(PrepareCommit|CompleteCommit)$/);
    expect((await listTransactionalIds(readerCred)).map((t) => t.transactionalId)).not.toContain(txId);
  });

  it("lets an ordinary user commit a transaction with WRITE on its transactional id and topic", async () => {
    const ownTx = `${txId}-reader`;
    await expect(produceTransactional(readerCred, ownTx, topic, [{ value: "denied" }])).rejects.toMatchObject({
      code: "TRANSACTIONAL_ID_AUTHORIZATION_FAILED",
      message: `Kafka refused InitProducerId: User:${reader} needs WRITE on TRANSACTIONAL_ID ${ownTx}.`,
    });
    await createAcls(ADMIN, [allow("TRANSACTIONAL_ID", ownTx, "WRITE"), allow("TOPIC", topic, "WRITE")]);
    await produceTransactional(readerCred, ownTx, topic, [{ value: "committed by the reader" }]);
    // A later producer reuses the transactional id (fencing the old one) instead of being fenced.
    await produceTransactional(readerCred, ownTx, topic, [{ value: "committed again" }]);
    // WRITE on the transactional id implies DESCRIBE: the reader now sees it.
    const visible = await listTransactionalIds(readerCred);
    expect(visible.find((t) => t.transactionalId === ownTx)?.state).toMatch(/^(PrepareCommit|CompleteCommit)$/);
  });
});

describe("data-plane denials name the missing permission", () => {
  it("consuming a topic without READ on it", async () => {
    const otherGroup = `${group}-2`;
    await createAcls(ADMIN, [allow("GROUP", otherGroup, "READ")]);
    const error = await consumeWithGroup(readerCred, otherGroup, hidden, { timeoutMs: 3_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect((error as KafkaOperationError).code).toBe("TOPIC_AUTHORIZATION_FAILED");
    expect((error as Error).message).toBe(`Kafka refused Fetch: User:${reader} needs READ on TOPIC ${hidden}.`);
  });

  it("producing without WRITE", async () => {
    const error = await produce(readerCred, hidden, [{ value: "nope" }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TOPIC_AUTHORIZATION_FAILED" });
    expect((error as Error).message).toBe(`Kafka refused Produce: User:${reader} needs WRITE on TOPIC ${hidden}.`);
  });
});
