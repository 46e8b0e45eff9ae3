import { describe, expect, it } from "vitest";
import { aclKey, quotaKey, scramKey, settingKey } from "@/lib/policy/history";
import type { AclBinding } from "@/lib/policy";
import {
  DRIFT_NOTIFY_LISTED,
  describeRow,
  driftNotification,
  driftVisibility,
  entryVisible,
  groupByRead,
  revertPlanOf,
  windowWords,
  type DriftRow,
} from "./drift-model";

const binding: AclBinding = {
  resourceType: "TOPIC",
  resourceName: "orders",
  patternType: "LITERAL",
  principal: "User:bob",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};
const t = (s: string) => new Date(`2026-12-06T${s}Z`);
let nextId = 1;
function row(key: string, op: DriftRow["op"], from = "14:02:10", to = "14:02:40", value: DriftRow["value"] = true) {
  return {
    id: String(nextId++),
    key,
    kind: JSON.parse(key)[0],
    op,
    value,
    from: t(from),
    to: t(to),
    origin: "outside" as const,
  };
}
const rights = { principal: "User:alice", superUser: false, acls: false, quotas: false, clusterAdmin: false };

describe("drift visibility (the audit trail's rules)", () => {
  it("super users and cluster admins see every kind", () => {
    for (const r of [
      { ...rights, superUser: true },
      { ...rights, clusterAdmin: true },
    ]) {
      const v = driftVisibility(r);
      expect(entryVisible(v, { kind: "scram", key: scramKey("bob", "SCRAM-SHA-256") })).toBe(true);
      expect(entryVisible(v, { kind: "setting", key: settingKey("superUsers") })).toBe(true);
    }
  });

  it("ACL changes need DESCRIBE on CLUSTER, quota changes DESCRIBE_CONFIGS; SCRAM only one's own", () => {
    const v = driftVisibility({ ...rights, acls: true });
    expect(entryVisible(v, { kind: "acl", key: aclKey(binding) })).toBe(true);
    expect(entryVisible(v, { kind: "quota", key: quotaKey({ user: "bob" }, "producer_byte_rate") })).toBe(false);
    expect(entryVisible(v, { kind: "scram", key: scramKey("alice", "SCRAM-SHA-512") })).toBe(true);
    expect(entryVisible(v, { kind: "scram", key: scramKey("bob", "SCRAM-SHA-512") })).toBe(false);
    // A user whose name starts with the viewer's is someone else.
    expect(entryVisible(v, { kind: "scram", key: scramKey("alice2", "SCRAM-SHA-512") })).toBe(false);
    expect(entryVisible(v, { kind: "setting", key: settingKey("superUsers") })).toBe(false);
    const none = driftVisibility(rights);
    expect(entryVisible(none, { kind: "acl", key: aclKey(binding) })).toBe(false);
  });
});

describe("grouping by read", () => {
  it("groups consecutive entries of one window, newest first, and words the window", () => {
    const a = row(aclKey(binding), "appeared", "14:02:40", "14:03:10");
    const b = row(aclKey({ ...binding, operation: "WRITE" }), "disappeared", "14:02:40", "14:03:10");
    const c = row(aclKey(binding), "disappeared");
    const groups = groupByRead([a, b, c]);
    expect(groups.map((g) => g.entries.map((e) => e.id))).toEqual([[a.id, b.id], [c.id]]);
    expect(windowWords(c.from, c.to)).toBe("between 14:02:10 and 14:02:40 UTC on 2026-12-06");
    expect(windowWords(t("23:59:50"), new Date("2026-12-07T00:00:20Z"))).toBe(
      "between 2026-12-06 23:59:50 and 2026-12-07 00:00:20 UTC",
    );
  });

  it("says what changed and what it touched", () => {
    const d = describeRow(row(aclKey(binding), "appeared"));
    expect(d).toMatchObject({ what: "ACL binding", resources: ["TOPIC:orders"], principals: ["User:bob"] });
    expect(d.summary).toBe('Added: ALLOW User:bob READ on TOPIC "orders" from host *');
    const q = describeRow(row(quotaKey({ user: "bob" }, "producer_byte_rate"), "appeared", "1", "2", 1024));
    expect(q.summary).toContain("producer_byte_rate = 1024 for user=bob");
    expect(q.principals).toEqual(["User:bob"]);
  });
});

describe("the revert plan", () => {
  it("deletes exactly an ACL that appeared and creates one that disappeared", () => {
    const other = { ...binding, operation: "WRITE" as const };
    expect(revertPlanOf([row(aclKey(binding), "appeared")], () => undefined)).toEqual({
      ok: true,
      kind: "acl.delete",
      input: { bindings: [binding] },
    });
    expect(revertPlanOf([row(aclKey(binding), "disappeared")], () => undefined)).toMatchObject({
      kind: "acl.create",
      input: { bindings: [binding] },
    });
    expect(
      revertPlanOf([row(aclKey(binding), "appeared"), row(aclKey(other), "disappeared")], () => undefined),
    ).toMatchObject({ kind: "acl.change", input: { delete: [binding], create: [other] } });
  });

  it("restores the state before the oldest change of a binding named twice", () => {
    const gone = row(aclKey(binding), "disappeared");
    const back = row(aclKey(binding), "appeared");
    expect(revertPlanOf([back, gone], () => undefined)).toMatchObject({ kind: "acl.create" });
  });

  it("sets a quota back to its value before, or removes it; refuses SCRAM and unknown befores", () => {
    const q = row(quotaKey({ user: "bob" }, "producer_byte_rate"), "appeared", "1", "2", 2048);
    expect(revertPlanOf([q], () => 1024)).toEqual({
      ok: true,
      kind: "quota.alter",
      input: { entity: { user: "bob" }, key: "producer_byte_rate", value: 1024 },
    });
    expect(revertPlanOf([q], () => null)).toMatchObject({ input: { value: null } });
    expect(revertPlanOf([q], () => undefined)).toMatchObject({ ok: false });
    expect(revertPlanOf([q, q], () => 1)).toMatchObject({ ok: false, message: expect.stringContaining("one at a") });
    expect(revertPlanOf([row(scramKey("bob", "SCRAM-SHA-256"), "appeared")], () => 1)).toMatchObject({ ok: false });
  });
});

describe("the drift.found notification", () => {
  it("says how many changes, when, of which kinds, and lists the first ones in words without a secret", () => {
    const rows = [
      row(aclKey(binding), "appeared"),
      row(scramKey("bob", "SCRAM-SHA-512"), "appeared", undefined, undefined, 8192),
      row(quotaKey({ user: "bob" }, "producer_byte_rate"), "disappeared"),
    ];
    const n = driftNotification(rows, { from: t("14:02:10"), to: t("14:02:40"), origin: "outside" });
    expect(n.text).toBe(
      "3 changes made outside the console between 14:02:10 and 14:02:40 UTC on 2026-12-06: " +
        'Added: ALLOW User:bob READ on TOPIC "orders" from host *; SCRAM-SHA-512 credential of bob appeared ' +
        "(8192 iterations); Removed: producer_byte_rate for user=bob (see the Drift page)",
    );
    expect(n.fields).toMatchObject({
      drift: {
        changes: 3,
        kinds: { acl: 1, scram: 1, quota: 1 },
        origin: "outside",
        windowTo: t("14:02:40").toISOString(),
      },
    });
  });

  it("lists at most DRIFT_NOTIFY_LISTED changes and counts them all", () => {
    const many = Array.from({ length: DRIFT_NOTIFY_LISTED + 5 }, (_, i) =>
      row(aclKey({ ...binding, resourceName: `t${i}` }), "appeared"),
    );
    const n = driftNotification(many, { from: t("14:00:00"), to: t("15:00:00"), origin: "observed" });
    const drift = n.fields.drift as { changes: number; listed: string[] };
    expect(drift.changes).toBe(DRIFT_NOTIFY_LISTED + 5);
    expect(drift.listed).toHaveLength(DRIFT_NOTIFY_LISTED);
    expect(n.text).toMatch(/^25 changes made outside the console after a gap in reading, between /);
  });
});
