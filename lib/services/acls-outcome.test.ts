import { describe, expect, it } from "vitest";
import { outcomeOf, summary, type BindingResult } from "./acls-outcome";

const base = { resourceType: "TOPIC", patternType: "LITERAL", host: "*", operation: "READ", permissionType: "ALLOW", principal: "User:x" } as const;
const ok = (name: string): BindingResult => ({ ...base, resourceName: name, ok: true, error: null });
const failed = (name: string, code: string, message: string): BindingResult => ({ ...base, resourceName: name, ok: false, error: { code, message } });
const DENIED = failed("b", "CLUSTER_AUTHORIZATION_FAILED", "Kafka refused CreateAcls: User:alice needs ALTER on CLUSTER kafka-cluster.");

describe("outcomeOf", () => {
  it("is success, partial, denied or failure", () => {
    expect(outcomeOf([ok("a")])).toBe("success");
    expect(outcomeOf([ok("a"), DENIED])).toBe("partial");
    expect(outcomeOf([DENIED, DENIED])).toBe("denied");
    expect(outcomeOf([DENIED, failed("c", "INVALID_REQUEST", "bad")])).toBe("failure");
  });
});

describe("summary", () => {
  it("says exactly which bindings were changed and which were not, with Kafka's reason", () => {
    expect(summary("create", [ok("a"), DENIED])).toBe(
      "Created 1 of 2: ALLOW User:x READ on TOPIC a (LITERAL) from any host. " +
        "Not created (1 of 2): ALLOW User:x READ on TOPIC b (LITERAL) from any host: Kafka refused CreateAcls: User:alice needs ALTER on CLUSTER kafka-cluster.",
    );
    expect(summary("delete", [ok("a")])).toBe("Deleted 1 of 1: ALLOW User:x READ on TOPIC a (LITERAL) from any host.");
  });
});
