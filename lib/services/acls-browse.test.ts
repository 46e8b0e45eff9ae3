import { describe, expect, it } from "vitest";
import { AclStore, type AclBinding } from "@/lib/policy";
import { aclListQuerySchema } from "@/lib/schemas/acls";
import { principalOf, toStoreQuery } from "./acls-browse";

function acl(a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal" | "operation">): AclBinding {
  return { resourceType: "TOPIC", patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}

const ACLS = [
  acl({ resourceName: "orders", principal: "User:svc-orders", operation: "WRITE" }),
  acl({ resourceName: "orders", principal: "User:alice", operation: "READ", host: "10.0.0.7" }),
  acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:bob", operation: "READ" }),
  acl({ resourceName: "payments-eu", principal: "User:bob", operation: "READ", permissionType: "DENY" }),
  acl({ resourceName: "pay", patternType: "PREFIXED", principal: "Group:ops", operation: "DESCRIBE" }),
  acl({ resourceName: "*", principal: "User:carol", operation: "DESCRIBE" }),
  acl({
    resourceType: "GROUP",
    resourceName: "alice-",
    patternType: "PREFIXED",
    principal: "User:alice",
    operation: "READ",
  }),
];
const store = AclStore.build(ACLS);
const list = (v: Record<string, string>) => store.query(toStoreQuery(aclListQuerySchema.parse(v)));
const rows = (v: Record<string, string>) =>
  list(v).acls.map((a) => `${a.resourceType}:${a.resourceName}:${a.patternType}:${a.principal}`);

describe("the ACL list's query on the snapshot's store", () => {
  it("lists by resource, then principal, by default", () => {
    expect(rows({})).toEqual([
      "GROUP:alice-:PREFIXED:User:alice",
      "TOPIC:*:LITERAL:User:carol",
      "TOPIC:orders:LITERAL:User:alice",
      "TOPIC:orders:LITERAL:User:svc-orders",
      "TOPIC:pay:PREFIXED:Group:ops",
      "TOPIC:payments-:PREFIXED:User:bob",
      "TOPIC:payments-eu:LITERAL:User:bob",
    ]);
    expect(list({})).toMatchObject({ total: 7, matching: 7, page: 1, pages: 1 });
  });

  it("reads a bare principal as a user; contains is a case-insensitive fragment", () => {
    expect(principalOf("alice")).toBe("User:alice");
    expect(principalOf("Group:ops")).toBe("Group:ops");
    expect(list({ principal: "bob" }).matching).toBe(2);
    expect(list({ principal: "User:bob" }).matching).toBe(2);
    expect(list({ principal: "ops" }).matching).toBe(0);
    expect(list({ principal: "OPS", principalMatch: "contains" }).matching).toBe(1);
  });

  it("compares the resource name exactly, as a prefix, or as Kafka's MATCH", () => {
    expect(rows({ resourceName: "payments-eu" })).toEqual(["TOPIC:payments-eu:LITERAL:User:bob"]);
    expect(rows({ resourceName: "pay", nameMatch: "prefix" })).toEqual([
      "TOPIC:pay:PREFIXED:Group:ops",
      "TOPIC:payments-:PREFIXED:User:bob",
      "TOPIC:payments-eu:LITERAL:User:bob",
    ]);
    // kafka-acls.sh --list --topic payments-eu --resource-pattern-type match: the literal name, LITERAL *, and the
    // prefixes it starts with.
    expect(rows({ resourceName: "payments-eu", nameMatch: "match", resourceType: "TOPIC" })).toEqual([
      "TOPIC:*:LITERAL:User:carol",
      "TOPIC:pay:PREFIXED:Group:ops",
      "TOPIC:payments-:PREFIXED:User:bob",
      "TOPIC:payments-eu:LITERAL:User:bob",
    ]);
    expect(
      rows({ resourceName: "payments-eu", nameMatch: "match", patternType: "PREFIXED", principal: "bob" }),
    ).toEqual(["TOPIC:payments-:PREFIXED:User:bob"]);
  });

  it("filters by host, operation and permission", () => {
    expect(rows({ host: "10.0.0.7" })).toEqual(["TOPIC:orders:LITERAL:User:alice"]);
    expect(list({ operation: "READ", permissionType: "ALLOW" }).matching).toBe(3);
  });

  it("sorts by any column, ascending or descending, and pages the sorted order", () => {
    expect(list({ sort: "principal" }).acls.map((a) => a.principal)).toEqual([
      "Group:ops",
      "User:alice",
      "User:alice",
      "User:bob",
      "User:bob",
      "User:carol",
      "User:svc-orders",
    ]);
    expect(list({ sort: "operation", order: "desc" }).acls.map((a) => a.operation)).toEqual([
      "WRITE",
      "READ",
      "READ",
      "READ",
      "READ",
      "DESCRIBE",
      "DESCRIBE",
    ]);
    expect(list({ sort: "host", order: "desc", pageSize: "1" }).acls.map((a) => a.host)).toEqual(["10.0.0.7"]);
    expect(list({ sort: "resourceName", pageSize: "2", page: "2" }).acls.map((a) => a.resourceName)).toEqual([
      "orders",
      "orders",
    ]);
    expect(list({ sort: "permissionType", order: "desc", pageSize: "1" }).acls[0]!.permissionType).toBe("DENY");
  });
});
