import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
// The JSON Schema 2020-12 validator the OpenAPI validator itself uses (its dependency).
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { API_OPERATIONS, buildOpenApiDocument, queryStrings, type ApiOperation } from "./openapi";
import { CHANGES, NO_INPUT, type ChangeDefinition, type ChangeId } from "@/lib/schemas/changes";

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Schema;
  examples?: Record<string, { value: unknown }>;
  $ref?: string;
}
interface Operation {
  operationId: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: {
    required: boolean;
    content: Record<string, { schema: { $ref: string }; examples?: Record<string, { value: unknown }> }>;
  };
  responses: Record<
    string,
    {
      $ref?: string;
      description?: string;
      links?: Record<string, { operationId: string; parameters?: Record<string, string> }>;
    }
  >;
  security?: unknown[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, unknown> };
  security: unknown[];
}

const doc = buildOpenApiDocument() as unknown as Document;
const operations = Object.entries(doc.paths).flatMap(([p, byMethod]) =>
  Object.entries(byMethod).map(([method, op]) => ({ path: p, method, op })),
);
const find = (method: string, p: string) => {
  const op = doc.paths[p]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${p} is not documented`);
  return op;
};
const schemaOf = (refObject: { $ref: string }) => doc.components.schemas[refObject.$ref.split("/").pop()!]!;
const requiredParams = (method: string, p: string) =>
  (find(method, p).parameters ?? [])
    .filter((x) => !x.$ref)
    .filter((x) => x.required)
    .map((x) => x.name);
const bodySchema = (method: string, p: string) =>
  schemaOf(find(method, p).requestBody!.content["application/json"]!.schema) as { required?: string[] };

const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document (the OpenAPI validator, every $ref resolved)", async () => {
    expect(doc.openapi).toBe("3.1.0");
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("holds only JSON Schema 2020-12 schemas that compile strictly (no unknown keyword, no dangling $ref)", () => {
    const schemas: [string, Schema][] = Object.entries(doc.components.schemas);
    for (const { path: p, method, op } of operations) {
      for (const param of op.parameters ?? [])
        if (!param.$ref) schemas.push([`${method} ${p} ${param.name}`, param.schema]);
    }
    for (const [name, schema] of schemas) {
      expect(() => ajv.compile(schema), name).not.toThrow();
      expect(JSON.stringify(schema), name).not.toMatch(/"\$ref"/);
    }
  });

  it("has one operationId per operation and tags every operation with its area", () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations) expect(op.tags).toHaveLength(1);
  });

  it(
    "marks no query parameter required that the route does without (the defaults of the ACL browser and " +
      "the audit filters)",
    () => {
      expect(requiredParams("get", "/api/v1/acls")).toEqual([]);
      expect(requiredParams("get", "/api/v1/audit")).toEqual([]);
      expect(requiredParams("get", "/api/v1/quotas/applied")).toEqual([]);
      const acl = find("get", "/api/v1/acls").parameters!.map((x) => x.name);
      expect(acl).toEqual(expect.arrayContaining(["principal", "principalMatch", "resourceType", "page"]));
    },
  );

  it("marks required what the route refuses to do without, also when a refinement across fields refuses it", () => {
    // principal is one of three ways to name the client (certificateDn, kerberosPrincipal): none is required alone.
    expect(requiredParams("get", "/api/v1/access-check")).toEqual(["operation", "resourceType"]);
    expect(requiredParams("get", "/api/v1/resources")).toEqual(["type"]);
    for (const verb of ["approve", "deny", "retrieve"])
      expect(requiredParams("post", `/api/v1/token-requests/{id}/${verb}`)).toEqual(["id"]);
    expect(bodySchema("post", "/api/v1/session").required).toEqual(["username", "password"]);
    expect(bodySchema("post", "/api/v1/acls").required).toEqual(["bindings"]);
    expect(bodySchema("post", "/api/v1/tokens").required).toBeUndefined();
    expect(bodySchema("post", "/api/v1/tokens/expire").required).toEqual(["hmac"]);
    expect(bodySchema("post", "/api/v1/quotas").required).toEqual(["entity", "key", "value"]);
  });

  it("describes sign-in with the fields the server validates, and needs no credentials only there", () => {
    const body = bodySchema("post", "/api/v1/session") as { properties: Record<string, unknown> };
    expect(Object.keys(body.properties)).toEqual(["username", "password", "mechanism", "cluster"]);
    expect(body.properties.mechanism).toMatchObject({
      enum: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"],
      default: "SCRAM-SHA-512",
    });
    expect(doc.security).toEqual([{ session: [] }, { basic: [] }, { bearer: [] }]);
    const open = operations
      .filter(({ op }) => op.security?.length === 0)
      .map(({ method, path: p }) => `${method} ${p}`);
    expect(open).toEqual(["post /api/v1/session"]);
  });

  it("documents the failures that apply: 401 and 429 everywhere, 403 on changes, 413/415 with a body", () => {
    for (const { path: p, method, op } of operations) {
      const statuses = Object.keys(op.responses);
      const where = `${method} ${p}`;
      expect(statuses, where).toEqual(expect.arrayContaining(["200", "400", "401", "429", "500", "503"]));
      if (method !== "get") expect(statuses, where).toContain("403");
      if (op.requestBody) {
        expect(op.requestBody.required, where).toBe(true);
        expect(Object.keys(op.requestBody.content), where).toEqual(["application/json"]);
        expect(statuses, where).toEqual(expect.arrayContaining(["413", "415"]));
      } else {
        expect(statuses, where).not.toContain("415");
      }
    }
    expect(Object.keys(find("post", "/api/v1/quotas").responses)).toContain("409");
    expect(Object.keys(find("post", "/api/v1/token-requests/{id}/approve").responses)).toEqual(
      expect.arrayContaining(["403", "404", "409"]),
    );
  });

  it("declares exactly the path template's parameters", () => {
    for (const { path: p, method, op } of operations) {
      const inTemplate = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((x) => x.in === "path").map((x) => x.name);
      expect(declared, `${method} ${p}`).toEqual(inTemplate);
    }
  });

  it("links only to documented operations and their parameters", () => {
    const byId = new Map(operations.map(({ op }) => [op.operationId, op]));
    for (const { op } of operations) {
      for (const link of Object.values(op.responses["200"]?.links ?? {})) {
        const target = byId.get(link.operationId);
        expect(target, link.operationId).toBeDefined();
        for (const name of Object.keys(link.parameters ?? {}))
          expect(target!.parameters!.map((x) => x.name)).toContain(name);
      }
    }
  });
});

describe("the examples in the document", () => {
  const byId = new Map(API_OPERATIONS.map((op) => [op.operationId, op]));

  it(
    "gives every request body at least one example, valid for the document's schema and accepted by the " +
      "route's parser",
    () => {
      for (const { path: p, method, op } of operations) {
        if (!op.requestBody) continue;
        const media = op.requestBody.content["application/json"]!;
        const examples = Object.entries(media.examples ?? {});
        expect(examples.length, `${method} ${p}`).toBeGreaterThan(0);
        const validate = ajv.compile(schemaOf(media.schema));
        const parser = byId.get(op.operationId)!.body!;
        for (const [name, example] of examples) {
          expect(validate(example.value), `${op.operationId} ${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          const parsed = parser.safeParse(example.value);
          expect(parsed.success, `${op.operationId} ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        }
      }
    },
  );

  it("gives query parameters examples valid for their schema, whose sets the route accepts", () => {
    for (const op of API_OPERATIONS) {
      if (!op.query) continue;
      const sets = Object.entries(op.queryExamples ?? {});
      expect(sets.length, op.operationId).toBeGreaterThan(0);
      for (const [name, set] of sets) {
        const parsed = op.query.safeParse(queryStrings(set.value));
        expect(parsed.success, `${op.operationId} ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
      const documented = find(op.method, op.path).parameters!.filter((x) => x.in === "query");
      for (const param of documented) {
        const validate = ajv.compile(param.schema);
        for (const [name, example] of Object.entries(param.examples ?? {})) {
          expect(
            validate(example.value),
            `${op.operationId} ${param.name} (${name}): ${ajv.errorsText(validate.errors)}`,
          ).toBe(true);
        }
      }
      for (const set of sets)
        for (const key of Object.keys(set[1].value))
          expect(
            documented.map((x) => x.name),
            op.operationId,
          ).toContain(key);
    }
  });
});

// ---- no drift between app/api/v1 and the document ---------------------------------------

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app/api/v1");

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

interface HandlerExport {
  file: string;
  method: string;
  path: string;
  options: string;
  source: string;
  /** `changeRoute("<id>")`: the declared change it serves. */
  change?: string;
}

/** `export const GET = apiRoute({ ... }, ...)` in app/api/v1/a/[id]/b/route.ts -> GET /api/v1/a/{id}/b. */
function apiRouteExports(): HandlerExport[] {
  return routeFiles(API_DIR)
    .flatMap((file) => {
      const source = readFileSync(file, "utf8");
      const relative = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
      const apiPath = "/" + relative.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
      return [
        ...source.matchAll(/export\s+const\s+(GET|POST|PUT|PATCH|DELETE)\s*=\s*apiRoute\s*\(\s*\{([^}]*)\}/g),
      ].map((m) => ({
        file: path.relative(ROOT, file),
        method: m[1]!.toLowerCase(),
        path: apiPath,
        options: m[2]!,
        source,
      }));
    })
    .concat(changeRouteExports());
}

/** `export const POST = changeRoute("token.create")` -> the change's route, at the file's path. */
function changeRouteExports(): HandlerExport[] {
  return routeFiles(API_DIR).flatMap((file) => {
    const source = readFileSync(file, "utf8");
    const relative = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
    const apiPath = "/" + relative.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
    return [...source.matchAll(/export\s+const\s+(GET|POST|PUT|PATCH|DELETE)\s*=\s*changeRoute\s*\(\s*"([^"]+)"/g)].map(
      (m) => ({
        file: path.relative(ROOT, file),
        method: m[1]!.toLowerCase(),
        path: apiPath,
        options: "",
        source,
        change: m[2]!,
      }),
    );
  });
}

/** The module a route file imports `name` from. */
function importOf(source: string, name: string): string | undefined {
  for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    const names = m[1]!.split(",").map((s) =>
      s
        .trim()
        .split(/\s+as\s+/)
        .pop(),
    );
    if (names.includes(name)) return m[2];
  }
  return undefined;
}

async function schemaNamed(source: string, name: string): Promise<z.ZodType> {
  const from = importOf(source, name);
  if (!from?.startsWith("@/lib/schemas/")) throw new Error(`${name} is not imported from lib/schemas`);
  const module = (await import(path.join(ROOT, from.slice(2)) + ".ts")) as Record<string, z.ZodType>;
  return module[name]!;
}

describe("route handlers and the document", () => {
  const handlers = apiRouteExports();
  const key = (x: { method: string; path: string }) => `${x.method.toUpperCase()} ${x.path}`;

  it("finds the route handlers", () => {
    expect(handlers.length).toBeGreaterThan(10);
  });

  it("serves every declared change at exactly one route, and every run is declared", () => {
    const served = handlers.flatMap((h) => (h.change !== undefined ? [h.change] : []));
    expect([...served].sort()).toEqual(Object.keys(CHANGES).sort());
  });

  it("documents every apiRoute handler under app/api/v1, and nothing else", () => {
    expect(API_OPERATIONS.map(key).sort()).toEqual(handlers.map(key).sort());
  });

  it(
    "documents the very schemas each handler parses its query and body with, and the sign-in as the " +
      "only public route",
    async () => {
      const byKey = new Map<string, ApiOperation>(API_OPERATIONS.map((op) => [key(op), op]));
      for (const handler of handlers) {
        const op = byKey.get(key(handler));
        if (!op) continue;
        const where = `${key(handler)} (${handler.file})`;
        if (handler.change !== undefined) {
          // The definition itself is the entry: the file must sit at the path, and export the method, it declares.
          const change = CHANGES[handler.change as ChangeId] as ChangeDefinition | undefined;
          expect(change, `${where}: no change "${handler.change}" is declared`).toBeDefined();
          expect(key(change!.http), where).toBe(key(handler));
          expect(op.body, where).toBe(change!.input === NO_INPUT ? undefined : change!.input);
          expect(op.query, where).toBe(change!.http.query);
          expect(op.public ?? false, where).toBe(change!.public ?? false);
          continue;
        }
        for (const part of ["query", "body"] as const) {
          const name = new RegExp(`\\b${part}\\s*:\\s*(\\w+)`).exec(handler.options)?.[1];
          if (name === undefined) {
            expect(op[part], `${where}: the handler parses no ${part}`).toBeUndefined();
          } else {
            expect(op[part], `${where}: the handler parses its ${part} with ${name}`).toBe(
              await schemaNamed(handler.source, name),
            );
          }
        }
        expect(op.public ?? false, where).toBe(/\bauth\s*:\s*false\b/.test(handler.options));
      }
    },
  );
});
