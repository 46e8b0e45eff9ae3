import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";

describe("buildOpenApiDocument", () => {
  const doc = buildOpenApiDocument() as {
    openapi: string;
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }> }; parameters?: { name: string }[] }>>;
  };

  it("describes sign-in with the same fields the server validates", () => {
    const body = doc.paths["/api/v1/session"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(["username", "password", "mechanism"]);
    expect(body?.required).toEqual(expect.arrayContaining(["username", "password"]));
    expect(body?.properties.mechanism).toMatchObject({ enum: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] });
  });

  it("lists the audit filters as query parameters", () => {
    const names = doc.paths["/api/v1/audit"]?.get?.parameters?.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["principal", "action", "outcome", "from", "to", "format"]));
  });

  it("lists the access-check question as query parameters, principal, operation and resource type required", () => {
    const params = (doc.paths["/api/v1/access-check"]?.get?.parameters ?? []) as { name: string; required: boolean }[];
    expect(params.map((p) => [p.name, p.required])).toEqual([
      ["principal", true],
      ["operation", true],
      ["resourceType", true],
      ["resourceName", false],
      ["host", false],
    ]);
  });

  it("is an OpenAPI 3.1 document covering session, cluster and audit", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/session", "/api/v1/cluster", "/api/v1/audit"]));
  });
});
