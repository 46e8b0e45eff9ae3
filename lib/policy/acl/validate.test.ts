/**
 * Ported from metadata/src/test/.../controller/AclControlManagerTest.java
 * (testValidateNewAcl, and the KAFKA-18051 principal check of 4.0), the API-layer checks
 * of AclApis.handleCreateAcls (AuthorizerTest#testEmptyAclThrowsException) and the
 * operation table of kafka-acls.sh (AclCommand.validateOperation, AclEntry.supportedOperations).
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS, RESOURCE_TYPES } from "../types";
import { SUPPORTED_OPERATIONS } from "./operations";
import { validateNewAcl } from "./validate";

const base = {
  resourceType: "TOPIC",
  resourceName: "*",
  patternType: "LITERAL",
  principal: "User:*",
  host: "*",
  operation: "ALTER",
  permissionType: "ALLOW",
};

function messageOf(binding: unknown): string | null {
  const r = validateNewAcl(binding);
  return r.ok ? null : r.message;
}

describe("validateNewAcl", () => {
  it("testValidateNewAcl: accepts TOPIC * LITERAL User:* ALTER ALLOW", () => {
    expect(validateNewAcl(base)).toEqual({ ok: true });
  });

  const kafkaRows: Array<[string, Record<string, unknown>, string]> = [
    ["patternType UNKNOWN", { patternType: "UNKNOWN" }, "Invalid patternType UNKNOWN"],
    ["patternType MATCH", { patternType: "MATCH" }, "Invalid patternType MATCH"],
    ["patternType ANY", { patternType: "ANY" }, "Invalid patternType ANY"],
    ["resourceType UNKNOWN", { resourceType: "UNKNOWN" }, "Invalid resourceType UNKNOWN"],
    ["resourceType ANY", { resourceType: "ANY" }, "Invalid resourceType ANY"],
    ["operation UNKNOWN", { operation: "UNKNOWN" }, "Invalid operation UNKNOWN"],
    ["operation ANY", { operation: "ANY" }, "Invalid operation ANY"],
    ["permissionType UNKNOWN", { permissionType: "UNKNOWN" }, "Invalid permissionType UNKNOWN"],
    ["permissionType ANY", { permissionType: "ANY" }, "Invalid permissionType ANY"],
    [
      "CLUSTER not named kafka-cluster (AclApis)",
      { resourceType: "CLUSTER", resourceName: "*" },
      "The only valid name for the CLUSTER resource is kafka-cluster",
    ],
    [
      "empty literal name (AclApis; AuthorizerTest#testEmptyAclThrowsException)",
      { resourceType: "GROUP", resourceName: "", operation: "READ" },
      "Invalid empty resource name",
    ],
    ["empty prefixed name (AclApis)", { resourceName: "", patternType: "PREFIXED" }, "Invalid empty resource name"],
    [
      "principal without a colon (KAFKA-18051)",
      { principal: "bob" },
      "Could not parse principal from `bob` (no colon is present separating the principal type from the " +
        "principal name)",
    ],
  ];
  it.each(kafkaRows)("rejects %s with Kafka's message", (_name, change, message) => {
    expect(validateNewAcl({ ...base, ...change })).toEqual({ ok: false, error: "INVALID_REQUEST", message });
  });

  it("accepts what Kafka accepts: names and principals with colons, empty principal type, any host string", () => {
    expect(validateNewAcl({ ...base, principal: "User:CN=a:b" }).ok).toBe(true);
    expect(validateNewAcl({ ...base, principal: ":alice" }).ok).toBe(true);
    expect(validateNewAcl({ ...base, host: "host1" }).ok).toBe(true);
    expect(validateNewAcl({ ...base, resourceType: "CLUSTER", resourceName: "kafka-cluster" }).ok).toBe(true);
  });

  it("rejects arbitrary JSON with a message naming the field", () => {
    expect(messageOf(null)).toMatch(/must be an object/);
    expect(messageOf([base])).toMatch(/must be an object/);
    expect(messageOf({ ...base, host: undefined })).toBe("The ACL has no host.");
    expect(messageOf({ ...base, resourceName: 42 })).toMatch(/resourceName must be a string/);
    expect(messageOf({ ...base, operation: "Read" })).toMatch(/Invalid operation "Read": expected one of ALL, READ/);
    expect(messageOf({ ...base, resourceType: "topic" })).toMatch(/Invalid resourceType "topic"/);
  });

  it("applies kafka-acls.sh's operation table: every operation on every type, ALL always valid", () => {
    for (const type of RESOURCE_TYPES) {
      const name = type === "CLUSTER" ? "kafka-cluster" : "r";
      for (const op of OPERATIONS) {
        const result = validateNewAcl({ ...base, resourceType: type, resourceName: name, operation: op });
        const expected = op === "ALL" || SUPPORTED_OPERATIONS[type].includes(op);
        expect(result.ok, `${op} on ${type}`).toBe(expected);
        if (!result.ok) expect(result.message).toContain(`Operation ${op} does not apply to ${type}`);
      }
    }
    expect(messageOf({ ...base, resourceType: "CLUSTER", resourceName: "kafka-cluster", operation: "READ" })).toMatch(
      /CLUSTER supports ALL, CREATE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALTER, DESCRIBE/,
    );
  });
});
