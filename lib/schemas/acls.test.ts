import { describe, expect, it } from "vitest";
import {
  aclBindingFormSchema,
  aclCreateBodySchema,
  aclListQuerySchema,
  aclTemplateFormSchema,
  splitNames,
} from "./acls";

const errorsOf = (
  schema: {
    safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  input: unknown,
) => {
  const r = schema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error!.issues.map((i) => [String(i.path[0]), i.message]));
};

const RAW = {
  resourceType: "TOPIC",
  patternType: "LITERAL",
  resourceName: " orders ",
  principal: "User:bob",
  host: "",
  operation: "READ",
  permissionType: "ALLOW",
};

describe("aclBindingFormSchema", () => {
  it("parses a binding, trims it and defaults the host to *", () => {
    expect(aclBindingFormSchema.parse(RAW)).toEqual({ ...RAW, resourceName: "orders", host: "*" });
  });

  it("reports every bad field at once, with Kafka's words", () => {
    expect(
      errorsOf(aclBindingFormSchema, {
        ...RAW,
        resourceType: "CLUSTER",
        resourceName: "my-cluster",
        principal: "bob",
        operation: "READ",
        host: "broker-1",
      }),
    ).toEqual({
      resourceName: "The only valid name for the CLUSTER resource is kafka-cluster",
      principal: "Write the principal as Type:name, e.g. User:bob: Kafka cannot parse a principal without a colon",
      host: expect.stringContaining("exact IP strings"),
      operation: expect.stringContaining("READ does not apply to CLUSTER resources"),
    });
    expect(
      errorsOf(aclBindingFormSchema, {
        resourceType: "ANY",
        patternType: "MATCH",
        operation: "ANY",
        permissionType: "ANY",
      }),
    ).toEqual({
      resourceType: expect.stringContaining("Choose a resource type"),
      patternType: "Choose LITERAL or PREFIXED",
      resourceName: expect.stringContaining("Enter the resource name"),
      principal: expect.stringContaining("Enter a principal"),
      operation: expect.stringContaining("Choose an operation"),
      permissionType: "Choose ALLOW or DENY",
    });
  });

  it("names CLUSTER kafka-cluster when no name is given", () => {
    expect(
      aclBindingFormSchema.parse({ ...RAW, resourceType: "CLUSTER", resourceName: "", operation: "IDEMPOTENT_WRITE" })
        .resourceName,
    ).toBe("kafka-cluster");
  });

  it("accepts ALL on any type and IP hosts", () => {
    expect(
      aclBindingFormSchema.safeParse({
        ...RAW,
        resourceType: "CLUSTER",
        resourceName: "kafka-cluster",
        operation: "ALL",
        host: "10.0.0.1",
      }).success,
    ).toBe(true);
  });
});

describe("aclListQuerySchema", () => {
  it("defaults to every ACL, page 1", () => {
    expect(aclListQuerySchema.parse({})).toEqual({
      principal: "",
      principalMatch: "exact",
      resourceType: "ANY",
      resourceName: "",
      nameMatch: "exact",
      patternType: "ANY",
      host: "",
      operation: "ANY",
      permissionType: "ANY",
      lintCode: "ANY",
      sort: "resourceType",
      order: "asc",
      page: 1,
      pageSize: 200,
      refresh: false,
    });
  });

  it("refuses unknown values and bad pages", () => {
    expect(
      Object.keys(
        errorsOf(aclListQuerySchema, {
          resourceType: "TOPICS",
          patternType: "MATCH",
          page: "0",
          principalMatch: "regex",
          nameMatch: "regex",
          sort: "size",
          order: "up",
          pageSize: "1001",
        }),
      ).sort(),
    ).toEqual(["nameMatch", "order", "page", "pageSize", "patternType", "principalMatch", "resourceType", "sort"]);
  });
});

describe("aclTemplateFormSchema", () => {
  it("names the inputs each template needs", () => {
    expect(errorsOf(aclTemplateFormSchema, { template: "consumer", principal: "svc" })).toEqual({
      principal: expect.stringContaining("Type:name"),
      topics: "Enter at least one topic",
      group: "Enter the consumer group id",
    });
    expect(errorsOf(aclTemplateFormSchema, { template: "streams", principal: "User:app" })).toEqual({
      applicationId: "Enter the application.id",
      inputTopics: "Enter at least one input or output topic",
    });
    expect(
      aclTemplateFormSchema.parse({ template: "producer", principal: "User:p", topics: "a, b", idempotent: "on" }),
    ).toMatchObject({ host: "*", idempotent: true, prefixed: false });
  });

  it("splits names at commas and spaces", () => {
    expect(splitNames(" a, b  c,,")).toEqual(["a", "b", "c"]);
  });
});

describe("aclCreateBodySchema", () => {
  it("takes exact enum values, defaults host and dryRun", () => {
    const b = {
      resourceType: "TOPIC",
      resourceName: "t",
      patternType: "LITERAL",
      principal: "User:x",
      operation: "READ",
      permissionType: "ALLOW",
    };
    expect(aclCreateBodySchema.parse({ bindings: [b] })).toEqual({ bindings: [{ ...b, host: "*" }], dryRun: false });
    expect(aclCreateBodySchema.safeParse({ bindings: [] }).success).toBe(false);
    expect(aclCreateBodySchema.safeParse({ bindings: [{ ...b, patternType: "MATCH" }] }).success).toBe(false);
  });
});
