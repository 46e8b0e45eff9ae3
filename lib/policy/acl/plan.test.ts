import { describe, expect, it } from "vitest";
import type { AclBinding } from "../types";
import { AclIndex } from "./acl-index";
import { blastRadius } from "./blast-radius";
import { applyPlan, computePlan, planWithBlastRadius } from "./plan";
import { ANY_OTHER_HOST, consoleUniverse, type PlanUniverse } from "./plan-universe";
import { acl } from "@/test/policy/acl-helpers";

const allowSvcOrdersWrite = acl("TOPIC", "orders", "LITERAL", "User:svc-orders", "*", "WRITE", "ALLOW");
const allowSvcOrdersDlq = acl("TOPIC", "orders-dlq", "LITERAL", "User:svc-orders", "*", "WRITE", "ALLOW");
const allowAliceRead = acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW");
const current = [
  allowSvcOrdersWrite,
  allowSvcOrdersDlq,
  allowAliceRead,
  acl("TOPIC", "payments", "LITERAL", "User:bob", "10.0.0.7", "READ", "ALLOW"),
];

/** The console's universe for `current`: its principals and hosts, plus SCRAM users and the cluster's topics. */
function universeOf(acls: readonly AclBinding[], extra: readonly AclBinding[] = []): PlanUniverse {
  return consoleUniverse({
    acls: [acls, extra],
    superUsers: ["User:admin"],
    scramUsers: ["alice", "bob", "carol", "svc-orders", "svc-billing"],
    topics: ["orders", "orders-dlq", "payments", "audit"],
    groups: ["billing"],
  }).universe;
}

describe("blastRadius — the three previews the issue found wrong", () => {
  it("DENY User:* WRITE TOPIC LITERAL orders: svc-orders can no longer WRITE orders (from any host)", () => {
    const deny = acl("TOPIC", "orders", "LITERAL", "User:*", "*", "WRITE", "DENY");
    const blast = blastRadius({ before: current, change: { create: [deny] }, universe: universeOf(current, [deny]) });
    expect(blast.all()).toEqual([
      {
        principal: "User:svc-orders",
        host: "10.0.0.7",
        resourceType: "TOPIC",
        resourceName: "orders",
        operation: "WRITE",
        before: "ALLOWED",
        after: "DENIED",
      },
      {
        principal: "User:svc-orders",
        host: ANY_OTHER_HOST,
        resourceType: "TOPIC",
        resourceName: "orders",
        operation: "WRITE",
        before: "ALLOWED",
        after: "DENIED",
      },
    ]);
    expect(blast.rules).toEqual([
      { kind: "wildcard-principal", change: "create", binding: deny, text: "and every principal not yet seen" },
    ]);
  });

  it("DENY User:svc-orders WRITE PREFIXED orders breaks WRITE on orders and orders-dlq", () => {
    const deny = acl("TOPIC", "orders", "PREFIXED", "User:svc-orders", "*", "WRITE", "DENY");
    const blast = blastRadius({ before: current, change: { create: [deny] }, universe: universeOf(current, [deny]) });
    expect(
      blast.all().map((r) => `${r.principal} ${r.operation} ${r.resourceName} ${r.host}: ${r.before} -> ${r.after}`),
    ).toEqual([
      "User:svc-orders WRITE orders 10.0.0.7: ALLOWED -> DENIED",
      `User:svc-orders WRITE orders ${ANY_OTHER_HOST}: ALLOWED -> DENIED`,
      "User:svc-orders WRITE orders-dlq 10.0.0.7: ALLOWED -> DENIED",
      `User:svc-orders WRITE orders-dlq ${ANY_OTHER_HOST}: ALLOWED -> DENIED`,
    ]);
    expect(blast.rules).toEqual([
      {
        kind: "prefixed-resource",
        change: "create",
        binding: deny,
        text: "and every TOPIC not yet seen whose name starts with `orders`",
      },
    ]);
    expect(blast.summary()).toMatchObject({ changes: 4, gained: 0, lost: 4, principals: 1, resources: 2 });
  });

  it("deleting the wildcard DENY gives WRITE back", () => {
    const deny = acl("TOPIC", "*", "LITERAL", "User:*", "*", "WRITE", "DENY");
    const before = [...current, deny];
    const blast = blastRadius({ before, change: { delete: [deny] }, universe: universeOf(before) });
    expect(blast.all().map((r) => `${r.principal} ${r.resourceName} ${r.host} ${r.before}->${r.after}`)).toEqual([
      "User:svc-orders orders 10.0.0.7 DENIED->ALLOWED",
      `User:svc-orders orders ${ANY_OTHER_HOST} DENIED->ALLOWED`,
      "User:svc-orders orders-dlq 10.0.0.7 DENIED->ALLOWED",
      `User:svc-orders orders-dlq ${ANY_OTHER_HOST} DENIED->ALLOWED`,
    ]);
    expect(blast.rules.map((r) => r.text)).toEqual([
      "and every principal not yet seen",
      "and every TOPIC not yet seen",
    ]);
  });
});

describe("blastRadius — defaults, hosts, super users", () => {
  const universe: PlanUniverse = {
    principals: ["User:alice", "User:bob", "User:admin"],
    hosts: ["10.0.0.1", "10.0.0.2"],
    resources: [
      { resourceType: "GROUP", resourceName: "g" },
      { resourceType: "TOPIC", resourceName: "t" },
    ],
  };

  it(
    "with allow.everyone.if.no.acl.found=true, the first ACL on a resource takes every operation away from " +
      "everyone else",
    () => {
      const first = acl("GROUP", "g", "LITERAL", "User:alice", "*", "READ", "ALLOW");
      const blast = blastRadius({
        before: [],
        change: { create: [first] },
        universe,
        config: { allowEveryoneIfNoAclFound: true, superUsers: ["User:admin"] },
      });
      const rows = blast.all();
      // bob: 5 GROUP operations x 2 hosts; alice keeps READ and DESCRIBE (implied), loses the other 3; admin never
      // changes.
      expect(rows.filter((r) => r.principal === "User:bob")).toHaveLength(10);
      expect(rows.filter((r) => r.principal === "User:alice").map((r) => r.operation)).toEqual([
        "DELETE",
        "DESCRIBE_CONFIGS",
        "ALTER_CONFIGS",
        "DELETE",
        "DESCRIBE_CONFIGS",
        "ALTER_CONFIGS",
      ]);
      expect(rows.some((r) => r.principal === "User:admin" || r.resourceType === "TOPIC")).toBe(false);
      expect(rows.every((r) => r.before === "ALLOWED" && r.after === "DENIED")).toBe(true);
      // ... and with the default (false) nothing changes for them: DENIED either way.
      expect(
        blastRadius({ before: [], change: { create: [first] }, universe })
          .all()
          .map((r) => `${r.principal} ${r.host} ${r.operation}`),
      ).toEqual([
        "User:alice 10.0.0.1 READ",
        "User:alice 10.0.0.1 DESCRIBE",
        "User:alice 10.0.0.2 READ",
        "User:alice 10.0.0.2 DESCRIBE",
      ]);
    },
  );

  it("a host-pinned ACL: hosts decided apart, rows in host order, a named host without a change left out", () => {
    const before = [
      acl("TOPIC", "t", "LITERAL", "User:*", "10.0.0.1", "READ", "ALLOW"),
      acl("TOPIC", "t", "LITERAL", "User:*", "10.0.0.2", "WRITE", "ALLOW"),
    ];
    const readForAll = acl("TOPIC", "t", "LITERAL", "User:*", "*", "READ", "ALLOW");
    const u = { ...universe, hosts: ["10.0.0.3", "10.0.0.2", "10.0.0.1", "10.0.0.9"] };
    const rows = blastRadius({ before, change: { create: [readForAll] }, universe: u }).all();
    expect(rows.filter((r) => r.principal === "User:bob").map((r) => `${r.host} ${r.operation}`)).toEqual([
      "10.0.0.2 READ",
      "10.0.0.3 READ",
      "10.0.0.3 DESCRIBE",
      "10.0.0.9 READ",
      "10.0.0.9 DESCRIBE",
    ]);
  });

  it("equal changes on resources whose ACLs name different hosts are counted per resource", () => {
    const before = [acl("TOPIC", "t2", "LITERAL", "User:*", "10.0.0.1", "READ", "ALLOW")];
    const readAll = acl("TOPIC", "t", "PREFIXED", "User:*", "*", "READ", "ALLOW");
    const u: PlanUniverse = {
      principals: ["User:alice"],
      hosts: ["10.0.0.1", "10.0.0.2", "10.0.0.3"],
      resources: [
        { resourceType: "TOPIC", resourceName: "t1" },
        { resourceType: "TOPIC", resourceName: "t2" },
      ],
    };
    const blast = blastRadius({ before, change: { create: [readAll] }, universe: u });
    // t1: READ and DESCRIBE from 3 hosts; t2: only from the 2 hosts its ACL does not already allow.
    expect(blast.total).toBe(10);
    expect(blast.all().map((r) => `${r.resourceName} ${r.host} ${r.operation}`)).toEqual([
      "t1 10.0.0.1 READ",
      "t1 10.0.0.1 DESCRIBE",
      "t1 10.0.0.2 READ",
      "t1 10.0.0.2 DESCRIBE",
      "t1 10.0.0.3 READ",
      "t1 10.0.0.3 DESCRIBE",
      "t2 10.0.0.2 READ",
      "t2 10.0.0.2 DESCRIBE",
      "t2 10.0.0.3 READ",
      "t2 10.0.0.3 DESCRIBE",
    ]);
    expect(blast.summary().byResource).toEqual([
      { resourceType: "TOPIC", resourceName: "t1", gained: 6, lost: 0 },
      { resourceType: "TOPIC", resourceName: "t2", gained: 4, lost: 0 },
    ]);
  });

  it("paging counts in rows, not principals: a page can start inside one principal's rows", () => {
    const deny = acl("TOPIC", "t", "LITERAL", "User:*", "*", "ALL", "DENY");
    const before = [acl("TOPIC", "t", "LITERAL", "User:*", "*", "ALL", "ALLOW")];
    const blast = blastRadius({ before, change: { create: [deny] }, universe, config: { superUsers: ["User:admin"] } });
    // 2 principals x 2 hosts x 8 TOPIC operations.
    expect(blast.total).toBe(32);
    expect(blast.page(13, 4).map((r) => `${r.principal} ${r.host} ${r.operation}`)).toEqual([
      "User:alice 10.0.0.2 ALTER",
      "User:alice 10.0.0.2 DESCRIBE_CONFIGS",
      "User:alice 10.0.0.2 ALTER_CONFIGS",
      "User:bob 10.0.0.1 READ",
    ]);
    expect(blast.checked).toBe(32);
    expect(blast.universeRequests).toBe(3 * 2 * (5 + 8));
  });

  it("a change that flips nothing has no rows; ACLs in the universe's unseen corners still give rules", () => {
    const blast = blastRadius({
      before: current,
      change: { create: [acl("TOPIC", "zzz", "PREFIXED", "User:*", "*", "READ", "ALLOW")] },
      universe,
    });
    expect(blast.total).toBe(0);
    expect(blast.all()).toEqual([]);
    expect(blast.rules.map((r) => r.kind)).toEqual(["wildcard-principal", "prefixed-resource"]);
    expect(blast.summary()).toEqual({
      changes: 0,
      gained: 0,
      lost: 0,
      principals: 0,
      resources: 0,
      byPrincipal: [],
      byResource: [],
    });
  });

  it("accepts a prebuilt index, and the full after set instead of the change", () => {
    const deny = acl("TOPIC", "orders", "LITERAL", "User:*", "*", "WRITE", "DENY");
    const u = universeOf(current, [deny]);
    const a = blastRadius({ before: AclIndex.build(current), change: { create: [deny] }, universe: u }).all();
    const b = blastRadius({ before: current, after: [...current, deny], universe: u }).all();
    expect(a).toEqual(b);
    expect(a).toHaveLength(2);
    expect(() => blastRadius({ before: current, universe: u })).toThrow(/exactly one of change and after/);
  });
});

describe("computePlan", () => {
  const bobRead = acl("TOPIC", "orders", "LITERAL", "User:bob", "*", "READ", "ALLOW");

  it("lists: creates not held (once), deletes held, no-ops reported, invalid bindings with Kafka's message", () => {
    const readOnCluster = acl("CLUSTER", "kafka-cluster", "LITERAL", "User:bob", "*", "READ", "ALLOW");
    const plan = computePlan({
      current,
      create: [bobRead, allowAliceRead, bobRead, { ...bobRead, principal: "bob" }, readOnCluster],
      delete: [allowSvcOrdersDlq, acl("TOPIC", "nope", "LITERAL", "User:x", "*", "READ", "ALLOW")],
    });
    expect(plan.create).toEqual([bobRead]);
    expect(plan.delete).toEqual([allowSvcOrdersDlq]);
    expect(plan.noOps).toEqual([allowAliceRead, acl("TOPIC", "nope", "LITERAL", "User:x", "*", "READ", "ALLOW")]);
    expect(plan.invalid.map((i) => [i.index, i.message])).toEqual([
      [
        3,
        "Could not parse principal from `bob` (no colon is present separating the principal type from the " +
          "principal name)",
      ],
      [4, expect.stringContaining("Operation READ does not apply to CLUSTER resources")],
    ]);
    expect(plan.refused).toBeUndefined();
  });

  it("lists: a binding both created and deleted is reported and neither", () => {
    const plan = computePlan({ current, create: [allowSvcOrdersWrite, bobRead], delete: [allowSvcOrdersWrite] });
    expect(plan.create).toEqual([bobRead]);
    expect(plan.delete).toEqual([]);
    expect(plan.invalid).toEqual([
      {
        binding: allowSvcOrdersWrite,
        from: "create",
        index: 0,
        message: "The binding is both in create and in delete: give it in one list only.",
      },
    ]);
  });

  it("add-only never deletes; sync deletes inside the scope (principals AND prefix) what desired lacks", () => {
    const desired = [allowSvcOrdersWrite, bobRead];
    expect(computePlan({ current, desired })).toMatchObject({ create: [bobRead], delete: [] });
    expect(computePlan({ current, desired, mode: "sync", scope: { resourcePrefix: "orders" } })).toMatchObject({
      create: [bobRead],
      delete: [allowSvcOrdersDlq, allowAliceRead],
    });
    expect(
      computePlan({
        current,
        desired,
        mode: "sync",
        scope: { principals: ["User:svc-orders"], resourcePrefix: "orders" },
      }).delete,
    ).toEqual([allowSvcOrdersDlq]);
    expect(computePlan({ current, desired, mode: "sync", scope: { principals: ["User:bob"] } }).delete).toEqual([
      current[3],
    ]);
  });

  it("sync without a scope, or with nothing valid desired, deletes nothing and is refused", () => {
    expect(computePlan({ current, desired: [bobRead], mode: "sync" })).toMatchObject({
      create: [bobRead],
      delete: [],
      refused: { code: "SYNC_WITHOUT_SCOPE" },
    });
    expect(
      computePlan({ current, desired: [bobRead], mode: "sync", scope: { principals: [], resourcePrefix: "" } }).refused
        ?.code,
    ).toBe("SYNC_WITHOUT_SCOPE");
    expect(computePlan({ current, desired: [], mode: "sync", scope: { resourcePrefix: "orders" } })).toMatchObject({
      delete: [],
      refused: { code: "SYNC_WITHOUT_DESIRED" },
    });
    const typo = { ...bobRead, principal: "bob" };
    expect(computePlan({ current, desired: [typo], mode: "sync", scope: { resourcePrefix: "orders" } })).toMatchObject({
      delete: [],
      invalid: [{ binding: typo }],
      refused: { code: "SYNC_WITHOUT_DESIRED" },
    });
  });

  it("maxDeletes; contradictory inputs are input errors", () => {
    expect(computePlan({ current, delete: current, maxDeletes: 3 }).exceedsMaxDeletes).toBe(true);
    expect(computePlan({ current, delete: current, maxDeletes: 4 }).exceedsMaxDeletes).toBe(false);
    expect(() => computePlan({ current, create: [], desired: [] })).toThrow(/either create\/delete lists or desired/);
    expect(() => computePlan({ current, mode: "sync" })).toThrow(/mode applies to desired/);
    expect(() => computePlan({ current, create: [], scope: { resourcePrefix: "a" } })).toThrow(
      /scope applies to desired/,
    );
  });

  it("planWithBlastRadius decides exactly the plan's change", () => {
    const deny = acl("TOPIC", "orders", "LITERAL", "User:*", "*", "WRITE", "DENY");
    const { plan, blast } = planWithBlastRadius({
      current,
      desired: [...current, deny],
      mode: "sync",
      scope: { resourcePrefix: "orders" },
      universe: universeOf(current, [deny]),
    });
    expect(plan).toMatchObject({ create: [deny], delete: [] });
    expect(applyPlan(current, plan)).toEqual([...current, deny]);
    expect(blast.total).toBe(2);
  });
});

describe("consoleUniverse", () => {
  it("principals, hosts and resources the console knows, plus a host no ACL names", () => {
    const { universe, otherHost } = consoleUniverse({
      acls: [
        [
          ...current,
          acl("TOPIC", "*", "LITERAL", "User:*", "*", "READ", "DENY"),
          acl("USER", "User:carol", "LITERAL", "User:bob", "*", "CREATE_TOKENS", "ALLOW"),
        ],
      ],
      superUsers: ["User:admin"],
      scramUsers: ["carol"],
      sessionPrincipals: ["User:dave"],
      topics: ["orders", "new-topic"],
      transactionalIds: ["tx-1"],
    });
    expect(otherHost).toBe(ANY_OTHER_HOST);
    expect(universe.principals).toEqual([
      "User:svc-orders",
      "User:alice",
      "User:bob",
      "User:admin",
      "User:carol",
      "User:dave",
    ]);
    expect(universe.hosts).toEqual(["10.0.0.7", ANY_OTHER_HOST]);
    expect(universe.resources).toEqual([
      { resourceType: "TOPIC", resourceName: "orders" },
      { resourceType: "TOPIC", resourceName: "orders-dlq" },
      { resourceType: "TOPIC", resourceName: "payments" },
      { resourceType: "USER", resourceName: "User:carol" },
      { resourceType: "TOPIC", resourceName: "new-topic" },
      { resourceType: "TRANSACTIONAL_ID", resourceName: "tx-1" },
      { resourceType: "CLUSTER", resourceName: "kafka-cluster" },
    ]);
  });
});
