import { describe, expect, it, vi } from "vitest";
import { AclStore, type AclBinding } from "@/lib/policy";
vi.mock("server-only", () => ({}));
import { suggestionsOf } from "./acl-suggestions";

const acl = (a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal">): AclBinding => ({
  resourceType: "TOPIC",
  patternType: "LITERAL",
  operation: "READ",
  host: "*",
  permissionType: "ALLOW",
  ...a,
});

function snapshotOf(acls: AclBinding[]) {
  const store = AclStore.build(acls);
  return { store, resourceNames: store.resourceNames.bind(store) };
}

describe("ACL form suggestions", () => {
  it("offers the principals and the topic, group and transactional id names the ACLs use, super users first", () => {
    const s = suggestionsOf(
      snapshotOf([
        acl({ resourceName: "orders", principal: "User:bob" }),
        acl({ resourceName: "pay", patternType: "PREFIXED", principal: "User:alice" }),
        acl({ resourceType: "GROUP", resourceName: "orders-service", principal: "User:bob" }),
        acl({
          resourceType: "TRANSACTIONAL_ID",
          resourceName: "orders-tx-",
          patternType: "PREFIXED",
          principal: "User:svc-orders",
        }),
      ]),
      ["User:admin"],
    );
    expect(s.principals).toEqual(["User:admin", "User:alice", "User:bob", "User:svc-orders"]);
    expect(s.topics).toEqual(["orders", "pay"]);
    expect(s.groups).toEqual(["orders-service"]);
    expect(s.transactionalIds).toEqual(["orders-tx-"]);
    expect(s.resourceNames).toEqual(["orders", "pay", "orders-service", "orders-tx-", "kafka-cluster"]);
  });

  it(
    "offers per resource type only the names of that type (a form narrows its resource name by the chosen " + "type)",
    () => {
      const s = suggestionsOf(
        snapshotOf([
          acl({ resourceName: "orders", principal: "User:bob" }),
          acl({ resourceType: "GROUP", resourceName: "orders-service", principal: "User:bob" }),
          acl({
            resourceType: "TRANSACTIONAL_ID",
            resourceName: "orders-tx-",
            patternType: "PREFIXED",
            principal: "User:svc-orders",
          }),
          acl({
            resourceType: "USER",
            resourceName: "User:svc-orders",
            principal: "User:alice",
            operation: "CREATE_TOKENS",
          }),
          acl({
            resourceType: "DELEGATION_TOKEN",
            resourceName: "tok-1",
            principal: "User:alice",
            operation: "DESCRIBE",
          }),
          acl({
            resourceType: "CLUSTER",
            resourceName: "kafka-cluster",
            principal: "User:alice",
            operation: "DESCRIBE",
          }),
        ]),
      );
      expect(s.byType).toEqual({
        TOPIC: ["orders"],
        GROUP: ["orders-service"],
        TRANSACTIONAL_ID: ["orders-tx-"],
        CLUSTER: ["kafka-cluster"],
        USER: ["User:svc-orders"],
        DELEGATION_TOKEN: ["tok-1"],
      });
    },
  );

  it("sends at most the limit, however many names the cluster has", () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      acl({ resourceName: `t-${String(i).padStart(4, "0")}`, principal: `User:p${i}` }),
    );
    const s = suggestionsOf(snapshotOf(many), [], 200);
    expect(s.principals).toHaveLength(200);
    expect(s.topics).toHaveLength(200);
    expect(s.topics[0]).toBe("t-0000");
    expect(s.resourceNames).toHaveLength(200);
  });
});
