import { describe, expect, it, vi } from "vitest";
import type { AclBinding } from "../types";

const acls: AclBinding[] = [
  {
    resourceType: "TOPIC",
    resourceName: "orders",
    patternType: "LITERAL",
    principal: "User:alice",
    host: "*",
    operation: "READ",
    permissionType: "ALLOW",
  },
];

describe("an AclIndex built by another copy of the policy core", () => {
  it("is recognised as an index (Next bundles each route with its own copy; the ACL snapshot is shared)", async () => {
    const a = await import("./index");
    vi.resetModules();
    const b = await import("./index");
    expect(b.AclIndex).not.toBe(a.AclIndex);
    const foreign = b.AclIndex.build(acls);
    expect(foreign instanceof a.AclIndex).toBe(true);
    const request = {
      principal: "User:alice",
      host: "10.0.0.1",
      operation: "READ" as const,
      resourceType: "TOPIC" as const,
      resourceName: "orders",
    };
    expect(
      a.authorize(foreign, request, { superUsers: new Set<string>(), allowEveryoneIfNoAclFound: false }).decision,
    ).toBe("ALLOWED");
    expect({} instanceof a.AclIndex).toBe(false);
    expect(acls instanceof a.AclIndex).toBe(false);
  });
});
