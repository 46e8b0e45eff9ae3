/**
 * The shared ACL snapshot against the real dev broker:
 * - an ACL made behind the console's back (straight through the Kafka adapter, as
 *   kafka-acls.sh would) shows up once the snapshot is older than its bound;
 * - a viewer who loses DESCRIBE on CLUSTER stops seeing ACLs once their proof is older
 *   than its bound (30 s in production; shortened here so the test runs fast);
 * - a change made through the console's Kafka adapter shows at once, without a fetch;
 * - twenty concurrent readers cause one DescribeAcls fetch (single flight), counted on
 *   the injected source and on the Kafka client's own request channel.
 */
import { tracingChannel } from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy";
import { ANY_ACL_FILTER } from "@/lib/policy";

vi.mock("server-only", () => ({}));
const { AclSnapshotCache, aclSnapshotCache, createKafkaAclSnapshotSource, getAclSnapshot, kafkaAclSnapshotSource } =
  await import("./acl-snapshot");
const { createAcls, deleteAcls, describeAcls } = await import("@/lib/kafka/acls");
const { AclStore } = await import("@/lib/policy");
const { closeAllConnections } = await import("@/lib/kafka/client");
const { ADMIN, createScramUser, dropScramUser, runId } = await import("@/test/kafka/fixtures");

const id = runId();
const user = `it-snapshot-${id}`;
const marker = (n: string): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: `it-snapshot-${id}-${n}`,
  patternType: "LITERAL",
  principal: `User:it-snapshot-${id}`,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
});
const describeOnCluster: AclBinding = {
  resourceType: "CLUSTER",
  resourceName: "kafka-cluster",
  patternType: "LITERAL",
  principal: `User:${user}`,
  host: "*",
  operation: "DESCRIBE",
  permissionType: "ALLOW",
};

const adminViewer = { sessionId: `it-admin-${id}`, principal: "User:admin", credential: ADMIN };
let userViewer: { sessionId: string; principal: string; credential: Awaited<ReturnType<typeof createScramUser>> };

beforeAll(async () => {
  userViewer = { sessionId: `it-user-${id}`, principal: `User:${user}`, credential: await createScramUser(user) };
});

afterAll(async () => {
  await deleteAcls(ADMIN, [{ ...ANY_ACL_FILTER, principal: `User:it-snapshot-${id}` }]);
  await dropScramUser(user);
  await closeAllConnections();
});

/** Polls `read` until `done` holds; returns how long it took. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (done(await read())) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the ACL snapshot on the real broker", () => {
  it("shows an ACL created behind the console's back within the age bound", async () => {
    const maxAgeMs = 1_500;
    const cache = new AclSnapshotCache(kafkaAclSnapshotSource, { maxAgeMs, proofMaxAgeMs: 30_000 });
    const first = await cache.get(adminViewer);
    if (!first.ok) throw new Error(first.message);
    expect(first.snapshot.has(marker("cli"))).toBe(false);

    await createAcls(ADMIN, [marker("cli")]);
    const createdAt = Date.now();
    const waited = await until(
      () => cache.get(adminViewer),
      (r) => r.ok && r.snapshot.has(marker("cli")),
      10_000,
    );
    // Within the bound (plus one fetch and the polling step).
    expect(waited).toBeLessThan(maxAgeMs + 1_500);
    const seen = await cache.get(adminViewer);
    expect(seen.ok && seen.snapshot.takenAt).toBeGreaterThanOrEqual(first.ok ? first.snapshot.takenAt : 0);
    expect(Date.now() - createdAt).toBeLessThan(maxAgeMs + 2_000);
  });

  it("stops showing ACLs to a viewer who lost DESCRIBE on CLUSTER within the proof bound", async () => {
    const proofMaxAgeMs = 1_000;
    const cache = new AclSnapshotCache(kafkaAclSnapshotSource, { maxAgeMs: 60_000, proofMaxAgeMs });
    expect(await cache.get(userViewer)).toMatchObject({
      ok: false,
      code: "DENIED",
      message: `Kafka refused DescribeAcls: User:${user} needs DESCRIBE on CLUSTER kafka-cluster.`,
    });

    await createAcls(ADMIN, [describeOnCluster]);
    await until(
      () => cache.get(userViewer),
      (r) => r.ok,
      5_000,
    );
    const seen = await cache.get(userViewer);
    expect(seen.ok && seen.snapshot.size).toBeGreaterThan(0);

    // Revoked behind the console's back: the cached proof expires, Kafka is asked again.
    await deleteAcls(ADMIN, [{ ...describeOnCluster }]);
    const waited = await until(
      () => cache.get(userViewer),
      (r) => !r.ok,
      10_000,
    );
    expect(waited).toBeLessThan(proofMaxAgeMs + 1_500);
    expect(await cache.get(userViewer)).toMatchObject({ ok: false, code: "DENIED" });
    // The snapshot itself is still there for those who may see it.
    expect((await cache.get(adminViewer)).ok).toBe(true);
  });

  it("shows a change made through the console at once, without fetching again", async () => {
    const before = await getAclSnapshot(adminViewer, { maxAgeMs: 60_000 });
    if (!before.ok) throw new Error(before.message);
    const fetches = aclSnapshotCache().stats.fetches;
    await createAcls(ADMIN, [marker("console")]);
    const after = await getAclSnapshot(adminViewer, { maxAgeMs: 60_000 });
    expect(after.ok && after.snapshot.has(marker("console"))).toBe(true);
    expect(after.ok && after.snapshot.takenAt).toBe(before.snapshot.takenAt);
    await deleteAcls(ADMIN, [{ ...marker("console") }]);
    const gone = await getAclSnapshot(adminViewer, { maxAgeMs: 60_000 });
    expect(gone.ok && gone.snapshot.has(marker("console"))).toBe(false);
    expect(aclSnapshotCache().stats.fetches).toBe(fetches);
  });

  it(
    "decodes Kafka's answer into the same ACLs as the client's own decoder, and reuses the store for " +
      "an identical answer",
    async () => {
      const source = createKafkaAclSnapshotSource();
      // Other suites change ACLs on the shared broker meanwhile: look for two quiet moments.
      let agreed = false;
      let reused = false;
      for (let attempt = 0; attempt < 10 && !(agreed && reused); attempt++) {
        const a = await source.fetch(ADMIN);
        const reference = AclStore.build(await describeAcls(ADMIN, ANY_ACL_FILTER));
        const b = await source.fetch(ADMIN);
        if (a.sameAs(reference) && b.sameAs(reference)) {
          agreed = true;
          expect(b).toBe(a);
          reused = true;
        }
      }
      expect(agreed && reused).toBe(true);
    },
  );

  it("fetches once for twenty concurrent readers (single flight)", async () => {
    const fetched: string[] = [];
    const counting = {
      fetch: (c: typeof ADMIN) => {
        fetched.push(c.username);
        return kafkaAclSnapshotSource.fetch(c);
      },
      prove: (c: typeof ADMIN) => kafkaAclSnapshotSource.prove(c),
    };
    const cache = new AclSnapshotCache(counting, { maxAgeMs: 5_000, proofMaxAgeMs: 30_000 });
    let describes = 0;
    const channel = tracingChannel<unknown, { apiKey?: number }>("plt:kafka:connections:api");
    const handlers = {
      start: (m: { apiKey?: number }) => {
        if (m.apiKey === 29) describes++;
      },
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: () => undefined,
      error: () => undefined,
    };
    channel.subscribe(handlers);
    try {
      const results = await Promise.all(Array.from({ length: 20 }, () => cache.get(adminViewer)));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(new Set(results.map((r) => (r.ok ? r.snapshot : null))).size).toBe(1);
    } finally {
      channel.unsubscribe(handlers);
    }
    expect(fetched).toEqual(["admin"]);
    // One proof of the viewer's right and one fetch of every ACL.
    expect(describes).toBe(2);
  });
});
