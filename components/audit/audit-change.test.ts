/**
 * The Audit page's reading of events, on events shaped as the services record them: the
 * diff instead of raw JSON, sign-in noise folded per client and hour, the sentence that
 * says what the filters match, and an action filter that offers every action written.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/schemas/audit";
import {
  describeChange,
  describeMatch,
  diffFields,
  foldSignInNoise,
  requestLines,
  type AuditEventView,
} from "./audit-change";

const binding = (over: Record<string, string> = {}) => ({
  resourceType: "TOPIC",
  resourceName: "orders",
  patternType: "LITERAL",
  principal: "User:alice",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  ...over,
});

let nextId = 1;
const event = (over: Partial<AuditEventView>): AuditEventView => ({
  id: String(nextId++),
  at: new Date("2026-12-01T10:30:00.000Z"),
  principal: "User:admin",
  action: "acl.create",
  target: "t",
  request: null,
  before: null,
  after: null,
  outcome: "success",
  kafkaError: null,
  message: null,
  category: "acl",
  subjects: [],
  completedAt: null,
  repeatCount: 1,
  lastAt: null,
  planId: null,
  ...over,
});

describe("describeChange: ACL events", () => {
  it("acl.create: the bindings Kafka created, and the one it refused with its message", () => {
    const refused = binding({ resourceName: "payments" });
    const change = describeChange(
      event({
        request: { bindings: [binding(), refused] },
        after: {
          results: [
            { ...binding(), ok: true, error: null },
            { ...refused, ok: false, error: { code: "INVALID_REQUEST", message: "no such thing" } },
          ],
        },
        outcome: "partial",
      }),
    );
    expect(change).toEqual({
      kind: "bindings",
      created: [binding()],
      deleted: [],
      failed: [{ binding: refused, message: "no such thing" }],
      notApplied: [],
    });
  });

  it("acl.delete: the bindings recorded as deleted", () => {
    const change = describeChange(
      event({
        action: "acl.delete",
        request: { bindings: [binding()] },
        before: { bindings: [binding()] },
        after: { results: [{ ...binding(), ok: true, deleted: 1, error: null }] },
      }),
    );
    expect(change).toMatchObject({ kind: "bindings", created: [], deleted: [binding()] });
  });

  it("a batch Kafka refused as a whole (no results): asked for, not applied", () => {
    expect(describeChange(event({ request: { bindings: [binding()] }, outcome: "denied" }))).toMatchObject({
      kind: "bindings",
      created: [],
      notApplied: [binding()],
    });
  });
});

describe("describeChange: fields", () => {
  it("quota.alter: a key changed, one added, one removed, in their units", () => {
    const change = describeChange(
      event({
        action: "quota.alter",
        category: "quota",
        before: { producer_byte_rate: 1048576, request_percentage: 50 },
        after: { producer_byte_rate: 524288, consumer_byte_rate: 2097152 },
      }),
    );
    expect(change).toEqual({
      kind: "fields",
      unchanged: 0,
      changes: [
        { path: "producer_byte_rate", kind: "changed", before: "1 MiB/s (1048576)", after: "512 KiB/s (524288)" },
        { path: "request_percentage", kind: "removed", before: "50% of a thread (50)" },
        { path: "consumer_byte_rate", kind: "added", after: "2 MiB/s (2097152)" },
      ],
    });
  });

  it("token.renew: after is only what changed, read over before; the expiry is a time", () => {
    const before = {
      owner: "User:alice",
      renewers: ["User:bob"],
      expiryTimestamp: Date.UTC(2026, 11, 2),
      maxTimestamp: Date.UTC(2026, 11, 8),
    };
    const change = describeChange(
      event({ action: "token.renew", category: "token", before, after: { expiryTimestamp: Date.UTC(2026, 11, 3) } }),
    );
    expect(change).toEqual({
      kind: "fields",
      unchanged: 3,
      changes: [
        {
          path: "expiryTimestamp",
          kind: "changed",
          before: "2026-12-02 00:00:00 UTC",
          after: "2026-12-03 00:00:00 UTC",
        },
      ],
    });
  });

  it("token.expire with removal: every field of the token removed", () => {
    const change = describeChange(
      event({
        action: "token.expire",
        category: "token",
        before: { owner: "User:alice", renewers: [] },
        after: { removed: true },
      }),
    );
    expect(change).toMatchObject({
      kind: "fields",
      changes: [
        { path: "owner", kind: "removed" },
        { path: "renewers", kind: "removed", before: "(none)" },
      ],
    });
  });

  it("nested values are compared by path; nothing recorded is no change", () => {
    expect(diffFields({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3 } }).changes).toEqual([
      { path: "a.c", kind: "changed", before: "2", after: "3" },
    ]);
    expect(describeChange(event({ action: "session.sign-out", category: "session" }))).toEqual({ kind: "none" });
  });

  it("the request is key/value lines, without the bindings the change already shows", () => {
    expect(
      requestLines(event({ request: { bindings: [binding()], entity: { user: "svc-orders" }, value: 5 } })),
    ).toEqual([
      { path: "entity.user", value: "svc-orders" },
      { path: "value", value: "5" },
    ]);
  });
});

describe("foldSignInNoise", () => {
  const failure = (client: string, at: string, username: string, repeatCount = 1) =>
    event({
      action: "session.sign-in",
      category: "session",
      outcome: "denied",
      principal: `User:${username}`,
      at: new Date(at),
      repeatCount,
      request: { username, client },
    });

  it("one row per client and hour, at the newest one's place; other events stay rows of their own", () => {
    const change = event({ action: "acl.create" });
    const rows = foldSignInNoise([
      failure("203.0.113.7", "2026-12-01T10:50:00Z", "alice", 40),
      change,
      failure("203.0.113.7", "2026-12-01T10:05:00Z", "bob"),
      failure("198.51.100.2", "2026-12-01T10:04:00Z", "alice"),
      failure("203.0.113.7", "2026-12-01T09:59:00Z", "alice"),
      event({ action: "session.sign-in", category: "session", outcome: "success" }),
    ]);
    expect(
      rows.map((r) =>
        r.kind === "event" ? r.event.action : `${r.group.client} ${r.group.hour.slice(11, 13)}h x${r.group.attempts}`,
      ),
    ).toEqual(["203.0.113.7 10h x41", "acl.create", "198.51.100.2 10h x1", "203.0.113.7 09h x1", "session.sign-in"]);
    const first = rows[0];
    expect(first?.kind === "signInFailures" && first.group.usernames).toEqual(["alice", "bob"]);
  });
});

describe("describeMatch", () => {
  const filters = { principal: "User:alice", action: "acl.create", from: new Date("2026-12-01T00:00:00Z") };

  it("an exact count when everything is on this page", () => {
    expect(describeMatch(filters, 12, false, false)).toBe(
      "12 events match actor User:alice, action acl.create, since 2026-12-01.",
    );
    expect(describeMatch({ outcome: "denied" }, 1, false, false)).toBe("1 event matches outcome denied.");
    expect(describeMatch({}, 0, false, false)).toBe("No events you may see.");
  });

  it("more than a page: says so, never a made-up total", () => {
    expect(describeMatch({ to: new Date("2026-12-01T08:15:00Z") }, 100, true, false)).toBe(
      "More than 100 events match until 2026-12-01 08:15 UTC; the newest 100 are shown.",
    );
    expect(describeMatch(filters, 100, true, true)).toBe(
      "Older events that match actor User:alice, action acl.create, since 2026-12-01: 100 events on this page, " +
        "more on the next.",
    );
  });
});

describe("AUDIT_ACTIONS", () => {
  it("offers every action the console writes", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const files = ["lib/services", "lib/auth"].flatMap((dir) =>
      readdirSync(path.join(root, dir))
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
        .map((f) => readFileSync(path.join(root, dir, f), "utf8")),
    );
    const written = new Set<string>();
    for (const text of files) {
      for (const m of text.matchAll(/(?:action: |specFor\(viewer, )"((?:acl|quota|token|session|scram)\.[a-z.-]+)"/g))
        written.add(m[1]!);
      if (text.includes("action: `acl.${kind}`")) ["acl.create", "acl.delete"].forEach((a) => written.add(a));
      if (text.includes("action: `token.${verb}`")) ["token.renew", "token.expire"].forEach((a) => written.add(a));
      for (const m of text.matchAll(/: "(scram\.[a-z]+)"/g)) written.add(m[1]!); // lib/services/scram-users.ts SCRAM_ACTION
    }
    written.add("session.sign-in"); // lib/db/sign-in-audit.ts SIGN_IN_ACTION
    const offered = AUDIT_ACTIONS.map((a) => a.action as string);
    expect([...written].filter((a) => !offered.includes(a))).toEqual([]);
    expect(written.size).toBeGreaterThanOrEqual(12);
  });
});
