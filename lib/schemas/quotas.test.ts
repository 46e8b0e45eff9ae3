import { describe, expect, it } from "vitest";
import { appliedQuotaQuerySchema, quotaAlterFormSchema, quotaAlterationSchema } from "./quotas";

const fieldsOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? {} : Object.fromEntries((r.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe("appliedQuotaQuerySchema", () => {
  it("asks about a user and client id (which may be empty)", () => {
    expect(appliedQuotaQuerySchema.parse({ user: " svc-orders ", clientId: "orders-api" })).toEqual({
      kind: "client",
      user: "svc-orders",
      clientId: "orders-api",
    });
    expect(appliedQuotaQuerySchema.parse({ user: "alice" })).toEqual({ kind: "client", user: "alice", clientId: "" });
  });
  it("or about an IP, written as Kafka compares it", () => {
    expect(appliedQuotaQuerySchema.parse({ ip: "::1" })).toEqual({ kind: "ip", ip: "0:0:0:0:0:0:0:1" });
  });
  it("needs one of them, not both, and a real IP", () => {
    expect(fieldsOf(appliedQuotaQuerySchema.safeParse({}))).toHaveProperty("user");
    expect(fieldsOf(appliedQuotaQuerySchema.safeParse({ ip: "not-an-ip" }))).toHaveProperty("ip");
    expect(fieldsOf(appliedQuotaQuerySchema.safeParse({ ip: "10.0.0.1", user: "a" }))).toHaveProperty("user");
  });
});

describe("quotaAlterFormSchema", () => {
  const base = {
    kind: "user+client-id",
    user: "svc-orders",
    clientId: "orders-api",
    key: "producer_byte_rate",
    value: "1024",
  };
  it("builds the entity of the chosen kind and a preview by default", () => {
    expect(quotaAlterFormSchema.parse(base)).toEqual({
      entity: { user: "svc-orders", "client-id": "orders-api" },
      key: "producer_byte_rate",
      value: 1024,
      dryRun: true,
    });
  });
  it("<default> ticks make null names; remove makes a null value; apply is not a dry run", () => {
    expect(
      quotaAlterFormSchema.parse({
        ...base,
        kind: "user",
        userDefault: "on",
        remove: "on",
        value: "",
        intent: "apply",
      }),
    ).toEqual({
      entity: { user: null },
      key: "producer_byte_rate",
      value: null,
      dryRun: false,
    });
    expect(
      quotaAlterFormSchema.parse({ ...base, kind: "ip", ip: "203.0.113.10", key: "connection_creation_rate" }).entity,
    ).toEqual({ ip: "203.0.113.10" });
  });
  it("names every missing field at once, and leaves 0 and fractions to Kafka's validation", () => {
    expect(
      Object.keys(fieldsOf(quotaAlterFormSchema.safeParse({ kind: "user+client-id", key: "producer_byte_rate" }))),
    ).toEqual(["user", "clientId", "value"]);
    expect(fieldsOf(quotaAlterFormSchema.safeParse({ ...base, value: "abc" }))).toHaveProperty(
      "value",
      "Enter a number",
    );
    expect(quotaAlterFormSchema.parse({ ...base, value: "0" }).value).toBe(0);
    expect(quotaAlterFormSchema.parse({ ...base, value: "1.5" }).value).toBe(1.5);
  });
});

describe("quotaAlterationSchema", () => {
  it("takes the API's JSON: entity with null for <default>, value null to remove", () => {
    expect(quotaAlterationSchema.parse({ entity: { user: null }, key: "producer_byte_rate", value: null })).toEqual({
      entity: { user: null },
      key: "producer_byte_rate",
      value: null,
      dryRun: false,
    });
    expect(
      quotaAlterationSchema.safeParse({ entity: { group: "x" }, key: "producer_byte_rate", value: 1 }).success,
    ).toBe(false);
    expect(quotaAlterationSchema.safeParse({ entity: {}, key: "nope", value: 1 }).success).toBe(false);
  });
});
