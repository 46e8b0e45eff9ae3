import { describe, expect, it } from "vitest";
import { resourceDetailQuerySchema, resourceIndexQuerySchema } from "./resources";

describe("resourceDetailQuerySchema", () => {
  it("takes a type and a name, kept exactly (spaces included)", () => {
    expect(resourceDetailQuerySchema.parse({ type: "topic", name: " orders " })).toEqual({
      type: "TOPIC",
      name: " orders ",
    });
  });

  it("names the cluster kafka-cluster, and refuses another name", () => {
    expect(resourceDetailQuerySchema.parse({ type: "CLUSTER" })).toEqual({ type: "CLUSTER", name: "kafka-cluster" });
    const r = resourceDetailQuerySchema.safeParse({ type: "CLUSTER", name: "other" });
    expect(r.success).toBe(false);
  });

  it("names every bad field", () => {
    const bad = resourceDetailQuerySchema.safeParse({ type: "TABLE", name: "x" });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path.join("."))).toEqual(["type"]);
    const noName = resourceDetailQuerySchema.safeParse({ type: "TOPIC" });
    expect(noName.success ? [] : noName.error.issues.map((i) => i.path.join("."))).toEqual(["name"]);
  });
});

describe("resourceIndexQuerySchema", () => {
  it("defaults the filter to empty and trims it", () => {
    expect(resourceIndexQuerySchema.parse({})).toEqual({ q: "" });
    expect(resourceIndexQuerySchema.parse({ q: " pay " })).toEqual({ q: "pay" });
    expect(resourceIndexQuerySchema.safeParse({ q: "x".repeat(300) }).success).toBe(false);
  });
});
