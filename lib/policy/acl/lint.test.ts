import { describe, expect, it } from "vitest";
import type { AclBinding } from "../types";
import { lintAcls, type LintCode } from "./lint";
import { acl } from "@/test/policy/acl-helpers";

function codes(acls: AclBinding[]): Array<[LintCode, AclBinding[]]> {
  return lintAcls(acls).map((f) => [f.code, f.acls]);
}

describe("lintAcls", () => {
  it("a clean set has no findings", () => {
    expect(
      lintAcls([
        acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW"),
        acl("GROUP", "cg", "LITERAL", "User:alice", "10.0.0.1", "READ", "ALLOW"),
        acl("CLUSTER", "kafka-cluster", "LITERAL", "User:ops", "0:0:0:0:0:0:0:1", "ALTER", "ALLOW"),
      ]),
    ).toEqual([]);
  });

  it("duplicates: every copy named once", () => {
    const a = acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW");
    expect(codes([a, { ...a }, { ...a }])).toEqual([["duplicate", [a, a, a]]]);
  });

  it("ALLOWs made redundant by a broader ALLOW: wider pattern, User:*, host *, ALL or an implying operation", () => {
    const broad = acl("TOPIC", "ord", "PREFIXED", "User:*", "*", "ALL", "ALLOW");
    const narrow = acl("TOPIC", "orders", "LITERAL", "User:alice", "10.0.0.1", "WRITE", "ALLOW");
    const describeOnly = acl("GROUP", "g", "LITERAL", "User:bob", "*", "DESCRIBE", "ALLOW");
    const read = acl("GROUP", "g", "LITERAL", "User:bob", "*", "READ", "ALLOW");
    const findings = lintAcls([broad, narrow, describeOnly, read]);
    expect(findings.map((f) => [f.severity, f.code, f.acls])).toEqual([
      ["info", "redundant-allow", [narrow, broad]],
      ["info", "redundant-allow", [describeOnly, read]],
    ]);
    expect(findings[0]!.message).toMatch(/already allows everything it allows/);
  });

  it(
    "an ALLOW is not redundant when the broader ACL covers less (narrower prefix, other host, implied only " +
      "one way)",
    () => {
      expect(
        lintAcls([
          acl("TOPIC", "orders", "PREFIXED", "User:alice", "*", "READ", "ALLOW"),
          acl("TOPIC", "ord", "PREFIXED", "User:alice", "*", "DESCRIBE", "ALLOW"),
          acl("TOPIC", "ord", "PREFIXED", "User:alice", "10.0.0.1", "READ", "ALLOW"),
        ]),
      ).toEqual([]);
    },
  );

  it("ALLOWs a DENY makes dead (DENY does not use implication)", () => {
    const allow = acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "WRITE", "ALLOW");
    const deny = acl("TOPIC", "*", "LITERAL", "User:*", "*", "ALL", "DENY");
    expect(codes([allow, deny])).toEqual([["dead-allow", [allow, deny]]]);
    // ALLOW WRITE also grants DESCRIBE, which DENY WRITE does not take away: not dead.
    expect(codes([allow, acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "WRITE", "DENY")])).toEqual([]);
    const allowDescribe = acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "DESCRIBE", "ALLOW");
    const denyAll = acl("TOPIC", "or", "PREFIXED", "User:alice", "*", "ALL", "DENY");
    expect(codes([allowDescribe, denyAll])).toEqual([["dead-allow", [allowDescribe, denyAll]]]);
  });

  it(
    "the LITERAL `*` does not cover names starting with `*` (StandardAuthorizer), so it neither kills nor " +
      "makes them redundant",
    () => {
      const star = acl("GROUP", "*x", "LITERAL", "User:a", "*", "READ", "ALLOW");
      const wildDeny = acl("GROUP", "*", "LITERAL", "User:*", "*", "READ", "DENY");
      expect(codes([star, wildDeny]).map(([c]) => c)).toEqual(["wildcard-skips-name"]);
    },
  );

  it("principal and host mistakes", () => {
    const cases: Array<[AclBinding, LintCode]> = [
      [acl("TOPIC", "t", "LITERAL", "alice", "*", "READ", "ALLOW"), "principal-without-type"],
      [acl("TOPIC", "t", "LITERAL", " User:alice", "*", "READ", "ALLOW"), "principal-whitespace"],
      [acl("TOPIC", "t", "LITERAL", "User: alice", "*", "READ", "ALLOW"), "principal-whitespace"],
      [acl("TOPIC", "t", "LITERAL", "user:alice", "*", "READ", "ALLOW"), "principal-type-case"],
      [acl("TOPIC", "t", "LITERAL", "Group:*", "*", "READ", "ALLOW"), "non-user-wildcard-principal"],
      [acl("TOPIC", "t", "LITERAL", "User:a", "::1", "READ", "ALLOW"), "host-not-ip"],
      [acl("TOPIC", "t", "LITERAL", "User:a", "10.0.0.0/24", "READ", "ALLOW"), "host-not-ip"],
      [acl("TOPIC", "t", "LITERAL", "User:a", "broker-1.example.com", "READ", "ALLOW"), "host-not-ip"],
    ];
    for (const [binding, code] of cases) {
      expect(codes([binding]), binding.principal + " " + binding.host).toEqual([[code, [binding]]]);
    }
    expect(lintAcls([cases[0]![0]])[0]!.severity).toBe("error");
    expect(lintAcls([cases[5]![0]])[0]!.message).toMatch(/uncompressed \(0:0:0:0:0:0:0:1, not ::1\)/);
  });

  it("resource mistakes: prefixed *, operations the type never checks, bad cluster name, names that hang Kafka", () => {
    const cases: Array<[AclBinding, LintCode]> = [
      [acl("TOPIC", "*", "PREFIXED", "User:a", "*", "READ", "ALLOW"), "prefixed-wildcard"],
      [acl("CLUSTER", "kafka-cluster", "LITERAL", "User:a", "*", "READ", "ALLOW"), "operation-not-applicable"],
      [acl("CLUSTER", "my-cluster", "LITERAL", "User:a", "*", "ALTER", "ALLOW"), "invalid-cluster-name"],
      [acl("GROUP", "!a", "LITERAL", "User:a", "*", "READ", "ALLOW"), "authorizer-hang-name"],
      [acl("TRANSACTIONAL_ID", " tx", "PREFIXED", "User:a", "*", "WRITE", "ALLOW"), "authorizer-hang-name"],
      [acl("TOPIC", "", "PREFIXED", "User:a", "*", "READ", "ALLOW"), "empty-resource-name"],
      [acl("TOPIC", "orders/eu", "LITERAL", "User:a", "*", "READ", "ALLOW"), "impossible-topic-name"],
      [acl("TOPIC", "x".repeat(250), "LITERAL", "User:a", "*", "READ", "ALLOW"), "impossible-topic-name"],
    ];
    for (const [binding, code] of cases) {
      expect(codes([binding]), `${binding.resourceType} ${binding.resourceName}`).toEqual([[code, [binding]]]);
    }
  });

  it("orders findings errors first, then warnings, then info, each in input order", () => {
    const info = acl("TOPIC", "t", "LITERAL", "User:a", "*", "DESCRIBE", "ALLOW");
    const broader = acl("TOPIC", "t", "LITERAL", "User:a", "*", "READ", "ALLOW");
    const warning = acl("TOPIC", "*", "PREFIXED", "User:b", "*", "READ", "ALLOW");
    const error = acl("TOPIC", "u", "LITERAL", "nobody", "*", "READ", "ALLOW");
    expect(lintAcls([info, broader, warning, error]).map((f) => f.severity)).toEqual(["error", "warning", "info"]);
  });

  it("lints 100,000 ACLs without quadratic work", () => {
    const acls: AclBinding[] = [];
    for (let i = 0; i < 100_000; i++) {
      acls.push(
        acl(
          "TOPIC",
          `team${i % 300}.topic${i % 7000}`,
          i % 5 === 0 ? "PREFIXED" : "LITERAL",
          `User:svc${i % 400}`,
          i % 9 === 0 ? "10.0.0.1" : "*",
          i % 2 ? "READ" : "WRITE",
          i % 13 === 0 ? "DENY" : "ALLOW",
        ),
      );
    }
    acls.push(acl("TOPIC", "team", "PREFIXED", "User:*", "*", "ALL", "ALLOW"));
    const start = performance.now();
    const findings = lintAcls(acls);
    const elapsed = performance.now() - start;
    expect(findings.length).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(10_000);
  });
});
