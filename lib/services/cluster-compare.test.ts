import { describe, expect, it, vi } from "vitest";
import type { AclBinding, ConfiguredQuota } from "@/lib/policy";
vi.mock("server-only", () => ({}));
import { compareRead, quotaInScope } from "./cluster-compare";

const acl = (
  principal: string,
  resourceName: string,
  operation: AclBinding["operation"] = "READ",
  patternType: AclBinding["patternType"] = "LITERAL",
): AclBinding => ({
  principal,
  resourceType: "TOPIC",
  resourceName,
  patternType,
  host: "*",
  operation,
  permissionType: "ALLOW",
});

describe("comparing two clusters", () => {
  const here = [
    acl("User:a", "orders"),
    acl("User:a", "orders.eu", "WRITE", "PREFIXED"),
    acl("User:b", "orders"),
    acl("User:a", "payments"),
  ];
  const there = [acl("User:a", "orders"), acl("User:a", "orders.us"), acl("User:c", "orders")];

  it("lists the ACLs in the scope on each side, and which side has them", () => {
    const r = compareRead(here, there, [], [], { principal: "User:a", prefix: "orders" });
    expect(r.acls.map((x) => [x.side, x.binding.resourceName, x.binding.operation])).toEqual([
      ["both", "orders", "READ"],
      ["here", "orders.eu", "WRITE"],
      ["there", "orders.us", "READ"],
    ]);
    expect(r.counts).toEqual({ here: 2, there: 2, both: 1 });
  });

  it("makes the import's sync plan with this cluster's ACLs in the scope, and nothing when they agree", () => {
    const r = compareRead(here, there, [], [], { principal: "User:a", prefix: null });
    expect(r.aclPlan?.kind).toBe("acl.import");
    const input = r.aclPlan!.input as {
      content: string;
      mode: string;
      scope: { principals: string[]; resourcePrefix: string };
    };
    expect(input.mode).toBe("sync");
    expect(input.scope).toEqual({ principals: ["User:a"], resourcePrefix: "" });
    const file = JSON.parse(input.content) as { acls: AclBinding[] };
    // User:b's and User:c's are out of scope.
    expect(file.acls.map((b) => b.resourceName).sort()).toEqual(["orders", "orders.eu", "payments"]);
    expect(compareRead(here, here, [], [], { principal: "User:a", prefix: null }).aclPlan).toBeNull();
  });

  it("deletes there's ACLs when this cluster has none in the scope (sync refuses an empty file)", () => {
    const r = compareRead([], there, [], [], { principal: null, prefix: "orders.us" });
    expect(r.aclPlan).toEqual({ kind: "acl.delete", input: { bindings: [acl("User:a", "orders.us")] } });
  });

  it("compares the quotas of the entities the scope names", () => {
    const q = (
      entity: ConfiguredQuota["entity"],
      value: number,
      key: ConfiguredQuota["key"] = "producer_byte_rate",
    ): ConfiguredQuota => ({ entity, key, value });
    const r = compareRead(
      [],
      [],
      [q({ user: "a" }, 100), q({ user: "a", "client-id": "x" }, 10), q({ user: "b" }, 5)],
      [q({ user: "a" }, 200), q({ "client-id": "x" }, 1)],
      {
        principal: "User:a",
        prefix: null,
      },
    );
    expect(r.quotas.map((x) => [x.entityLabel, x.here, x.there])).toEqual([
      ["user=a", 100, 200],
      ["user=a, client-id=x", 10, null],
    ]);
    expect(quotaInScope({ "client-id": "orders-app" }, { principal: null, prefix: "orders" })).toBe(true);
    expect(quotaInScope({ ip: "10.0.0.1" }, { principal: null, prefix: "10" })).toBe(false);
    expect(quotaInScope({ user: "a" }, { principal: "Group:a", prefix: null })).toBe(false);
  });
});
