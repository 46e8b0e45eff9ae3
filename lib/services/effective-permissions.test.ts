import { describe, expect, it } from "vitest";
import {
  AclIndex,
  SUPPORTED_OPERATIONS,
  authorize,
  type AclBinding,
  type AuthorizerConfig,
  type ResourceType,
} from "@/lib/policy";
import {
  effectiveExportSchema,
  effectivePermissionsQuerySchema,
  normalizePrincipal,
  principalHref,
  principalParamSchema,
  principalPermissionsSchema,
  principalViewQuerySchema,
} from "@/lib/schemas/effective-permissions";
import {
  EXPORT_CSV_HEADER,
  exportToCsv,
  knownResources,
  principalPermissions,
  principalRows,
  resourcesUnderPrefix,
  ruleVia,
  unnamedHost,
  whoCan,
  type KnownResources,
} from "./effective-permissions";

function acl(a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal" | "operation">): AclBinding {
  return { resourceType: "TOPIC", patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}

// The demo cluster's story (scripts/seed/demo-data.ts), trimmed to what the tests ask about.
const ACLS: AclBinding[] = [
  acl({ resourceName: "orders", principal: "User:alice", operation: "READ" }),
  acl({ resourceName: "*", principal: "User:carol", operation: "DESCRIBE" }),
  acl({ resourceName: "audit-log", principal: "User:carol", operation: "READ", host: "127.0.0.1" }),
  acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:bob", operation: "READ" }),
  acl({ resourceName: "payments-eu", principal: "User:bob", operation: "READ", permissionType: "DENY" }),
  acl({ resourceType: "USER", resourceName: "User:svc-orders", principal: "User:bob", operation: "CREATE_TOKENS" }),
  acl({ resourceName: "orders", principal: "User:svc-orders", operation: "WRITE" }),
  acl({ resourceName: "orders", principal: "User:svc-orders", operation: "READ" }),
  acl({ resourceName: "orders-dlq", principal: "User:svc-orders", operation: "WRITE" }),
  acl({ resourceType: "GROUP", resourceName: "orders-service", principal: "User:svc-orders", operation: "READ" }),
  acl({
    resourceType: "TRANSACTIONAL_ID",
    resourceName: "orders-tx-",
    patternType: "PREFIXED",
    principal: "User:svc-orders",
    operation: "WRITE",
  }),
  acl({
    resourceType: "CLUSTER",
    resourceName: "kafka-cluster",
    principal: "User:svc-orders",
    operation: "IDEMPOTENT_WRITE",
  }),
  acl({ resourceName: "audit-log", principal: "User:svc-billing", operation: "WRITE" }),
  acl({ resourceName: "inventory", principal: "User:*", operation: "READ" }),
  acl({ resourceName: "audit-log", principal: "User:*", operation: "DELETE", permissionType: "DENY" }),
  acl({ resourceName: "orders-archive", principal: "User:svc-orders", operation: "ALTER_CONFIGS" }),
];

const CONFIG: AuthorizerConfig = { superUsers: new Set(["User:admin"]), allowEveryoneIfNoAclFound: false };
const TOPICS = [
  "orders",
  "orders-dlq",
  "orders-archive",
  "payments-eu",
  "payments-us",
  "audit-log",
  "inventory",
  "scratch",
];

function known(acls: readonly AclBinding[], topics = TOPICS): KnownResources {
  const resourceNames = (t: ResourceType, p?: string) =>
    [
      ...new Set(
        acls.filter((a) => a.resourceType === t && (p === undefined || a.patternType === p)).map((a) => a.resourceName),
      ),
    ].sort();
  return knownResources(
    { resourceNames },
    {
      TOPIC: topics,
      GROUP: ["orders-service", "scratch-group"],
      TRANSACTIONAL_ID: ["orders-tx-1"],
    },
  );
}

function view(
  principal: string,
  options: {
    host?: string | null;
    decisions?: "relevant" | "all";
    acls?: AclBinding[];
    config?: AuthorizerConfig;
    topics?: string[];
  } = {},
) {
  const acls = options.acls ?? ACLS;
  return principalPermissions(AclIndex.build(acls), principal, known(acls, options.topics), options.config ?? CONFIG, {
    host: options.host ?? null,
    decisions: options.decisions,
  });
}

function cell(v: ReturnType<typeof view>, type: ResourceType, name: string, operation: string) {
  const r = v.sections.find((s) => s.resourceType === type)?.resources.find((x) => x.resourceName === name);
  return r?.cells.find((c) => c.operation === operation);
}

describe("principalPermissions: what can P do", () => {
  it(
    "svc-orders: READ on orders by its own LITERAL ACL, DESCRIBE implied, no WRITE on audit-log, the " +
      "User:* DENY on DELETE",
    () => {
      const v = view("User:svc-orders");
      const read = cell(v, "TOPIC", "orders", "READ")!;
      expect(read.decision).toBe("ALLOWED");
      expect(read.rule).toEqual({ kind: "acl", acl: ACLS[7] });
      expect(read.via).toEqual([]);
      // READ and WRITE both imply DESCRIBE; the deciding ALLOW is an ACL for another operation.
      const describe = cell(v, "TOPIC", "orders", "DESCRIBE")!;
      expect(describe.decision).toBe("ALLOWED");
      expect(describe.via.join(" ")).toMatch(/^implied by (READ|WRITE)$/);
      // audit-log has ACLs (for others): no ACL gives svc-orders WRITE, so DENIED.
      expect(cell(v, "TOPIC", "audit-log", "WRITE")).toMatchObject({
        decision: "DENIED",
        rule: { kind: "noAclMatched" },
        via: ["no ACL matched"],
      });
    },
  );

  it("a DENY for one operation is listed where it decides, and denies nothing else", () => {
    const v = view("User:svc-orders");
    const audit = v.sections[0]!.resources.find((r) => r.resourceName === "audit-log")!;
    const byOp = Object.fromEntries(audit.cells.map((c) => [c.operation, c]));
    expect(byOp.DELETE).toMatchObject({ decision: "DENIED", via: ["DENY wins", "User:*"] });
    expect(byOp.WRITE).toMatchObject({ decision: "DENIED", rule: { kind: "noAclMatched" } });
    expect(byOp.DESCRIBE).toMatchObject({ decision: "DENIED", rule: { kind: "noAclMatched" } });
  });

  it(
    "bob: the LITERAL DENY on payments-eu wins over the PREFIXED ALLOW, which still allows payments-us; a " +
      "DENY on READ does not deny DESCRIBE",
    () => {
      const v = view("User:bob");
      expect(cell(v, "TOPIC", "payments-eu", "READ")).toMatchObject({ decision: "DENIED", via: ["DENY wins"] });
      expect(cell(v, "TOPIC", "payments-us", "READ")).toMatchObject({
        decision: "ALLOWED",
        via: ['PREFIXED "payments-"'],
      });
      expect(cell(v, "TOPIC", "payments-eu", "DESCRIBE")).toMatchObject({
        decision: "ALLOWED",
        via: ['PREFIXED "payments-"', "implied by READ"],
      });
      // The pattern grant covers names not yet seen, with the DENY carved out of it.
      const pattern = v.patterns.find((p) => p.resourceName === "payments-")!;
      expect(pattern.covers).toBe('every TOPIC starting with "payments-"');
      const read = pattern.cells.find((c) => c.operation === "READ")!;
      expect(read.decision).toBe("ALLOWED");
      expect(read.exceptions.map((e) => e.resourceName)).toEqual(["payments-eu"]);
      // CREATE_TOKENS on USER:User:svc-orders (KIP-373), not DESCRIBE_TOKENS.
      expect(cell(v, "USER", "User:svc-orders", "CREATE_TOKENS")?.decision).toBe("ALLOWED");
      expect(cell(v, "USER", "User:svc-orders", "DESCRIBE_TOKENS")?.decision).toBe("DENIED");
    },
  );

  it("ALTER_CONFIGS implies DESCRIBE_CONFIGS (and not DESCRIBE); IDEMPOTENT_WRITE on the cluster", () => {
    const v = view("User:svc-orders");
    expect(cell(v, "TOPIC", "orders-archive", "DESCRIBE_CONFIGS")).toMatchObject({
      decision: "ALLOWED",
      via: ["implied by ALTER_CONFIGS"],
    });
    expect(cell(v, "TOPIC", "orders-archive", "DESCRIBE")?.decision).toBe("DENIED");
    expect(cell(v, "CLUSTER", "kafka-cluster", "IDEMPOTENT_WRITE")?.decision).toBe("ALLOWED");
    expect(cell(v, "TRANSACTIONAL_ID", "orders-tx-1", "WRITE")).toMatchObject({
      decision: "ALLOWED",
      via: ['PREFIXED "orders-tx-"'],
    });
    expect(cell(v, "TRANSACTIONAL_ID", "orders-tx-1", "DESCRIBE")).toMatchObject({
      decision: "ALLOWED",
      via: ['PREFIXED "orders-tx-"', "implied by WRITE"],
    });
  });

  it("grants through User:* reach everyone, also principals no ACL names", () => {
    const v = view("User:dave");
    expect(cell(v, "TOPIC", "inventory", "READ")).toMatchObject({ decision: "ALLOWED", via: ["User:*"] });
    expect(v.sections[0]!.resources.map((r) => r.resourceName)).toEqual(["audit-log", "inventory"]);
    expect(v.acls.own).toEqual([]);
    expect(v.acls.wildcard.map((a) => a.resourceName)).toEqual(["audit-log", "inventory"]);
  });

  it("hosts: carol reads audit-log only from 127.0.0.1; without a host the other answer is given beside", () => {
    const anyHost = cell(view("User:carol"), "TOPIC", "audit-log", "READ")!;
    expect(anyHost.decision).toBe("DENIED");
    expect(anyHost.otherHosts).toEqual([
      { host: "127.0.0.1", decision: "ALLOWED", rule: { kind: "acl", acl: ACLS[2] }, via: ["from 127.0.0.1"] },
    ]);
    expect(cell(view("User:carol", { host: "127.0.0.1" }), "TOPIC", "audit-log", "READ")).toMatchObject({
      decision: "ALLOWED",
      otherHosts: [],
    });
    expect(cell(view("User:carol", { host: "10.0.0.7" }), "TOPIC", "audit-log", "READ")?.decision).toBe("DENIED");
  });

  it("Kafka's LITERAL * does not apply to names that start with *; principal types are not interchangeable", () => {
    const v = view("User:carol", { topics: [...TOPICS, "*odd"] });
    expect(cell(v, "TOPIC", "orders", "DESCRIBE")).toMatchObject({ decision: "ALLOWED", via: ['LITERAL "*"'] });
    expect(cell(v, "TOPIC", "*odd", "DESCRIBE")).toBeUndefined();
    const group = view("User:team1", {
      acls: [acl({ resourceName: "orders", principal: "Group:team1", operation: "READ" })],
    });
    expect(cell(group, "TOPIC", "orders", "READ")).toBeUndefined();
  });

  it("super users may do everything; resources without any ACL follow allow.everyone.if.no.acl.found", () => {
    const admin = view("User:admin");
    expect(admin.superUser).toBe(true);
    expect(admin.sections[0]!.resources.length).toBe(TOPICS.length);
    expect(cell(admin, "TOPIC", "payments-eu", "DELETE")).toMatchObject({
      decision: "ALLOWED",
      rule: { kind: "superUser" },
      via: ["super.users"],
    });

    const open = view("User:dave", { config: { superUsers: [], allowEveryoneIfNoAclFound: true }, decisions: "all" });
    expect(cell(open, "GROUP", "scratch-group", "READ")).toMatchObject({
      decision: "ALLOWED",
      rule: { kind: "default" },
    });
    // A resource with ACLs for anyone is no longer "no ACL found": carol's LITERAL * DESCRIBE applies to every topic.
    expect(cell(open, "TOPIC", "scratch", "WRITE")).toMatchObject({
      decision: "DENIED",
      rule: { kind: "noAclMatched" },
    });
  });

  it("relevant lists only resources where something is allowed or an ACL decides; all lists every known one", () => {
    const v = view("User:alice");
    expect(v.sections[0]!.resources.map((r) => r.resourceName)).toEqual(["audit-log", "inventory", "orders"]);
    expect(v.sections[0]!.total).toBe(TOPICS.length);
    const every = view("User:alice", { decisions: "all" });
    expect(every.sections[0]!.resources.length).toBe(TOPICS.length);
    expect(
      every.sections[0]!.resources.find((r) => r.resourceName === "scratch")?.cells.every(
        (c) => c.rule.kind === "noAclMatched" && c.decision === "DENIED",
      ),
    ).toBe(true);
    const groups = every.sections.find((s) => s.resourceType === "GROUP")!;
    expect(
      groups.resources
        .find((r) => r.resourceName === "scratch-group")
        ?.cells.every((c) => c.rule.kind === "default" && c.decision === "DENIED"),
    ).toBe(true);
  });

  it("the relevant view is the full view without the resources where nothing is allowed and no ACL decides", () => {
    const relevant = (c: { decision: string; rule: { kind: string } }) =>
      c.decision === "ALLOWED" || c.rule.kind === "acl";
    for (const principal of ["User:svc-orders", "User:bob", "User:carol", "User:*", "User:nobody", "Group:team1"]) {
      const all = view(principal, { decisions: "all" });
      const shown = view(principal);
      all.sections.forEach((s, i) => {
        const expected = s.resources.filter((r) => r.cells.some((c) => relevant(c) || c.otherHosts.some(relevant)));
        expect(shown.sections[i]!.resources, `${principal} ${s.resourceType}`).toEqual(expected);
      });
    }
  });

  it("every cell is exactly the policy core's authorize over the whole ACL set", () => {
    const index = AclIndex.build(ACLS);
    for (const principal of ["User:svc-orders", "User:bob", "User:carol", "User:*", "User:nobody"]) {
      const v = view(principal, { decisions: "all" });
      for (const s of v.sections) {
        for (const r of s.resources) {
          expect(r.cells.map((c) => c.operation)).toEqual(SUPPORTED_OPERATIONS[s.resourceType]);
          for (const c of r.cells) {
            const expected = authorize(
              index,
              {
                principal,
                host: "192.0.2.1",
                operation: c.operation,
                resourceType: s.resourceType,
                resourceName: r.resourceName,
              },
              CONFIG,
            );
            expect([c.decision, c.rule], `${principal} ${c.operation} ${s.resourceType}:${r.resourceName}`).toEqual([
              expected.decision,
              expected.rule,
            ]);
          }
        }
      }
      expect(() => principalPermissionsSchema.parse(v)).not.toThrow();
    }
  });

  it("known resources: listed names and LITERAL ACL names (not *), marked by origin; the cluster always", () => {
    const k = known(ACLS);
    expect(k.TOPIC.find((r) => r.name === "orders")?.origin).toBe("listed+acl");
    expect(k.TOPIC.find((r) => r.name === "scratch")?.origin).toBe("listed");
    expect(k.TOPIC.some((r) => r.name === "*")).toBe(false);
    expect(k.USER).toEqual([{ name: "User:svc-orders", origin: "acl" }]);
    expect(k.CLUSTER).toEqual([{ name: "kafka-cluster", origin: "listed" }]);
    expect(k.TRANSACTIONAL_ID).toEqual([{ name: "orders-tx-1", origin: "listed" }]);
  });
});

describe("whoCan: who can do what", () => {
  const index = AclIndex.build(ACLS);

  it("on one topic: super users first, every principal an applicable ACL names, then User:* for everyone else", () => {
    const rows = whoCan(
      index,
      [{ resourceType: "TOPIC", resourceName: "audit-log", origin: "listed+acl" }],
      CONFIG,
      null,
    );
    const principals = [...new Set(rows.map((r) => r.principal))];
    expect(principals).toEqual(["User:admin", "User:carol", "User:svc-billing", "User:*"]);
    const at = (p: string, op: string, host: string | null = null) =>
      rows.find((r) => r.principal === p && r.operation === op && r.host === host);
    expect(at("User:svc-billing", "WRITE")?.decision).toBe("ALLOWED");
    expect(at("User:svc-billing", "DELETE")).toMatchObject({ decision: "DENIED", via: ["DENY wins", "User:*"] });
    expect(at("User:admin", "DELETE")?.decision).toBe("ALLOWED");
    expect(at("User:carol", "READ")?.decision).toBe("DENIED");
    expect(at("User:carol", "READ", "127.0.0.1")?.decision).toBe("ALLOWED");
    expect(at("User:*", "READ")).toMatchObject({ decision: "DENIED", rule: { kind: "noAclMatched" } });
    expect(rows.filter((r) => r.principal === "User:*").map((r) => r.operation)).toEqual(SUPPORTED_OPERATIONS.TOPIC);
  });

  it("under a prefix: every known name, and any other name the prefix covers", () => {
    const under = resourcesUnderPrefix(known(ACLS), "TOPIC", "payments-");
    expect(under.map((r) => [r.resourceName, r.origin])).toEqual([
      ["payments-eu", "listed+acl"],
      ["payments-us", "listed"],
      ["payments-", "unseen"],
    ]);
    const rows = whoCan(index, under, CONFIG, null);
    const bob = (name: string) =>
      rows.find((r) => r.principal === "User:bob" && r.resourceName === name && r.operation === "READ")?.decision;
    expect([bob("payments-eu"), bob("payments-us")]).toEqual(["DENIED", "ALLOWED"]);
    expect(
      rows.find((r) => r.principal === "User:bob" && r.resource === "unseen" && r.operation === "READ"),
    ).toMatchObject({ decision: "ALLOWED", via: ['PREFIXED "payments-"'] });
  });
});

describe("exports", () => {
  it("a principal's rows: each shown cell, then its pattern grants as rows for names not yet seen", () => {
    const rows = principalRows(view("User:bob"));
    expect(rows.find((r) => r.resourceName === "payments-eu" && r.operation === "READ")).toMatchObject({
      resource: "listed+acl",
      decision: "DENIED",
      host: null,
    });
    expect(rows.find((r) => r.resource === "unseen" && r.operation === "READ")).toMatchObject({
      resourceName: "payments-",
      decision: "ALLOWED",
      via: ['PREFIXED "payments-"', "except payments-eu"],
    });
  });

  it("CSV: the header, one line per row, the snapshot time, spreadsheet formulas escaped", () => {
    const acls = [acl({ resourceName: "=HYPERLINK(1)", principal: "User:eve", operation: "READ" })];
    const rows = whoCan(
      AclIndex.build(acls),
      [{ resourceType: "TOPIC", resourceName: "=HYPERLINK(1)", origin: "acl" }],
      { superUsers: [] },
      null,
    );
    const answer = {
      question: { kind: "resource" as const, resourceType: "TOPIC" as const, resourceName: "=HYPERLINK(1)" },
      host: null,
      aclSnapshot: { takenAt: "2026-12-01T10:00:00.000Z", ageMs: 0, size: 1 },
      assumptions: { superUsers: [], allowEveryoneIfNoAclFound: false, source: "test", warnings: [] },
      rows,
      omitted: 0,
      notes: [],
    };
    expect(() => effectiveExportSchema.parse(answer)).not.toThrow();
    const lines = exportToCsv(answer).split("\r\n");
    expect(lines[0]).toBe(EXPORT_CSV_HEADER.join(","));
    expect(lines).toHaveLength(1 + rows.length + 1);
    expect(lines[1]).toBe(
      "User:eve,TOPIC,'=HYPERLINK(1),acl,READ,,ALLOWED,acl,,ALLOW,User:eve,READ,LITERAL,'=HYPERLINK(1),*,2026-1" +
        "2-01T10:00:00.000Z",
    );
  });

  it("the query: a principal (alice means User:alice) or a resource type with a name or a prefix, never both", () => {
    expect(effectivePermissionsQuerySchema.parse({ principal: "alice" }).question).toEqual({
      kind: "principal",
      principal: "User:alice",
    });
    expect(effectivePermissionsQuerySchema.parse({ resourceType: "topic", prefix: "orders" }).question).toEqual({
      kind: "prefix",
      resourceType: "TOPIC",
      prefix: "orders",
    });
    expect(effectivePermissionsQuerySchema.parse({ resourceType: "CLUSTER" }).question).toEqual({
      kind: "resource",
      resourceType: "CLUSTER",
      resourceName: "kafka-cluster",
    });
    expect(
      effectivePermissionsQuerySchema.safeParse({ principal: "alice", resourceType: "TOPIC", resourceName: "x" })
        .success,
    ).toBe(false);
    expect(
      effectivePermissionsQuerySchema.safeParse({ resourceType: "TOPIC", resourceName: "a", prefix: "b" }).success,
    ).toBe(false);
    expect(effectivePermissionsQuerySchema.safeParse({}).success).toBe(false);
    expect(effectivePermissionsQuerySchema.safeParse({ principal: "alice", host: "*" }).success).toBe(false);
  });
});

describe("helpers", () => {
  it("normalizePrincipal keeps Type:name exactly (case-sensitive) and reads a bare name as a User", () => {
    expect(normalizePrincipal("svc-orders")).toBe("User:svc-orders");
    expect(normalizePrincipal("User:SVC-orders")).toBe("User:SVC-orders");
    expect(normalizePrincipal("Group:CN=a:b")).toBe("Group:CN=a:b");
    expect(principalHref("User:*")).toBe("/principals/User%3A*");
    expect(principalParamSchema.parse(" carol ")).toBe("User:carol");
    for (const bad of ["", "User:", ":alice", "a\u0000b"])
      expect(principalParamSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(principalViewQuerySchema.parse({ host: "::1" }).host).toBe("0:0:0:0:0:0:0:1");
    expect(principalViewQuerySchema.parse({}).host).toBeNull();
    expect(principalViewQuerySchema.safeParse({ host: "kafka.example" }).success).toBe(false);
  });

  it("unnamedHost picks a documentation address no ACL names", () => {
    expect(unnamedHost(["*", "127.0.0.1"])).toBe("192.0.2.1");
    expect(unnamedHost(["192.0.2.1", "192.0.2.2"])).toBe("192.0.2.3");
  });

  it("ruleVia names the default's setting", () => {
    expect(ruleVia({ kind: "default" }, "User:a", "READ", true)).toEqual([
      "no ACLs: allow.everyone.if.no.acl.found=true",
    ]);
  });
});
