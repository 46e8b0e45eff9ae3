/**
 * GET /api/v1/openapi.json: the API as an OpenAPI 3.1 document, built from the operation
 * table (lib/api/operations.ts) and the same zod schemas the route handlers parse with.
 *
 * Which inputs are required is what the route refuses to do without, not what zod's
 * JSON Schema export guesses. Its input mode calls every property required unless it is
 * `.optional()` or `.default()`, so a `z.preprocess` that turns an absent value into ""
 * or a default (every query parameter of the ACL browser), or a `.catch`, came out
 * required although the route accepts the request without it. Here a property is
 * required when its schema refuses `undefined`, or (for refinements across fields, such
 * as the access check's principal) when the route refuses every documented example
 * once the property is taken out of it.
 */
import { z } from "zod";
import { errorResponseSchema, MECHANISMS } from "@/lib/schemas/session";
import { HTTP_STATUS } from "@/lib/schemas/result";
import { API_AREAS, API_OPERATIONS, type ApiOperation, type HttpMethod, type JsonSchema } from "./operations";

export { API_OPERATIONS };
export type { ApiOperation, HttpMethod, JsonSchema };

type Io = "input" | "output";

/** What a client sends (input) or receives (output), as JSON Schema 2020-12 (OpenAPI 3.1's dialect). */
export function jsonSchemaOf(schema: z.ZodType, io: Io): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: io === "input" ? requiredByAbsence : undefined,
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** A property is required exactly when its schema refuses to be absent. */
function requiredByAbsence(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as { _zod: { def: { type: string; shape?: Record<string, z.ZodType> } } })._zod.def;
  if (def.type !== "object" || !def.shape) return;
  const required = Object.keys(def.shape).filter((key) => refusesAbsence(def.shape![key]!));
  if (required.length > 0) ctx.jsonSchema.required = required;
  else delete ctx.jsonSchema.required;
}

function refusesAbsence(schema: z.ZodType): boolean {
  try {
    return !schema.safeParse(undefined).success;
  } catch {
    // An async refinement cannot run here; such a field has no safe default either.
    return true;
  }
}

/** Whether the route refuses each example once `name` is taken out of it (with an error about `name`). */
function refusedWithout(schema: z.ZodType, name: string, examples: Record<string, unknown>[]): boolean {
  if (examples.length === 0) return false;
  return examples.every((example) => {
    const { [name]: _removed, ...rest } = example;
    const parsed = schema.safeParse(rest);
    return !parsed.success && parsed.error.issues.some((issue) => issue.path[0] === name);
  });
}

/** Query values as the server sees them: strings. */
export function queryStrings(values: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}

function queryParameters(op: ApiOperation & { query: z.ZodType }): JsonSchema[] {
  const json = jsonSchemaOf(op.query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  const examples = Object.entries(op.queryExamples ?? {});
  const sets = examples.map(([, e]) => queryStrings(e.value));
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...schema } = property;
    const own = examples
      .filter(([, e]) => name in e.value)
      .map(([key, e]) => [key, { summary: e.summary, value: e.value[name] }] as const);
    return {
      name,
      in: "query",
      ...(description ? { description } : {}),
      required: (json.required?.includes(name) ?? false) || refusedWithout(op.query, name, sets),
      schema,
      ...(own.length > 0 ? { examples: Object.fromEntries(own) } : {}),
    };
  });
}

function requestBodySchema(op: ApiOperation & { body: z.ZodType }): JsonSchema {
  const json = jsonSchemaOf(op.body, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  if (json.properties) {
    const examples = Object.values(op.bodyExamples ?? {})
      .map((e) => e.value)
      .filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v));
    const required = Object.keys(json.properties).filter(
      (name) => (json.required?.includes(name) ?? false) || refusedWithout(op.body, name, examples),
    );
    if (required.length > 0) json.required = required;
    else delete json.required;
  }
  return json;
}

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
const ref = (kind: "schemas" | "responses" | "parameters", name: string) => ({ $ref: `#/components/${kind}/${name}` });
const errorContent = { "application/json": { schema: ref("schemas", "Error") } };

/** The failures every operation of a kind shares, as reusable responses. */
const SHARED_RESPONSES = {
  BadRequest: { status: 400, description: "Invalid input (query, path or body): `fieldErrors` names every bad field" },
  Unauthenticated: {
    status: 401,
    description: "Not signed in, the session ended, or Kafka rejected the Basic credentials",
  },
  KafkaDenied: { status: 403, description: "Kafka denied the operation: the message names the missing permission" },
  Forbidden: {
    status: 403,
    description:
      "Kafka denied the operation (the message names the missing permission), or the change came from another site",
  },
  CrossSite: {
    status: 403,
    description:
      "A state-changing request from another site (the console accepts changes only from its own pages or from " +
      "non-browser clients)",
  },
  RequestTimeout: { status: 408, description: "The request body did not arrive in time" },
  PayloadTooLarge: { status: 413, description: "The request body is larger than the console accepts (MAX_BODY_BYTES)" },
  UnsupportedMediaType: {
    status: 415,
    description: "The request body must be sent with Content-Type: application/json",
  },
  Throttled: {
    status: 429,
    description:
      "Too many failed sign-ins (Basic credentials count too), or Kafka throttled the request: try again later",
  },
  Internal: {
    status: 500,
    description: "An unexpected failure on the console's side (logged there; the message is generic)",
  },
  KafkaError: { status: 502, description: "Kafka failed in a way the caller cannot fix" },
  Unavailable: {
    status: 503,
    description: "The Kafka cluster cannot be reached or cannot serve the request right now: try again later",
  },
} as const;
type SharedResponse = keyof typeof SHARED_RESPONSES;

/** Which shared failures apply to an operation, by status. */
function sharedFailures(op: ApiOperation): Map<number, SharedResponse> {
  const out = new Map<number, SharedResponse>();
  out.set(400, "BadRequest");
  out.set(401, "Unauthenticated");
  const changes = op.method !== "get";
  if (changes || op.kafka) out.set(403, changes && op.kafka ? "Forbidden" : changes ? "CrossSite" : "KafkaDenied");
  if (op.body) {
    out.set(408, "RequestTimeout");
    out.set(413, "PayloadTooLarge");
    out.set(415, "UnsupportedMediaType");
  }
  out.set(429, "Throttled");
  out.set(500, "Internal");
  if (op.kafka) out.set(502, "KafkaError");
  out.set(503, "Unavailable");
  return out;
}

function responsesOf(op: ApiOperation): Record<string, unknown> {
  const name = pascal(op.operationId);
  const content: Record<string, unknown> = { "application/json": { schema: ref("schemas", `${name}Response`) } };
  if (op.alternativeResponse)
    content[op.alternativeResponse.mediaType] = {
      schema: { type: "string", description: op.alternativeResponse.description },
    };
  for (const alt of op.alternativeResponses ?? [])
    content[alt.mediaType] = { schema: { type: "string", description: alt.description } };
  const shared = sharedFailures(op);
  const byStatus = new Map<number, unknown>();
  byStatus.set(200, { description: "OK", content, ...(op.links ? { links: op.links } : {}) });
  for (const [status, name] of shared) byStatus.set(status, ref("responses", name));
  const own: [number, string][] = Object.entries(op.statuses ?? {}).map(([status, description]) => [
    Number(status),
    description,
  ]);
  if (op.public) own.push([401, "Kafka rejected the credentials"]);
  for (const [status, description] of own) {
    // An operation's own meaning of a status comes first; the shared one (e.g. a cross-site 403) still applies.
    const also = shared.get(status);
    const text = also && status !== 401 ? `${description}. Or: ${SHARED_RESPONSES[also].description}` : description;
    byStatus.set(status, { description: text, content: errorContent });
  }
  return Object.fromEntries(
    [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, response]) => [String(status), response]),
  );
}

function operationObject(op: ApiOperation, schemas: Record<string, JsonSchema>): Record<string, unknown> {
  const name = pascal(op.operationId);
  schemas[`${name}Response`] = jsonSchemaOf(op.response, "output");
  const parameters: unknown[] = [];
  for (const [param, spec] of Object.entries(op.pathParams ?? {})) {
    parameters.push({
      name: param,
      in: "path",
      required: true,
      description: spec.description,
      schema: spec.schema,
      example: spec.example,
    });
  }
  if (op.query) parameters.push(...queryParameters(op as ApiOperation & { query: z.ZodType }));
  if (!op.public) parameters.push(ref("parameters", "KafkaMechanism"));
  const operation: Record<string, unknown> = {
    operationId: op.operationId,
    tags: [op.area],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
  };
  if (op.body) {
    schemas[`${name}Request`] = requestBodySchema(op as ApiOperation & { body: z.ZodType });
    const examples = Object.fromEntries(
      Object.entries(op.bodyExamples ?? {}).map(([key, e]) => [key, { summary: e.summary, value: e.value }]),
    );
    operation.requestBody = {
      required: true,
      content: {
        "application/json": {
          schema: ref("schemas", `${name}Request`),
          ...(Object.keys(examples).length > 0 ? { examples } : {}),
        },
      },
    };
  }
  operation.responses = responsesOf(op);
  if (op.public) operation.security = [];
  return operation;
}

function errorSchema(): JsonSchema {
  const json = jsonSchemaOf(errorResponseSchema, "output") as { properties: Record<string, JsonSchema> };
  json.properties.error = { ...json.properties.error, description: "What went wrong, written for a person" };
  json.properties.code = {
    ...json.properties.code,
    description:
      `A name for the failure: ${Object.keys(HTTP_STATUS).join(", ")}, or for the HTTP exchange itself ` +
      `(e.g. PAYLOAD_TOO_LARGE)`,
  };
  json.properties.fieldErrors = {
    ...json.properties.fieldErrors,
    description: "Every invalid field (dotted path) with its messages",
  };
  return json;
}

export function buildOpenApiDocument(operations: readonly ApiOperation[] = API_OPERATIONS): JsonSchema {
  const schemas: Record<string, JsonSchema> = { Error: errorSchema() };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op, schemas);
  const usedAreas = new Set(operations.map((op) => op.area));
  return {
    openapi: "3.1.0",
    info: {
      title: "Kafka Security Console API",
      version: "1",
      description: [
        "Every call acts as the signed-in Kafka principal: Kafka decides what it may do, and its refusals come " +
          "back as 403 naming the missing permission.",
        "Authenticate with the `ksc_session` cookie from POST /api/v1/session, or send Kafka credentials on " +
          "each request with `Authorization: Basic` " +
          "(mechanism SCRAM-SHA-512 unless the `X-Kafka-Mechanism` header says otherwise), or, where the " +
          "cluster has single sign-on, its provider's access token with `Authorization: Bearer`.",
        "Request bodies are JSON and must be sent with `Content-Type: application/json` (415 otherwise; 413 " +
          "above the body limit). " +
          "A method a path does not list here is answered with 405. Failures are JSON `Error` documents.",
      ].join("\n\n"),
    },
    tags: API_AREAS.filter((area) => usedAreas.has(area.name)).map((area) => ({
      name: area.name,
      description: area.description,
    })),
    servers: [{ url: "/", description: "This console" }],
    security: [{ session: [] }, { basic: [] }, { bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "ksc_session",
          description: "The session cookie POST /api/v1/session sets (httpOnly): send it back as a browser does.",
        },
        basic: {
          type: "http",
          scheme: "basic",
          description:
            "Kafka user name and password on every request, proven by a SASL handshake each time (failures are " +
            "throttled). " +
            "The mechanism is SCRAM-SHA-512 unless the X-Kafka-Mechanism header names another.",
        },
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "Where the cluster has single sign-on (docs/sso.md): an access token of its OpenID Connect provider. " +
            "It is verified as the brokers verify it (signature, issuer, audience, expiry) and sent to Kafka " +
            "(SASL/OAUTHBEARER), so the caller is the principal its configured claim names.",
        },
      },
      parameters: {
        KafkaMechanism: {
          name: "X-Kafka-Mechanism",
          in: "header",
          required: false,
          description:
            "With Basic credentials: the SASL mechanism to prove them with (default SCRAM-SHA-512). Ignored " +
            "with a session cookie.",
          schema: { type: "string", enum: [...MECHANISMS] },
        },
      },
      responses: Object.fromEntries(
        Object.entries(SHARED_RESPONSES).map(([name, r]) => [
          name,
          { description: r.description, content: errorContent },
        ]),
      ),
      schemas,
    },
  };
}
