import { describe, expect, it } from "vitest";
import { AclIndex, authorize, type AclBinding } from "@/lib/policy";
import { resourceDetailSchema } from "@/lib/schemas/resources";
import {
  WILDCARD_ROW_MEANING,
  accessCheckHref,
  appliesTo,
  buildResourceDetail,
  buildSection,
  groupApplicableAcls,
  matrixLinkHost,
  resourceHref,
  userResourcesOf,
} from "./resources-view";

function acl(a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal" | "operation">): AclBinding {
  return { resourceType: "TOPIC", patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}

// The demo ACLs that touch payments-eu, plus some that must not apply.
const ACLS = [
  acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:bob", operation: "READ" }),
  acl({ resourceName: "payments-eu", principal: "User:bob", operation: "READ", permissionType: "DENY" }),
  acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:svc-billing", operation: "READ" }),
  acl({ resourceName: "pay", patternType: "PREFIXED", principal: "User:carol", operation: "WRITE" }),
  acl({ resourceName: "*", principal: "User:carol", operation: "DESCRIBE" }),
  acl({ resourceName: "payments-us", principal: "User:alice", operation: "READ" }),
  acl({ resourceName: "payments-eu-x", patternType: "PREFIXED", principal: "User:alice", operation: "READ" }),
  acl({ resourceType: "GROUP", resourceName: "payments-eu", principal: "User:alice", operation: "READ" }),
  acl({ resourceType: "USER", resourceName: "User:svc-orders", principal: "User:bob", operation: "CREATE_TOKENS" }),
  acl({ resourceType: "USER", resourceName: "User:svc-orders", principal: "User:bob", operation: "DESCRIBE_TOKENS" }),
];

const ASSUMPTIONS = { superUsers: ["User:admin"], allowEveryoneIfNoAclFound: false, source: "test", warnings: [] };

describe("groupApplicableAcls", () => {
  it("groups by reason: the literal name, prefixes longest first, then LITERAL *", () => {
    const groups = groupApplicableAcls("TOPIC", "payments-eu", ACLS);
    expect(groups.map((g) => [g.reason, g.pattern, g.acls.length])).toEqual([
      ["literal", "payments-eu", 1],
      ["prefixed", "payments-", 2],
      ["prefixed", "pay", 1],
      ["wildcard", "*", 1],
    ]);
    expect(groups[0]!.acls[0]).toMatchObject({ principal: "User:bob", permissionType: "DENY" });
    expect(groups[1]!.acls.map((a) => a.principal)).toEqual(["User:bob", "User:svc-billing"]);
  });

  it("agrees with Kafka's MATCH (the policy index) on what applies", () => {
    const index = AclIndex.build(ACLS);
    for (const name of ["payments-eu", "payments-eu-x1", "pay", "orders", "*"]) {
      const grouped = groupApplicableAcls("TOPIC", name, ACLS).flatMap((g) => g.acls);
      expect(grouped.length).toBe(index.matching("TOPIC", name).length);
      expect(grouped.every((a) => appliesTo(a, "TOPIC", name))).toBe(true);
    }
  });

  it("puts DENY first within a group and returns nothing for an untouched name", () => {
    const acls = [
      acl({ resourceName: "t", principal: "User:a", operation: "READ" }),
      acl({ resourceName: "t", principal: "User:z", operation: "READ", permissionType: "DENY" }),
    ];
    expect(groupApplicableAcls("TOPIC", "t", acls)[0]!.acls.map((a) => a.permissionType)).toEqual(["DENY", "ALLOW"]);
    expect(groupApplicableAcls("TOPIC", "other", acls)).toEqual([]);
  });
});

describe("buildResourceDetail", () => {
  const detail = buildResourceDetail("TOPIC", "payments-eu", AclIndex.build(ACLS), ASSUMPTIONS);
  const cell = (principal: string, op: string) =>
    detail.rows.find((r) => r.principal === principal)!.cells.find((c) => c.operation === op)!;

  it("is valid against the API schema", () => {
    expect(resourceDetailSchema.safeParse(detail).success).toBe(true);
  });

  it("decides like Kafka: bob's DENY wins, svc-billing reads through the prefix, User:* first", () => {
    expect(detail.rows[0]!.principal).toBe("User:*");
    expect(cell("User:bob", "READ")).toMatchObject({
      decision: "DENIED",
      rule: { kind: "acl", acl: { permissionType: "DENY" } },
    });
    expect(cell("User:bob", "READ").reason).toContain("A matching DENY wins");
    expect(cell("User:svc-billing", "READ")).toMatchObject({
      decision: "ALLOWED",
      rule: { kind: "acl", acl: { patternType: "PREFIXED" } },
    });
    expect(cell("User:svc-billing", "DESCRIBE").decision).toBe("ALLOWED");
    expect(cell("User:svc-billing", "WRITE")).toMatchObject({ decision: "DENIED", rule: { kind: "noAclMatched" } });
    expect(detail.operations).toContain("READ");
    expect(detail.operations).not.toContain("CREATE_TOKENS");
  });

  it("says when no ACL applies (the default)", () => {
    const none = buildResourceDetail("GROUP", "nobody", AclIndex.build(ACLS), ASSUMPTIONS);
    expect(none.groups).toEqual([]);
    expect(none.rows.map((r) => r.principal)).toEqual(["User:*", "User:admin"]);
    expect(none.rows[0]!.cells[0]).toMatchObject({ decision: "DENIED", rule: { kind: "default" } });
    expect(none.rows[1]!.cells.every((c) => c.decision === "ALLOWED")).toBe(true);
    expect(none.rows[0]!.cells[0]!.reason).toContain("allow.everyone.if.no.acl.found=false");
  });
});

describe("the matrix and super users (audit-log as in the demo data)", () => {
  const AUDIT = [
    acl({ resourceName: "audit-log", principal: "User:carol", operation: "READ", host: "127.0.0.1" }),
    acl({ resourceName: "audit-log", principal: "User:svc-billing", operation: "WRITE" }),
    acl({ resourceName: "audit-log", principal: "User:*", operation: "DELETE", permissionType: "DENY" }),
    acl({ resourceName: "*", principal: "User:carol", operation: "DESCRIBE" }),
  ];
  const detail = buildResourceDetail("TOPIC", "audit-log", AclIndex.build(AUDIT), ASSUMPTIONS);
  const row = (p: string) => detail.rows.find((r) => r.principal === p)!;

  it(
    "has a row per super user, marked, every operation ALLOWED with the Access check's reason, even DELETE " +
      "that User:* is denied",
    () => {
      expect(detail.rows.map((r) => r.principal)).toEqual(["User:*", "User:admin", "User:carol", "User:svc-billing"]);
      const admin = row("User:admin");
      expect(admin.superUser).toBe(true);
      expect(admin.cells.map((c) => c.operation)).toEqual(detail.operations);
      for (const c of admin.cells) {
        expect(c).toMatchObject({
          decision: "ALLOWED",
          rule: { kind: "superUser" },
          via: ["super.users"],
          otherHosts: [],
        });
        expect(c.reason).toBe(
          "Super user: User:admin is in super.users, so Kafka allows every operation without looking at ACLs.",
        );
      }
      expect(row("User:*").superUser).toBe(false);
      expect(row("User:*").cells.find((c) => c.operation === "DELETE")!.decision).toBe("DENIED");
      expect(resourceDetailSchema.safeParse(detail).success).toBe(true);
    },
  );

  it("a super user an ACL also names gets one row, still a super user's", () => {
    const named = buildResourceDetail(
      "TOPIC",
      "audit-log",
      AclIndex.build([
        ...AUDIT,
        acl({ resourceName: "audit-log", principal: "User:admin", operation: "READ", permissionType: "DENY" }),
      ]),
      ASSUMPTIONS,
    );
    expect(named.rows.filter((r) => r.principal === "User:admin")).toHaveLength(1);
    expect(
      named.rows.find((r) => r.principal === "User:admin")!.cells.find((c) => c.operation === "READ"),
    ).toMatchObject({ decision: "ALLOWED", rule: { kind: "superUser" } });
  });

  it("the User:* row leaves super users out of what it stands for", () => {
    expect(WILDCARD_ROW_MEANING).toBe("any other principal no ACL here names, super users aside");
  });

  it(
    "answers for any host no ACL names and lists the named host where the answer differs: carol READ is " +
      "DENIED, ALLOWED from 127.0.0.1",
    () => {
      const read = row("User:carol").cells.find((c) => c.operation === "READ")!;
      expect(read).toMatchObject({ decision: "DENIED", rule: { kind: "noAclMatched" } });
      expect(read.reason).toContain("any host no ACL names");
      expect(read.otherHosts).toEqual([
        { host: "127.0.0.1", decision: "ALLOWED", rule: { kind: "acl", acl: AUDIT[0] }, via: ["from 127.0.0.1"] },
      ]);
      // DESCRIBE is ALLOWED from everywhere (LITERAL *): no other host to list.
      expect(row("User:carol").cells.find((c) => c.operation === "DESCRIBE")).toMatchObject({
        decision: "ALLOWED",
        otherHosts: [],
      });
    },
  );
});

describe("index helpers", () => {
  it("filters names case-insensitively and counts the ACLs that apply (names themselves are case-sensitive)", () => {
    const section = buildSection(
      "TOPIC",
      ["orders", "payments-eu", "Payments-US", "payments-eu"],
      "PAY",
      AclIndex.build(ACLS),
    );
    expect(section.resources).toEqual([
      { name: "Payments-US", acls: 1 },
      { name: "payments-eu", acls: 5 },
    ]);
    expect(buildSection("TOPIC", ["orders"], "", null).resources).toEqual([{ name: "orders", acls: null }]);
  });

  it("names the USER resources of literal ACLs once", () => {
    expect(userResourcesOf(ACLS)).toEqual(["User:svc-orders"]);
  });

  it("URL-encodes names in links", () => {
    expect(resourceHref("TOPIC", "a b&c/d")).toBe("/resources?type=TOPIC&name=a+b%26c%2Fd");
    expect(resourceHref("USER", "User:x")).toBe("/resources?type=USER&name=User%3Ax");
    expect(accessCheckHref("User:*", "READ", "TOPIC", "t#1", "192.0.2.1")).toBe(
      "/access-check?principal=User%3A*&operation=READ&resourceType=TOPIC&resourceName=t%231&host=192.0.2.1",
    );
  });

  it(
    "links the matrix to the Access check from an address no applicable ACL names, so both answer the same " +
      "question",
    () => {
      // carol may READ audit-log from 127.0.0.1 only: the matrix (a host no ACL names) says DENIED, and so must the
      // linked check.
      const acls = [
        acl({ resourceName: "audit-log", principal: "User:carol", operation: "READ", host: "127.0.0.1" }),
        acl({ resourceName: "audit-log", principal: "User:svc-billing", operation: "WRITE", host: "192.0.2.1" }),
      ];
      const detail = buildResourceDetail("TOPIC", "audit-log", AclIndex.build(acls), ASSUMPTIONS);
      const host = matrixLinkHost(detail);
      expect(host).toBe("192.0.2.2");
      const carolRead = detail.rows
        .find((r) => r.principal === "User:carol")!
        .cells.find((c) => c.operation === "READ")!;
      const linked = authorize(
        AclIndex.build(acls),
        { principal: "User:carol", host, operation: "READ", resourceType: "TOPIC", resourceName: "audit-log" },
        { superUsers: ["User:admin"] },
      );
      expect([carolRead.decision, linked.decision]).toEqual(["DENIED", "DENIED"]);
    },
  );
});
