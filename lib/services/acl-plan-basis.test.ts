import { describe, expect, it } from "vitest";
import type { AclBinding } from "@/lib/policy";
import { aclPlanBasis, aclStaleMessage, relevanceTest } from "./acl-plan-basis";

const acl = (b: Partial<AclBinding>): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: "orders",
  patternType: "LITERAL",
  principal: "User:svc-orders",
  host: "*",
  operation: "WRITE",
  permissionType: "ALLOW",
  ...b,
});
const DEV = { superUsers: ["User:admin"], allowEveryoneIfNoAclFound: false };

describe("relevanceTest: the ACLs that can apply to a resource the change can touch", () => {
  it("a LITERAL change: the same name, LITERAL *, and PREFIXED patterns the name starts with", () => {
    const relevant = relevanceTest([acl({ principal: "User:*", permissionType: "DENY" })]);
    expect(relevant(acl({}))).toBe(true);
    expect(relevant(acl({ resourceName: "*" }))).toBe(true);
    expect(relevant(acl({ resourceName: "ord", patternType: "PREFIXED" }))).toBe(true);
    expect(relevant(acl({ resourceName: "orders", patternType: "PREFIXED" }))).toBe(true);
    expect(relevant(acl({ resourceName: "orders-dlq" }))).toBe(false);
    expect(relevant(acl({ resourceName: "orders-", patternType: "PREFIXED" }))).toBe(false);
    expect(relevant(acl({ resourceType: "GROUP" }))).toBe(false);
  });

  it("a PREFIXED change: names under it, shorter and longer prefixes that overlap, LITERAL *", () => {
    const relevant = relevanceTest([acl({ resourceName: "orders", patternType: "PREFIXED", permissionType: "DENY" })]);
    expect(relevant(acl({ resourceName: "orders" }))).toBe(true);
    expect(relevant(acl({ resourceName: "orders-dlq" }))).toBe(true);
    expect(relevant(acl({ resourceName: "ord", patternType: "PREFIXED" }))).toBe(true);
    expect(relevant(acl({ resourceName: "orders-eu-", patternType: "PREFIXED" }))).toBe(true);
    expect(relevant(acl({ resourceName: "*" }))).toBe(true);
    expect(relevant(acl({ resourceName: "order" }))).toBe(false);
    expect(relevant(acl({ resourceName: "payments", patternType: "PREFIXED" }))).toBe(false);
  });

  it("a LITERAL * change: every ACL of its type", () => {
    const relevant = relevanceTest([acl({ resourceName: "*", resourceType: "GROUP", operation: "READ" })]);
    expect(relevant(acl({ resourceType: "GROUP", resourceName: "anything" }))).toBe(true);
    expect(relevant(acl({ resourceType: "GROUP", resourceName: "x", patternType: "PREFIXED" }))).toBe(true);
    expect(relevant(acl({}))).toBe(false);
  });
});

describe("aclPlanBasis", () => {
  const change = { create: [acl({ principal: "User:*", permissionType: "DENY" })], delete: [] };
  const current = [
    acl({}),
    acl({ resourceName: "orders-dlq" }),
    acl({ resourceName: "payments", principal: "User:bob", operation: "READ" }),
  ];

  it("changes when an ACL on a touched resource is added, removed or replaced, or the assumptions change", () => {
    const basis = aclPlanBasis(current, change, DEV);
    expect(basis).toMatch(/^acl1:1:[0-9a-f]{32}:[0-9a-f]{32}$/);
    expect(aclPlanBasis([...current, acl({ principal: "User:bob" })], change, DEV)).not.toBe(basis);
    expect(aclPlanBasis(current.slice(1), change, DEV)).not.toBe(basis);
    expect(aclPlanBasis([acl({ host: "10.0.0.1" }), ...current.slice(1)], change, DEV)).not.toBe(basis);
    expect(aclPlanBasis(current, change, { ...DEV, superUsers: ["User:admin", "User:ops"] })).not.toBe(basis);
    expect(aclPlanBasis(current, change, { ...DEV, allowEveryoneIfNoAclFound: true })).not.toBe(basis);
  });

  it("does not change for ACLs on resources the change cannot touch", () => {
    const basis = aclPlanBasis(current, change, DEV);
    expect(aclPlanBasis([...current, acl({ resourceName: "payments-eu", principal: "User:carol" })], change, DEV)).toBe(
      basis,
    );
    expect(aclPlanBasis([...current, acl({ resourceType: "GROUP", resourceName: "orders" })], change, DEV)).toBe(basis);
  });

  it("the binding to create appearing meanwhile makes the plan stale too", () => {
    expect(aclPlanBasis([...current, ...change.create], change, DEV)).not.toBe(aclPlanBasis(current, change, DEV));
  });
});

describe("aclStaleMessage", () => {
  it("says what changed and asks for a new preview", () => {
    const c = { create: [acl({ permissionType: "DENY" })], delete: [] };
    const then = aclPlanBasis([acl({})], c, DEV);
    expect(aclStaleMessage(then, aclPlanBasis([acl({}), acl({ principal: "User:bob" })], c, DEV))).toBe(
      "The ACLs changed since this preview (the ACLs that apply to the resources this plan touches: 1 then, 2 " +
        "now); nothing was changed. Preview again.",
    );
    expect(aclStaleMessage(then, aclPlanBasis([acl({ principal: "User:bob" })], c, DEV))).toContain("was replaced");
    expect(aclStaleMessage(then, aclPlanBasis([acl({})], c, { ...DEV, allowEveryoneIfNoAclFound: true }))).toContain(
      "allow.everyone.if.no.acl.found",
    );
  });
});
