/**
 * Who sees which audit events, against the dev broker and PostgreSQL: the outside
 * tester's findings, as alice (no cluster permission), bob (a renewer and a requester)
 * and admin (the super user), plus fresh principals that Kafka lets describe ACLs, quotas
 * or tokens of one owner, and a cluster admin (ALTER on CLUSTER).
 *
 * Rows are written the way the writers write them (category + subjects), into a fresh
 * database; each viewer lists through lib/services/audit-view.ts, which asks Kafka as them.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Viewer } from "@/lib/auth/sign-in";
import type { AclBinding } from "@/lib/policy";

vi.mock("server-only", () => ({}));

const { closeAllConnections } = await import("@/lib/kafka");
const { createAcls } = await import("@/lib/kafka/acls");
const { ADMIN, createScramUser, dropScramUser, runId } = await import("@/test/kafka/fixtures");
const { useMigratedTestDatabase } = await import("@/test/db");
const { recordAudit, listVisibleAudit } = await import("@/lib/db/audit");
const { listAuditFor, auditToCsv } = await import("./audit-view");

const id = runId();
const owner = `User:it-av-owner-${id}`;
const otherOwner = `User:it-av-other-${id}`;
const names = {
  aclReader: `it-av-aclreader-${id}`,
  quotaReader: `it-av-quotas-${id}`,
  clusterAdmin: `it-av-clusteradmin-${id}`,
  tokenWatcher: `it-av-tokens-${id}`,
  decider: `it-av-decider-${id}`,
};
const viewers = {} as Record<keyof typeof names | "alice" | "bob" | "admin", Viewer>;
const demo = (name: string): Viewer => ({
  sessionId: null,
  principal: `User:${name}`,
  credential: { username: name, password: `${name}-secret`, mechanism: "SCRAM-SHA-512" },
});

const allow = (principal: string, a: Partial<AclBinding>): AclBinding => ({
  resourceType: "CLUSTER",
  resourceName: "kafka-cluster",
  patternType: "LITERAL",
  principal,
  host: "*",
  operation: "DESCRIBE",
  permissionType: "ALLOW",
  ...a,
});

/** The rows, each named by a marker in its target; `seenBy` lists who must see it (everyone else must not). */
const ROWS: { marker: string; seenBy: string[]; write: (target: string) => Parameters<typeof recordAudit>[0] }[] = [
  {
    marker: "admin-acl",
    seenBy: ["admin", "aclReader", "clusterAdmin", "tokenWatcher", "decider"],
    write: (target) => ({
      principal: "User:admin",
      action: "acl.create",
      target,
      category: "acl",
      outcome: "success",
      request: { bindings: [{ principal: "User:svc-orders", operation: "WRITE" }] },
    }),
  },
  {
    marker: "alice-acl-refused",
    seenBy: ["admin", "alice", "aclReader", "clusterAdmin", "tokenWatcher", "decider"],
    write: (target) => ({
      principal: "User:alice",
      action: "acl.create",
      target,
      category: "acl",
      outcome: "denied",
      kafkaError: "CLUSTER_AUTHORIZATION_FAILED",
    }),
  },
  {
    marker: "admin-quota",
    seenBy: ["admin", "quotaReader"],
    write: (target) => ({
      principal: "User:admin",
      action: "quota.alter",
      target,
      category: "quota",
      outcome: "success",
      before: { producer_byte_rate: 1048576 },
      after: { producer_byte_rate: 2097152 },
    }),
  },
  {
    marker: "token-bob-renews",
    seenBy: ["admin", "bob", "tokenWatcher"],
    write: (target) => ({
      principal: "User:admin",
      action: "token.create",
      target,
      category: "token",
      subjects: [owner, "User:bob"],
      outcome: "success",
    }),
  },
  {
    marker: "token-other-owner",
    seenBy: ["admin"],
    write: (target) => ({
      principal: "User:admin",
      action: "token.create",
      target,
      category: "token",
      subjects: [otherOwner, `User:${names.tokenWatcher}-not`],
      outcome: "success",
    }),
  },
  {
    marker: "token-owner-is-renewer-elsewhere",
    // The watcher may describe tokens of `owner`; here `owner` is only a renewer: not enough.
    seenBy: ["admin"],
    write: (target) => ({
      principal: "User:admin",
      action: "token.create",
      target,
      category: "token",
      subjects: [otherOwner, owner],
      outcome: "success",
    }),
  },
  {
    marker: "request-by-bob",
    seenBy: ["admin", "bob", "tokenWatcher", "decider"],
    write: (target) => ({
      principal: "User:bob",
      action: "token.request.create",
      target,
      category: "token-request",
      subjects: ["User:bob", owner],
      outcome: "success",
      request: { owner, reason: "quarterly export for finance" },
    }),
  },
  {
    marker: "request-other-owner",
    seenBy: ["admin"],
    write: (target) => ({
      principal: "User:carol",
      action: "token.request.create",
      target,
      category: "token-request",
      subjects: ["User:carol", otherOwner],
      outcome: "success",
      request: { reason: "private" },
    }),
  },
  {
    marker: "alice-sign-in-failed",
    seenBy: ["admin", "clusterAdmin"],
    write: (target) => ({
      principal: "User:alice",
      action: "session.sign-in",
      target,
      category: "session",
      outcome: "denied",
      request: { username: "alice", client: "198.51.100.7" },
    }),
  },
  {
    marker: "alice-sign-in",
    seenBy: ["admin", "alice", "clusterAdmin"],
    write: (target) => ({
      principal: "User:alice",
      action: "session.sign-in",
      target,
      category: "session",
      outcome: "success",
      request: { username: "alice", client: "127.0.0.1" },
    }),
  },
  {
    marker: "legacy-bob",
    seenBy: ["admin", "bob", "clusterAdmin"],
    write: (target) => ({
      principal: "User:bob",
      action: "token.request.create",
      target,
      outcome: "success",
      request: { reason: "written before categories" },
    }),
  },
  {
    marker: "legacy-bob-sign-in-failed",
    seenBy: ["admin", "clusterAdmin"],
    write: (target) => ({
      principal: "User:bob",
      action: "session.sign-in",
      target,
      outcome: "denied",
      request: { client: "203.0.113.9" },
    }),
  },
];

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
const targets = new Map<string, string>();

beforeAll(async () => {
  db = await useMigratedTestDatabase("audit_view");
  for (const [k, name] of Object.entries(names)) {
    const credential = await createScramUser(name);
    viewers[k as keyof typeof names] = { sessionId: null, principal: `User:${name}`, credential };
  }
  viewers.alice = demo("alice");
  viewers.bob = demo("bob");
  viewers.admin = demo("admin");
  const u = (n: string) => `User:${n}`;
  await createAcls(ADMIN, [
    allow(u(names.aclReader), { operation: "DESCRIBE" }),
    allow(u(names.quotaReader), { operation: "DESCRIBE_CONFIGS" }),
    allow(u(names.clusterAdmin), { operation: "ALTER" }),
    allow(u(names.tokenWatcher), { operation: "DESCRIBE" }),
    allow(u(names.tokenWatcher), { resourceType: "USER", resourceName: owner, operation: "DESCRIBE_TOKENS" }),
    allow(u(names.decider), { operation: "DESCRIBE" }),
    allow(u(names.decider), { resourceType: "USER", resourceName: owner, operation: "CREATE_TOKENS" }),
  ]);
  for (const row of ROWS) {
    const target = `${row.marker} ${randomBytes(3).toString("hex")}`;
    targets.set(row.marker, target);
    await recordAudit(row.write(target));
  }
});

afterAll(async () => {
  for (const name of Object.values(names)) await dropScramUser(name);
  await closeAllConnections();
  await db?.teardown();
});

async function seenMarkers(who: keyof typeof viewers): Promise<string[]> {
  const page = await listAuditFor(viewers[who], { limit: 1000 });
  if (!page.ok) throw new Error(page.message);
  return ROWS.filter((r) => page.data.events.some((e) => e.target === targets.get(r.marker))).map((r) => r.marker);
}

describe("who sees which audit events", () => {
  it.each(["alice", "bob", "admin", "aclReader", "quotaReader", "clusterAdmin", "tokenWatcher", "decider"] as const)(
    "%s sees exactly the events the rule gives it",
    async (who) => {
      const expected = ROWS.filter((r) => r.seenBy.includes(who)).map((r) => r.marker);
      expect(await seenMarkers(who)).toEqual(expected);
    },
  );

  it(
    "alice no longer reads admin's quota values, ACLs, others' token-request reasons or failed " +
      "sign-ins with client addresses",
    async () => {
      const page = await listAuditFor(viewers.alice, { limit: 1000 });
      if (!page.ok) throw new Error(page.message);
      const text = JSON.stringify(page.data.events) + auditToCsv(page.data.events);
      for (const secret of [
        "2097152",
        "svc-orders",
        "quarterly export",
        "private",
        "198.51.100.7",
        "203.0.113.9",
        "written before categories",
      ])
        expect(text).not.toContain(secret);
      expect(page.data.visibility.join(" ")).toContain("Kafka does not let you describe ACLs");
    },
  );

  it("a filter cannot widen what is visible, and paging over alice's events neither skips nor repeats", async () => {
    for (let i = 0; i < 7; i++) {
      await recordAudit({
        principal: "User:alice",
        action: "acl.delete",
        target: `alice-page-${i}`,
        category: "acl",
        outcome: "denied",
      });
      await recordAudit({
        principal: "User:admin",
        action: "acl.delete",
        target: `admin-page-${i}`,
        category: "acl",
        outcome: "success",
      });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await listAuditFor(viewers.alice, { action: "acl.delete", limit: 3, cursor });
      if (!page.ok) throw new Error(page.message);
      expect(page.data.events.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.events.map((e) => e.target));
      if (!page.data.nextCursor) break;
      cursor = page.data.nextCursor;
    }
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `alice-page-${i}`));

    const asAdmin = await listAuditFor(viewers.alice, { principal: "User:admin", limit: 1000 });
    expect(asAdmin.ok && asAdmin.data.events).toEqual([]);
    const sessions = await listAuditFor(viewers.alice, { category: "session", limit: 1000 });
    expect(sessions.ok && sessions.data.events.map((e) => e.target)).toEqual([targets.get("alice-sign-in")]);
  });

  it("every row, unrestricted, is still there for the database's own use", async () => {
    const all = await listVisibleAudit(
      {
        all: true,
        principal: "",
        categories: [],
        signInFailures: true,
        asSubject: [],
        tokenOwners: [],
        tokenRequestOwners: [],
      },
      { limit: 1000 },
    );
    for (const target of targets.values()) expect(all.events.map((e) => e.target)).toContain(target);
  });
});
