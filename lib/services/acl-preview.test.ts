import { describe, expect, it } from "vitest";
import type { AclBinding } from "@/lib/policy";
import { applyChange, bindingLine, decisionChanges, previewAclChange, resourceLabel } from "./acl-preview";

function acl(a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal" | "operation">): AclBinding {
  return { resourceType: "TOPIC", patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}

const BOB_PREFIX = acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:bob", operation: "READ" });
const BOB_DENY = acl({ resourceName: "payments-eu", principal: "User:bob", operation: "READ", permissionType: "DENY" });
const ALICE_ORDERS = acl({ resourceName: "orders", principal: "User:alice", operation: "READ" });
const CURRENT = [BOB_PREFIX, BOB_DENY, ALICE_ORDERS];
const DEV = { superUsers: ["User:admin"], allowEveryoneIfNoAclFound: false };
const CONFIG = { superUsers: new Set(DEV.superUsers), allowEveryoneIfNoAclFound: false };

describe("previewAclChange (create)", () => {
  it("shows READ and the DESCRIBE it implies changing from DENIED to ALLOWED", () => {
    const grant = acl({ resourceName: "e2e-acl-x", principal: "User:e2e-x", operation: "READ" });
    const p = previewAclChange("create", CURRENT, [grant], DEV);
    expect(p.problems).toEqual([]);
    expect(p.noOps).toEqual([]);
    expect(p.changes.map((c) => [c.operation, c.before, c.after])).toEqual([
      ["READ", "DENIED", "ALLOWED"],
      ["DESCRIBE", "DENIED", "ALLOWED"],
    ]);
    expect(p.checked).toBe(8);
  });

  it("reports a binding Kafka already holds as a no-op with no decision change", () => {
    const p = previewAclChange("create", CURRENT, [{ ...ALICE_ORDERS }], DEV);
    expect(p.noOps).toEqual([ALICE_ORDERS]);
    expect(p.changes).toEqual([]);
  });

  it("reports every invalid binding with Kafka's message, and previews the valid ones", () => {
    const badCluster = acl({ resourceType: "CLUSTER", resourceName: "my-cluster", principal: "User:x", operation: "ALTER" });
    const noColon = acl({ resourceName: "t", principal: "bob", operation: "READ" });
    const ok = acl({ resourceName: "t", principal: "User:bob", operation: "WRITE" });
    const p = previewAclChange("create", CURRENT, [badCluster, noColon, ok], DEV);
    expect(p.problems.map((x) => [x.index, x.message])).toEqual([
      [0, "The only valid name for the CLUSTER resource is kafka-cluster"],
      [1, expect.stringContaining("Could not parse principal from `bob`")],
    ]);
    expect(p.changes.every((c) => c.principal === "User:bob" && c.resourceName === "t")).toBe(true);
    expect(p.changes.map((c) => c.operation)).toEqual(["WRITE", "DESCRIBE"]);
  });

  it("a DENY takes away what a prefixed ALLOW gave, on names under the prefix", () => {
    const deny = acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:bob", operation: "ALL", permissionType: "DENY" });
    const p = previewAclChange("create", CURRENT, [deny], DEV);
    expect(p.changes.map((c) => [c.operation, c.before, c.after, c.resourceLabel])).toEqual([
      ["READ", "ALLOWED", "DENIED", "TOPIC names starting with payments-"],
      ["DESCRIBE", "ALLOWED", "DENIED", "TOPIC names starting with payments-"],
    ]);
  });

  it("changes nothing for a super user", () => {
    const p = previewAclChange("create", CURRENT, [acl({ resourceName: "t", principal: "User:admin", operation: "READ", permissionType: "DENY" })], DEV);
    expect(p.changes).toEqual([]);
    expect(p.checked).toBe(8);
  });

  it("with allow.everyone.if.no.acl.found, the first ACL on a resource (even a DENY for WRITE) ends the default for every operation", () => {
    const open = { superUsers: [], allowEveryoneIfNoAclFound: true };
    const p = previewAclChange("create", [], [acl({ resourceName: "t", principal: "User:bob", operation: "WRITE", permissionType: "DENY" })], open);
    expect(p.changes.map((c) => [c.operation, c.before, c.after])).toEqual([
      ["READ", "ALLOWED", "DENIED"],
      ["WRITE", "ALLOWED", "DENIED"],
      ["CREATE", "ALLOWED", "DENIED"],
      ["DESCRIBE", "ALLOWED", "DENIED"],
      ["DELETE", "ALLOWED", "DENIED"],
      ["ALTER", "ALLOWED", "DENIED"],
      ["DESCRIBE_CONFIGS", "ALLOWED", "DENIED"],
      ["ALTER_CONFIGS", "ALLOWED", "DENIED"],
    ]);
  });
});

describe("previewAclChange (delete)", () => {
  it("deleting the DENY gives bob READ on payments-eu back", () => {
    const p = previewAclChange("delete", CURRENT, [BOB_DENY], DEV);
    expect(p.noOps).toEqual([]);
    expect(p.changes.map((c) => [c.principal, c.resourceName, c.operation, c.before, c.after])).toEqual([["User:bob", "payments-eu", "READ", "DENIED", "ALLOWED"]]);
  });

  it("an ACL Kafka does not hold is a no-op; no validation on delete", () => {
    const absent = acl({ resourceName: "nope", principal: "User:bob", operation: "READ" });
    const p = previewAclChange("delete", CURRENT, [absent], DEV);
    expect(p.problems).toEqual([]);
    expect(p.noOps).toEqual([absent]);
    expect(p.changes).toEqual([]);
  });
});

describe("applyChange and decisionChanges", () => {
  it("adds each new binding once and removes exact matches only", () => {
    expect(applyChange("create", CURRENT, [ALICE_ORDERS, BOB_DENY])).toEqual(CURRENT);
    const grant = acl({ resourceName: "x", principal: "User:x", operation: "READ" });
    expect(applyChange("create", CURRENT, [grant, grant])).toEqual([...CURRENT, grant]);
    expect(applyChange("delete", CURRENT, [{ ...BOB_DENY, host: "127.0.0.1" }])).toEqual(CURRENT);
    expect(applyChange("delete", CURRENT, [{ ...BOB_DENY }])).toEqual([BOB_PREFIX, ALICE_ORDERS]);
  });

  it("decides on the binding's host: an ACL for another host does not count", () => {
    const local = acl({ resourceName: "t", principal: "User:bob", operation: "READ", host: "127.0.0.1" });
    const { changes } = decisionChanges([], [local], [local], CONFIG);
    expect(changes.map((c) => [c.host, c.operation])).toEqual([
      ["127.0.0.1", "READ"],
      ["127.0.0.1", "DESCRIBE"],
    ]);
  });
});

describe("labels", () => {
  it("names the resource a pattern stands for, and a binding in one line", () => {
    expect(resourceLabel(BOB_PREFIX)).toBe("TOPIC names starting with payments-");
    expect(resourceLabel(acl({ resourceName: "*", principal: "User:x", operation: "READ" }))).toBe("every TOPIC");
    expect(resourceLabel(ALICE_ORDERS)).toBe("TOPIC orders");
    expect(bindingLine(BOB_DENY)).toBe("DENY User:bob READ on TOPIC payments-eu (LITERAL) from any host");
  });
});
