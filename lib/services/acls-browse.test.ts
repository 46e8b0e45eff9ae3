import { describe, expect, it } from "vitest";
import type { AclBinding } from "@/lib/policy";
import { aclListQuerySchema } from "@/lib/schemas/acls";
import { browseAcls } from "./acls-browse";

function acl(a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal" | "operation">): AclBinding {
  return { resourceType: "TOPIC", patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}
const q = (v: Record<string, string>) => aclListQuerySchema.parse(v);

const ACLS = [
  acl({ resourceName: "orders", principal: "User:svc-orders", operation: "WRITE" }),
  acl({ resourceName: "orders", principal: "User:alice", operation: "READ" }),
  acl({ resourceName: "payments-", patternType: "PREFIXED", principal: "User:bob", operation: "READ" }),
  acl({ resourceName: "payments-eu", principal: "User:bob", operation: "READ", permissionType: "DENY" }),
  acl({ resourceType: "GROUP", resourceName: "alice-", patternType: "PREFIXED", principal: "User:alice", operation: "READ" }),
];

describe("browseAcls", () => {
  it("sorts by resource, then principal", () => {
    const r = browseAcls(ACLS, q({}));
    expect(r.acls.map((a) => `${a.resourceType}:${a.resourceName}:${a.principal}`)).toEqual([
      "GROUP:alice-:User:alice",
      "TOPIC:orders:User:alice",
      "TOPIC:orders:User:svc-orders",
      "TOPIC:payments-:User:bob",
      "TOPIC:payments-eu:User:bob",
    ]);
    expect([r.total, r.matching, r.page, r.pages]).toEqual([5, 5, 1, 1]);
  });

  it("filters by exact principal, or a fragment, and by the other fields", () => {
    expect(browseAcls(ACLS, q({ principal: "User:bob" })).matching).toBe(2);
    expect(browseAcls(ACLS, q({ principal: "bo" })).matching).toBe(0);
    expect(browseAcls(ACLS, q({ principal: "ORDERS", principalMatch: "contains" })).matching).toBe(1);
    expect(browseAcls(ACLS, q({ resourceType: "GROUP" })).matching).toBe(1);
    expect(browseAcls(ACLS, q({ resourceName: "payments-" })).acls).toEqual([ACLS[2]]);
    expect(browseAcls(ACLS, q({ patternType: "PREFIXED", resourceType: "TOPIC" })).acls).toEqual([ACLS[2]]);
    expect(browseAcls(ACLS, q({ permissionType: "DENY" })).acls).toEqual([ACLS[3]]);
    expect(browseAcls(ACLS, q({ operation: "WRITE" })).acls).toEqual([ACLS[0]]);
  });

  it("pages, clamping a page past the end to the last", () => {
    const many = Array.from({ length: 450 }, (_, i) => acl({ resourceName: `t${String(i).padStart(3, "0")}`, principal: "User:x", operation: "READ" }));
    const last = browseAcls(many, q({ page: "9" }));
    expect([last.page, last.pages, last.acls.length, last.acls[0]?.resourceName]).toEqual([3, 3, 50, "t400"]);
  });
});
