import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "./result";
import { timelineQuerySchema } from "./timeline";

const errors = (raw: Record<string, string>) => {
  const parsed = timelineQuerySchema.safeParse(raw);
  return parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
};

describe("the timeline's question", () => {
  it("one ACL binding: its resource, principal and operation, with host * and ALLOW by default", () => {
    const q = timelineQuerySchema.parse({
      resourceType: "topic",
      resourceName: "payments",
      principal: "alice",
      operation: "read",
    });
    expect(q.subject).toEqual({
      kind: "binding",
      binding: {
        resourceType: "TOPIC",
        resourceName: "payments",
        patternType: "LITERAL",
        principal: "User:alice",
        host: "*",
        operation: "READ",
        permissionType: "ALLOW",
      },
    });
  });

  it("a principal with a resource but no operation is two questions, refused", () => {
    expect(errors({ principal: "User:alice", resourceType: "TOPIC", resourceName: "payments" }).principal).toEqual([
      expect.stringContaining("Ask about one thing"),
    ]);
  });

  it("a binding names what it lacks", () => {
    expect(errors({ operation: "READ", resourceType: "TOPIC", resourceName: "payments" }).principal).toEqual([
      "One ACL binding needs its principal",
    ]);
    expect(errors({ operation: "READ", principal: "alice" }).resourceType).toEqual([
      "One ACL binding needs its resource (resourceType and resourceName)",
    ]);
    const bad = errors({
      operation: "FLY",
      permissionType: "MAYBE",
      principal: "alice",
      resourceType: "TOPIC",
      resourceName: "t",
    });
    expect(bad.operation?.[0]).toMatch(/^Choose an operation/);
    expect(bad.permissionType).toEqual(["ALLOW or DENY"]);
  });

  it("a principal alone is still the principal's whole timeline", () => {
    expect(timelineQuerySchema.parse({ principal: "alice" }).subject).toEqual({
      kind: "principal",
      principal: "User:alice",
    });
  });
});
