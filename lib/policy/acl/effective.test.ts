import { describe, expect, it } from "vitest";
import { AclIndex } from "./acl-index";
import { effectiveForPrincipal, effectiveForResource } from "./effective";
import { consumerTemplate, missingForRole, producerTemplate, streamsTemplate, transactionalTemplate } from "./roles";
import { acl } from "@/test/policy/acl-helpers";

describe("effectiveForResource", () => {
  const acls = [
    acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW"),
    acl("TOPIC", "ord", "PREFIXED", "User:bob", "*", "WRITE", "ALLOW"),
    acl("TOPIC", "ord", "PREFIXED", "User:bob", "10.0.0.9", "WRITE", "DENY"),
    acl("TOPIC", "*", "LITERAL", "User:*", "*", "DESCRIBE", "ALLOW"),
    acl("TOPIC", "payments", "LITERAL", "User:carol", "*", "ALL", "ALLOW"),
  ];
  const index = AclIndex.build(acls);

  it("lists User:* and every principal of the ACLs that apply, with each topic operation's decision and rule", () => {
    const view = effectiveForResource(index, "TOPIC", "orders");
    expect(view.acls).toEqual(acls.slice(0, 4));
    expect(view.rows.map((r) => r.principal)).toEqual(["User:*", "User:alice", "User:bob"]);
    const alice = view.rows[1]!;
    expect(alice.operations.map((c) => c.operation)).toEqual([
      "READ",
      "WRITE",
      "CREATE",
      "DESCRIBE",
      "DELETE",
      "ALTER",
      "DESCRIBE_CONFIGS",
      "ALTER_CONFIGS",
    ]);
    const cell = (row: typeof alice, op: string) => row.operations.find((c) => c.operation === op);
    expect(cell(alice, "READ")).toMatchObject({ decision: "ALLOWED", rule: { kind: "acl", acl: acls[0] } });
    expect(cell(alice, "WRITE")).toMatchObject({ decision: "DENIED", rule: { kind: "noAclMatched" } });
    const bob = view.rows[2]!;
    expect(bob.operations.find((c) => c.operation === "WRITE")).toMatchObject({
      decision: "ALLOWED",
      rule: { kind: "acl", acl: acls[1] },
    });
    expect(bob.specificHosts).toEqual(["10.0.0.9"]);
    const anyone = view.rows[0]!;
    expect(anyone.operations.find((c) => c.operation === "DESCRIBE")?.decision).toBe("ALLOWED");
    expect(anyone.operations.find((c) => c.operation === "READ")?.decision).toBe("DENIED");
  });

  it("answers for a given host: the host-specific DENY applies", () => {
    const view = effectiveForResource(index, "TOPIC", "orders", { host: "10.0.0.9" });
    const bob = view.rows.find((r) => r.principal === "User:bob")!;
    expect(bob.operations.find((c) => c.operation === "WRITE")).toMatchObject({
      decision: "DENIED",
      rule: { kind: "acl", acl: acls[2] },
    });
  });

  it("a resource without ACLs shows only User:* with the default rule", () => {
    const view = effectiveForResource(AclIndex.build([]), "GROUP", "g", {
      config: { allowEveryoneIfNoAclFound: true },
    });
    expect(view.rows).toHaveLength(1);
    expect(view.rows[0]!.operations.every((c) => c.decision === "ALLOWED" && c.rule.kind === "default")).toBe(true);
  });
});

describe("effectiveForPrincipal", () => {
  it("lists every pattern the principal (or User:*) has ACLs on, by operation, with DENY exceptions", () => {
    const acls = [
      acl("TOPIC", "app-", "PREFIXED", "User:alice", "*", "READ", "ALLOW"),
      acl("TOPIC", "app-secret", "LITERAL", "User:alice", "*", "READ", "DENY"),
      acl("GROUP", "*", "LITERAL", "User:*", "*", "READ", "ALLOW"),
      acl("TOPIC", "other", "LITERAL", "User:bob", "*", "READ", "ALLOW"),
    ];
    const view = effectiveForPrincipal(AclIndex.build(acls), "User:alice");
    expect(view.patterns.map((p) => `${p.resourceType}:${p.patternType}:${p.resourceName}`)).toEqual([
      "TOPIC:PREFIXED:app-",
      "TOPIC:LITERAL:app-secret",
      "GROUP:LITERAL:*",
    ]);
    const prefix = view.patterns[0]!;
    expect(prefix.operations.map((o) => [o.operation, o.decision])).toEqual([
      ["READ", "ALLOWED"],
      ["DESCRIBE", "ALLOWED"],
    ]);
    expect(prefix.operations[0]!.exceptions).toEqual([acls[1]]);
    expect(prefix.operations[1]!.exceptions).toEqual([]);
    expect(view.patterns[1]!.operations).toMatchObject([
      { operation: "READ", decision: "DENIED", rule: { kind: "acl", acl: acls[1] } },
    ]);
  });
});

describe("role templates (kafka-acls.sh --producer / --consumer)", () => {
  it("producer: WRITE, DESCRIBE, CREATE on the topic; --idempotent adds IDEMPOTENT_WRITE on the cluster", () => {
    expect(
      producerTemplate("User:p", [{ name: "orders" }]).map((b) => `${b.resourceType}:${b.resourceName}:${b.operation}`),
    ).toEqual(["TOPIC:orders:WRITE", "TOPIC:orders:DESCRIBE", "TOPIC:orders:CREATE"]);
    expect(producerTemplate("User:p", [{ name: "orders" }], { idempotent: true }).at(-1)).toMatchObject({
      resourceType: "CLUSTER",
      resourceName: "kafka-cluster",
      operation: "IDEMPOTENT_WRITE",
    });
  });

  it("consumer: READ, DESCRIBE on topics, READ on the group; transactional: WRITE, DESCRIBE on the id", () => {
    const c = consumerTemplate(
      "User:c",
      [{ name: "in-", patternType: "PREFIXED" }],
      { name: "cg" },
      { host: "10.0.0.1" },
    );
    expect(c.map((b) => `${b.resourceType}:${b.patternType}:${b.resourceName}:${b.operation}:${b.host}`)).toEqual([
      "TOPIC:PREFIXED:in-:READ:10.0.0.1",
      "TOPIC:PREFIXED:in-:DESCRIBE:10.0.0.1",
      "GROUP:LITERAL:cg:READ:10.0.0.1",
    ]);
    const t = transactionalTemplate("User:t", [{ name: "out" }], { name: "tx-1" }, { createTopics: false });
    expect(t.map((b) => `${b.resourceType}:${b.resourceName}:${b.operation}`)).toEqual([
      "TOPIC:out:WRITE",
      "TOPIC:out:DESCRIBE",
      "TRANSACTIONAL_ID:tx-1:WRITE",
      "TRANSACTIONAL_ID:tx-1:DESCRIBE",
    ]);
  });

  it("streams: application.id-prefixed internal topics and transactional ids, the application.id group", () => {
    const s = streamsTemplate("User:s", "wordcount", [{ name: "text" }], [{ name: "counts" }], { exactlyOnce: true });
    expect(s.filter((b) => b.patternType === "PREFIXED").every((b) => b.resourceName === "wordcount-")).toBe(true);
    expect(s.some((b) => b.resourceType === "GROUP" && b.resourceName === "wordcount" && b.operation === "READ")).toBe(
      true,
    );
    expect(s.some((b) => b.resourceType === "TRANSACTIONAL_ID" && b.operation === "WRITE")).toBe(true);
  });
});

describe("missingForRole", () => {
  it("proposes only what is not allowed yet, leaving out what a proposed ALLOW implies", () => {
    const acls = [acl("TOPIC", "orders", "LITERAL", "User:c", "*", "DESCRIBE", "ALLOW")];
    const { required, missing } = missingForRole(acls, {
      kind: "consumer",
      principal: "User:c",
      topics: [{ name: "orders" }],
      group: { name: "cg" },
    });
    expect(required.map((r) => `${r.resourceType}:${r.operation}:${r.status}`)).toEqual([
      "TOPIC:READ:missing",
      "TOPIC:DESCRIBE:allowed",
      "GROUP:READ:missing",
      "GROUP:DESCRIBE:implied",
    ]);
    expect(missing).toEqual([
      acl("TOPIC", "orders", "LITERAL", "User:c", "*", "READ", "ALLOW"),
      acl("GROUP", "cg", "LITERAL", "User:c", "*", "READ", "ALLOW"),
    ]);
  });

  it("a DENY blocks a requirement: no ALLOW is proposed for it", () => {
    const acls = [acl("TOPIC", "orders", "PREFIXED", "User:*", "*", "WRITE", "DENY")];
    const { required, missing } = missingForRole(acls, {
      kind: "producer",
      principal: "User:p",
      topics: [{ name: "orders" }],
      createTopics: false,
    });
    expect(required[0]).toMatchObject({ operation: "WRITE", status: "blocked", rule: { kind: "acl", acl: acls[0] } });
    expect(missing.map((m) => m.operation)).toEqual(["DESCRIBE"]);
  });

  it("idempotence needs no cluster ACL when the producer may write a topic (INIT_PRODUCER_ID)", () => {
    const { required, missing } = missingForRole([], {
      kind: "producer",
      principal: "User:p",
      topics: [{ name: "orders" }],
      idempotent: true,
      createTopics: false,
    });
    expect(required.at(-1)).toMatchObject({ operation: "IDEMPOTENT_WRITE", status: "implied" });
    expect(missing.map((m) => m.operation)).toEqual(["WRITE"]);
  });

  it("a prefixed requirement is not met by a narrower prefix, and DENY exceptions are reported", () => {
    const acls = [
      acl("TOPIC", "app-1", "PREFIXED", "User:s", "*", "ALL", "ALLOW"),
      acl("TOPIC", "app-", "PREFIXED", "User:s", "*", "READ", "ALLOW"),
      acl("TOPIC", "app-secret", "LITERAL", "User:*", "*", "READ", "DENY"),
    ];
    const { required } = missingForRole(acls, {
      kind: "streams",
      principal: "User:s",
      applicationId: "app",
      inputTopics: [],
      outputTopics: [],
    });
    const read = required.find((r) => r.resourceName === "app-" && r.operation === "READ")!;
    expect(read.status).toBe("allowed");
    expect(read.exceptions).toEqual([acls[2]]);
    expect(required.find((r) => r.resourceName === "app-" && r.operation === "WRITE")!.status).toBe("missing");
  });

  it("after creating the proposed ACLs, nothing is missing", () => {
    const role = {
      kind: "streams" as const,
      principal: "User:s",
      applicationId: "wc",
      inputTopics: [{ name: "in" }],
      outputTopics: [{ name: "out" }],
      exactlyOnce: true,
    };
    const first = missingForRole([], role);
    expect(first.missing.length).toBeGreaterThan(0);
    const second = missingForRole(first.missing, role);
    expect(second.missing).toEqual([]);
    expect(second.required.every((r) => r.status === "allowed" || r.status === "implied")).toBe(true);
  });
});

describe("templates — AclCommandTest (core/src/test/java/kafka/admin/AclCommandTest.java)", () => {
  // CMD_TO_RESOURCES_TO_ACL / producerResourceToAcls / CONSUMER_RESOURCE_TO_ACLS, for one
  // principal and host; testAclsOnPrefixedResources for the prefixed producer.
  const P = "User:test2";
  const H = "*";
  const key = (b: { resourceType: string; patternType: string; resourceName: string; operation: string }) =>
    `${b.resourceType}:${b.patternType}:${b.resourceName}:${b.operation}`;
  const topicOps = (ops: string[], topics = ["test-1", "test-2"]) =>
    topics.flatMap((t) => ops.map((op) => `TOPIC:LITERAL:${t}:${op}`));
  const rows: Array<[string, () => ReturnType<typeof producerTemplate>, string[]]> = [
    [
      "--producer",
      () => producerTemplate(P, [{ name: "test-1" }, { name: "test-2" }], { host: H }),
      topicOps(["WRITE", "DESCRIBE", "CREATE"]),
    ],
    [
      "--producer --idempotent",
      () => producerTemplate(P, [{ name: "test-1" }, { name: "test-2" }], { host: H, idempotent: true }),
      [...topicOps(["WRITE", "DESCRIBE", "CREATE"]), "CLUSTER:LITERAL:kafka-cluster:IDEMPOTENT_WRITE"],
    ],
    [
      "--producer --transactional-id t0",
      () => transactionalTemplate(P, [{ name: "test-1" }, { name: "test-2" }], { name: "t0" }, { host: H }),
      [
        ...topicOps(["WRITE", "DESCRIBE", "CREATE"]),
        "TRANSACTIONAL_ID:LITERAL:t0:WRITE",
        "TRANSACTIONAL_ID:LITERAL:t0:DESCRIBE",
      ],
    ],
    [
      "--consumer --group testGroup",
      () => consumerTemplate(P, [{ name: "test-1" }, { name: "test-2" }], { name: "testGroup" }, { host: H }),
      [...topicOps(["READ", "DESCRIBE"]), "GROUP:LITERAL:testGroup:READ"],
    ],
    [
      "--producer --topic Test- --resource-pattern-type Prefixed",
      () => producerTemplate(P, [{ name: "Test-", patternType: "PREFIXED" }], { host: H }),
      ["TOPIC:PREFIXED:Test-:WRITE", "TOPIC:PREFIXED:Test-:DESCRIBE", "TOPIC:PREFIXED:Test-:CREATE"],
    ],
  ];
  it.each(rows)("%s", (_cmd, build, expected) => {
    const acls = build();
    expect(acls.map(key).sort()).toEqual([...expected].sort());
    expect(acls.every((b) => b.principal === P && b.host === H && b.permissionType === "ALLOW")).toBe(true);
  });
});
