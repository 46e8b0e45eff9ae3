import { describe, expect, it } from "vitest";
import { accessCheckQuerySchema, isIpAddress, isPrincipal } from "./access-check";

const fieldsOf = (input: Record<string, string | undefined>) => {
  const r = accessCheckQuerySchema.safeParse(input);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("accessCheckQuerySchema", () => {
  it("parses a complete question and trims the fields", () => {
    expect(
      accessCheckQuerySchema.parse({
        principal: " User:bob ",
        operation: "READ",
        resourceType: "TOPIC",
        resourceName: " payments-eu ",
        host: "10.0.0.5",
      }),
    ).toEqual({
      principal: "User:bob",
      client: null,
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "payments-eu",
      host: "10.0.0.5",
      at: null,
    });
  });

  it("takes an instant to answer as of: ISO 8601, no zone is UTC, never one still to come", () => {
    const question = { principal: "User:bob", operation: "READ", resourceType: "TOPIC", resourceName: "orders" };
    expect(accessCheckQuerySchema.parse({ ...question, at: "2026-11-03T14:00:00Z" }).at).toBe(
      Date.UTC(2026, 10, 3, 14),
    );
    expect(accessCheckQuerySchema.parse({ ...question, at: "2026-11-03T14:00" }).at).toBe(Date.UTC(2026, 10, 3, 14));
    expect(accessCheckQuerySchema.parse({ ...question, at: "2026-11-03T15:00:00+01:00" }).at).toBe(
      Date.UTC(2026, 10, 3, 14),
    );
    expect(accessCheckQuerySchema.parse({ ...question, at: "2026-11-03" }).at).toBe(Date.UTC(2026, 10, 3));
    for (const at of ["yesterday", "2026-11-03 14:00", "2026-13-45T99:00Z", "2026-11-03T14:00:00Z\u0000"]) {
      const parsed = accessCheckQuerySchema.safeParse({ ...question, at });
      expect(parsed.success, at).toBe(false);
    }
    const future = accessCheckQuerySchema.safeParse({
      ...question,
      at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.success).toBe(false);
    if (!future.success) expect(future.error.issues[0]?.message).toMatch(/still to come/);
  });

  it("takes a client's certificate DN or Kerberos principal instead of a principal, but only one of the three", () => {
    const question = { operation: "READ", resourceType: "TOPIC", resourceName: "orders" };
    expect(accessCheckQuerySchema.parse({ ...question, certificateDn: "CN=svc-orders,OU=ServiceUsers" })).toMatchObject(
      {
        principal: "",
        client: { kind: "certificate", value: "CN=svc-orders,OU=ServiceUsers" },
      },
    );
    expect(accessCheckQuerySchema.parse({ ...question, kerberosPrincipal: " alice@EXAMPLE.COM " })).toMatchObject({
      client: { kind: "kerberos", value: "alice@EXAMPLE.COM" },
    });
    expect(fieldsOf({ ...question, principal: "User:alice", certificateDn: "CN=alice" })).toEqual({
      principal: "Give one of principal, certificateDn and kerberosPrincipal",
    });
  });

  it("writes an IPv6 host the way Kafka compares it", () => {
    const q = { principal: "User:bob", operation: "READ", resourceType: "TOPIC", resourceName: "t" };
    expect(accessCheckQuerySchema.parse({ ...q, host: "::1" }).host).toBe("0:0:0:0:0:0:0:1");
  });

  it(
    "without a host (absent or blank) asks from any host no ACL names, as the other pages do: null, never " +
      "127.0.0.1",
    () => {
      const q = { principal: "User:alice", operation: "READ", resourceType: "TOPIC", resourceName: "orders" };
      expect(accessCheckQuerySchema.parse(q).host).toBeNull();
      expect(accessCheckQuerySchema.parse({ ...q, host: "" }).host).toBeNull();
      expect(accessCheckQuerySchema.parse({ ...q, host: " 10.0.0.7 " }).host).toBe("10.0.0.7");
    },
  );

  it("names CLUSTER kafka-cluster when no name is given, and refuses any other name", () => {
    const q = { principal: "User:svc-orders", operation: "IDEMPOTENT_WRITE", resourceType: "CLUSTER" };
    expect(accessCheckQuerySchema.parse(q).resourceName).toBe("kafka-cluster");
    expect(accessCheckQuerySchema.parse({ ...q, resourceName: "kafka-cluster" }).resourceName).toBe("kafka-cluster");
    expect(fieldsOf({ ...q, resourceName: "prod" })).toEqual({
      resourceName: "The CLUSTER resource is always named kafka-cluster",
    });
  });

  it("reports every bad field at once, not only the first", () => {
    expect(fieldsOf({})).toEqual({
      principal: "Enter a principal, e.g. User:alice",
      operation: "Choose an operation",
      resourceType: expect.stringContaining("Choose a resource type"),
      resourceName: "Enter the resource name",
    });
    const errors = fieldsOf({
      principal: "alice",
      operation: "CREATE_TOKENS",
      resourceType: "TOPIC",
      resourceName: "",
      host: "*",
    });
    expect(Object.keys(errors).sort()).toEqual(["host", "operation", "principal", "resourceName"]);
    expect(errors.principal).toBe("Write the principal as Type:name, e.g. User:alice");
    expect(errors.resourceName).toBe("Enter the TOPIC name");
    expect(errors.host).toContain("* exists only in ACLs");
  });

  it("accepts only operations the resource type has (the policy core's table)", () => {
    const q = { principal: "User:bob", resourceName: "x" };
    expect(fieldsOf({ ...q, resourceType: "TOPIC", operation: "CREATE_TOKENS" }).operation).toBe(
      "CREATE_TOKENS does not apply to TOPIC resources; TOPIC has READ, WRITE, CREATE, DESCRIBE, DELETE, " +
        "ALTER, DESCRIBE_CONFIGS, ALTER_CONFIGS",
    );
    expect(fieldsOf({ ...q, resourceType: "GROUP", operation: "WRITE" }).operation).toContain(
      "does not apply to GROUP",
    );
    expect(
      fieldsOf({ ...q, resourceType: "USER", operation: "CREATE_TOKENS", resourceName: "User:svc-orders" }),
    ).toEqual({});
    expect(fieldsOf({ ...q, resourceType: "DELEGATION_TOKEN", operation: "DESCRIBE" })).toEqual({});
  });

  it("refuses ALL, ANY and unknown operations and resource types", () => {
    const q = { principal: "User:bob", resourceType: "TOPIC", resourceName: "orders" };
    expect(fieldsOf({ ...q, operation: "ALL" }).operation).toContain("ALL exists only in ACLs");
    expect(fieldsOf({ ...q, operation: "ANY" }).operation).toContain("Unknown operation");
    expect(fieldsOf({ ...q, operation: "read" }).operation).toContain("Unknown operation");
    expect(fieldsOf({ ...q, operation: "READ", resourceType: "ANY" }).resourceType).toContain("Choose a resource type");
  });

  it("refuses host names: Kafka compares IP strings", () => {
    const q = { principal: "User:carol", operation: "READ", resourceType: "TOPIC", resourceName: "audit-log" };
    expect(fieldsOf({ ...q, host: "localhost" }).host).toContain("Enter an IP address");
    expect(fieldsOf({ ...q, host: "10.0.0.0/8" }).host).toContain("Enter an IP address");
    expect(fieldsOf({ ...q, host: "0:0:0:0:0:0:0:1" })).toEqual({});
  });
});

describe("isPrincipal", () => {
  it("wants Type:name split at the first colon, both parts non-empty", () => {
    expect(isPrincipal("User:alice")).toBe(true);
    expect(isPrincipal("User:CN=a:b")).toBe(true);
    expect(isPrincipal("User:*")).toBe(true);
    expect(isPrincipal("alice")).toBe(false);
    expect(isPrincipal(":alice")).toBe(false);
    expect(isPrincipal("User:")).toBe(false);
  });
});

describe("isIpAddress", () => {
  it("accepts IPv4 and IPv6 (with a zone), not names or ranges", () => {
    for (const ok of [
      "127.0.0.1",
      "255.255.255.255",
      "0:0:0:0:0:0:0:1",
      "::1",
      "fe80:0:0:0:1:2:3:4%eth0",
      "0:0:0:0:0:ffff:10.0.0.1",
    ]) {
      expect(isIpAddress(ok), ok).toBe(true);
    }
    for (const bad of ["256.1.1.1", "1.2.3", "01.2.3.4x", "localhost", "10.0.0.0/8", "*", "a:b", ""]) {
      expect(isIpAddress(bad), bad).toBe(false);
    }
  });
});
