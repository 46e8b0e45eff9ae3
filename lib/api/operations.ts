/**
 * Every /api/v1 operation, in the order the reference shows them: the zod schemas its
 * handler parses with (the same exports, so the document cannot drift from what the
 * server accepts), what it answers, the statuses it can answer with, and examples a person
 * or a test can send. lib/api/openapi.ts turns this table into the OpenAPI document;
 * lib/api/openapi.test.ts checks that every route export under app/api/v1 has exactly one
 * entry here, and e2e/openapi.spec.ts sends every example to the running console.
 *
 * Changes are not described here but in their definition (lib/schemas/changes), which
 * also gives their route (`changeRoute(id)`) and server action: `changeOperation(id)`
 * places one in the table. A read-only route gets an entry here, with `query` set to the
 * very schema its handler passes to `apiRoute` and, for a query with refinements, example
 * sets that show which parameters the route refuses to do without.
 */
import { z } from "zod";
import { clusterSchema } from "@/lib/schemas/cluster";
import { dashboardQuerySchema, dashboardSchema } from "@/lib/schemas/dashboard";
import { auditPageSchema, auditQuerySchema } from "@/lib/schemas/audit";
import { driftListQuerySchema, driftPageSchema } from "@/lib/schemas/drift";
import { accessChangesQuerySchema, accessChangesSchema } from "@/lib/schemas/access-changes";
import { timelineQuerySchema, timelineSchema } from "@/lib/schemas/timeline";
import { breakGlassViewSchema } from "@/lib/schemas/break-glass";
import { accessCheckQuerySchema, accessCheckResultSchema } from "@/lib/schemas/access-check";
import { identityMapBodySchema, identityMapResultSchema } from "@/lib/schemas/identities";
import { scramUserListSchema } from "@/lib/schemas/scram-users";
import { appliedQuotaQuerySchema, appliedQuotaSchema, quotasOverviewSchema } from "@/lib/schemas/quotas";
import { aclListQuerySchema, aclListResultSchema } from "@/lib/schemas/acls";
import { planPageQuerySchema, planPageViewSchema } from "@/lib/schemas/plans";
import { resourceDetailQuerySchema, resourceDetailSchema } from "@/lib/schemas/resources";
import {
  effectiveExportSchema,
  effectivePermissionsQuerySchema,
  principalViewQuerySchema,
  principalViewSchema,
} from "@/lib/schemas/effective-permissions";
import { aclExportQuerySchema, aclImportProgressSchema } from "@/lib/schemas/acl-io";
import { aclBindingResponseSchema } from "@/lib/schemas/acl-binding";
import { tokenListSchema, tokenRequestListsSchema } from "@/lib/schemas/tokens";
import { CHANGES, NO_INPUT, type ChangeDefinition, type ChangeId } from "@/lib/schemas/changes";
import { NO_SUCH_PLAN, NOT_YOUR_PLAN, PLAN_ID } from "@/lib/schemas/changes/plans";
import { REQUEST_PATH_ID } from "@/lib/schemas/changes/requests";
import {
  grantListQuerySchema,
  grantListSchema,
  requestListQuerySchema,
  requestListSchema,
  requestViewSchema,
  webhookViewSchema,
} from "@/lib/schemas/requests";

export { API_AREAS } from "@/lib/schemas/api";
export type { ApiArea, ApiLink, HttpMethod, JsonSchema, NamedExample, PathParam, RouteStatus } from "@/lib/schemas/api";
import type { ApiArea, ApiLink, HttpMethod, NamedExample, PathParam, RouteStatus } from "@/lib/schemas/api";

export interface ApiOperation {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path template: `[id]` folders of app/api are `{id}` here. */
  path: string;
  area: ApiArea;
  summary: string;
  description?: string;
  /** Served without credentials (only the sign-in: proxy.ts lets nothing else through). */
  public?: boolean;
  /** The schema the handler passes to apiRoute as `query` (query-string values, parsed with zod). */
  query?: z.ZodType;
  /**
   * Named sets of query values that the route accepts. They are the parameters' examples,
   * prefill the reference page's Try-it form, are sent by the e2e test, and tell which
   * parameters are required: one that every set needs (the route refuses each set without it).
   */
  queryExamples?: Record<string, NamedExample<Record<string, string | number>>>;
  pathParams?: Record<string, PathParam>;
  /** The schema the handler passes to apiRoute as `body` (a JSON document). */
  body?: z.ZodType;
  /** Named bodies, each valid and harmless on the dev broker, sent in this order by the e2e test. */
  bodyExamples?: Record<string, NamedExample<unknown>>;
  /** The JSON answer on success (200). */
  response: z.ZodType;
  /** Another media type the success answer can have, e.g. the audit CSV export. */
  alternativeResponse?: { mediaType: string; description: string };
  /** More media types the success answer can have (e.g. the ACL export's CSV and YAML). */
  alternativeResponses?: { mediaType: string; description: string }[];
  /** Calls Kafka as the caller: Kafka may refuse (403, naming the permission) or fail (502). */
  kafka?: boolean;
  /** Statuses specific to this operation, with what they mean here. */
  statuses?: Partial<Record<RouteStatus, string>>;
  links?: Record<string, ApiLink>;
}

/** A declared change's entry, from its definition (lib/schemas/changes). */
function changeOperation(id: ChangeId): ApiOperation {
  const change: ChangeDefinition = CHANGES[id];
  const { http } = change;
  return {
    operationId: http.operationId,
    method: http.method,
    path: http.path,
    area: http.area,
    summary: change.summary,
    description: change.description,
    ...(change.public ? { public: true } : {}),
    ...(http.query ? { query: http.query } : {}),
    ...(http.queryExamples ? { queryExamples: http.queryExamples } : {}),
    ...(http.pathParams ? { pathParams: http.pathParams } : {}),
    ...(change.input !== NO_INPUT ? { body: change.input } : {}),
    ...(http.bodyExamples ? { bodyExamples: http.bodyExamples } : {}),
    response: change.output,
    ...(http.kafka ? { kafka: true } : {}),
    ...(http.statuses ? { statuses: http.statuses } : {}),
    ...(http.links ? { links: http.links } : {}),
  };
}

// ---- Session ------------------------------------------------------------------------

const SESSION: ApiOperation[] = [changeOperation("session.sign-in"), changeOperation("session.sign-out")];

// ---- Cluster, resources, access check -------------------------------------------------

const CLUSTER: ApiOperation[] = [
  {
    operationId: "getCluster",
    method: "get",
    path: "/api/v1/cluster",
    area: "Cluster",
    summary: "Cluster id, controller, brokers and the caller's principal",
    response: clusterSchema,
    kafka: true,
  },
  {
    operationId: "getDashboard",
    method: "get",
    path: "/api/v1/dashboard",
    area: "Cluster",
    summary: "The caller's dashboard: ACL posture, KIP-55 findings, tokens, pending decisions, recent changes",
    description:
      "Every card is read as the caller and answers on its own: a card Kafka refuses is { ok: false, code, " +
      "message } (e.g. the ACL posture for a caller " +
      "without DESCRIBE on CLUSTER) while the others still answer. ACL numbers come from the shared ACL " +
      "snapshot and are computed once per snapshot; " +
      "above 20,000 ACLs lint runs only with lint=1.",
    query: dashboardQuerySchema,
    queryExamples: {
      plain: { summary: "Every card", value: {} },
      lint: { summary: "With lint over every ACL, whatever their number", value: { lint: "1" } },
    },
    response: dashboardSchema,
    kafka: true,
  },
];

const RESOURCES: ApiOperation[] = [
  {
    operationId: "getResource",
    method: "get",
    path: "/api/v1/resources",
    area: "Resources",
    summary: "The ACLs that apply to one resource, and the effective permissions",
    description:
      "One resource (type, name; CLUSTER is kafka-cluster): the ACLs that apply to it grouped by why (exact " +
      "LITERAL name, PREFIXED patterns it starts with, " +
      "LITERAL *), and the effective-permission matrix per principal and operation for clients whose host no " +
      "ACL names (each cell's otherHosts: the answer " +
      "from a host an ACL names where it differs): User:* (any other principal no ACL here names, super users " +
      "aside), each super user (every operation " +
      "ALLOWED), then each principal an applicable ACL names. ACLs are read as the caller: needs DESCRIBE on CLUSTER.",
    query: resourceDetailQuerySchema,
    queryExamples: {
      topic: { summary: "A topic", value: { type: "TOPIC", name: "orders" } },
      cluster: { summary: "The cluster resource (its name is always kafka-cluster)", value: { type: "CLUSTER" } },
    },
    response: resourceDetailSchema,
    kafka: true,
  },
];

const RULES_TOO_COSTLY =
  "RULES_TOO_COSTLY: the mapping rules would take longer than one request may (a budget of regex steps shared " +
  "by every rule and input, and a time limit); the message names the limit";

const ACCESS_CHECK: ApiOperation[] = [
  {
    operationId: "checkAccess",
    method: "get",
    path: "/api/v1/access-check",
    area: "Access check",
    summary: "May a principal do an operation on a resource, and which rule decides",
    description:
      "May a principal do an operation on a resource from a host, and which rule decides. ACLs are read from " +
      "Kafka as the caller (needs DESCRIBE on CLUSTER); " +
      "super.users and allow.everyone.if.no.acl.found are assumed from the console's environment. resourceName " +
      "is required except for CLUSTER. " +
      "Without host the question is asked, as on the principal, resource and who-can pages, from any host no " +
      "ACL names (only *-host ACLs count): " +
      "hosts.assumed is `unnamed`, request.host an address no applicable ACL names, and hosts.differing gives " +
      "the answer from each host the ACLs " +
      "of the principal (or User:*) name where it differs. " +
      "Instead of a principal, certificateDn or kerberosPrincipal names a client that the configured mapping " +
      "rules turn into its principal first (`mapping` in the answer); " +
      "a client the rules refuse is a 400 naming Kafka's exception.",
    query: accessCheckQuerySchema,
    statuses: { 422: RULES_TOO_COSTLY },
    queryExamples: {
      topic: {
        summary: "May alice read the topic orders (from any host no ACL names)?",
        value: { principal: "User:alice", operation: "READ", resourceType: "TOPIC", resourceName: "orders" },
      },
      pinnedHost: {
        summary:
          "May carol read audit-log? (no host: any host no ACL names; hosts.differing lists the host her ACL names)",
        value: { principal: "User:carol", operation: "READ", resourceType: "TOPIC", resourceName: "audit-log" },
      },
      cluster: {
        summary: "May bob alter the cluster, from 10.0.0.7?",
        value: { principal: "User:bob", operation: "ALTER", resourceType: "CLUSTER", host: "10.0.0.7" },
      },
      certificate: {
        summary: "May a client presenting this certificate read orders? (mapped with the configured SSL rules first)",
        value: {
          certificateDn: "CN=svc-orders,OU=ServiceUsers,O=Acme,C=US",
          operation: "READ",
          resourceType: "TOPIC",
          resourceName: "orders",
        },
      },
    },
    response: accessCheckResultSchema,
    kafka: true,
  },
  {
    operationId: "getPrincipal",
    method: "get",
    path: "/api/v1/principals/{principal}",
    area: "Access check",
    summary: "Everything one principal can do, its quotas and its tokens",
    description:
      "For every resource the console knows (listed by Kafka to the caller, or named by a LITERAL ACL) and " +
      "every operation valid on its type: the decision " +
      "and the deciding rule (super user, the ACL — through User:*, a PREFIXED or * pattern, an implied " +
      "operation, a DENY that wins — or none), for a client " +
      "whose address no ACL names unless host is given; only resources where something is ALLOWED or an ACL " +
      "decides are listed. Also the principal's PREFIXED " +
      "and * grants (names not yet seen), the ACLs that name it, the quotas Kafka applies to it per known " +
      "client id, and its tokens. Each part is read as the " +
      "caller (ACLs need DESCRIBE on CLUSTER, quotas DESCRIBE_CONFIGS on CLUSTER); a refused part carries " +
      "Kafka's reason. aclSnapshot says which ACLs were used.",
    pathParams: {
      principal: {
        description: "Type:name (User:alice), or just the name (alice means User:alice)",
        schema: { type: "string" },
        example: "User:svc-orders",
      },
    },
    query: principalViewQuerySchema,
    queryExamples: { fromHost: { summary: "As a client connecting from 127.0.0.1", value: { host: "127.0.0.1" } } },
    response: principalViewSchema,
    kafka: true,
  },
  {
    operationId: "exportEffectivePermissions",
    method: "get",
    path: "/api/v1/effective-permissions",
    area: "Access check",
    summary: "What can a principal do, or who can do what on a resource or under a prefix (JSON or CSV)",
    description:
      "Computed by the policy core from one ACL snapshot (aclSnapshot.takenAt; the CSV repeats it per row and " +
      "in X-Acl-Snapshot-Taken-At). One row per " +
      "principal, resource, operation and host: a null host is a client whose address no ACL names, other rows " +
      "give the answer from a host an ACL names where " +
      "it differs. For a resource: the super users, every principal an applicable ACL names, and User:* for " +
      "everyone else. For a prefix: every known resource " +
      "under it and `unseen` rows for any other name it covers. Needs DESCRIBE on CLUSTER.",
    query: effectivePermissionsQuerySchema,
    queryExamples: {
      principal: { summary: "What can svc-orders do", value: { principal: "User:svc-orders" } },
      topic: {
        summary: "Who can do what on the topic audit-log, as CSV",
        value: { resourceType: "TOPIC", resourceName: "audit-log", format: "csv" },
      },
      prefix: {
        summary: "Who can do what on topics starting with payments-",
        value: { resourceType: "TOPIC", prefix: "payments-" },
      },
    },
    response: effectiveExportSchema,
    alternativeResponse: {
      mediaType: "text/csv",
      description: "With format=csv: one row per decision, header row first",
    },
    kafka: true,
  },
];

const IDENTITIES: ApiOperation[] = [
  {
    operationId: "mapIdentities",
    method: "post",
    path: "/api/v1/identities/map",
    area: "Identities",
    summary: "Which principal Kafka makes of certificate DNs, PEM certificates and Kerberos principals",
    description:
      "Maps each input as Kafka 4.1's DefaultKafkaPrincipalBuilder does: a certificate's subject (printed as " +
      "Java's X500Principal#getName()) or a DN " +
      "through ssl.principal.mapping.rules, a Kerberos principal through " +
      "sasl.kerberos.principal.to.local.rules. Per input: the rule that matched and " +
      "the principal, or Kafka's exception (class and message). Rules omitted are the console's settings. " +
      "Changes nothing; what each principal may do " +
      "comes from the ACLs Kafka lets the caller describe (none shown without DESCRIBE on CLUSTER).",
    body: identityMapBodySchema,
    bodyExamples: {
      seed: {
        summary: "The Kafka documentation's SSL rules and a Kerberos rule",
        value: {
          sslRules:
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1" +
            "@$2/L,RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,DEFAULT",
          kerberosRules: "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT",
          defaultRealm: "MYDOMAIN.COM",
          inputs: [
            {
              type: "ssl",
              distinguishedName: "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
            },
            { type: "ssl", distinguishedName: "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
            { type: "kerberos", principal: "alice@MYDOMAIN.COM" },
          ],
        },
      },
    },
    response: identityMapResultSchema,
    statuses: { 422: RULES_TOO_COSTLY },
    kafka: true,
  },
];

const SCRAM_USERS: ApiOperation[] = [
  {
    operationId: "listScramUsers",
    method: "get",
    path: "/api/v1/scram-users",
    area: "SCRAM users",
    summary: "SCRAM users and their mechanisms and iterations",
    description:
      "Every user with a SCRAM credential (DescribeUserScramCredentials as the caller: needs DESCRIBE on " +
      "CLUSTER). Secrets are never part of the answer.",
    response: scramUserListSchema,
    kafka: true,
  },
  changeOperation("scram.upsert"),
  changeOperation("scram.delete"),
];

// ---- ACLs -----------------------------------------------------------------------------

const ACLS: ApiOperation[] = [
  {
    operationId: "listAcls",
    method: "get",
    path: "/api/v1/acls",
    area: "ACLs",
    summary: "ACLs the caller may describe, filtered, sorted and paged",
    description:
      "ACLs the caller may describe (needs DESCRIBE on CLUSTER), filtered, sorted and paged on the server from " +
      "the console's shared ACL snapshot " +
      "(at most ACL_SNAPSHOT_MAX_AGE_MS old; `snapshot` says when it was read; refresh=true reads Kafka " +
      "again). Every filter is optional.",
    query: aclListQuerySchema,
    queryExamples: {
      principal: { summary: "alice's ACLs, first page", value: { principal: "User:alice", page: 1 } },
      topics: {
        summary: "PREFIXED topic ACLs, by principal",
        value: { resourceType: "TOPIC", patternType: "PREFIXED", sort: "principal" },
      },
      match: {
        summary: "Every ACL that applies to topic orders (Kafka's MATCH), read fresh",
        value: { resourceType: "TOPIC", resourceName: "orders", nameMatch: "match", refresh: "true" },
      },
    },
    response: aclListResultSchema,
    kafka: true,
  },
  changeOperation("acl.create"),
  changeOperation("acl.delete"),
];

// ---- ACLs as code ----------------------------------------------------------------------

/** The JSON export (the CSV and YAML exports hold the same bindings). */
const aclExportJsonSchema = z.object({
  format: z.literal("kafka-security-console/acls"),
  version: z.literal(1),
  exportedAt: z.string().meta({ description: "When the ACLs were read from Kafka (ISO 8601)" }),
  acls: z.array(aclBindingResponseSchema).meta({
    description:
      "Every ACL, once each, sorted by principal, resource type, name, pattern type, operation, permission, host",
  }),
});

const ACLS_AS_CODE: ApiOperation[] = [
  {
    operationId: "exportAcls",
    method: "get",
    path: "/api/v1/acls/export",
    area: "ACLs",
    summary: "Every ACL the caller may describe, as a file (JSON, CSV or YAML)",
    description:
      "Every ACL the caller may describe (needs DESCRIBE on CLUSTER), as a download: JSON (the policy CLI's { " +
      "acls } shape), CSV (RFC 4180, the policy " +
      "CLI's header; a cell a spreadsheet would run as a formula gets one more leading apostrophe, which the " +
      "import takes off again), or YAML grouped " +
      "by principal. Import an edited file with POST /api/v1/plans, kind acl.import.",
    query: aclExportQuerySchema,
    queryExamples: {
      json: { summary: "As JSON", value: { format: "json" } },
      csv: { summary: "As CSV", value: { format: "csv" } },
      yaml: { summary: "As YAML, grouped by principal", value: { format: "yaml" } },
    },
    response: aclExportJsonSchema,
    alternativeResponses: [
      {
        mediaType: "text/csv",
        description:
          "With format=csv: one binding per line after the header " +
          "Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host",
      },
      {
        mediaType: "application/yaml",
        description: "With format=yaml: the bindings grouped by principal (the import reads exactly this layout)",
      },
    ],
    kafka: true,
  },
];

// ---- Quotas ---------------------------------------------------------------------------

const QUOTAS: ApiOperation[] = [
  {
    operationId: "listQuotas",
    method: "get",
    path: "/api/v1/quotas",
    area: "Quotas",
    summary: "Every configured client quota, grouped, with the KIP-55 budget",
    description:
      "Every configured client quota entity (DescribeClientQuotas as the caller: needs DESCRIBE_CONFIGS on " +
      "CLUSTER), grouped, with the KIP-55 budget " +
      "per user and its findings (a console rule; Kafka does not enforce it).",
    response: quotasOverviewSchema,
    kafka: true,
  },
  changeOperation("quota.alter"),
  {
    operationId: "explainAppliedQuota",
    method: "get",
    path: "/api/v1/quotas/applied",
    area: "Quotas",
    summary: "Which quota Kafka applies to a client",
    description:
      "Which quota Kafka applies to (user, clientId) per key, the deciding level and entity and the bucket; " +
      "or, with ip instead of user, the connection-creation rate.",
    query: appliedQuotaQuerySchema,
    queryExamples: {
      client: {
        summary: "A client of alice with client.id reporting",
        value: { user: "alice", clientId: "reporting" },
      },
      ip: { summary: "Connections from one address", value: { ip: "203.0.113.10" } },
    },
    response: appliedQuotaSchema,
    kafka: true,
  },
];

// ---- Tokens ---------------------------------------------------------------------------

const TOKENS: ApiOperation[] = [
  {
    operationId: "listTokens",
    method: "get",
    path: "/api/v1/tokens",
    area: "Tokens",
    summary: "Delegation tokens the caller may see, without HMACs",
    description:
      "Delegation tokens the caller may see (own, requested, renewer, or DESCRIBE_TOKENS on USER:<owner>), " +
      "without HMACs.",
    response: tokenListSchema,
    kafka: true,
  },
  changeOperation("token.create"),
  changeOperation("token.renew"),
  changeOperation("token.expire"),
];

// ---- Token requests -------------------------------------------------------------------

const TOKEN_REQUESTS: ApiOperation[] = [
  {
    operationId: "listTokenRequests",
    method: "get",
    path: "/api/v1/token-requests",
    area: "Token requests",
    summary: "The caller's token requests, and the pending ones the caller may decide",
    description:
      "The caller's token requests, and every pending request marked by whether the caller appears entitled to " +
      "approve it.",
    response: tokenRequestListsSchema,
    kafka: true,
  },
  changeOperation("token-request.submit"),
  changeOperation("token-request.approve"),
  changeOperation("token-request.deny"),
  changeOperation("token-request.retrieve"),
];

// ---- Plans ----------------------------------------------------------------------------

const PLANS: ApiOperation[] = [
  changeOperation("plan.create"),
  {
    operationId: "getPlan",
    method: "get",
    path: "/api/v1/plans/{id}",
    area: "Plans",
    summary: "A plan as previewed, with one page of every decision change",
    description:
      "The plan as POST /api/v1/plans answered it (status now: OPEN, APPLYING, APPLIED, FAILED or EXPIRED), " +
      "with `changes`: one page of every decision " +
      "that changes, in order (resource, principal, host, operation). When the ACLs the plan depends on " +
      "changed since the preview, only its first rows " +
      "are still known (`complete: false`).",
    pathParams: PLAN_ID,
    query: planPageQuerySchema,
    queryExamples: { second: { summary: "Decision changes 51 to 100", value: { page: 2, pageSize: 50 } } },
    response: planPageViewSchema,
    kafka: true,
    statuses: { 403: `${NOT_YOUR_PLAN}. Or: Kafka refused to describe ACLs`, 404: NO_SUCH_PLAN },
  },
  changeOperation("plan.apply"),
  changeOperation("plan.break-glass"),
  {
    operationId: "getBreakGlass",
    method: "get",
    path: "/api/v1/plans/{id}/break-glass",
    area: "Plans",
    summary: "A break-glass apply, its after-the-fact review, and whether you may review it",
    description:
      "Who applied the plan without approval, when and why, what it did (the plan's audit rows you may read), " +
      "its review (null until someone else has reviewed it: the dashboard flags it meanwhile), and whether the " +
      "caller may review it (you.why says why not).",
    pathParams: PLAN_ID,
    response: breakGlassViewSchema,
    kafka: true,
    statuses: { 404: "There is no break-glass apply of this plan on this cluster that you may see" },
  },
  changeOperation("plan.break-glass-review"),
];

/** After PLANS: its example id names nothing, and the import plan it follows comes from POST /api/v1/plans (a link). */
const ACL_IMPORT_PROGRESS: ApiOperation[] = [
  {
    operationId: "getImportProgress",
    method: "get",
    path: "/api/v1/acls/import/{id}/progress",
    area: "ACLs",
    summary: "How far applying an import plan has come",
    description:
      "While POST /api/v1/plans/{id}/apply runs an acl.import plan (deletes, then creates, in batches, each " +
      "batch one audit event with the plan id), " +
      "how many batches are done or in flight and how many bindings Kafka confirmed or refused, read from the " +
      "audit trail (true on every console " +
      "instance sharing the database). Only for the plan's principal.",
    pathParams: {
      id: {
        description: "The import plan's id (from POST /api/v1/plans with kind acl.import)",
        schema: { type: "string", format: "uuid" },
        example: "00000000-0000-4000-8000-000000000000",
      },
    },
    response: aclImportProgressSchema,
    statuses: {
      403: "The plan was made by another principal: only they may follow it",
      404: "There is no import plan with this id",
    },
  },
];

// ---- Audit, API -----------------------------------------------------------------------

const AUDIT: ApiOperation[] = [
  {
    operationId: "listAudit",
    method: "get",
    path: "/api/v1/audit",
    area: "Audit",
    summary: "Audit events, newest first (format=csv for a CSV export)",
    description:
      "The audit events the caller may read (decided by what Kafka lets the caller describe), newest first, " +
      "filtered; page on with the answer's nextCursor. " +
      "Every filter is optional. format=csv answers a CSV file instead.",
    query: auditQuerySchema,
    queryExamples: {
      signIns: { summary: "Successful sign-ins", value: { action: "session.sign-in", outcome: "success", limit: 20 } },
      day: {
        summary: "One principal's events on one day",
        value: { principal: "User:admin", from: "2026-12-01", to: "2026-12-01" },
      },
      csv: { summary: "The sign-ins as a CSV file", value: { action: "session.sign-in", format: "csv" } },
    },
    response: auditPageSchema,
    kafka: true,
    alternativeResponse: {
      mediaType: "text/csv",
      description: "With format=csv: the events as a CSV file (header row first)",
    },
  },
  {
    operationId: "listDrift",
    method: "get",
    path: "/api/v1/drift",
    area: "Audit",
    summary: "Changes made outside the console (drift), newest first",
    description:
      "The ACL, quota and SCRAM changes the console's background read found made outside it, grouped by the " +
      "read that found them (its window), each with what it touched and whether it was kept (acknowledged) or " +
      "reverted. Who sees which follows the audit trail's rules. Page on with nextCursor.",
    query: driftListQuerySchema,
    queryExamples: { open: { summary: "Only those neither kept nor reverted", value: { status: "open" } } },
    response: driftPageSchema,
    kafka: true,
  },
  changeOperation("drift.acknowledge"),
  changeOperation("drift.revert"),
  {
    operationId: "getTimeline",
    method: "get",
    path: "/api/v1/timeline",
    area: "Audit",
    summary:
      "The history of one thing: a principal, a resource's ACLs, one ACL binding, a SCRAM user or a quota entity",
    description:
      "Every journal entry of the thing, newest first: when each ACL binding, credential or quota value appeared " +
      "or went, made through the console (actor, plan) or found outside it (the read's window). Give exactly one " +
      "of principal, resourceType with resourceName (and patternType), one ACL binding (those with principal, " +
      "operation, host and permissionType), scramUser, or quotaUser/quotaClientId/quotaIp. Entries follow the " +
      "audit trail's visibility rules (docs/history.md). Page on with nextCursor.",
    query: timelineQuerySchema,
    queryExamples: {
      principal: { summary: "Everything naming alice", value: { principal: "User:alice" } },
      topic: { summary: "The ACLs of the topic payments", value: { resourceType: "TOPIC", resourceName: "payments" } },
      binding: {
        summary: "One ACL: alice may READ the topic payments from any host",
        value: { resourceType: "TOPIC", resourceName: "payments", principal: "User:alice", operation: "READ" },
      },
    },
    response: timelineSchema,
    kafka: true,
  },
  {
    operationId: "getAccessChanges",
    method: "get",
    path: "/api/v1/access-changes",
    area: "Audit",
    summary: "What changed in a principal's access between two instants (JSON or CSV)",
    description:
      "Every decision the principal gained or lost between `from` and `to` (per resource pattern and operation, as " +
      "the principal page lays them out), each with the change set that caused it: a console change with its " +
      "actor, plan and audit row, or an outside change with the window in which it happened. Computed by the " +
      "policy core from the history journal (docs/history.md); `notes` say what the journal cannot vouch for " +
      "(gaps in reading, a period before it began is refused; without `from` the period begins with the " +
      "journal). Needs DESCRIBE on CLUSTER, like the audit trail's ACL history.",
    query: accessChangesQuerySchema,
    queryExamples: {
      sinceBegun: {
        summary: "What changed in alice's access since the cluster's history journal began",
        value: { principal: "User:alice" },
      },
      quarter: {
        summary: "What changed in alice's access in a quarter (refused if the journal began later)",
        value: { principal: "User:alice", from: "2026-07-01", to: "2026-09-30T23:59:59Z" },
      },
      csv: { summary: "Since the journal began, as CSV", value: { principal: "alice", format: "csv" } },
    },
    response: accessChangesSchema,
    alternativeResponse: {
      mediaType: "text/csv",
      description: "With format=csv: one row per decision gained or lost, header row first",
    },
    kafka: true,
  },
];

const API: ApiOperation[] = [
  {
    operationId: "getOpenApiDocument",
    method: "get",
    path: "/api/v1/openapi.json",
    area: "API",
    summary: "This OpenAPI document",
    description:
      "This document (OpenAPI 3.1). It reveals nothing secret, but like every route except the sign-in it " +
      "needs a session or Basic credentials: " +
      "the console lets no anonymous request past its first gate.",
    response: z.record(z.string(), z.unknown()).meta({ description: "An OpenAPI 3.1 document" }),
  },
];

// ---- Requests and grants ----------------------------------------------------------------

const REQUESTS: ApiOperation[] = [
  {
    operationId: "listRequests",
    method: "get",
    path: "/api/v1/requests",
    area: "Requests",
    summary: "Requests of this cluster: waiting, yours, decided, or all; changes and delegation tokens",
    description:
      "Newest first. filter=waiting (the default): pending requests, each saying whether the caller may review " +
      "it (you.mayReview) and why not; mine: the caller's; decided: applied, denied, cancelled, timed out. " +
      'Delegation-token requests are listed too (kind "token", you.mayDecide), by the token-request rules: ' +
      "waiting holds those of owners the caller appears entitled to create tokens for and the caller's own, " +
      "decided those the caller asked for or decided; they are decided with the token-request operations. " +
      "kind=change or kind=token keeps to one kind. `pending` counts the requests waiting for a decision.",
    query: requestListQuerySchema,
    queryExamples: {
      mine: { summary: "Your requests", value: { filter: "mine" } },
      tokens: { summary: "Token requests waiting for you", value: { filter: "waiting", kind: "token" } },
    },
    response: requestListSchema,
  },
  changeOperation("request.file"),
  changeOperation("request.from-plan"),
  {
    operationId: "getRequest",
    method: "get",
    path: "/api/v1/requests/{id}",
    area: "Requests",
    summary: "One request",
    description: "The request as listed: the change, the reason, its status, approvals and what the caller may do.",
    pathParams: REQUEST_PATH_ID,
    response: requestViewSchema,
    statuses: { 404: "There is no request with this id on this cluster" },
  },
  changeOperation("request.review"),
  changeOperation("request.approve"),
  changeOperation("request.deny"),
  changeOperation("request.cancel"),
  changeOperation("request.password"),
  {
    operationId: "listGrants",
    method: "get",
    path: "/api/v1/grants",
    area: "Requests",
    summary: "Live grants: ACLs that end by themselves, with their expiry",
    description:
      "Grants of this cluster not yet ended, soonest expiry first; overdue: past the expiry and not yet " +
      "removed (retried, e.g. while the broker is down).",
    query: grantListQuerySchema,
    queryExamples: { alice: { summary: "The grants of User:alice", value: { principal: "User:alice" } } },
    response: grantListSchema,
  },
  changeOperation("grant.end"),
  changeOperation("grant.extend"),
  {
    operationId: "getWebhook",
    method: "get",
    path: "/api/v1/webhook",
    area: "Requests",
    summary: "This cluster's webhook (its origin only; super users)",
    description: "Whether notifications are on, and where they go (the URL's origin; never its path or the secret).",
    response: webhookViewSchema,
    statuses: { 403: "Only a super user of this cluster may see its webhook" },
  },
  changeOperation("webhook.set"),
  changeOperation("webhook.delete"),
];

/** Every /api/v1 operation, by area. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...SESSION,
  ...CLUSTER,
  ...RESOURCES,
  ...ACLS,
  ...ACLS_AS_CODE,
  ...ACCESS_CHECK,
  ...IDENTITIES,
  ...SCRAM_USERS,
  ...QUOTAS,
  ...TOKENS,
  ...TOKEN_REQUESTS,
  ...PLANS,
  ...REQUESTS,
  ...ACL_IMPORT_PROGRESS,
  ...AUDIT,
  ...API,
];
