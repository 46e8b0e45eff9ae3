import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { constraintsOf, curlCommand, referenceModel, requestUrl, shellQuote, typeLabel } from "./model";

describe("referenceModel", () => {
  const doc = buildOpenApiDocument();
  const areas = referenceModel(doc);
  const all = areas.flatMap((a) => a.operations);
  const op = (id: string) => all.find((o) => o.id === id)!;

  it("shows every operation once, grouped by area in the document's order", () => {
    const documented = Object.values(doc.paths as Record<string, object>).flatMap((byMethod) => Object.keys(byMethod));
    expect(all).toHaveLength(documented.length);
    expect(areas[0]?.name).toBe("Session");
    expect(areas.find((a) => a.name === "Cluster")?.operations.map((o) => `${o.method} ${o.path}`)).toEqual([
      "get /api/v1/cluster",
      "get /api/v1/dashboard",
    ]);
  });

  it("resolves shared answers and body schemas, and marks the sign-in as needing no credentials", () => {
    expect(op("signIn").public).toBe(true);
    expect(op("getCluster").public).toBe(false);
    expect(op("getCluster").responses.find((r) => r.status === "401")?.description).toMatch(/Not signed in/);
    expect(op("createAcls").body?.schema).toMatchObject({ type: "object", required: ["bindings"] });
    expect(op("createAcls").body?.examples.map((e) => e.name)).toEqual(["preview", "create"]);
  });

  it("turns the query examples into named sets for the Try-it form, path examples included", () => {
    expect(op("checkAccess").exampleSets.map((s) => s.name)).toEqual(["topic", "pinnedHost", "cluster", "certificate"]);
    expect(op("checkAccess").exampleSets[0]?.values).toEqual({
      principal: "User:alice",
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "orders",
    });
    expect(op("approveTokenRequest").exampleSets).toEqual([
      { name: "example", summary: "example", values: { id: "00000000-0000-4000-8000-000000000000" } },
    ]);
    expect(op("getCluster").exampleSets).toEqual([]);
  });
});

describe("typeLabel", () => {
  it.each([
    [{ type: "string" }, "string"],
    [{ type: "string", enum: ["LITERAL", "PREFIXED"] }, '"LITERAL" | "PREFIXED"'],
    [{ type: "array", items: { type: "integer" } }, "integer[]"],
    [{ anyOf: [{ type: "string" }, { type: "null" }] }, "string or null"],
    [{ type: "object", additionalProperties: { type: "array", items: { type: "string" } } }, "map of string[]"],
    [{}, "any"],
  ])("%j -> %s", (schema, label) => {
    expect(typeLabel(schema)).toBe(label);
  });
});

describe("constraintsOf", () => {
  it("names defaults and limits in words, one or many", () => {
    expect(constraintsOf({ type: "string", minLength: 1, maxLength: 255, default: "x" })).toEqual([
      'default "x"',
      "at least 1 character",
      "at most 255 characters",
    ]);
    expect(constraintsOf({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER })).toEqual(["≥ 1"]);
  });
});

describe("requestUrl", () => {
  it("fills path parameters (encoded) and leaves empty query values out", () => {
    const params = [
      { name: "id", in: "path" as const },
      { name: "principal", in: "query" as const },
      { name: "page", in: "query" as const },
    ];
    expect(requestUrl("/api/v1/x/{id}/y", params, { id: "a/b", principal: "User:alice", page: "" })).toBe(
      "/api/v1/x/a%2Fb/y?principal=User%3Aalice",
    );
  });
});

describe("curlCommand", () => {
  it(
    "sends the body as one single-quoted JSON word, even with an apostrophe in it, and never a real " + "credential",
    () => {
      const command = curlCommand({
        origin: "http://127.0.0.1:3000",
        method: "post",
        path: "/api/v1/token-requests/{id}/deny",
        body: { reason: "it's done" },
      });
      expect(command).toContain(`curl -X POST "http://127.0.0.1:3000/api/v1/token-requests/$ID/deny"`);
      expect(command).toContain(`-u "$KAFKA_USER:$KAFKA_PASSWORD"`);
      expect(command).toContain(`-d '{"reason":"it'\\''s done"}'`);
    },
  );

  it("keeps the cookie of a sign-in instead of sending credentials", () => {
    const command = curlCommand({
      origin: "https://c.example",
      method: "post",
      path: "/api/v1/session",
      body: { username: "alice" },
      public: true,
    });
    expect(command).toContain("-c cookies.txt");
    expect(command).not.toContain("KAFKA_PASSWORD");
  });

  it("quotes like a shell would read it back", () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});
