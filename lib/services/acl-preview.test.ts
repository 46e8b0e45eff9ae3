import { describe, expect, it } from "vitest";
import type { AclBinding } from "@/lib/policy";
import { bindingLine, distinctBindings, resourceLabel } from "./acl-preview";

function acl(a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal" | "operation">): AclBinding {
  return { resourceType: "TOPIC", patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}

const BOB_PREFIX = acl({
  resourceName: "payments-",
  patternType: "PREFIXED",
  principal: "User:bob",
  operation: "READ",
});
const BOB_DENY = acl({ resourceName: "payments-eu", principal: "User:bob", operation: "READ", permissionType: "DENY" });
const ALICE_ORDERS = acl({ resourceName: "orders", principal: "User:alice", operation: "READ" });

describe("labels", () => {
  it("names the resource a pattern stands for, and a binding in one line", () => {
    expect(resourceLabel(BOB_PREFIX)).toBe("TOPIC names starting with payments-");
    expect(resourceLabel(acl({ resourceName: "*", principal: "User:x", operation: "READ" }))).toBe("every TOPIC");
    expect(resourceLabel(ALICE_ORDERS)).toBe("TOPIC orders");
    expect(bindingLine(BOB_DENY)).toBe("DENY User:bob READ on TOPIC payments-eu (LITERAL) from any host");
    expect(bindingLine({ ...BOB_DENY, host: "10.0.0.1" })).toBe(
      "DENY User:bob READ on TOPIC payments-eu (LITERAL) from 10.0.0.1",
    );
  });
});

describe("distinctBindings", () => {
  it("keeps each binding once, first occurrence first; a different host is a different binding", () => {
    expect(distinctBindings([BOB_DENY, ALICE_ORDERS, { ...BOB_DENY }, { ...BOB_DENY, host: "10.0.0.1" }])).toEqual([
      BOB_DENY,
      ALICE_ORDERS,
      { ...BOB_DENY, host: "10.0.0.1" },
    ]);
  });
});
