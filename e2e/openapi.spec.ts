import SwaggerParser from "@apidevtools/swagger-parser";
// The JSON Schema 2020-12 validator the OpenAPI validator itself uses (its dependency).
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import type { APIRequestContext } from "@playwright/test";
import { journalBegun } from "./behind-the-back";
import { test, expect } from "./fixtures";

/**
 * The API as its document describes it: read the served /api/v1/openapi.json, then call
 * every operation as admin with every documented example (and with the values its
 * documented links hand on from earlier answers), and check that the status is one the
 * document lists and the JSON answer has the documented shape. The examples are
 * harmless on the dev broker by design: the ACL binding and the quota they create are
 * removed by later examples, the token is expired through its link, the token request is
 * withdrawn; a safety net removes them too if the test stops half way.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Link {
  operationId: string;
  parameters?: Record<string, string>;
  requestBody?: unknown;
}
interface Response {
  content?: Record<string, { schema?: Schema }>;
  links?: Record<string, Link>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}
interface Call {
  label: string;
  pathParams: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The first few distinct schema violations, naming the unexpected properties. */
function violations(validate: ValidateFunction): string {
  const lines = (validate.errors ?? []).map((e) => {
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    return `${e.instancePath.replace(/\/\d+(?=\/|$)/g, "/*") || "/"} ${e.message}${extra ? ` (${extra})` : ""}`;
  });
  return [...new Set(lines)].slice(0, 10).join("; ");
}
const ADMIN = { username: "admin", password: "admin-secret" };
const BASIC = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString("base64")}`;

/** Operations none of whose examples can succeed, on purpose. Every other one must answer 200 at least once. */
const REFUSED_BY_DESIGN: Record<string, string> = {
  signIn: "the example's password is a placeholder",
  approveTokenRequest:
    "the linked request is admin's own (a requester cannot approve it); the example id names nothing",
  retrieveRequestedToken: "the linked request was withdrawn, never approved; the example id names nothing",
  fileRequestFromPlan: "the example's plan id names nothing",
  approveRequest: "the example ids name nothing (approving would change the shared broker for an hour)",
  denyRequest: "the example id names nothing",
  retrieveRequestPassword: "the example id names nothing (no SCRAM request is approved on the dev cluster)",
  endGrant: "the example id names nothing",
  extendGrant: "the example id names nothing",
  breakGlassApplyPlan: "the dev cluster needs no approvals, and the example id names nothing",
  getBreakGlass: "the example id names nothing (no plan was applied by break-glass on the dev cluster)",
  reviewBreakGlass: "the example id names nothing (no plan was applied by break-glass on the dev cluster)",
  setWebhook: "the example's target is a loopback address, which is refused",
  acknowledgeDrift: "the example id names no outside change",
  revertDrift: "the example id names no outside change",
};

/** `/a/b` of a JSON document. */
function pointer(value: unknown, path: string): unknown {
  let node = value;
  for (const part of path.split("/").slice(1))
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node;
}

/**
 * A link's runtime expressions (`$response.body#/id`, or `{$response.body#/hmac}` inside a value) filled from an
 * answer.
 */
function fill(value: unknown, answer: unknown): unknown {
  if (typeof value === "string") {
    const whole = /^\{?\$response\.body#(\/[^}]*)\}?$/.exec(value);
    if (whole) return pointer(answer, whole[1]!);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, answer));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, answer)]));
  return value;
}

function callsFor(op: Operation, linked: Call[]): Call[] {
  const parameters = op.parameters ?? [];
  const pathParams = Object.fromEntries(
    parameters.filter((p) => p.in === "path").map((p) => [p.name, String(p.example)]),
  );
  const queryNames = [
    ...new Set(parameters.filter((p) => p.in === "query").flatMap((p) => Object.keys(p.examples ?? {}))),
  ];
  const querySet = (name: string) =>
    Object.fromEntries(
      parameters
        .filter((p) => p.in === "query" && p.examples?.[name])
        .map((p) => [p.name, String(p.examples![name]!.value)]),
    );
  const bodies = Object.entries(op.requestBody?.content["application/json"]?.examples ?? {});
  const calls: Call[] = [];
  if (bodies.length > 0) {
    for (const [name, example] of bodies)
      calls.push({ label: `body example ${name}`, pathParams, query: {}, body: example.value });
    for (const name of queryNames)
      calls.push({ label: `query example ${name}`, pathParams, query: querySet(name), body: bodies[0]![1].value });
  } else if (queryNames.length > 0) {
    for (const name of queryNames) calls.push({ label: `query example ${name}`, pathParams, query: querySet(name) });
  } else {
    calls.push({ label: "as documented", pathParams, query: {} });
  }
  for (const call of linked)
    calls.push({ ...call, pathParams: { ...pathParams, ...call.pathParams }, body: call.body ?? bodies[0]?.[1].value });
  return calls;
}

function urlOf(path: string, call: Pick<Call, "pathParams" | "query">): string {
  const filled = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(call.pathParams[name] ?? ""));
  const search = new URLSearchParams(call.query).toString();
  return search ? `${filled}?${search}` : filled;
}

async function send(
  request: APIRequestContext,
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return request.fetch(url, { method: method.toUpperCase(), ...(body === undefined ? {} : { data: body }), headers });
}

test(
  "every documented operation answers its documented examples with a documented status and the " + "documented shape",
  async ({ request }) => {
    test.setTimeout(240_000);

    // The document needs credentials like every route but the sign-in.
    expect((await request.get("/api/v1/openapi.json")).status()).toBe(401);

    const signIn = await request.post("/api/v1/session", { data: ADMIN });
    expect(signIn.status()).toBe(200);
    // The history examples (what changed since the journal began) need the journal's first read.
    await journalBegun(request);
    const servedResponse = await request.get("/api/v1/openapi.json");
    expect(servedResponse.status()).toBe(200);
    const served = await servedResponse.json();
    // The OpenAPI validator checks the served document and resolves every $ref in it.
    const doc = (await SwaggerParser.validate(structuredClone(served))) as unknown as Document;

    const ajv = new Ajv2020({ strict: true, allErrors: true });
    ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    const compiled = new Map<Schema, ValidateFunction>();
    const validatorOf = (schema: Schema) => {
      if (!compiled.has(schema)) compiled.set(schema, ajv.compile(schema));
      return compiled.get(schema)!;
    };

    const signInOk = validatorOf(
      doc.paths["/api/v1/session"]!.post!.responses["200"]!.content!["application/json"]!.schema!,
    );
    expect(signInOk(await signIn.json()), violations(signInOk)).toBe(true);

    const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      METHODS.filter((m) => byMethod[m]).map((method) => ({ path, method, op: byMethod[method]! })),
    );
    // Signing out ends the session the other calls use: last.
    operations.sort((a, b) => Number(a.op.operationId === "signOut") - Number(b.op.operationId === "signOut"));

    const linked = new Map<string, Call[]>();
    const outcomes: { id: string; label: string; status: number; answer?: unknown }[] = [];
    const createdHmacs: string[] = [];
    const submittedRequests: string[] = [];

    try {
      for (const { path, method, op } of operations) {
        for (const call of callsFor(op, linked.get(op.operationId) ?? [])) {
          const url = urlOf(path, call);
          const where = `${method.toUpperCase()} ${url} (${op.operationId}, ${call.label})`;
          const response = await send(request, method, url, call.body);
          const status = response.status();
          outcomes.push({ id: op.operationId, label: call.label, status });

          const documented = op.responses[String(status)];
          expect(
            documented,
            `${where}: status ${status} is not documented. Answer: ${(await response.text()).slice(0, 500)}`,
          ).toBeDefined();
          const mediaType = (response.headers()["content-type"] ?? "").split(";")[0]!.trim();
          expect(Object.keys(documented!.content ?? {}), `${where}: ${status} answered ${mediaType}`).toContain(
            mediaType,
          );
          if (mediaType !== "application/json") continue;

          const answer = await response.json();
          outcomes.at(-1)!.answer = answer;
          const validate = validatorOf(documented!.content![mediaType]!.schema!);
          expect(
            validate(answer),
            `${where}: the ${status} answer does not have the documented shape: ${violations(validate)}`,
          ).toBe(true);

          if (status !== 200) continue;
          if (op.operationId === "createToken") createdHmacs.push((answer as { hmac: string }).hmac);
          if (op.operationId === "submitTokenRequest") submittedRequests.push((answer as { id: string }).id);
          for (const [name, link] of Object.entries(documented!.links ?? {})) {
            const calls = linked.get(link.operationId) ?? [];
            calls.push({
              label: `link ${name} from ${op.operationId}`,
              pathParams: Object.fromEntries(
                Object.entries(link.parameters ?? {}).map(([k, v]) => [k, String(fill(v, answer))]),
              ),
              query: {},
              body: link.requestBody === undefined ? undefined : fill(link.requestBody, answer),
            });
            linked.set(link.operationId, calls);
          }
        }
      }
    } finally {
      await safetyNet(request, doc, createdHmacs, submittedRequests);
    }

    // Every operation was called, and each answered 200 at least once unless all its examples are refused by design.
    const called = new Set(outcomes.map((o) => o.id));
    expect([...called].sort()).toEqual(operations.map((o) => o.op.operationId).sort());
    for (const { op } of operations) {
      const succeeded = outcomes.some((o) => o.id === op.operationId && o.status === 200);
      expect(succeeded, `${op.operationId}: ${JSON.stringify(outcomes.filter((o) => o.id === op.operationId))}`).toBe(
        !(op.operationId in REFUSED_BY_DESIGN),
      );
    }
    // What the examples were written to show.
    const statusOf = (id: string, label: string) =>
      outcomes.find((o) => o.id === id && o.label.startsWith(label))?.status;
    expect(statusOf("signIn", "body example placeholder")).toBe(401);
    expect(statusOf("getAccessChanges", "query example sinceBegun")).toBe(200);
    expect(statusOf("getAccessChanges", "query example csv")).toBe(200);
    expect(statusOf("renewToken", "body example unknown")).toBe(404);
    expect(statusOf("renewToken", "link renew")).toBe(200);
    expect(statusOf("expireToken", "link expire")).toBe(200);
    expect(statusOf("approveTokenRequest", "as documented")).toBe(404);
    expect(statusOf("approveTokenRequest", "link approve")).toBe(403);
    expect(statusOf("fileRequest", "body example grant")).toBe(200);
    expect(statusOf("reviewRequest", "link review")).toBe(200);
    expect(statusOf("cancelRequest", "link cancel")).toBe(200);
    expect(statusOf("setWebhook", "body example private")).toBe(400);
    expect(statusOf("denyTokenRequest", "link deny")).toBe(200);
    expect(statusOf("retrieveRequestedToken", "link retrieve")).toBe(409);
    expect(statusOf("retrieveRequestPassword", "as documented")).toBe(404);
    expect(statusOf("getTimeline", "query example binding")).toBe(200);
    expect(statusOf("signOut", "as documented")).toBe(200);
    expect((await request.get("/api/v1/cluster")).status()).toBe(401);

    const answerOf = (id: string, label: string) =>
      outcomes.find((o) => o.id === id && o.label.startsWith(label))?.answer;
    // The one-call changes apply a plan of their own and name it.
    const applied = (kind: string) => ({
      plan: { kind, status: "APPLIED", id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    expect(answerOf("createAcls", "body example create")).toMatchObject({
      ...applied("acl.create"),
      outcome: "success",
      results: [{ action: "create" }],
    });
    expect(answerOf("deleteAcls", "body example delete")).toMatchObject({
      ...applied("acl.delete"),
      outcome: "success",
      results: [{ action: "delete", deleted: 1 }],
    });
    expect(answerOf("alterQuota", "body example set")).toMatchObject({ ...applied("quota.alter"), applied: true });
    expect(answerOf("alterQuota", "body example remove")).toMatchObject({ ...applied("quota.alter"), applied: true });
    expect(answerOf("expireToken", "link expire")).toMatchObject({ expiryTimestamp: null });

    // Nothing of the examples is left on the broker.
    const auth = { authorization: BASIC };
    const acls = await (await request.get("/api/v1/acls?principal=User%3Aksc-api-example", { headers: auth })).json();
    expect(acls.matching).toBe(0);
    const quotas = JSON.stringify(await (await request.get("/api/v1/quotas", { headers: auth })).json());
    expect(quotas).not.toContain("ksc-api-example");
  },
);

/** Removes what the examples create, in case the test stopped before the examples that remove it. */
async function safetyNet(request: APIRequestContext, doc: Document, hmacs: string[], requestIds: string[]) {
  const auth = { authorization: BASIC };
  const example = (path: string, method: string, name: string) =>
    doc.paths[path]?.[method]?.requestBody?.content["application/json"]?.examples?.[name]?.value;
  const attempts = [
    send(request, "delete", "/api/v1/acls", example("/api/v1/acls", "delete", "delete"), auth),
    send(request, "post", "/api/v1/quotas", example("/api/v1/quotas", "post", "remove"), auth),
    ...hmacs.map((hmac) => send(request, "post", "/api/v1/tokens/expire", { hmac, when: "now" }, auth)),
    ...requestIds.map((id) =>
      send(
        request,
        "post",
        `/api/v1/token-requests/${id}/deny`,
        { reason: "Example request withdrawn by the test" },
        auth,
      ),
    ),
  ];
  await Promise.allSettled(attempts);
}
