/**
 * GET /api/v1/openapi.json: the API described from the same zod schemas the route
 * handlers parse with, so the document cannot drift from what the server accepts.
 */
import { z } from "zod";
import { signInSchema, sessionResponseSchema, errorResponseSchema } from "@/lib/schemas/session";
import { clusterSchema } from "@/lib/schemas/cluster";
import { auditEventSchema, auditQuerySchema } from "@/lib/schemas/audit";
import { accessCheckQueryFieldsSchema, accessCheckResultSchema } from "@/lib/schemas/access-check";
import { appliedQuotaQueryFieldsSchema, appliedQuotaSchema, quotaAlterationSchema, quotaAlterResultSchema, quotasOverviewSchema } from "@/lib/schemas/quotas";
import { aclApplyResultSchema, aclCreateBodySchema, aclDeleteBodySchema, aclListQuerySchema, aclListResultSchema, aclPreviewQuerySchema, aclPreviewSchema } from "@/lib/schemas/acls";
import { resourceDetailQueryFieldsSchema, resourceDetailSchema } from "@/lib/schemas/resources";
import { decidableRequestSchema, tokenCreatedSchema, tokenCreateSchema, tokenExpireSchema, tokenExpiryResultSchema, tokenListSchema, tokenRenewSchema, tokenRequestCreateSchema, tokenRequestDenySchema, tokenRequestListsSchema, tokenRequestViewSchema, tokenRetrievedSchema } from "@/lib/schemas/tokens";

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function queryParameters(schema: z.ZodObject): JsonSchema[] {
  const json = schemaOf(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: s,
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

export interface OpenApiRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  response?: z.ZodType;
  responses?: Record<string, unknown>;
  public?: boolean;
}

/** Every /api/v1 route. Areas add their routes here. */
export const API_ROUTES: OpenApiRoute[] = [
  {
    method: "post",
    path: "/api/v1/session",
    summary: "Sign in with Kafka credentials (proven by a SASL handshake); sets the session cookie",
    body: signInSchema,
    response: sessionResponseSchema,
    public: true,
  },
  { method: "delete", path: "/api/v1/session", summary: "Sign out: wipes the session and its stored credential" },
  { method: "get", path: "/api/v1/cluster", summary: "Cluster id, controller, brokers and the caller's principal", response: clusterSchema },
  {
    method: "get",
    path: "/api/v1/audit",
    summary: "Audit events, newest first (format=csv for a CSV export)",
    query: auditQuerySchema,
    response: z.object({ events: z.array(auditEventSchema), nextCursor: z.string().nullable() }),
  },
  {
    method: "get",
    path: "/api/v1/access-check",
    summary:
      "May a principal do an operation on a resource from a host, and which rule decides (ACLs read from Kafka as the caller: needs DESCRIBE on CLUSTER; " +
      "super.users and allow.everyone.if.no.acl.found assumed from the console's environment)",
    query: accessCheckQueryFieldsSchema,
    response: accessCheckResultSchema,
  },
  {
    method: "get",
    path: "/api/v1/quotas",
    summary:
      "Every configured client quota entity (DescribeClientQuotas as the caller: needs DESCRIBE_CONFIGS on CLUSTER), grouped, with the KIP-55 budget " +
      "per user and its findings (a console rule; Kafka does not enforce it)",
    response: quotasOverviewSchema,
  },
  {
    method: "get",
    path: "/api/v1/quotas/applied",
    summary: "Which quota Kafka applies to (user, clientId) per key, the deciding level and entity and the bucket; or to an ip",
    query: appliedQuotaQueryFieldsSchema,
    response: appliedQuotaSchema,
  },
  {
    method: "post",
    path: "/api/v1/quotas",
    summary:
      "Set (value) or remove (null) one quota key on one entity as the caller (ALTER_CONFIGS on CLUSTER), after Kafka's validation and the console's " +
      "KIP-55 rule (409 when only the console's rule rejects it); dryRun returns the preview",
    body: quotaAlterationSchema,
    response: quotaAlterResultSchema,
    responses: { "409": errorResponse("Rejected by the console's KIP-55 sub-quota budget rule (Kafka itself would accept it)") },
  },
  {
    method: "get",
    path: "/api/v1/acls",
    summary: "ACLs the caller may describe (needs DESCRIBE on CLUSTER), filtered and paged on the server",
    query: aclListQuerySchema,
    response: aclListResultSchema,
  },
  {
    method: "post",
    path: "/api/v1/acls",
    summary:
      "Create ACL bindings as the caller (needs ALTER on CLUSTER), audited; with ?preview=1 or dryRun only the preview (Kafka's validation, no-ops, decisions that change). " +
      "Some bindings failing is a 200 with outcome partial and per-binding results",
    query: aclPreviewQuerySchema,
    body: aclCreateBodySchema,
    response: z.union([aclApplyResultSchema, aclPreviewSchema]),
  },
  {
    method: "delete",
    path: "/api/v1/acls",
    summary: "Delete exactly these ACL bindings as the caller (needs ALTER on CLUSTER), audited; with ?preview=1 or dryRun only the preview",
    query: aclPreviewQuerySchema,
    body: aclDeleteBodySchema,
    response: z.union([aclApplyResultSchema, aclPreviewSchema]),
  },
  {
    method: "get",
    path: "/api/v1/tokens",
    summary: "Delegation tokens the caller may see (own, requested, renewer, or DESCRIBE_TOKENS on USER:<owner>), without HMACs",
    response: tokenListSchema,
  },
  {
    method: "post",
    path: "/api/v1/tokens",
    summary:
      "Create a delegation token as the caller, for the caller or (KIP-373) another owner (needs CREATE_TOKENS on USER:<owner>), audited; " +
      "the answer carries the HMAC, the only time the console hands it out (it keeps none)",
    body: tokenCreateSchema,
    response: tokenCreatedSchema,
  },
  {
    method: "post",
    path: "/api/v1/tokens/renew",
    summary: "Renew a token identified by its HMAC (only its owner and renewers may), audited without the HMAC",
    body: tokenRenewSchema,
    response: tokenExpiryResultSchema,
  },
  {
    method: "post",
    path: "/api/v1/tokens/expire",
    summary: "Expire a token identified by its HMAC, now or in N hours (only its owner and renewers may), audited without the HMAC",
    body: tokenExpireSchema,
    response: tokenExpiryResultSchema,
  },
  {
    method: "get",
    path: "/api/v1/token-requests",
    summary: "The caller's token requests, and every pending request marked by whether the caller appears entitled to approve it",
    response: tokenRequestListsSchema,
  },
  {
    method: "post",
    path: "/api/v1/token-requests",
    summary: "Ask for a token for an owner the caller cannot create for (PENDING until approved or denied), audited",
    body: tokenRequestCreateSchema,
    response: tokenRequestViewSchema,
  },
  {
    method: "post",
    path: "/api/v1/token-requests/{id}/approve",
    summary:
      "Approve: the console creates the token as the caller with the requested owner, renewers and lifetime (Kafka decides: 403 with its reason, " +
      "the request stays PENDING); 409 when already decided (a token created by a losing approver is expired at once)",
    response: decidableRequestSchema,
    responses: { "409": errorResponse("The request is no longer PENDING") },
  },
  {
    method: "post",
    path: "/api/v1/token-requests/{id}/deny",
    summary: "Deny a pending request with a reason the requester sees (the requester may withdraw; others must appear entitled to approve)",
    body: tokenRequestDenySchema,
    response: tokenRequestViewSchema,
    responses: { "409": errorResponse("The request is no longer PENDING") },
  },
  {
    method: "post",
    path: "/api/v1/token-requests/{id}/retrieve",
    summary: "The requester's single retrieval of an approved token's HMAC (erased from the console in the same step); 409 once retrieved or after its deadline",
    response: tokenRetrievedSchema,
    responses: { "409": errorResponse("Already retrieved, not approved, or past the retrieval deadline") },
  },
  {
    method: "get",
    path: "/api/v1/resources",
    summary:
      "One resource (type, name; CLUSTER is kafka-cluster): the ACLs that apply to it grouped by why (exact LITERAL name, PREFIXED patterns it starts with, " +
      "LITERAL *), and the effective-permission matrix per principal and operation for clients whose host no ACL names (ACLs read as the caller: needs DESCRIBE on CLUSTER)",
    query: resourceDetailQueryFieldsSchema,
    response: resourceDetailSchema,
  },
];

export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) {
    const operation: Record<string, unknown> = {
      summary: route.summary,
      responses: {
        "200": route.response
          ? { description: "OK", content: { "application/json": { schema: schemaOf(route.response) } } }
          : { description: "OK" },
        "400": errorResponse("Invalid input: `fieldErrors` names every bad field"),
        "401": errorResponse("Not signed in, or Kafka rejected the credentials"),
        "403": errorResponse("Kafka denied the operation; the message names the missing permission"),
        ...route.responses,
      },
    };
    if (route.public) operation.security = [];
    if (route.query) operation.parameters = queryParameters(route.query);
    if (route.body) {
      operation.requestBody = { required: true, content: { "application/json": { schema: schemaOf(route.body, "input") } } };
    }
    (paths[route.path] ??= {})[route.method] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Kafka Security Console API",
      version: "1",
      description:
        "Every call acts as the signed-in Kafka principal. Authenticate with the session cookie from POST /api/v1/session, " +
        "or send Kafka credentials with `Authorization: Basic` (mechanism SCRAM-SHA-512 unless `X-Kafka-Mechanism` says otherwise).",
    },
    components: {
      securitySchemes: { cookie: { type: "apiKey", in: "cookie", name: "ksc_session" }, basic: { type: "http", scheme: "basic" } },
      schemas: { Error: schemaOf(errorResponseSchema) },
    },
    security: [{ cookie: [] }, { basic: [] }],
    paths,
  };
}
