/**
 * The dashboard's numbers on hand-made data: what a person reads on the cards must be
 * exactly what the list behind each number shows.
 */
import { describe, expect, it, vi } from "vitest";
import { AclStore, type AclBinding } from "@/lib/policy";
import type { AuditEvent } from "@/lib/db/audit";
import type { StoredGrant } from "@/lib/db/access-grant";
import type { QuotasOverview } from "@/lib/schemas/quotas";
import { aclListQuerySchema } from "@/lib/schemas/acls";
import type { DecidableRequest, TokenRequestView, TokenView } from "@/lib/schemas/tokens";

vi.mock("server-only", () => ({}));
const {
  BREAK_GLASS_DAYS,
  SHOWN_BREAK_GLASS,
  SHOWN_GRANTS,
  breakGlassPosture,
  countAcls,
  decisionPosture,
  quotaPosture,
  recentChanges,
  requestPosture,
  storePosture,
  summariseLint,
  tokenPosture,
} = await import("./dashboard");
const { listOf } = await import("./acls");
const { AclSnapshot } = await import("./acl-snapshot");
const { matchesTokenFilter, tokenFilterOf } = await import("./token-view");

const acl = (over: Partial<AclBinding>): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: "orders",
  patternType: "LITERAL",
  principal: "User:alice",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  ...over,
});

const ACLS: AclBinding[] = [
  acl({}),
  acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:bob" }),
  acl({ resourceName: "payments-eu", principal: "User:bob", permissionType: "DENY" }),
  acl({ resourceName: "*", principal: "User:carol", operation: "DESCRIBE" }),
  acl({ resourceName: "inventory", principal: "User:*" }),
  acl({ resourceName: "audit-log", principal: "User:*", operation: "DELETE", permissionType: "DENY" }),
  acl({ resourceType: "GROUP", resourceName: "alice-", patternType: "PREFIXED" }),
  acl({
    resourceType: "CLUSTER",
    resourceName: "kafka-cluster",
    principal: "User:svc-orders",
    operation: "IDEMPOTENT_WRITE",
  }),
  acl({ resourceType: "USER", resourceName: "User:svc-orders", principal: "User:bob", operation: "CREATE_TOKENS" }),
  // PREFIXED "*" is not the wildcard: it counts as PREFIXED, not as a grant on every resource.
  acl({ resourceType: "GROUP", resourceName: "*", patternType: "PREFIXED", principal: "User:dave" }),
];

describe("countAcls", () => {
  it("counts by resource type and permission, every type listed even when empty", () => {
    const c = countAcls(ACLS);
    expect(c.total).toBe(10);
    expect(c.byPermission).toEqual({ ALLOW: 8, DENY: 2 });
    expect(c.byType).toEqual([
      { resourceType: "TOPIC", allow: 4, deny: 2 },
      { resourceType: "GROUP", allow: 2, deny: 0 },
      { resourceType: "CLUSTER", allow: 1, deny: 0 },
      { resourceType: "TRANSACTIONAL_ID", allow: 0, deny: 0 },
      { resourceType: "DELEGATION_TOKEN", allow: 0, deny: 0 },
      { resourceType: "USER", allow: 1, deny: 0 },
    ]);
  });

  it(
    "counts grants to User:* (by permission), LITERAL * resources and PREFIXED patterns as the ACL list " +
      "filters them",
    () => {
      const c = countAcls(ACLS);
      expect(c.wildcardPrincipal).toEqual({ allow: 1, deny: 1 });
      expect(c.wildcardResource).toBe(1);
      expect(c.prefixed).toBe(3);
      // What /acls?principal=User:* and ?resourceName=*&patternType=LITERAL and ?patternType=PREFIXED list:
      const store = AclStore.build(ACLS);
      expect(store.count({ principal: "User:*" })).toBe(c.wildcardPrincipal.allow + c.wildcardPrincipal.deny);
      expect(store.count({ resourceName: "*", patternType: "LITERAL" })).toBe(c.wildcardResource);
      expect(store.count({ patternType: "PREFIXED" })).toBe(c.prefixed);
      expect(store.count({ permissionType: "DENY" })).toBe(c.byPermission.DENY);
      expect(store.count({ resourceType: "TOPIC", permissionType: "ALLOW" })).toBe(4);
    },
  );

  it("a User:alice principal is not the wildcard, nor is Group:*", () => {
    expect(countAcls([acl({ principal: "Group:*" }), acl({ principal: "User:alice" })]).wildcardPrincipal).toEqual({
      allow: 0,
      deny: 0,
    });
  });
});

describe("summariseLint", () => {
  it("counts by severity and by code, most severe then most frequent first, with the ACLs each code is about", () => {
    const deny = acl({ resourceName: "x", permissionType: "DENY" });
    const f = (severity: "error" | "warning" | "info", code: string, acls: AclBinding[] = []) =>
      ({ severity, code, message: "", acls }) as never;
    const s = summariseLint([
      f("info", "redundant-allow", [acl({ operation: "READ" }), acl({ operation: "ALL" })]),
      f("warning", "dead-allow", [acl({ resourceName: "x" }), deny]),
      f("warning", "duplicate", [acl({ resourceName: "d" }), acl({ resourceName: "d" })]),
      f("warning", "dead-allow", [acl({ resourceName: "x", operation: "WRITE" }), deny]),
      f("error", "empty-resource-name", [acl({ resourceName: "" })]),
    ]);
    expect(s).toEqual({
      state: "done",
      errors: 1,
      warnings: 3,
      info: 1,
      byCode: [
        { code: "empty-resource-name", severity: "error", count: 1, acls: 1 },
        // The DENY that kills both ALLOWs is their cause, not an ACL they are about.
        { code: "dead-allow", severity: "warning", count: 2, acls: 2 },
        // Two copies of one binding are one ACL.
        { code: "duplicate", severity: "warning", count: 1, acls: 1 },
        { code: "redundant-allow", severity: "info", count: 1, acls: 1 },
      ],
    });
  });
});

describe("storePosture", () => {
  it("lints the real set: the User:* DENY makes carol's ALLOW dead, the PREFIXED * is reported", () => {
    const store = AclStore.build([
      ...ACLS,
      acl({ resourceName: "secret", principal: "User:carol", operation: "DESCRIBE" }),
      acl({ resourceName: "secret", principal: "User:*", operation: "DESCRIBE", permissionType: "DENY" }),
    ]);
    const { lint } = storePosture(store);
    expect(lint.state).toBe("done");
    if (lint.state !== "done") return;
    expect(lint.byCode.map((c) => c.code)).toEqual(expect.arrayContaining(["dead-allow", "prefixed-wildcard"]));
  });

  it("each lint code's number is what the ACL list filtered by that code holds", () => {
    const store = AclStore.build([
      ...ACLS,
      acl({ resourceName: "secret", principal: "User:carol", operation: "DESCRIBE" }),
      acl({ resourceName: "secret", principal: "User:carol", operation: "READ" }),
      acl({ resourceName: "secret", principal: "User:*", operation: "ALL", permissionType: "DENY" }),
      acl({ resourceName: "orders", principal: "User:dave", operation: "ALL" }),
      acl({ resourceName: "orders", principal: "User:dave", operation: "READ" }),
    ]);
    const { lint } = storePosture(store);
    if (lint.state !== "done") throw new Error("lint did not run");
    expect(lint.byCode.length).toBeGreaterThanOrEqual(3);
    const snapshot = new AclSnapshot(store, Date.now());
    for (const c of lint.byCode) {
      const list = listOf(snapshot, aclListQuerySchema.parse({ lintCode: c.code }));
      expect(list.matching, c.code).toBe(c.acls);
      expect(list.acls).toHaveLength(c.acls);
    }
    const dead = listOf(snapshot, aclListQuerySchema.parse({ lintCode: "dead-allow" }));
    expect(dead.acls.map((b) => `${b.principal} ${b.operation}`).sort()).toEqual([
      "User:carol DESCRIBE",
      "User:carol READ",
    ]);
    // Combined with another filter and paged like the unfiltered list.
    const page = listOf(
      snapshot,
      aclListQuerySchema.parse({ lintCode: "dead-allow", operation: "READ", pageSize: "1" }),
    );
    expect(page).toMatchObject({ matching: 1, page: 1, pages: 1, total: store.size });
    expect(listOf(snapshot, aclListQuerySchema.parse({ lintCode: "host-not-ip" }))).toMatchObject({
      matching: 0,
      acls: [],
    });
  });

  it("computes once per snapshot version: the same store gives the same objects, a changed store new counts", () => {
    const store = AclStore.build(ACLS);
    const first = storePosture(store);
    const again = storePosture(store);
    expect(again.counts).toBe(first.counts);
    expect(again.lint).toBe(first.lint);
    const changed = store.withChange([acl({ resourceName: "new", permissionType: "DENY" })], []);
    const next = storePosture(changed);
    expect(next.counts).not.toBe(first.counts);
    expect(next.counts.byPermission.DENY).toBe(3);
  });

  it("above the limit lint waits to be asked, then is kept for the store", () => {
    const store = AclStore.build(ACLS);
    expect(storePosture(store, { lintLimit: 5 }).lint).toEqual({ state: "onRequest", limit: 5 });
    const asked = storePosture(store, { lint: true, lintLimit: 5 }).lint;
    expect(asked.state).toBe("done");
    expect(storePosture(store, { lintLimit: 5 }).lint).toBe(asked);
  });
});

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 11, 1, 12);
const token = (over: Partial<TokenView>): TokenView => ({
  tokenId: "t",
  owner: "User:alice",
  requester: "User:alice",
  renewers: [],
  issueTimestamp: NOW - HOUR,
  expiryTimestamp: NOW + 10 * HOUR,
  maxTimestamp: NOW + 100 * HOUR,
  status: "active",
  mayRenew: true,
  ...over,
});

describe("tokenPosture", () => {
  const tokens = [
    token({ tokenId: "mine-10h" }),
    token({ tokenId: "mine-3d", expiryTimestamp: NOW + 72 * HOUR }),
    // The max timestamp comes first: it expires then, whatever the expiry says.
    token({ tokenId: "mine-max-20h", expiryTimestamp: NOW + 90 * HOUR, maxTimestamp: NOW + 20 * HOUR }),
    token({ tokenId: "mine-30d", expiryTimestamp: NOW + 720 * HOUR, maxTimestamp: NOW + 800 * HOUR }),
    token({
      tokenId: "bob-renewed-by-alice-2d",
      owner: "User:bob",
      requester: "User:bob",
      renewers: ["User:alice"],
      expiryTimestamp: NOW + 48 * HOUR,
    }),
    token({ tokenId: "gone", expiryTimestamp: NOW - HOUR, status: "expired" }),
    // Seen through DESCRIBE_TOKENS only: not alice's to renew, not on her dashboard.
    token({ tokenId: "carol", owner: "User:carol", requester: "User:carol", mayRenew: false }),
  ];

  it("counts owned and renewable live tokens and what expires within 24 h and 7 days", () => {
    const p = tokenPosture(tokens, "User:alice", NOW);
    expect(p).toMatchObject({ owned: 4, renewable: 1, expiring24h: 2, expiring7d: 4, expired: 1 });
  });

  it("lists them soonest first with the earlier of expiry and max timestamp", () => {
    const p = tokenPosture(tokens, "User:alice", NOW);
    expect(p.tokens.map((t) => t.tokenId)).toEqual([
      "gone",
      "mine-10h",
      "mine-max-20h",
      "bob-renewed-by-alice-2d",
      "mine-3d",
      "mine-30d",
    ]);
    expect(p.tokens.find((t) => t.tokenId === "mine-max-20h")?.expiresAt).toBe(NOW + 20 * HOUR);
    expect(p.tokens.find((t) => t.tokenId === "bob-renewed-by-alice-2d")?.role).toBe("renewer");
  });

  it("each number is what the token list filtered by it holds (?role=, ?expiring=)", () => {
    const p = tokenPosture(tokens, "User:alice", NOW);
    const listed = (search: Record<string, string>) =>
      tokens.filter((t) => matchesTokenFilter(t, "User:alice", tokenFilterOf(search), NOW)).map((t) => t.tokenId);
    expect(listed({ role: "owner" })).toHaveLength(p.owned);
    expect(listed({ role: "renewer" })).toEqual(["bob-renewed-by-alice-2d"]);
    expect(listed({ expiring: "24h" })).toEqual(["mine-10h", "mine-max-20h"]);
    expect(listed({ expiring: "7d" })).toHaveLength(p.expiring7d);
    // No (or an unknown) filter: every token the list shows, expired and others' included.
    expect(listed({})).toHaveLength(tokens.length);
    expect(listed({ expiring: "1y", role: "admin" })).toHaveLength(tokens.length);
  });

  it("another viewer sees other numbers from the same tokens", () => {
    expect(tokenPosture(tokens, "User:bob", NOW)).toMatchObject({
      owned: 1,
      renewable: 0,
      expiring24h: 0,
      expiring7d: 1,
    });
    expect(tokenPosture(tokens, "User:admin", NOW)).toMatchObject({
      owned: 0,
      renewable: 0,
      expiring7d: 0,
      tokens: [],
    });
  });
});

describe("decisionPosture", () => {
  const view = (over: Partial<TokenRequestView>): TokenRequestView => ({
    id: "r",
    createdAt: "2026-12-01T10:00:00.000Z",
    requester: "User:carol",
    owner: "User:svc-orders",
    renewers: [],
    maxLifetimeMs: null,
    reason: "",
    status: "PENDING",
    approver: null,
    decidedAt: null,
    decisionReason: null,
    tokenId: null,
    hmacDeadline: null,
    retrievable: false,
    claimedBy: null,
    claimedAt: null,
    ...over,
  });
  const decidable = (over: Partial<DecidableRequest>): DecidableRequest => ({
    ...view(over),
    entitlement: "acl",
    entitlementNote: "",
    ...over,
  });

  it("counts the open requests of others the viewer appears entitled to approve, oldest first", () => {
    const p = decisionPosture(
      {
        mine: [
          view({ id: "mine-open", requester: "User:bob" }),
          view({ id: "mine-done", requester: "User:bob", status: "APPROVED" }),
        ],
        pending: [
          decidable({ id: "later", createdAt: "2026-12-01T11:00:00.000Z" }),
          decidable({ id: "earlier", createdAt: "2026-12-01T09:00:00.000Z", entitlement: "superUser" }),
          decidable({ id: "own", requester: "User:bob", entitlement: "ownRequest" }),
          decidable({ id: "not-entitled", entitlement: "notEntitled" }),
          decidable({ id: "unknown", entitlement: "unknown" }),
          decidable({ id: "being-approved", status: "APPROVING" }),
        ],
        aclsReadable: true,
        approverCheck: { by: "you" },
        now: NOW,
      },
      "User:bob",
    );
    expect(p.pending).toBe(2);
    expect(p.requests.map((r) => r.id)).toEqual(["earlier", "later"]);
    expect(p.myOpen).toBe(1);
  });
});

describe("quotaPosture", () => {
  it("one bar per user and key with sub-quotas; the violations as findings", () => {
    const line = (
      key: "producer_byte_rate" | "consumer_byte_rate",
      sum: number,
      total: number | null,
      clients: number,
    ) => ({
      key,
      total,
      totalSource: "user" as const,
      totalDisplay: String(total),
      sum,
      sumDisplay: String(sum),
      remaining: total === null ? null : total - sum,
      remainingDisplay: "",
      usedPercent: total === null ? null : (sum / total) * 100,
      clients: Array.from({ length: clients }, (_, i) => ({ clientId: `c${i}`, value: 1, display: "1" })),
      defaultClientQuota: null,
      overBudget: total !== null && sum > total,
    });
    const overview: QuotasOverview = {
      groups: [],
      budgets: [
        {
          user: "svc-billing",
          label: "svc-billing",
          lines: [line("producer_byte_rate", 200, 100, 1), line("consumer_byte_rate", 0, 50, 0)],
        },
        { user: null, label: "<default>", lines: [line("producer_byte_rate", 10, null, 1)] },
      ],
      findings: {
        violations: [
          { user: "svc-billing", key: "producer_byte_rate", total: 100, sum: 200, clients: ["c0"], message: "over" },
        ],
        warnings: [],
        rule: "console rule",
      },
    };
    const p = quotaPosture(overview);
    expect(p.violations).toEqual([{ user: "svc-billing", key: "producer_byte_rate", message: "over" }]);
    expect(p.budgets.map((b) => [b.label, b.key, b.usedPercent, b.overBudget])).toEqual([
      ["svc-billing", "producer_byte_rate", 200, true],
      ["<default>", "producer_byte_rate", null, false],
    ]);
  });
});

describe("recentChanges", () => {
  const event = (id: string, action: string, category: AuditEvent["category"]): AuditEvent => ({
    id,
    at: new Date(NOW - Number(id) * 1000),
    principal: "User:admin",
    action,
    target: "x",
    request: null,
    before: null,
    after: null,
    outcome: "success",
    kafkaError: null,
    message: null,
    category,
    subjects: [],
    completedAt: null,
    repeatCount: 1,
    lastAt: null,
    planId: id === "1" ? "plan-1" : null,
  });

  it("leaves out sign-ins and sign-outs, keeps the order and the plan", () => {
    const r = recentChanges(
      [
        event("1", "acl.create", "acl"),
        event("2", "session.sign-in", "session"),
        event("3", "session.sign-out", "session"),
        event("4", "quota.alter", "quota"),
        event("5", "token.create", "token"),
      ],
      2,
    );
    expect(r.map((e) => e.action)).toEqual(["acl.create", "quota.alter"]);
    expect(r[0]).toMatchObject({ planId: "plan-1", at: new Date(NOW - 1000).toISOString() });
  });
});

describe("requestPosture", () => {
  const grant = (id: string, over: Partial<StoredGrant> = {}): StoredGrant => ({
    id,
    createdAt: new Date("2026-12-04T10:00:00Z"),
    clusterId: "local",
    requestId: null,
    requester: "User:alice",
    approver: "User:dana",
    planId: "p",
    bindings: [acl({}), acl({ resourceType: "GROUP", resourceName: "alice-", patternType: "PREFIXED" })],
    expiresAt: new Date("2026-12-04T12:00:00Z"),
    status: "LIVE",
    endedAt: null,
    endedBy: null,
    removalPlanId: null,
    outcome: null,
    attempts: 0,
    lastError: null,
    claimedAt: null,
    ...over,
  });

  it("lists whom each grant is for (each once), how many ACLs, and the counts as read", () => {
    const p = requestPosture(1, 3, {
      live: 10_000,
      soonest: [grant("g1"), grant("g2", { status: "REMOVING" })],
      overdue: 1,
      oldestOverdue: [grant("g0", { attempts: 4, lastError: "the broker is not reachable" })],
    });
    expect(p).toMatchObject({ approvals: 1, waiting: 3, live: 10_000, overdue: 1 });
    expect(p.grants.map((g) => [g.id, g.principals, g.acls, g.status])).toEqual([
      ["g1", ["User:alice"], 2, "LIVE"],
      ["g2", ["User:alice"], 2, "REMOVING"],
    ]);
    expect(p.overdueGrants[0]).toMatchObject({ id: "g0", attempts: 4, lastError: "the broker is not reachable" });
  });

  it("counts the token requests the viewer may decide among those waiting", () => {
    const p = requestPosture(0, 3, { live: 0, soonest: [], overdue: 0, oldestOverdue: [] }, 2);
    expect(p).toMatchObject({ waiting: 5, tokens: 2 });
  });

  it("shows at most SHOWN_GRANTS of each list", () => {
    const many = Array.from({ length: SHOWN_GRANTS + 5 }, (_, i) => grant(`g${i}`));
    const p = requestPosture(0, 0, { live: many.length, soonest: many, overdue: 0, oldestOverdue: [] });
    expect(p.grants).toHaveLength(SHOWN_GRANTS);
    expect(p.live).toBe(SHOWN_GRANTS + 5);
  });
});

describe("breakGlassPosture", () => {
  const event = (id: string, reason: unknown): AuditEvent => ({
    id,
    at: new Date("2026-12-04T10:00:00Z"),
    principal: "User:admin",
    action: "plan.break-glass",
    target: `plan ${id}`,
    request: { planId: id, reason },
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
    planId: id,
  });

  it("lists each apply with its reason; more than SHOWN_BREAK_GLASS says there are more", () => {
    const p = breakGlassPosture([event("a", "Incident 1234"), event("b", 42)]);
    expect(p).toMatchObject({ days: BREAK_GLASS_DAYS, count: 2, more: false });
    expect(p.events.map((e) => [e.planId, e.reason])).toEqual([
      ["a", "Incident 1234"],
      ["b", null],
    ]);
    const many = breakGlassPosture(Array.from({ length: SHOWN_BREAK_GLASS + 1 }, (_, i) => event(`e${i}`, "why")));
    expect(many).toMatchObject({ count: SHOWN_BREAK_GLASS, more: true });
  });

  it("flags the unreviewed ones; the recent reviewed ones come with their review; a plan once", () => {
    const review = { reviewer: "User:dana", at: "2026-12-05T09:00:00.000Z", comment: "Checked: incident 1234" };
    const p = breakGlassPosture(
      [event("a", "Incident 1234"), event("b", "retried"), event("b", "first try")],
      [event("a", "Incident 1234"), event("c", "reviewed")],
      new Map([["c", review]]),
    );
    expect(p.events.map((e) => [e.planId, e.reason, e.review])).toEqual([
      ["a", "Incident 1234", null],
      ["b", "retried", null],
    ]);
    expect(p.count).toBe(2);
    expect(p.reviewed.map((e) => [e.planId, e.review])).toEqual([["c", review]]);
    // Reviewed between the two reads: not flagged any more.
    expect(breakGlassPosture([event("c", "x")], [], new Map([["c", review]])).events).toEqual([]);
  });
});
