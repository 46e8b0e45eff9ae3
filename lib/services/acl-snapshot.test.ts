/**
 * The shared ACL snapshot with an injected source (no broker): single flight, the age
 * bound, the viewer's own right proven and remembered at most the proof bound, changes
 * made through the console (also during a fetch), refresh, and the store kept when a
 * fetch brings nothing new. The same behaviour against the real broker is in
 * acl-snapshot.integration.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { AclStore, type AclBinding } from "@/lib/policy";
import { KafkaOperationError } from "@/lib/kafka/errors";
import type { KafkaCredential } from "@/lib/kafka";
import type { AclSnapshotSource } from "./acl-snapshot";

vi.mock("server-only", () => ({}));
const { AclSnapshotCache, viewerKey } = await import("./acl-snapshot");
type Source = AclSnapshotSource;

const binding = (name: string, principal = "User:alice"): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: name,
  patternType: "LITERAL",
  principal,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
});

const cred = (username: string): KafkaCredential => ({
  username,
  password: `${username}-secret`,
  mechanism: "SCRAM-SHA-512",
});
const viewer = (username: string, sessionId: string | null = `s-${username}`) => ({
  sessionId,
  principal: `User:${username}`,
  credential: cred(username),
});

const denied = (username: string) =>
  new KafkaOperationError({
    code: "CLUSTER_AUTHORIZATION_FAILED",
    api: "DescribeAcls",
    message: `Kafka refused DescribeAcls: User:${username} needs DESCRIBE on CLUSTER kafka-cluster.`,
    kafkaMessage: null,
    missing: [],
  });

/** A fake Kafka: the ACLs it holds, who may describe them, and every call counted; fetches wait for release(). */
function fakeKafka(initial: AclBinding[] = [binding("orders")]) {
  let acls = [...initial];
  const allowed = new Set(["alice", "bob", "admin"]);
  const calls = { fetch: [] as string[], prove: [] as string[] };
  const gates: (() => void)[] = [];
  let gated = false;
  const source: Source = {
    async fetch(c) {
      calls.fetch.push(c.username);
      // Kafka's state when the request is served; its answer arrives when released.
      const snapshotOfKafka = [...acls];
      if (gated) await new Promise<void>((resolve) => gates.push(resolve));
      if (!allowed.has(c.username)) throw denied(c.username);
      return AclStore.build(snapshotOfKafka);
    },
    async prove(c) {
      calls.prove.push(c.username);
      if (!allowed.has(c.username)) throw denied(c.username);
    },
  };
  return {
    source,
    calls,
    allowed,
    set: (next: AclBinding[]) => (acls = [...next]),
    hold: () => (gated = true),
    release: () => {
      gated = false;
      for (const g of gates.splice(0)) g();
    },
  };
}

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const names = (r: Awaited<ReturnType<InstanceType<typeof AclSnapshotCache>["get"]>>) =>
  r.ok ? r.snapshot.all().map((a) => a.resourceName) : r;

describe("AclSnapshotCache", () => {
  it("fetches once for many concurrent readers (single flight) and reuses the snapshot within the bound", async () => {
    const kafka = fakeKafka();
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000, proofMaxAgeMs: 30_000, now: t.now });
    kafka.hold();
    const readers = Array.from({ length: 20 }, (_, i) => cache.get(viewer(i % 2 ? "alice" : "bob")));
    await vi.waitFor(() => expect(kafka.calls.fetch.length).toBe(1));
    kafka.release();
    const results = await Promise.all(readers);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(new Set(results.map((r) => (r.ok ? r.snapshot : null))).size).toBe(1);
    expect(kafka.calls.fetch).toHaveLength(1);
    expect(kafka.calls.prove.sort()).toEqual(["alice", "bob"]);

    t.advance(1_000);
    await cache.get(viewer("alice"));
    expect(kafka.calls.fetch).toHaveLength(1);
  });

  it("shows an ACL made behind the console's back once the snapshot is older than the bound", async () => {
    const kafka = fakeKafka([binding("orders")]);
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000, now: t.now });
    expect(names(await cache.get(viewer("alice")))).toEqual(["orders"]);
    kafka.set([binding("orders"), binding("payments")]);
    t.advance(4_000);
    expect(names(await cache.get(viewer("alice")))).toEqual(["orders"]);
    t.advance(1_000);
    expect(names(await cache.get(viewer("alice")))).toEqual(["orders", "payments"]);
  });

  it("refreshes in the background before the bound while readers keep coming", async () => {
    const kafka = fakeKafka([binding("orders")]);
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000, now: t.now });
    await cache.get(viewer("alice"));
    kafka.set([binding("orders"), binding("payments")]);
    t.advance(4_600);
    const early = await cache.get(viewer("alice"));
    expect(names(early)).toEqual(["orders"]);
    await vi.waitFor(() => expect(kafka.calls.fetch).toHaveLength(2));
    await vi.waitFor(() => expect(cache.peek()?.size).toBe(2));
    t.advance(500);
    expect(names(await cache.get(viewer("alice")))).toEqual(["orders", "payments"]);
    expect(kafka.calls.fetch).toHaveLength(2);
  });

  it("a viewer whose own fetch Kafka refuses gets the refusal, remembered like a proof", async () => {
    const kafka = fakeKafka();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000 });
    expect(await cache.get(viewer("mallory"))).toMatchObject({ ok: false, code: "DENIED" });
    expect(await cache.get(viewer("mallory"))).toMatchObject({ ok: false, code: "DENIED" });
    expect(kafka.calls).toEqual({ fetch: ["mallory"], prove: [] });
    expect(cache.peek()).toBeNull();
  });

  it("refuses a viewer Kafka refuses, with Kafka's reason, without showing the snapshot", async () => {
    const kafka = fakeKafka();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000 });
    expect((await cache.get(viewer("alice"))).ok).toBe(true);
    const r = await cache.get(viewer("mallory"));
    expect(r).toEqual({
      ok: false,
      code: "DENIED",
      message: "Kafka refused DescribeAcls: User:mallory needs DESCRIBE on CLUSTER kafka-cluster.",
    });
  });

  it("asks Kafka again after the proof bound: a viewer who lost DESCRIBE on CLUSTER stops seeing ACLs", async () => {
    const kafka = fakeKafka();
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 60_000, proofMaxAgeMs: 30_000, now: t.now });
    expect((await cache.get(viewer("bob"))).ok).toBe(true);
    kafka.allowed.delete("bob");
    t.advance(29_000);
    expect((await cache.get(viewer("bob"))).ok).toBe(true);
    t.advance(1_000);
    expect(await cache.get(viewer("bob"))).toMatchObject({ ok: false, code: "DENIED" });
    // Proven first by his own fetch (Kafka answered it), then asked again.
    expect(kafka.calls.fetch).toEqual(["bob"]);
    expect(kafka.calls.prove).toEqual(["bob"]);
    // Others are not affected.
    expect((await cache.get(viewer("alice"))).ok).toBe(true);
  });

  it("never trusts a proof longer than 30 s, whatever it is configured to", async () => {
    const kafka = fakeKafka();
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 600_000, proofMaxAgeMs: 600_000, now: t.now });
    await cache.get(viewer("bob"));
    kafka.allowed.delete("bob");
    t.advance(30_000);
    expect(await cache.get(viewer("bob"))).toMatchObject({ ok: false, code: "DENIED" });
  });

  it("keys Basic-auth viewers by their credential, so a changed password is proven anew", () => {
    const a = viewerKey({ sessionId: null, credential: cred("alice") });
    expect(a).toBe(viewerKey({ sessionId: null, credential: cred("alice") }));
    expect(a).not.toBe(viewerKey({ sessionId: null, credential: { ...cred("alice"), password: "other" } }));
    expect(a).not.toContain("alice-secret");
    expect(viewerKey({ sessionId: "abc", credential: cred("alice") })).toBe("session:abc");
  });

  it("forceRefresh waits for a fetch sent after the request, even when one is under way", async () => {
    const kafka = fakeKafka([binding("orders")]);
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000, now: t.now });
    await cache.get(viewer("alice"));
    t.advance(6_000);
    kafka.hold();
    const stale = cache.get(viewer("alice"));
    await vi.waitFor(() => expect(kafka.calls.fetch).toHaveLength(2));
    kafka.set([binding("orders"), binding("refunds")]);
    t.advance(1);
    const forced = cache.get(viewer("bob"), { forceRefresh: true });
    kafka.release();
    expect(names(await stale)).toEqual(["orders"]);
    await vi.waitFor(() => expect(kafka.calls.fetch).toHaveLength(3));
    kafka.release();
    expect(names(await forced)).toEqual(["orders", "refunds"]);
  });

  it("applies a change made through the console at once, also to the result of a fetch already under way", async () => {
    const kafka = fakeKafka([binding("orders"), binding("old")]);
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000, now: t.now });
    await cache.get(viewer("alice"));
    kafka.set([binding("orders"), binding("new")]);
    cache.applyChange([binding("new")], [binding("old")]);
    expect(names(await cache.get(viewer("alice")))).toEqual(["new", "orders"]);

    // A fetch sent before the next change answers without it: the change is applied on top.
    t.advance(5_000);
    kafka.hold();
    const reading = cache.get(viewer("alice"));
    await vi.waitFor(() => expect(kafka.calls.fetch).toHaveLength(2));
    kafka.set([binding("orders"), binding("new"), binding("newer")]);
    cache.applyChange([binding("newer")], []);
    kafka.release();
    expect(names(await reading)).toEqual(["new", "newer", "orders"]);
    expect(names(await cache.get(viewer("alice")))).toEqual(["new", "newer", "orders"]);
  });

  it("applies many changes at once on the next read, the last word on each binding winning", async () => {
    const kafka = fakeKafka([binding("orders")]);
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 60_000 });
    const first = await cache.get(viewer("alice"));
    cache.applyChange([binding("a"), binding("b")], []);
    cache.applyChange([], [binding("a"), binding("orders")]);
    cache.applyChange([binding("a")], [binding("b")]);
    cache.applyChange([binding("c")], []);
    cache.applyChange([binding("c")], []);
    const after = await cache.get(viewer("alice"));
    expect(names(after)).toEqual(["a", "c"]);
    // The snapshot taken before the changes is left as it was (readers may still hold it).
    expect(names(first)).toEqual(["orders"]);
    expect(after.ok && after.snapshot.takenAt).toBe(first.ok && first.snapshot.takenAt);
    // Told again about a change already applied: the same snapshot.
    cache.applyChange([binding("c")], [binding("b")]);
    expect((await cache.get(viewer("alice"))).ok && cache.peek()).toBe(after.ok && after.snapshot);
    expect(kafka.calls.fetch).toHaveLength(1);
  });

  it("invalidate: the next reader does not join a fetch sent before it", async () => {
    const kafka = fakeKafka([binding("orders")]);
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 60_000 });
    await cache.get(viewer("alice"));
    kafka.set([binding("orders"), binding("x")]);
    cache.invalidate();
    expect(names(await cache.get(viewer("alice")))).toEqual(["orders", "x"]);
    expect(kafka.calls.fetch).toHaveLength(2);
  });

  it("keeps the built store (and its authorizer index) when a fetch brings the same ACLs", async () => {
    const kafka = fakeKafka([binding("orders"), binding("payments")]);
    const t = clock();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000, now: t.now });
    const first = await cache.get(viewer("alice"));
    const index = first.ok ? first.snapshot.index() : null;
    t.advance(5_000);
    const second = await cache.get(viewer("alice"));
    expect(second.ok && second.snapshot.takenAt).toBe(t.now());
    expect(second.ok && second.snapshot.index()).toBe(index);
    expect(cache.stats).toMatchObject({ fetches: 2, reusedStore: 1, replaced: 0 });
  });

  it("a fetch refused for the viewer who sent it is retried by a waiting viewer with their own right", async () => {
    const kafka = fakeKafka([binding("orders")]);
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000 });
    // bob proves his right, then loses it just before his fetch is answered.
    kafka.hold();
    const bobs = cache.get(viewer("bob"));
    await vi.waitFor(() => expect(kafka.calls.fetch).toEqual(["bob"]));
    const alices = cache.get(viewer("alice"));
    await vi.waitFor(() => expect(kafka.calls.prove).toContain("alice"));
    kafka.allowed.delete("bob");
    kafka.release();
    expect(await bobs).toMatchObject({ ok: false, code: "DENIED" });
    expect(names(await alices)).toEqual(["orders"]);
    expect(kafka.calls.fetch).toEqual(["bob", "alice"]);
  });

  it("does not remember a broker that did not answer as a refusal", async () => {
    const kafka = fakeKafka();
    const down = new KafkaOperationError({
      code: "BROKER_UNAVAILABLE",
      api: "DescribeAcls",
      message: "Kafka is not reachable.",
      kafkaMessage: null,
      missing: [],
    });
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000 });
    expect((await cache.get(viewer("alice"))).ok).toBe(true);
    const prove = vi.spyOn(kafka.source, "prove").mockRejectedValueOnce(down);
    expect(await cache.get(viewer("bob"))).toMatchObject({ ok: false, code: "BROKER_UNAVAILABLE" });
    expect((await cache.get(viewer("bob"))).ok).toBe(true);
    expect(prove).toHaveBeenCalledTimes(2);
  });

  it("forgets a session's proof at sign-out and every proof when a CLUSTER ACL changes", async () => {
    const kafka = fakeKafka();
    const cache = new AclSnapshotCache(kafka.source, { maxAgeMs: 5_000 });
    await cache.get(viewer("alice"));
    await cache.get(viewer("bob"));
    cache.forget(viewerKey(viewer("alice")));
    await cache.get(viewer("alice"));
    await cache.get(viewer("bob"));
    // alice was proven by her own fetch, bob by a proof, alice again after being forgotten.
    expect(kafka.calls.fetch).toEqual(["alice"]);
    expect(kafka.calls.prove).toEqual(["bob", "alice"]);
    cache.applyChange(
      [],
      [{ ...binding("kafka-cluster", "User:bob"), resourceType: "CLUSTER", operation: "DESCRIBE" }],
    );
    await cache.get(viewer("bob"));
    expect(kafka.calls.prove).toEqual(["bob", "alice", "bob"]);
  });
});
