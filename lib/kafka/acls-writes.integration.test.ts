/**
 * Writes at scale: creating or deleting N bindings costs one CreateAcls / DeleteAcls
 * plus a bounded number of DescribeAcls to confirm (one per confirmation pass), whatever
 * N and however many ACLs the broker holds. Requests are counted on the Kafka client's
 * own diagnostics channel (every request any connection of this process sends).
 */
import { tracingChannel } from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AclBinding, AclBindingFilter } from "@/lib/policy/types";
import { ANY_ACL_FILTER } from "@/lib/policy/acl/filter";
import {
  AclWriteConfirmation,
  bindingsVisible,
  coveringFilter,
  createAcls,
  deleteAcls,
  describeAclStore,
  describeAcls,
  onAclChange,
  type AclChange,
} from "./acls";
import { clusterIdOf } from "@/lib/clusters";
import { aclsHeldOn, deleteFiltersPerRequest } from "./acl-delete-batches";
import { closeAllConnections, withAdmin } from "./client";
import { ADMIN, runId } from "@/test/kafka/fixtures";

const API_KEYS = { CreateAcls: 30, DeleteAcls: 31, DescribeAcls: 29 } as const;

/** Counts Kafka requests by API key while `work` runs. */
async function countRequests<T>(
  work: () => Promise<T>,
): Promise<{ result: T; counts: Record<keyof typeof API_KEYS, number> }> {
  const counts = { CreateAcls: 0, DeleteAcls: 0, DescribeAcls: 0 };
  const channel = tracingChannel<unknown, { apiKey?: number }>("plt:kafka:connections:api");
  const onStart = (message: { apiKey?: number }) => {
    for (const [name, key] of Object.entries(API_KEYS))
      if (message.apiKey === key) counts[name as keyof typeof counts]++;
  };
  const handlers = {
    start: onStart,
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd: () => undefined,
    error: () => undefined,
  };
  channel.subscribe(handlers);
  try {
    return { result: await work(), counts };
  } finally {
    channel.unsubscribe(handlers);
  }
}

const id = runId();
const principal = `User:it-writes-${id}`;
const other = `User:it-writes-other-${id}`;
const mine: AclBindingFilter = { ...ANY_ACL_FILTER, principal };
const others: AclBindingFilter = { ...ANY_ACL_FILTER, principal: other };

function batch(n: number): AclBinding[] {
  return Array.from({ length: n }, (_, i) => ({
    resourceType: i % 3 === 0 ? "GROUP" : "TOPIC",
    resourceName: `it-writes-${id}-${i}`,
    patternType: i % 5 === 0 ? "PREFIXED" : "LITERAL",
    principal,
    host: "*",
    operation: i % 2 === 0 ? "READ" : "DESCRIBE",
    permissionType: "ALLOW",
  }));
}

beforeAll(async () => {
  await deleteAcls(ADMIN, [mine, others]);
});

afterAll(async () => {
  await deleteAcls(ADMIN, [mine, others]);
  await closeAllConnections();
});

describe("ACL writes confirm with one describe, whatever the batch size", () => {
  it("creates 200 bindings with one CreateAcls and at most two DescribeAcls, and they are all there", async () => {
    const bindings = batch(200);
    const { result, counts } = await countRequests(() => createAcls(ADMIN, bindings));
    expect(result.every((r) => r.error === null)).toBe(true);
    expect(counts.CreateAcls).toBe(1);
    expect(counts.DescribeAcls).toBeGreaterThanOrEqual(1);
    expect(counts.DescribeAcls).toBeLessThanOrEqual(2);
    // Read-your-writes: the very next describe sees every binding.
    const { store } = await describeAclStore(ADMIN, mine);
    expect(store.size).toBe(200);
    for (const b of bindings) expect(store.has(b)).toBe(true);
  });

  it(
    "deletes 200 bindings (200 exact filters) in DeleteAcls requests the controller finishes " +
      "quickly, at most two DescribeAcls, and none is left",
    async () => {
      const bindings = batch(200);
      const { result, counts } = await countRequests(() =>
        deleteAcls(
          ADMIN,
          bindings.map((b) => ({ ...b })),
        ),
      );
      expect(result.map((r) => r.deleted.length)).toEqual(bindings.map(() => 1));
      expect(counts.DeleteAcls).toBe(Math.ceil(200 / deleteFiltersPerRequest(aclsHeldOn(clusterIdOf(ADMIN)))));
      expect(counts.DescribeAcls).toBeGreaterThanOrEqual(1);
      expect(counts.DescribeAcls).toBeLessThanOrEqual(2);
      expect(await describeAcls(ADMIN, mine)).toEqual([]);
    },
  );

  it(
    "confirms a batch with nothing in common (a cluster-wide describe) the same way: one describe " + "per pass",
    async () => {
      const mixed: AclBinding[] = batch(60).map((b, i) => ({
        ...b,
        principal: i % 2 ? principal : other,
        permissionType: i % 3 ? "ALLOW" : "DENY",
      }));
      expect(coveringFilter(mixed)).toMatchObject({
        resourceType: "ANY",
        resourceName: null,
        principal: null,
        operation: "ANY",
        permissionType: "ANY",
      });
      const created = await countRequests(() => createAcls(ADMIN, mixed));
      expect(created.counts.DescribeAcls).toBeLessThanOrEqual(2);
      const seen = [...(await describeAcls(ADMIN, mine)), ...(await describeAcls(ADMIN, others))];
      expect(seen).toHaveLength(60);
      // The confirmation itself reads the cluster-wide answer right: all there, and one missing is noticed.
      const missing = { ...mixed[0]!, resourceName: `it-writes-${id}-never` };
      expect(await withAdmin(ADMIN, "DescribeAcls", (admin) => bindingsVisible(admin, mixed, true))).toBe(true);
      expect(await withAdmin(ADMIN, "DescribeAcls", (admin) => bindingsVisible(admin, [...mixed, missing], true))).toBe(
        false,
      );
      expect(await withAdmin(ADMIN, "DescribeAcls", (admin) => bindingsVisible(admin, mixed, false))).toBe(false);
      const deleted = await countRequests(() =>
        deleteAcls(
          ADMIN,
          mixed.map((b) => ({ ...b })),
        ),
      );
      expect(deleted.result.every((r) => r.deleted.length === 1)).toBe(true);
      expect(deleted.counts.DescribeAcls).toBeLessThanOrEqual(2);
      expect(await withAdmin(ADMIN, "DescribeAcls", (admin) => bindingsVisible(admin, mixed, false))).toBe(true);
    },
  );

  it(
    "batches sharing a confirmation (a plan's apply) send no DescribeAcls each; confirm() sends at " +
      "most two for all of them and tells the snapshot once",
    async () => {
      const bindings = batch(1000);
      const told: AclChange[] = [];
      const stop = onAclChange((change) => told.push(change));
      try {
        const confirmation = new AclWriteConfirmation();
        const writes = await countRequests(async () => {
          for (let i = 0; i < bindings.length; i += 200)
            await createAcls(ADMIN, bindings.slice(i, i + 200), { confirmation });
        });
        expect(writes.counts).toEqual({ CreateAcls: 5, DeleteAcls: 0, DescribeAcls: 0 });
        expect(told).toEqual([]);
        expect(confirmation.pending).toBe(1000);
        const confirmed = await countRequests(() => confirmation.confirm(ADMIN));
        expect(confirmed.counts.DescribeAcls).toBeGreaterThanOrEqual(1);
        expect(confirmed.counts.DescribeAcls).toBeLessThanOrEqual(2);
        expect(confirmation.pending).toBe(0);
        expect(told).toHaveLength(1);
        expect(told[0]).toEqual({ created: bindings, deleted: [], clusterId: "default" });
        const { store } = await describeAclStore(ADMIN, mine);
        expect(store.size).toBe(1000);

        told.length = 0;
        const removal = await countRequests(async () => {
          for (let i = 0; i < bindings.length; i += 200)
            await deleteAcls(
              ADMIN,
              bindings.slice(i, i + 200).map((b) => ({ ...b })),
              { confirmation },
            );
          await confirmation.confirm(ADMIN);
        });
        expect(removal.counts.DeleteAcls).toBe(
          5 * Math.ceil(200 / deleteFiltersPerRequest(aclsHeldOn(clusterIdOf(ADMIN)))),
        );
        expect(removal.counts.DescribeAcls).toBeLessThanOrEqual(2);
        expect(told).toEqual([{ created: [], deleted: bindings, clusterId: "default" }]);
        expect(await describeAcls(ADMIN, mine)).toEqual([]);
      } finally {
        stop();
      }
    },
  );

  it("splits the filters over several DeleteAcls requests in order: each result is its own filter's", async () => {
    const bindings = batch(20);
    await createAcls(ADMIN, bindings);
    const filters = bindings.map((b) => ({ ...b }));
    filters.splice(5, 0, { ...bindings[0]!, resourceName: `it-writes-${id}-never` });
    const { result, counts } = await countRequests(() => deleteAcls(ADMIN, filters, { filtersPerRequest: 7 }));
    expect(counts.DeleteAcls).toBe(3);
    expect(result.map((r) => r.filter)).toEqual(filters);
    expect(result.map((r) => r.deleted)).toEqual(filters.map((f, i) => (i === 5 ? [] : [f])));
    expect(await withAdmin(ADMIN, "DescribeAcls", (admin) => bindingsVisible(admin, bindings, false))).toBe(true);
  });

  it("confirms with the narrowest filter covering the batch", () => {
    expect(coveringFilter(batch(3))).toEqual({
      resourceType: "ANY",
      resourceName: null,
      patternType: "ANY",
      principal,
      host: "*",
      operation: "ANY",
      permissionType: "ALLOW",
    });
    const one = batch(1)[0]!;
    expect(coveringFilter([one, { ...one, operation: "WRITE" }])).toEqual({ ...one, operation: "ANY" });
  });
});
