/**
 * Cases ported from Kafka's own tests, as tables. Each block names the test it comes
 * from (metadata/src/test/.../authorizer/StandardAuthorizerTest.java,
 * core/src/test/scala/unit/kafka/security/authorizer/AuthorizerTest.scala).
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS, type AclBinding, type AclOperation } from "../types";
import { AclIndex } from "./acl-index";
import { authorize } from "./authorize";
import type { AuthorizeRequest, AuthorizerConfig } from "./model";
import { acl, req } from "@/test/policy/acl-helpers";

type Row = [request: AuthorizeRequest, expected: "ALLOWED" | "DENIED"];

function check(acls: AclBinding[], rows: Row[], config?: AuthorizerConfig): void {
  const index = AclIndex.build(acls);
  for (const [request, expected] of rows) {
    expect(authorize(index, request, config).decision, JSON.stringify(request)).toBe(expected);
  }
}

const SUPERMAN: AuthorizerConfig = { superUsers: ["User:superman"] };

describe("authorize — StandardAuthorizerTest", () => {
  const fooAcl = (op: AclOperation, perm: "ALLOW" | "DENY") =>
    acl("TOPIC", "foo_", "PREFIXED", "User:bob", "*", op, perm);
  const barAcl = (op: AclOperation, perm: "ALLOW" | "DENY") => acl("GROUP", "bar", "LITERAL", "User:*", "*", op, perm);

  it(
    "testFindResultImplication: READ/WRITE/DELETE/ALTER/DESCRIBE ALLOW imply DESCRIBE, CREATE does not, " +
      "DENY never implies",
    () => {
      for (const op of ["DESCRIBE", "READ", "WRITE", "DELETE", "ALTER"] as const) {
        expect(authorize([fooAcl(op, "ALLOW")], req("User:bob", "DESCRIBE", "TOPIC", "foo_bar")).rule.kind).toBe("acl");
      }
      expect(authorize([fooAcl("CREATE", "ALLOW")], req("User:bob", "DESCRIBE", "TOPIC", "foo_bar")).rule.kind).toBe(
        "noAclMatched",
      );
      for (const op of ["READ", "WRITE", "DELETE", "ALTER"] as const) {
        expect(authorize([fooAcl(op, "DENY")], req("User:bob", "DESCRIBE", "TOPIC", "foo_bar")).rule.kind).toBe(
          "noAclMatched",
        );
      }
      expect(authorize([fooAcl("DESCRIBE", "DENY")], req("User:bob", "DESCRIBE", "TOPIC", "foo_bar")).decision).toBe(
        "DENIED",
      );
      for (const op of ["DESCRIBE_CONFIGS", "ALTER_CONFIGS"] as const) {
        expect(authorize([fooAcl(op, "ALLOW")], req("User:bob", "DESCRIBE_CONFIGS", "TOPIC", "foo_bar")).decision).toBe(
          "ALLOWED",
        );
      }
      expect(
        authorize([fooAcl("ALTER_CONFIGS", "DENY")], req("User:bob", "DESCRIBE_CONFIGS", "TOPIC", "foo_bar")).rule.kind,
      ).toBe("noAclMatched");
      expect(
        authorize([fooAcl("ALTER_CONFIGS", "DENY")], req("User:bob", "ALTER_CONFIGS", "TOPIC", "foo_bar")).decision,
      ).toBe("DENIED");
    },
  );

  it("testFindResultPrincipalMatching", () => {
    expect(authorize([fooAcl("READ", "ALLOW")], req("User:bob", "READ", "TOPIC", "foo_bar")).decision).toBe("ALLOWED");
    expect(authorize([fooAcl("READ", "ALLOW")], req("User:alice", "READ", "TOPIC", "foo_bar")).rule.kind).toBe(
      "noAclMatched",
    );
    expect(authorize([barAcl("READ", "DENY")], req("User:alice", "READ", "GROUP", "bar")).decision).toBe("DENIED");
  });

  it("testSimpleAuthorizations", () => {
    check(
      [
        fooAcl("READ", "ALLOW"),
        fooAcl("WRITE", "ALLOW"),
        barAcl("DESCRIBE_CONFIGS", "ALLOW"),
        barAcl("ALTER_CONFIGS", "ALLOW"),
      ],
      [
        [req("User:bob", "READ", "TOPIC", "foo_"), "ALLOWED"],
        [req("User:fred", "ALTER_CONFIGS", "GROUP", "bar"), "ALLOWED"],
      ],
      SUPERMAN,
    );
  });

  it(
    "testAllowEveryoneIfNoAclFoundConfigEnabled / Disabled: any ACL on the resource switches it to " + "default-deny",
    () => {
      const acls = [acl("TOPIC", "topic1", "LITERAL", "User:Alice", "*", "READ", "ALLOW")];
      const rows = (topic2: "ALLOWED" | "DENIED"): Row[] => [
        [req("User:Bob", "READ", "TOPIC", "topic1"), "DENIED"],
        [req("User:Bob", "READ", "TOPIC", "topic2"), topic2],
      ];
      check(acls, rows("ALLOWED"), { superUsers: ["User:alice", "User:chris"], allowEveryoneIfNoAclFound: true });
      check(acls, rows("DENIED"), { superUsers: ["User:alice", "User:chris"], allowEveryoneIfNoAclFound: false });
    },
  );

  it("testDenyPrecedenceWithOperationAll", () => {
    const acls = [
      acl("TOPIC", "foo", "LITERAL", "User:alice", "*", "ALL", "DENY"),
      acl("TOPIC", "foo", "PREFIXED", "User:alice", "*", "READ", "ALLOW"),
      acl("TOPIC", "foo", "LITERAL", "User:*", "*", "ALL", "DENY"),
      acl("TOPIC", "foo", "PREFIXED", "User:*", "*", "DESCRIBE", "ALLOW"),
    ];
    check(
      acls,
      [
        [req("User:alice", "WRITE", "TOPIC", "foo"), "DENIED"],
        [req("User:alice", "READ", "TOPIC", "foo"), "DENIED"],
        [req("User:alice", "DESCRIBE", "TOPIC", "foo"), "DENIED"],
        [req("User:alice", "READ", "TOPIC", "foobar"), "ALLOWED"],
        [req("User:bob", "DESCRIBE", "TOPIC", "foo"), "DENIED"],
        [req("User:bob", "READ", "TOPIC", "foo"), "DENIED"],
        [req("User:bob", "WRITE", "TOPIC", "foo"), "DENIED"],
        [req("User:bob", "DESCRIBE", "TOPIC", "foobaz"), "ALLOWED"],
        [req("User:bob", "READ", "TOPIC", "foobaz"), "DENIED"],
      ],
      SUPERMAN,
    );
  });

  it("testTopicAclWithOperationAll", () => {
    const acls = [
      acl("TOPIC", "foo", "LITERAL", "User:*", "*", "ALL", "ALLOW"),
      acl("TOPIC", "bar", "PREFIXED", "User:alice", "*", "ALL", "ALLOW"),
      acl("TOPIC", "baz", "LITERAL", "User:bob", "*", "ALL", "ALLOW"),
    ];
    check(
      acls,
      [
        [req("User:alice", "WRITE", "TOPIC", "foo"), "ALLOWED"],
        [req("User:alice", "DESCRIBE_CONFIGS", "TOPIC", "bar"), "ALLOWED"],
        [req("User:alice", "DESCRIBE", "TOPIC", "baz"), "DENIED"],
        [req("User:bob", "WRITE", "TOPIC", "foo"), "ALLOWED"],
        [req("User:bob", "READ", "TOPIC", "bar"), "DENIED"],
        [req("User:bob", "DESCRIBE", "TOPIC", "baz"), "ALLOWED"],
        [req("User:malory", "DESCRIBE", "TOPIC", "foo"), "ALLOWED"],
        [req("User:malory", "WRITE", "TOPIC", "bar"), "DENIED"],
        [req("User:malory", "READ", "TOPIC", "baz"), "DENIED"],
      ],
      SUPERMAN,
    );
  });

  it("testHostAddressAclValidation: hosts match only `*` or the exact address", () => {
    const local = "10.1.2.3";
    const host1 = "192.168.1.1";
    const host2 = "192.168.1.2";
    const acls = [
      acl("TOPIC", "foo", "LITERAL", "User:alice", host1, "READ", "DENY"),
      acl("TOPIC", "foo", "LITERAL", "User:alice", "*", "READ", "ALLOW"),
      acl("TOPIC", "bar", "LITERAL", "User:bob", host2, "READ", "ALLOW"),
      acl("TOPIC", "bar", "LITERAL", "User:*", local, "DESCRIBE", "ALLOW"),
    ];
    const cases: Array<[string, string, ["ALLOWED" | "DENIED", "ALLOWED" | "DENIED", "ALLOWED" | "DENIED"]]> = [
      ["User:alice", local, ["ALLOWED", "DENIED", "ALLOWED"]],
      ["User:alice", host1, ["DENIED", "DENIED", "DENIED"]],
      ["User:alice", host2, ["ALLOWED", "DENIED", "DENIED"]],
      ["User:bob", local, ["DENIED", "DENIED", "ALLOWED"]],
      ["User:bob", host1, ["DENIED", "DENIED", "DENIED"]],
      ["User:bob", host2, ["DENIED", "ALLOWED", "ALLOWED"]],
    ];
    for (const [principal, host, [a, b, c]] of cases) {
      check(
        acls,
        [
          [req(principal, "READ", "TOPIC", "foo", host), a],
          [req(principal, "READ", "TOPIC", "bar", host), b],
          [req(principal, "DESCRIBE", "TOPIC", "bar", host), c],
        ],
        SUPERMAN,
      );
    }
  });

  const manyAcls = [
    acl("TOPIC", "green2", "LITERAL", "User:*", "*", "READ", "ALLOW"),
    acl("TOPIC", "green", "PREFIXED", "User:bob", "*", "READ", "ALLOW"),
    acl("TOPIC", "betamax4", "LITERAL", "User:bob", "*", "READ", "ALLOW"),
    acl("TOPIC", "betamax", "LITERAL", "User:bob", "*", "READ", "ALLOW"),
    acl("TOPIC", "beta", "PREFIXED", "User:*", "*", "READ", "ALLOW"),
    acl("TOPIC", "alpha", "PREFIXED", "User:*", "*", "READ", "ALLOW"),
    acl("TOPIC", "alp", "PREFIXED", "User:bob", "*", "READ", "DENY"),
    acl("GROUP", "*", "LITERAL", "User:bob", "*", "WRITE", "ALLOW"),
    acl("GROUP", "wheel", "LITERAL", "User:*", "*", "WRITE", "DENY"),
  ];

  it("testAuthorizationWithManyAcls", () => {
    check(
      manyAcls,
      [
        [req("User:bob", "READ", "TOPIC", "green1"), "ALLOWED"],
        [req("User:bob", "WRITE", "GROUP", "wheel"), "DENIED"],
        [req("User:bob", "READ", "TOPIC", "alpha"), "DENIED"],
        [req("User:bob", "WRITE", "GROUP", "arbitrary"), "ALLOWED"],
        [req("User:bob", "READ", "TOPIC", "ala"), "DENIED"],
      ],
      SUPERMAN,
    );
  });

  it("testDenyAuditLogging / testAllowAuditLogging: the deciding ACL is the one Kafka's audit log names", () => {
    const index = AclIndex.build(manyAcls);
    expect(authorize(index, req("User:bob", "READ", "TOPIC", "alpha"))).toEqual({
      decision: "DENIED",
      rule: { kind: "acl", acl: acl("TOPIC", "alp", "PREFIXED", "User:bob", "*", "READ", "DENY") },
    });
    expect(authorize(index, req("User:bob", "READ", "TOPIC", "green1"))).toEqual({
      decision: "ALLOWED",
      rule: { kind: "acl", acl: acl("TOPIC", "green", "PREFIXED", "User:bob", "*", "READ", "ALLOW") },
    });
  });

  it("testAuthorizationPriorToCompleteInitialLoad: super users are allowed whatever the ACLs", () => {
    check(
      [acl("TOPIC", "*", "LITERAL", "User:*", "*", "ALL", "DENY")],
      [
        [req("User:superman", "READ", "TOPIC", "green1"), "ALLOWED"],
        [req("User:superman", "WRITE", "GROUP", "wheel"), "ALLOWED"],
        [req("User:bob", "READ", "TOPIC", "green1"), "DENIED"],
      ],
      SUPERMAN,
    );
    expect(authorize([], req("User:superman", "READ", "TOPIC", "x"), SUPERMAN).rule).toEqual({ kind: "superUser" });
  });

  it("testPrefixAcls", () => {
    const acls = [
      acl("TOPIC", "fooa", "PREFIXED", "User:alice", "*", "ALL", "ALLOW"),
      acl("TOPIC", "foobar", "LITERAL", "User:bob", "*", "ALL", "ALLOW"),
      acl("TOPIC", "f", "PREFIXED", "User:bob", "*", "ALL", "ALLOW"),
    ];
    check(
      acls,
      [
        [req("User:bob", "WRITE", "TOPIC", "foobarr"), "ALLOWED"],
        [req("User:bob", "READ", "TOPIC", "goobar"), "DENIED"],
        [req("User:bob", "READ", "TOPIC", "fooa"), "ALLOWED"],
        [req("User:alice", "DESCRIBE", "TOPIC", "fooa"), "ALLOWED"],
        [req("User:alice", "WRITE", "TOPIC", "bar"), "DENIED"],
        [req("User:alice", "READ", "TOPIC", "baz"), "DENIED"],
      ],
      SUPERMAN,
    );
  });
});

describe("authorize — AuthorizerTest (core)", () => {
  const alice = "User:alice";
  const resource = "foo-5f2d9c3e";
  const allowRead = (name: string, pt: "LITERAL" | "PREFIXED" = "LITERAL") =>
    acl("TOPIC", name, pt, "User:*", "*", "READ", "ALLOW");
  const denyRead = (name: string, pt: "LITERAL" | "PREFIXED" = "LITERAL") =>
    acl("TOPIC", name, pt, "User:*", "*", "READ", "DENY");
  const superUsers: AuthorizerConfig = { superUsers: ["User:superuser1", "User:superuser2"] };

  it('testAuthorizeWithEmptyResourceName: a wildcard GROUP ACL authorizes group ""', () => {
    expect(authorize([], req(alice, "READ", "GROUP", "", "192.168.0.1")).decision).toBe("DENIED");
    const acls = [acl("GROUP", "*", "LITERAL", "User:*", "*", "READ", "ALLOW")];
    expect(authorize(acls, req(alice, "READ", "GROUP", "", "192.168.0.1")).decision).toBe("ALLOWED");
  });

  it("testTopicAcl", () => {
    const h1 = "192.168.1.1";
    const h2 = "192.168.1.2";
    const acls = [
      acl("TOPIC", resource, "LITERAL", alice, h1, "READ", "ALLOW"),
      acl("TOPIC", resource, "LITERAL", alice, h2, "READ", "ALLOW"),
      acl("TOPIC", resource, "LITERAL", alice, h1, "READ", "DENY"),
      acl("TOPIC", resource, "LITERAL", alice, h1, "WRITE", "ALLOW"),
      acl("TOPIC", resource, "LITERAL", alice, "*", "DESCRIBE", "ALLOW"),
      acl("TOPIC", resource, "LITERAL", "User:rob", "*", "READ", "ALLOW"),
      acl("TOPIC", resource, "LITERAL", "User:batman", "*", "WRITE", "ALLOW"),
    ];
    check(acls, [
      [req(alice, "READ", "TOPIC", resource, h2), "ALLOWED"],
      [req(alice, "READ", "TOPIC", resource, h1), "DENIED"],
      [req(alice, "WRITE", "TOPIC", resource, h1), "ALLOWED"],
      [req(alice, "WRITE", "TOPIC", resource, h2), "DENIED"],
      [req(alice, "DESCRIBE", "TOPIC", resource, h1), "ALLOWED"],
      [req(alice, "DESCRIBE", "TOPIC", resource, h2), "ALLOWED"],
      [req(alice, "ALTER", "TOPIC", resource, h1), "DENIED"],
      [req(alice, "ALTER", "TOPIC", resource, h2), "DENIED"],
      [req("User:rob", "DESCRIBE", "TOPIC", resource, h1), "ALLOWED"],
      [req("User:batman", "DESCRIBE", "TOPIC", resource, h1), "ALLOWED"],
      [req("User:rob", "READ", "TOPIC", resource, h1), "ALLOWED"],
      [req("User:batman", "WRITE", "TOPIC", resource, h1), "ALLOWED"],
    ]);
  });

  it("testDenyTakesPrecedence / testAllowAllAccess", () => {
    const allowAll = acl("TOPIC", resource, "LITERAL", "User:*", "*", "ALL", "ALLOW");
    const denyAlice = acl("TOPIC", resource, "LITERAL", alice, "192.168.2.1", "ALL", "DENY");
    check([allowAll, denyAlice], [[req(alice, "READ", "TOPIC", resource, "192.168.2.1"), "DENIED"]]);
    check([allowAll], [[req("User:random", "READ", "TOPIC", resource, "192.0.4.4"), "ALLOWED"]]);
  });

  it("testSuperUserHasAccess / testSuperUserWithCustomPrincipalHasAccess", () => {
    const denyAll = acl("TOPIC", resource, "LITERAL", "User:*", "*", "ALL", "DENY");
    check(
      [denyAll],
      [
        [req("User:superuser1", "READ", "TOPIC", resource, "192.0.4.4"), "ALLOWED"],
        [req("User:superuser2", "READ", "TOPIC", resource, "192.0.4.4"), "ALLOWED"],
        [req("User:superuser3", "READ", "TOPIC", resource, "192.0.4.4"), "DENIED"],
      ],
      superUsers,
    );
  });

  it("testWildCardAcls", () => {
    const h1 = "192.168.3.1";
    expect(authorize([], req(alice, "READ", "TOPIC", resource, h1)).decision).toBe("DENIED");
    const readOnWildcard = acl("TOPIC", "*", "LITERAL", alice, h1, "READ", "ALLOW");
    check([readOnWildcard], [[req(alice, "READ", "TOPIC", resource, h1), "ALLOWED"]]);
    const writeOnTopic = acl("TOPIC", resource, "LITERAL", alice, h1, "WRITE", "ALLOW");
    const denyWriteOnWildcard = acl("TOPIC", "*", "LITERAL", alice, h1, "WRITE", "DENY");
    check(
      [readOnWildcard, writeOnTopic, denyWriteOnWildcard],
      [[req(alice, "WRITE", "TOPIC", resource, h1), "DENIED"]],
    );
  });

  it("testNoAclFound / testNoAclFoundOverride", () => {
    expect(authorize([], req(alice, "READ", "TOPIC", resource))).toEqual({
      decision: "DENIED",
      rule: { kind: "default" },
    });
    expect(authorize([], req(alice, "READ", "TOPIC", resource), { allowEveryoneIfNoAclFound: true })).toEqual({
      decision: "ALLOWED",
      rule: { kind: "default" },
    });
  });

  it("testAclInheritance: every operation against every parent operation", () => {
    const ops = OPERATIONS.filter((op) => op !== "ALL");
    const implicationsOfAllow: Array<[AclOperation, AclOperation[]]> = [
      ["ALL", ops],
      ["READ", ["DESCRIBE"]],
      ["WRITE", ["DESCRIBE"]],
      ["DELETE", ["DESCRIBE"]],
      ["ALTER", ["DESCRIBE"]],
      ["ALTER_CONFIGS", ["DESCRIBE_CONFIGS"]],
    ];
    for (const [parent, allowed] of implicationsOfAllow) {
      const index = AclIndex.build([acl("CLUSTER", "kafka-cluster", "LITERAL", alice, "*", parent, "ALLOW")]);
      for (const op of OPERATIONS) {
        const expected = allowed.includes(op) || op === parent ? "ALLOWED" : "DENIED";
        expect(
          authorize(index, req(alice, op, "CLUSTER", "kafka-cluster", "192.168.3.1")).decision,
          `ALLOW ${parent} -> ${op}`,
        ).toBe(expected);
      }
    }
    const implicationsOfDeny: Array<[AclOperation, AclOperation[]]> = [
      ["ALL", ops],
      ["DESCRIBE", []],
      ["DESCRIBE_CONFIGS", []],
    ];
    for (const [parent, denied] of implicationsOfDeny) {
      const index = AclIndex.build([
        acl("CLUSTER", "kafka-cluster", "LITERAL", alice, "*", parent, "DENY"),
        acl("CLUSTER", "kafka-cluster", "LITERAL", alice, "*", "ALL", "ALLOW"),
      ]);
      for (const op of OPERATIONS) {
        const expected = denied.includes(op) || op === parent ? "DENIED" : "ALLOWED";
        expect(
          authorize(index, req(alice, op, "CLUSTER", "kafka-cluster", "192.168.3.1")).decision,
          `DENY ${parent} -> ${op}`,
        ).toBe(expected);
      }
    }
  });

  it("testAccessAllowedIfAllowAclExistsOnWildcardResource / OnPrefixedResource", () => {
    check([allowRead("*")], [[req(alice, "READ", "TOPIC", resource), "ALLOWED"]]);
    check([allowRead("foo", "PREFIXED")], [[req(alice, "READ", "TOPIC", resource), "ALLOWED"]]);
  });

  it("testAuthorizeWithPrefixedResource: unrelated DENYs with shared stems do not hide the applicable prefix", () => {
    const acls = [
      denyRead("a_other"),
      denyRead("a_other", "PREFIXED"),
      denyRead("foo-6d0b1c2e-aaaa", "PREFIXED"),
      denyRead("foo-1f7e3a90-bbbb", "PREFIXED"),
      denyRead("foo-44c2e1aa-cccc-zzz", "PREFIXED"),
      denyRead("fooo-9e0d2a11", "PREFIXED"),
      denyRead("fo-0a1b2c3d", "PREFIXED"),
      denyRead("fop-77aa66bb", "PREFIXED"),
      denyRead("fon-12345678", "PREFIXED"),
      denyRead("fon-", "PREFIXED"),
      denyRead("z_other", "PREFIXED"),
      denyRead("z_other"),
      allowRead("foo", "PREFIXED"),
    ];
    check(acls, [[req(alice, "READ", "TOPIC", resource, "192.168.0.1"), "ALLOWED"]]);
  });

  it("testSingleCharacterResourceAcls", () => {
    check(
      [allowRead("f")],
      [
        [req(alice, "READ", "TOPIC", "f"), "ALLOWED"],
        [req(alice, "READ", "TOPIC", "foo"), "DENIED"],
      ],
    );
    check(
      [allowRead("f"), allowRead("_", "PREFIXED")],
      [
        [req(alice, "READ", "TOPIC", "_foo"), "ALLOWED"],
        [req(alice, "READ", "TOPIC", "_"), "ALLOWED"],
        [req(alice, "READ", "TOPIC", "foo_"), "DENIED"],
      ],
    );
  });
});

describe("authorize — matching details the docs and traps call out", () => {
  it("User:* matches principals of every type; Group:* is not a wildcard", () => {
    const acls = [acl("TOPIC", "t", "LITERAL", "User:*", "*", "READ", "ALLOW")];
    expect(authorize(acls, req("Service:x", "READ", "TOPIC", "t")).decision).toBe("ALLOWED");
    const groupStar = [acl("TOPIC", "t", "LITERAL", "Group:*", "*", "READ", "ALLOW")];
    expect(authorize(groupStar, req("Group:ops", "READ", "TOPIC", "t")).rule.kind).toBe("noAclMatched");
  });

  it("principal names may contain colons (split at the first one) and are case-sensitive", () => {
    const acls = [acl("TOPIC", "t", "LITERAL", "User:CN=a:b", "*", "READ", "ALLOW")];
    expect(authorize(acls, req("User:CN=a:b", "READ", "TOPIC", "t")).decision).toBe("ALLOWED");
    expect(authorize(acls, req("user:CN=a:b", "READ", "TOPIC", "t")).decision).toBe("DENIED");
  });

  it("a PREFIXED `*` only matches names starting with `*`", () => {
    const acls = [acl("TOPIC", "*", "PREFIXED", "User:*", "*", "READ", "ALLOW")];
    expect(authorize(acls, req("User:a", "READ", "TOPIC", "orders")).rule.kind).toBe("default");
    expect(authorize(acls, req("User:a", "READ", "TOPIC", "*orders")).decision).toBe("ALLOWED");
  });

  it("IPv6 hosts are exact strings: `::1` never matches Java's 0:0:0:0:0:0:0:1", () => {
    const acls = [acl("TOPIC", "t", "LITERAL", "User:a", "::1", "READ", "ALLOW")];
    expect(authorize(acls, req("User:a", "READ", "TOPIC", "t", "0:0:0:0:0:0:0:1")).rule.kind).toBe("noAclMatched");
  });

  it("a LITERAL ACL whose name is a prefix of the resource does not apply to it", () => {
    const acls = [acl("TOPIC", "foo", "LITERAL", "User:a", "*", "READ", "ALLOW")];
    expect(authorize(acls, req("User:a", "READ", "TOPIC", "foobar")).rule.kind).toBe("default");
  });

  it("reports the first DENY and the last ALLOW in Kafka's scan order", () => {
    // Scan order for `foobar`: foobar (LITERAL then PREFIXED), foo PREFIXED, then `*`.
    const literal = acl("TOPIC", "foobar", "LITERAL", "User:a", "*", "READ", "ALLOW");
    const prefix = acl("TOPIC", "foo", "PREFIXED", "User:a", "*", "READ", "ALLOW");
    const wildcard = acl("TOPIC", "*", "LITERAL", "User:*", "*", "READ", "ALLOW");
    expect(authorize([wildcard, prefix, literal], req("User:a", "READ", "TOPIC", "foobar")).rule).toEqual({
      kind: "acl",
      acl: wildcard,
    });
    expect(authorize([prefix, literal], req("User:a", "READ", "TOPIC", "foobar")).rule).toEqual({
      kind: "acl",
      acl: prefix,
    });
    const denyPrefix = acl("TOPIC", "foo", "PREFIXED", "User:*", "*", "ALL", "DENY");
    const denyLiteral = acl("TOPIC", "foobar", "LITERAL", "User:a", "*", "READ", "DENY");
    expect(authorize([denyPrefix, denyLiteral, literal], req("User:a", "READ", "TOPIC", "foobar")).rule).toEqual({
      kind: "acl",
      acl: denyLiteral,
    });
    // Inside one resource pattern: operation order first (ALL before READ), then principal.
    const denyAll = acl("TOPIC", "foobar", "LITERAL", "User:*", "*", "ALL", "DENY");
    expect(authorize([denyLiteral, denyAll], req("User:a", "READ", "TOPIC", "foobar")).rule).toEqual({
      kind: "acl",
      acl: denyAll,
    });
  });

  it("Kafka quirk, mirrored: LITERAL `*` ACLs do not apply to other names starting with `*`", () => {
    const acls = [
      acl("GROUP", "*", "LITERAL", "User:*", "*", "READ", "ALLOW"),
      acl("GROUP", "*", "LITERAL", "User:mallory", "*", "READ", "DENY"),
    ];
    expect(authorize(acls, req("User:a", "READ", "GROUP", "orders")).decision).toBe("ALLOWED");
    expect(authorize(acls, req("User:a", "READ", "GROUP", "*orders"))).toEqual({
      decision: "DENIED",
      rule: { kind: "default" },
    });
    expect(
      authorize(acls, req("User:mallory", "READ", "GROUP", "*orders"), { allowEveryoneIfNoAclFound: true }).decision,
    ).toBe("ALLOWED");
    expect(authorize(acls, req("User:a", "READ", "GROUP", "*")).decision).toBe("ALLOWED");
  });

  it(
    "an ACL principal without a colon (stored by pre-4.0 clusters) matches nobody but still puts ACLs on " +
      "the resource",
    () => {
      const acls = [acl("TOPIC", "t", "LITERAL", "bob", "*", "READ", "ALLOW")];
      expect(authorize(acls, req("User:bob", "READ", "TOPIC", "t"), { allowEveryoneIfNoAclFound: true })).toEqual({
        decision: "DENIED",
        rule: { kind: "noAclMatched" },
      });
    },
  );

  it("group names starting below `*` (where Kafka hangs or throws) get the intended decision", () => {
    const acls = [
      acl("GROUP", "!a", "LITERAL", "User:x", "*", "READ", "ALLOW"),
      acl("GROUP", "!xa", "PREFIXED", "User:x", "*", "READ", "ALLOW"),
      acl("GROUP", "!", "PREFIXED", "User:bob", "*", "READ", "ALLOW"),
      acl("GROUP", "*", "LITERAL", "User:carol", "*", "READ", "ALLOW"),
    ];
    const index = AclIndex.build(acls);
    expect(authorize(index, req("User:bob", "READ", "GROUP", "!b")).decision).toBe("ALLOWED");
    expect(authorize(index, req("User:bob", "READ", "GROUP", "!xyz")).decision).toBe("ALLOWED");
    expect(authorize(index, req("User:carol", "READ", "GROUP", "!xyz")).decision).toBe("ALLOWED");
    expect(authorize(index, req("User:dave", "READ", "GROUP", "!b")).rule.kind).toBe("noAclMatched");
    // `!xa` shares two characters with `!xyz` without being its prefix: Kafka throws here.
    expect(authorize(index, req("User:x", "READ", "GROUP", "!xyz")).rule.kind).toBe("noAclMatched");
    expect(authorize(index, req("User:x", "READ", "GROUP", "!xab")).decision).toBe("ALLOWED");
  });
});
