/**
 * Every /api/v1 operation, described once: the zod schemas its handler parses with
 * (the same exports, so the document cannot drift from what the server accepts), what
 * it answers, the statuses it can answer with, and examples a person or a test can send.
 * lib/api/openapi.ts turns this table into the OpenAPI document; lib/api/openapi.test.ts
 * checks that every `apiRoute` export under app/api/v1 has exactly one entry here (and
 * parses the schema named here), and e2e/openapi.spec.ts sends every example to the
 * running console.
 *
 * Adding a route: put its input and answer schemas in lib/schemas/<area>.ts, add one
 * entry to the area's list below with `query`/`body` set to the very schemas the handler
 * passes to `apiRoute`, at least one example per body (harmless on the dev broker: the
 * examples are sent by the e2e test) and, for a query with refinements, example sets
 * that show which parameters the route refuses to do without.
 */
import { z } from "zod";
import { sessionResponseSchema, signInSchema } from "@/lib/schemas/session";
import { clusterSchema } from "@/lib/schemas/cluster";
import { dashboardQuerySchema, dashboardSchema } from "@/lib/schemas/dashboard";
import { auditPageSchema, auditQuerySchema } from "@/lib/schemas/audit";
import { accessCheckQuerySchema, accessCheckResultSchema } from "@/lib/schemas/access-check";
import { identityMapBodySchema, identityMapResultSchema } from "@/lib/schemas/identities";
import { scramChangeResultSchema, scramCredentialDeleteSchema, scramCredentialUpsertSchema, scramUserListSchema } from "@/lib/schemas/scram-users";
import { appliedQuotaQuerySchema, appliedQuotaSchema, quotaAlterationSchema, quotaAlterResultSchema, quotasOverviewSchema } from "@/lib/schemas/quotas";
import { aclApplyResultSchema, aclCreateBodySchema, aclDeleteBodySchema, aclListQuerySchema, aclListResultSchema, aclPreviewQuerySchema } from "@/lib/schemas/acls";
import { planApplyResultSchema, planCreateBodySchema, planPageQuerySchema, planPageViewSchema, planViewSchema, quotaPlanViewSchema } from "@/lib/schemas/plans";
import { resourceDetailQuerySchema, resourceDetailSchema } from "@/lib/schemas/resources";
import { effectiveExportSchema, effectivePermissionsQuerySchema, principalViewQuerySchema, principalViewSchema } from "@/lib/schemas/effective-permissions";
import { aclExportQuerySchema, aclImportProgressSchema } from "@/lib/schemas/acl-io";
import { aclBindingResponseSchema } from "@/lib/schemas/acl-binding";
import {
  decidableRequestSchema,
  tokenCreatedSchema,
  tokenCreateSchema,
  tokenExpireSchema,
  tokenExpiryResultSchema,
  tokenListSchema,
  tokenRenewSchema,
  tokenRequestCreateSchema,
  tokenRequestDenySchema,
  tokenRequestListsSchema,
  tokenRequestViewSchema,
  tokenRetrievedSchema,
} from "@/lib/schemas/tokens";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
export type JsonSchema = Record<string, unknown>;

/** The areas of the console, in the order the reference shows them (OpenAPI tags). */
export const API_AREAS = [
  { name: "Session", description: "Sign in with Kafka credentials and sign out. Everything else acts as the signed-in Kafka principal." },
  { name: "Cluster", description: "The cluster the console is connected to, as the caller sees it." },
  { name: "Resources", description: "One Kafka resource: the ACLs that apply to it and who may do what." },
  { name: "ACLs", description: "Browse, preview, create and delete ACL bindings (Kafka's StandardAuthorizer decides what the caller may do)." },
  { name: "Access check", description: "Explain whether a principal may do an operation on a resource, and which rule decides." },
  { name: "Identities", description: "Who a client is to Kafka: certificate DNs and Kerberos principals through the brokers' principal mapping rules." },
  { name: "SCRAM users", description: "SCRAM credentials (KIP-554): list, create, rotate and delete, as the caller (Kafka decides: DESCRIBE / ALTER on CLUSTER)." },
  { name: "Quotas", description: "Client quotas: what is configured, which quota Kafka applies, and changes checked against the KIP-55 budget." },
  { name: "Tokens", description: "Delegation tokens (KIP-48, KIP-373): create, list, renew and expire." },
  { name: "Token requests", description: "Self-service token requests: ask, approve or deny, and the requester's one-time retrieval." },
  { name: "Plans", description: "Sealed change plans (ACLs, ACL imports, quotas): preview a change, keep it, apply exactly what was previewed." },
  { name: "Audit", description: "Every change made through the console, who made it and what Kafka answered." },
  { name: "API", description: "This description of the API." },
] as const;
export type ApiArea = (typeof API_AREAS)[number]["name"];

/** Statuses an operation may answer with besides the ones every operation shares (see openapi.ts). */
export type RouteStatus = 403 | 404 | 409 | 422;

export interface NamedExample<T> {
  summary: string;
  value: T;
}

export interface PathParam {
  description: string;
  schema: JsonSchema;
  /** A well-formed value that names nothing (the route answers 404). */
  example: string;
}

/**
 * An OpenAPI link: how an answer of this operation feeds another one. Strings of the form
 * `{$response.body#/json/pointer}` are replaced by that part of the answer.
 */
export interface ApiLink {
  operationId: string;
  description: string;
  parameters?: Record<string, string>;
  requestBody?: unknown;
}

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

// ---- Session ------------------------------------------------------------------------

const SESSION: ApiOperation[] = [
  {
    operationId: "signIn",
    method: "post",
    path: "/api/v1/session",
    area: "Session",
    summary: "Sign in",
    description:
      "Sign in with Kafka credentials, proven by a SASL handshake with the broker; sets the `ksc_session` cookie (httpOnly). " +
      "Failed sign-ins are throttled per user and address (429).",
    public: true,
    body: signInSchema,
    bodyExamples: {
      placeholder: {
        summary: "Your Kafka user name and password (the mechanism defaults to SCRAM-SHA-512)",
        value: { username: "alice", password: "your-kafka-password", mechanism: "SCRAM-SHA-512" },
      },
    },
    response: sessionResponseSchema,
  },
  {
    operationId: "signOut",
    method: "delete",
    path: "/api/v1/session",
    area: "Session",
    summary: "Sign out",
    description: "Wipes the session and its stored credential and clears the cookie. With Basic credentials there is no session to end.",
    response: z.object({ signedOut: z.literal(true) }),
  },
];

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
      "Every card is read as the caller and answers on its own: a card Kafka refuses is { ok: false, code, message } (e.g. the ACL posture for a caller " +
      "without DESCRIBE on CLUSTER) while the others still answer. ACL numbers come from the shared ACL snapshot and are computed once per snapshot; " +
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
      "One resource (type, name; CLUSTER is kafka-cluster): the ACLs that apply to it grouped by why (exact LITERAL name, PREFIXED patterns it starts with, " +
      "LITERAL *), and the effective-permission matrix per principal and operation for clients whose host no ACL names (each cell's otherHosts: the answer " +
      "from a host an ACL names where it differs): User:* (any other principal no ACL here names, super users aside), each super user (every operation " +
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
  "RULES_TOO_COSTLY: the mapping rules would take longer than one request may (a budget of regex steps shared by every rule and input, and a time limit); the message names the limit";

const ACCESS_CHECK: ApiOperation[] = [
  {
    operationId: "checkAccess",
    method: "get",
    path: "/api/v1/access-check",
    area: "Access check",
    summary: "May a principal do an operation on a resource, and which rule decides",
    description:
      "May a principal do an operation on a resource from a host, and which rule decides. ACLs are read from Kafka as the caller (needs DESCRIBE on CLUSTER); " +
      "super.users and allow.everyone.if.no.acl.found are assumed from the console's environment. resourceName is required except for CLUSTER. " +
      "Without host the question is asked, as on the principal, resource and who-can pages, from any host no ACL names (only *-host ACLs count): " +
      "hosts.assumed is `unnamed`, request.host an address no applicable ACL names, and hosts.differing gives the answer from each host the ACLs " +
      "of the principal (or User:*) name where it differs. " +
      "Instead of a principal, certificateDn or kerberosPrincipal names a client that the configured mapping rules turn into its principal first (`mapping` in the answer); " +
      "a client the rules refuse is a 400 naming Kafka's exception.",
    query: accessCheckQuerySchema,
    statuses: { 422: RULES_TOO_COSTLY },
    queryExamples: {
      topic: { summary: "May alice read the topic orders (from any host no ACL names)?", value: { principal: "User:alice", operation: "READ", resourceType: "TOPIC", resourceName: "orders" } },
      pinnedHost: {
        summary: "May carol read audit-log? (no host: any host no ACL names; hosts.differing lists the host her ACL names)",
        value: { principal: "User:carol", operation: "READ", resourceType: "TOPIC", resourceName: "audit-log" },
      },
      cluster: { summary: "May bob alter the cluster, from 10.0.0.7?", value: { principal: "User:bob", operation: "ALTER", resourceType: "CLUSTER", host: "10.0.0.7" } },
      certificate: {
        summary: "May a client presenting this certificate read orders? (mapped with the configured SSL rules first)",
        value: { certificateDn: "CN=svc-orders,OU=ServiceUsers,O=Acme,C=US", operation: "READ", resourceType: "TOPIC", resourceName: "orders" },
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
      "For every resource the console knows (listed by Kafka to the caller, or named by a LITERAL ACL) and every operation valid on its type: the decision " +
      "and the deciding rule (super user, the ACL — through User:*, a PREFIXED or * pattern, an implied operation, a DENY that wins — or none), for a client " +
      "whose address no ACL names unless host is given; only resources where something is ALLOWED or an ACL decides are listed. Also the principal's PREFIXED " +
      "and * grants (names not yet seen), the ACLs that name it, the quotas Kafka applies to it per known client id, and its tokens. Each part is read as the " +
      "caller (ACLs need DESCRIBE on CLUSTER, quotas DESCRIBE_CONFIGS on CLUSTER); a refused part carries Kafka's reason. aclSnapshot says which ACLs were used.",
    pathParams: {
      principal: { description: "Type:name (User:alice), or just the name (alice means User:alice)", schema: { type: "string" }, example: "User:svc-orders" },
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
      "Computed by the policy core from one ACL snapshot (aclSnapshot.takenAt; the CSV repeats it per row and in X-Acl-Snapshot-Taken-At). One row per " +
      "principal, resource, operation and host: a null host is a client whose address no ACL names, other rows give the answer from a host an ACL names where " +
      "it differs. For a resource: the super users, every principal an applicable ACL names, and User:* for everyone else. For a prefix: every known resource " +
      "under it and `unseen` rows for any other name it covers. Needs DESCRIBE on CLUSTER.",
    query: effectivePermissionsQuerySchema,
    queryExamples: {
      principal: { summary: "What can svc-orders do", value: { principal: "User:svc-orders" } },
      topic: { summary: "Who can do what on the topic audit-log, as CSV", value: { resourceType: "TOPIC", resourceName: "audit-log", format: "csv" } },
      prefix: { summary: "Who can do what on topics starting with payments-", value: { resourceType: "TOPIC", prefix: "payments-" } },
    },
    response: effectiveExportSchema,
    alternativeResponse: { mediaType: "text/csv", description: "With format=csv: one row per decision, header row first" },
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
      "Maps each input as Kafka 4.1's DefaultKafkaPrincipalBuilder does: a certificate's subject (printed as Java's X500Principal#getName()) or a DN " +
      "through ssl.principal.mapping.rules, a Kerberos principal through sasl.kerberos.principal.to.local.rules. Per input: the rule that matched and " +
      "the principal, or Kafka's exception (class and message). Rules omitted are the console's settings. Changes nothing; what each principal may do " +
      "comes from the ACLs Kafka lets the caller describe (none shown without DESCRIBE on CLUSTER).",
    body: identityMapBodySchema,
    bodyExamples: {
      seed: {
        summary: "The Kafka documentation's SSL rules and a Kerberos rule",
        value: {
          sslRules: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,DEFAULT",
          kerberosRules: "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT",
          defaultRealm: "MYDOMAIN.COM",
          inputs: [
            { type: "ssl", distinguishedName: "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
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

/** A SCRAM user nobody uses: the e2e test creates it with the `generated` example and deletes it with `user`. */
const EXAMPLE_SCRAM_USER = "ksc-api-example";

const SCRAM_USERS: ApiOperation[] = [
  {
    operationId: "listScramUsers",
    method: "get",
    path: "/api/v1/scram-users",
    area: "SCRAM users",
    summary: "SCRAM users and their mechanisms and iterations",
    description: "Every user with a SCRAM credential (DescribeUserScramCredentials as the caller: needs DESCRIBE on CLUSTER). Secrets are never part of the answer.",
    response: scramUserListSchema,
    kafka: true,
  },
  {
    operationId: "upsertScramCredential",
    method: "post",
    path: "/api/v1/scram-users",
    area: "SCRAM users",
    summary: "Create a SCRAM user, add a mechanism or rotate a password",
    description:
      "Sets one mechanism's credential of a user (AlterUserScramCredentials as the caller: needs ALTER on CLUSTER). The console salts and hashes the " +
      "password (PBKDF2, as Kafka's ScramFormatter) and sends Kafka only the salted password. Without `password` it generates one and answers it " +
      "once (`generatedPassword`); the password is never stored, logged or audited. Answers the kafka-configs.sh equivalent with the password masked.",
    body: scramCredentialUpsertSchema,
    bodyExamples: {
      generated: { summary: "A new user with a generated password", value: { user: EXAMPLE_SCRAM_USER, mechanism: "SCRAM-SHA-512", iterations: 8192 } },
    },
    response: scramChangeResultSchema,
    kafka: true,
  },
  {
    operationId: "deleteScramCredential",
    method: "delete",
    path: "/api/v1/scram-users",
    area: "SCRAM users",
    summary: "Delete one mechanism's credential, or the whole user",
    description:
      "Deletes the credential of one mechanism, or (without `mechanism`) every credential of the user, so the user can no longer sign in with SCRAM " +
      "(AlterUserScramCredentials as the caller: needs ALTER on CLUSTER). Sessions of that user end at their next credential check. 404 when there is no such credential.",
    body: scramCredentialDeleteSchema,
    bodyExamples: { user: { summary: "Delete the example user", value: { user: EXAMPLE_SCRAM_USER } } },
    response: scramChangeResultSchema,
    kafka: true,
    statuses: { 404: "The user has no such SCRAM credential" },
  },
];

// ---- ACLs -----------------------------------------------------------------------------

/** A binding nobody uses: the e2e test creates it with the `create` example and deletes it with the `delete` one. */
const EXAMPLE_BINDING = {
  resourceType: "TOPIC",
  resourceName: "ksc-api-example",
  patternType: "LITERAL",
  principal: "User:ksc-api-example",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
} as const;

const aclChangeResponse = z.union([aclApplyResultSchema, planViewSchema]);

const ACLS: ApiOperation[] = [
  {
    operationId: "listAcls",
    method: "get",
    path: "/api/v1/acls",
    area: "ACLs",
    summary: "ACLs the caller may describe, filtered, sorted and paged",
    description:
      "ACLs the caller may describe (needs DESCRIBE on CLUSTER), filtered, sorted and paged on the server from the console's shared ACL snapshot " +
      "(at most ACL_SNAPSHOT_MAX_AGE_MS old; `snapshot` says when it was read; refresh=true reads Kafka again). Every filter is optional.",
    query: aclListQuerySchema,
    queryExamples: {
      principal: { summary: "alice's ACLs, first page", value: { principal: "User:alice", page: 1 } },
      topics: { summary: "PREFIXED topic ACLs, by principal", value: { resourceType: "TOPIC", patternType: "PREFIXED", sort: "principal" } },
      match: { summary: "Every ACL that applies to topic orders (Kafka's MATCH), read fresh", value: { resourceType: "TOPIC", resourceName: "orders", nameMatch: "match", refresh: "true" } },
    },
    response: aclListResultSchema,
    kafka: true,
  },
  {
    operationId: "createAcls",
    method: "post",
    path: "/api/v1/acls",
    area: "ACLs",
    summary: "Create ACL bindings at once (or make a sealed plan of them)",
    description:
      "For scripts: create ACL bindings as the caller at once (needs ALTER on CLUSTER), audited like a plan's apply. Some bindings failing is a 200 with " +
      "outcome partial and per-binding results. When Kafka's answer is lost the ACLs are read back: confirmed bindings carry readBack applied; " +
      "when they cannot be read the outcome is unknown (a 503 saying it could not be confirmed when nothing was). With ?preview=1 or dryRun nothing changes: the answer is a sealed plan, as from POST /api/v1/plans " +
      "(Kafka's validation, no-ops, every decision that changes, the kafka-acls.sh commands); apply it with POST /api/v1/plans/{id}/apply.",
    query: aclPreviewQuerySchema,
    queryExamples: { preview: { summary: "Only the preview, whatever the body says", value: { preview: "1" } } },
    body: aclCreateBodySchema,
    bodyExamples: {
      preview: { summary: "Preview: what would change if User:ksc-api-example could read topic ksc-api-example", value: { bindings: [EXAMPLE_BINDING], dryRun: true } },
      create: { summary: "Create that binding", value: { bindings: [EXAMPLE_BINDING] } },
    },
    response: aclChangeResponse,
    kafka: true,
  },
  {
    operationId: "deleteAcls",
    method: "delete",
    path: "/api/v1/acls",
    area: "ACLs",
    summary: "Delete exactly these ACL bindings at once (or make a sealed plan of it)",
    description:
      "For scripts: delete exactly these ACL bindings as the caller at once (needs ALTER on CLUSTER), audited; a lost answer is settled by reading back, as for POST. With ?preview=1 or dryRun nothing changes: " +
      "the answer is a sealed plan, as from POST /api/v1/plans.",
    query: aclPreviewQuerySchema,
    queryExamples: { preview: { summary: "Only the preview, whatever the body says", value: { preview: "1" } } },
    body: aclDeleteBodySchema,
    bodyExamples: {
      preview: { summary: "Preview the deletion of the example binding", value: { bindings: [EXAMPLE_BINDING], dryRun: true } },
      delete: { summary: "Delete it", value: { bindings: [EXAMPLE_BINDING] } },
    },
    response: aclChangeResponse,
    kafka: true,
  },
];

// ---- ACLs as code ----------------------------------------------------------------------

/** The JSON export (the CSV and YAML exports hold the same bindings). */
const aclExportJsonSchema = z.object({
  format: z.literal("kafka-security-console/acls"),
  version: z.literal(1),
  exportedAt: z.string().meta({ description: "When the ACLs were read from Kafka (ISO 8601)" }),
  acls: z.array(aclBindingResponseSchema).meta({ description: "Every ACL, once each, sorted by principal, resource type, name, pattern type, operation, permission, host" }),
});

/** The example binding as an exported YAML file: importing it add-only plans to create it (nothing else). */
const EXAMPLE_IMPORT_YAML = [
  "principals:",
  `  - principal: "${EXAMPLE_BINDING.principal}"`,
  "    acls:",
  `      - resourceType: ${EXAMPLE_BINDING.resourceType}`,
  `        resourceName: "${EXAMPLE_BINDING.resourceName}"`,
  `        patternType: ${EXAMPLE_BINDING.patternType}`,
  `        operation: ${EXAMPLE_BINDING.operation}`,
  `        permissionType: ${EXAMPLE_BINDING.permissionType}`,
  `        host: "${EXAMPLE_BINDING.host}"`,
  "",
].join("\n");

const ACLS_AS_CODE: ApiOperation[] = [
  {
    operationId: "exportAcls",
    method: "get",
    path: "/api/v1/acls/export",
    area: "ACLs",
    summary: "Every ACL the caller may describe, as a file (JSON, CSV or YAML)",
    description:
      "Every ACL the caller may describe (needs DESCRIBE on CLUSTER), as a download: JSON (the policy CLI's { acls } shape), CSV (RFC 4180, the policy " +
      "CLI's header; a cell a spreadsheet would run as a formula gets one more leading apostrophe, which the import takes off again), or YAML grouped " +
      "by principal. Import an edited file with POST /api/v1/plans, kind acl.import.",
    query: aclExportQuerySchema,
    queryExamples: {
      json: { summary: "As JSON", value: { format: "json" } },
      csv: { summary: "As CSV", value: { format: "csv" } },
      yaml: { summary: "As YAML, grouped by principal", value: { format: "yaml" } },
    },
    response: aclExportJsonSchema,
    alternativeResponses: [
      { mediaType: "text/csv", description: "With format=csv: one binding per line after the header Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host" },
      { mediaType: "application/yaml", description: "With format=yaml: the bindings grouped by principal (the import reads exactly this layout)" },
    ],
    kafka: true,
  },
];

// ---- Quotas ---------------------------------------------------------------------------

/** A user nobody signs in as: the `set` example gives it a quota, the `remove` example takes it away. */
const EXAMPLE_QUOTA_ENTITY = { user: "ksc-api-example" };

const QUOTAS: ApiOperation[] = [
  {
    operationId: "listQuotas",
    method: "get",
    path: "/api/v1/quotas",
    area: "Quotas",
    summary: "Every configured client quota, grouped, with the KIP-55 budget",
    description:
      "Every configured client quota entity (DescribeClientQuotas as the caller: needs DESCRIBE_CONFIGS on CLUSTER), grouped, with the KIP-55 budget " +
      "per user and its findings (a console rule; Kafka does not enforce it).",
    response: quotasOverviewSchema,
    kafka: true,
  },
  {
    operationId: "alterQuota",
    method: "post",
    path: "/api/v1/quotas",
    area: "Quotas",
    summary: "Set or remove one quota key on one entity (or preview it as a sealed plan)",
    description:
      "Set (value) or remove (null) one quota key on one entity as the caller (ALTER_CONFIGS on CLUSTER), after Kafka's validation and the console's " +
      "KIP-55 rule, checked inside a per-user lock against a fresh read; audited. With dryRun nothing changes: the answer is a sealed plan of kind " +
      "quota.alter, as from POST /api/v1/plans (Kafka's validation, the KIP-55 check, every affected (user, client-id) pair with the quota Kafka " +
      "applies and the user's KIP-55 budget before and after, the kafka-configs.sh command); apply exactly it with POST /api/v1/plans/{id}/apply, " +
      "which answers 409 \"The quotas changed since this preview; preview again.\" when a quota it depends on changed in between.",
    body: quotaAlterationSchema,
    bodyExamples: {
      preview: { summary: "Preview a 1 MiB/s produce quota for user ksc-api-example", value: { entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: 1048576, dryRun: true } },
      set: { summary: "Set it", value: { entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: 1048576 } },
      remove: { summary: "Remove it again (value null)", value: { entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: null } },
    },
    response: z.union([quotaAlterResultSchema, quotaPlanViewSchema]),
    kafka: true,
    statuses: { 409: "Rejected by the console's KIP-55 sub-quota budget rule (Kafka itself would accept it), or other changes of the user's quotas were still in progress" },
  },
  {
    operationId: "explainAppliedQuota",
    method: "get",
    path: "/api/v1/quotas/applied",
    area: "Quotas",
    summary: "Which quota Kafka applies to a client",
    description:
      "Which quota Kafka applies to (user, clientId) per key, the deciding level and entity and the bucket; or, with ip instead of user, the connection-creation rate.",
    query: appliedQuotaQuerySchema,
    queryExamples: {
      client: { summary: "A client of alice with client.id reporting", value: { user: "alice", clientId: "reporting" } },
      ip: { summary: "Connections from one address", value: { ip: "203.0.113.10" } },
    },
    response: appliedQuotaSchema,
    kafka: true,
  },
];

// ---- Tokens ---------------------------------------------------------------------------

/** Well-formed, but the HMAC of no token: Kafka answers that it knows no such token. */
const UNKNOWN_HMAC = "a3NjLWFwaS1leGFtcGxlLW5vdC1hLXJlYWwtaG1hYw==";

const TOKENS: ApiOperation[] = [
  {
    operationId: "listTokens",
    method: "get",
    path: "/api/v1/tokens",
    area: "Tokens",
    summary: "Delegation tokens the caller may see, without HMACs",
    description: "Delegation tokens the caller may see (own, requested, renewer, or DESCRIBE_TOKENS on USER:<owner>), without HMACs.",
    response: tokenListSchema,
    kafka: true,
  },
  {
    operationId: "createToken",
    method: "post",
    path: "/api/v1/tokens",
    area: "Tokens",
    summary: "Create a delegation token (the answer carries its HMAC, once)",
    description:
      "Create a delegation token as the caller, for the caller or (KIP-373) another owner (needs CREATE_TOKENS on USER:<owner>), audited. " +
      "The answer carries the HMAC, the only time the console hands it out (it keeps none); it is sent with Cache-Control: no-store.",
    body: tokenCreateSchema,
    bodyExamples: {
      own: { summary: "A token for yourself that lives at most one hour", value: { maxLifetimeMs: 3600000 } },
    },
    response: tokenCreatedSchema,
    kafka: true,
    links: {
      renew: {
        operationId: "renewToken",
        description: "Renew the new token with its HMAC",
        requestBody: { tokenId: "{$response.body#/token/tokenId}", hmac: "{$response.body#/hmac}", periodHours: 1 },
      },
      expire: {
        operationId: "expireToken",
        description: "Expire the new token at once",
        requestBody: { tokenId: "{$response.body#/token/tokenId}", hmac: "{$response.body#/hmac}", when: "now" },
      },
    },
  },
  {
    operationId: "renewToken",
    method: "post",
    path: "/api/v1/tokens/renew",
    area: "Tokens",
    summary: "Renew a token identified by its HMAC",
    description: "Renew a token identified by its HMAC (only its owner and renewers may), audited without the HMAC.",
    body: tokenRenewSchema,
    bodyExamples: {
      unknown: { summary: "The shape of a renewal (this HMAC belongs to no token: Kafka answers 404)", value: { hmac: UNKNOWN_HMAC, periodHours: 24 } },
    },
    response: tokenExpiryResultSchema,
    kafka: true,
    statuses: { 404: "Kafka knows no token with this HMAC (expired or never created)" },
  },
  {
    operationId: "expireToken",
    method: "post",
    path: "/api/v1/tokens/expire",
    area: "Tokens",
    summary: "Expire a token identified by its HMAC, now or in N hours",
    description: "Expire a token identified by its HMAC, now or in N hours (only its owner and renewers may), audited without the HMAC.",
    body: tokenExpireSchema,
    bodyExamples: {
      now: { summary: "Expire at once (this HMAC belongs to no token: Kafka answers 404)", value: { hmac: UNKNOWN_HMAC, when: "now" } },
      later: { summary: "Expiry in 2 hours (this HMAC belongs to no token: Kafka answers 404)", value: { hmac: UNKNOWN_HMAC, when: "in", hours: 2 } },
    },
    response: tokenExpiryResultSchema,
    kafka: true,
    statuses: { 404: "Kafka knows no token with this HMAC (expired or never created)" },
  },
];

// ---- Token requests -------------------------------------------------------------------

const REQUEST_ID: Record<string, PathParam> = {
  id: {
    description: "The token request's id (from POST /api/v1/token-requests or the lists of GET /api/v1/token-requests)",
    schema: { type: "string", format: "uuid" },
    example: "00000000-0000-4000-8000-000000000000",
  },
};
const NO_SUCH_REQUEST = "There is no token request with this id";

const TOKEN_REQUESTS: ApiOperation[] = [
  {
    operationId: "listTokenRequests",
    method: "get",
    path: "/api/v1/token-requests",
    area: "Token requests",
    summary: "The caller's token requests, and the pending ones the caller may decide",
    description: "The caller's token requests, and every pending request marked by whether the caller appears entitled to approve it.",
    response: tokenRequestListsSchema,
    kafka: true,
  },
  {
    operationId: "submitTokenRequest",
    method: "post",
    path: "/api/v1/token-requests",
    area: "Token requests",
    summary: "Ask for a token for another owner",
    description: "Ask for a token for an owner the caller cannot create for (PENDING until approved or denied), audited.",
    body: tokenRequestCreateSchema,
    bodyExamples: {
      service: {
        summary: "A one-day token for svc-orders",
        value: { owner: "User:svc-orders", renewers: [], maxLifetimeMs: 86400000, reason: "Example request: the orders service's nightly export needs a token" },
      },
    },
    response: tokenRequestViewSchema,
    links: {
      approve: { operationId: "approveTokenRequest", description: "Approve this request", parameters: { id: "$response.body#/id" } },
      deny: { operationId: "denyTokenRequest", description: "Deny (or, as its requester, withdraw) this request", parameters: { id: "$response.body#/id" } },
      retrieve: { operationId: "retrieveRequestedToken", description: "Retrieve the token once it is approved", parameters: { id: "$response.body#/id" } },
    },
  },
  {
    operationId: "approveTokenRequest",
    method: "post",
    path: "/api/v1/token-requests/{id}/approve",
    area: "Token requests",
    summary: "Approve a pending request: the console creates the token as the caller",
    description:
      "The console creates the token as the caller with the requested owner, renewers and lifetime (Kafka decides: 403 with its reason, " +
      "the request stays PENDING); a requester cannot approve their own request. 409 when already decided (a token created by a losing approver is expired at once).",
    pathParams: REQUEST_ID,
    response: decidableRequestSchema,
    kafka: true,
    statuses: { 403: "Kafka refused to create the token as the caller, or the caller is the requester", 404: NO_SUCH_REQUEST, 409: "The request is no longer PENDING" },
  },
  {
    operationId: "denyTokenRequest",
    method: "post",
    path: "/api/v1/token-requests/{id}/deny",
    area: "Token requests",
    summary: "Deny a pending request with a reason",
    description: "Deny a pending request with a reason the requester sees (the requester may withdraw; others must appear entitled to approve).",
    pathParams: REQUEST_ID,
    body: tokenRequestDenySchema,
    bodyExamples: { withdraw: { summary: "A reason the requester sees", value: { reason: "Not needed any more" } } },
    response: tokenRequestViewSchema,
    kafka: true,
    statuses: { 403: "The caller does not appear entitled to approve this request", 404: NO_SUCH_REQUEST, 409: "The request is no longer PENDING" },
  },
  {
    operationId: "retrieveRequestedToken",
    method: "post",
    path: "/api/v1/token-requests/{id}/retrieve",
    area: "Token requests",
    summary: "The requester's one retrieval of an approved token's HMAC",
    description:
      "The requester's single retrieval of an approved token's HMAC (erased from the console in the same step; sent with Cache-Control: no-store). " +
      "409 once retrieved, before approval or after its deadline.",
    pathParams: REQUEST_ID,
    response: tokenRetrievedSchema,
    statuses: { 403: "Only the requester may retrieve the token", 404: NO_SUCH_REQUEST, 409: "Not approved, already retrieved, or past the retrieval deadline" },
  },
];

// ---- Plans ----------------------------------------------------------------------------

const PLAN_ID: Record<string, PathParam> = {
  id: {
    description: "The plan's id (from POST /api/v1/plans)",
    schema: { type: "string", format: "uuid" },
    example: "00000000-0000-4000-8000-000000000000",
  },
};
const NO_SUCH_PLAN = "There is no plan with this id (it may have expired and been removed)";
const NOT_YOUR_PLAN = "The plan was made by another principal: only they may see and apply it";

const PLANS: ApiOperation[] = [
  {
    operationId: "createPlan",
    method: "post",
    path: "/api/v1/plans",
    area: "Plans",
    summary: "Preview a change and keep it as a sealed plan",
    description:
      "Reads the ACLs Kafka holds now (needs DESCRIBE on CLUSTER) and answers the plan: exactly what Apply will create and delete, the bindings Kafka " +
      "would refuse, no-ops, the blast radius (every decision of the universe the console knows that changes: counts, rules for principals and " +
      "resources not yet seen, groups by principal and by resource, the first rows) and the equivalent kafka-acls.sh commands. Nothing changes in " +
      "Kafka. The plan is kept until expiresAt (PLAN_TTL_MINUTES); only its principal may see or apply it. Kinds: acl.create, acl.delete, acl.change; " +
      "acl.import (a desired-state file as the export writes it: add-only creates what Kafka lacks; sync also deletes what the file lacks inside a " +
      "scope of principals and/or a resource-name prefix; an empty file, sync without a scope, or a file with nothing inside the scope is a 400 and " +
      "deletes nothing); quota.alter (one key of one entity: every affected (user, client-id) pair with the quota Kafka applies and the KIP-55 " +
      "budget before and after, the kafka-configs.sh command; it reads the quotas, not the ACLs).",
    body: planCreateBodySchema,
    bodyExamples: {
      create: { summary: "Plan: User:ksc-api-example may read topic ksc-api-example", value: { kind: "acl.create", bindings: [EXAMPLE_BINDING] } },
      template: {
        summary: "Plan: the consumer template for User:ksc-api-example",
        value: { kind: "acl.create", template: { template: "consumer", principal: "User:ksc-api-example", topics: ["ksc-api-example"], group: "ksc-api-example" } },
      },
      delete: { summary: "Plan: delete the example binding (nothing to delete unless it exists)", value: { kind: "acl.delete", bindings: [EXAMPLE_BINDING] } },
      change: { summary: "Plan: delete one binding and create another", value: { kind: "acl.change", delete: [EXAMPLE_BINDING], create: [{ ...EXAMPLE_BINDING, operation: "DESCRIBE" }] } },
      import: {
        summary: "Plan: import a YAML file add-only (sync would also delete, inside scope, what the file lacks)",
        value: { kind: "acl.import", content: EXAMPLE_IMPORT_YAML, format: "yaml", mode: "add-only" },
      },
      quota: {
        summary: "Plan: a 1 MiB/s produce quota for user ksc-api-example",
        value: { kind: "quota.alter", entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: 1048576 },
      },
    },
    response: planViewSchema,
    kafka: true,
    links: {
      rows: { operationId: "getPlan", description: "Every decision change of this plan, paged", parameters: { id: "$response.body#/id" } },
      apply: { operationId: "applyPlan", description: "Apply exactly this plan", parameters: { id: "$response.body#/id" } },
      progress: { operationId: "getImportProgress", description: "An acl.import plan: how far its apply has come", parameters: { id: "$response.body#/id" } },
    },
  },
  {
    operationId: "getPlan",
    method: "get",
    path: "/api/v1/plans/{id}",
    area: "Plans",
    summary: "A plan as previewed, with one page of every decision change",
    description:
      "The plan as POST /api/v1/plans answered it (status now: OPEN, APPLYING, APPLIED, FAILED or EXPIRED), with `changes`: one page of every decision " +
      "that changes, in order (resource, principal, host, operation). When the ACLs the plan depends on changed since the preview, only its first rows " +
      "are still known (`complete: false`).",
    pathParams: PLAN_ID,
    query: planPageQuerySchema,
    queryExamples: { second: { summary: "Decision changes 51 to 100", value: { page: 2, pageSize: 50 } } },
    response: planPageViewSchema,
    kafka: true,
    statuses: { 403: `${NOT_YOUR_PLAN}. Or: Kafka refused to describe ACLs`, 404: NO_SUCH_PLAN },
  },
  {
    operationId: "applyPlan",
    method: "post",
    path: "/api/v1/plans/{id}/apply",
    area: "Plans",
    summary: "Apply exactly a previewed plan",
    description:
      "Claims the plan (once: a second apply, or one racing it, answers 409), reads the ACLs again from Kafka and refuses with 409 if those the plan " +
      "depends on changed since the preview (nothing is sent; preview again). Otherwise deletes, then creates, exactly the plan's bindings as the " +
      "caller, in batches, each batch audited with the plan id. A 200 may report outcome partial with per-binding results. 400 when the plan " +
      "cannot be applied at all (nothing to change, or bindings Kafka would refuse: see notApplicable).",
    pathParams: PLAN_ID,
    response: planApplyResultSchema,
    kafka: true,
    statuses: {
      403: `${NOT_YOUR_PLAN}. Or: Kafka refused the change`,
      404: NO_SUCH_PLAN,
      409: "Expired, already applied (or being applied), failed before, or the ACLs (for quota.alter: the quotas) it depends on changed since the preview: preview again",
    },
  },
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
      "While POST /api/v1/plans/{id}/apply runs an acl.import plan (deletes, then creates, in batches, each batch one audit event with the plan id), " +
      "how many batches are done or in flight and how many bindings Kafka confirmed or refused, read from the audit trail (true on every console " +
      "instance sharing the database). Only for the plan's principal.",
    pathParams: {
      id: { description: "The import plan's id (from POST /api/v1/plans with kind acl.import)", schema: { type: "string", format: "uuid" }, example: "00000000-0000-4000-8000-000000000000" },
    },
    response: aclImportProgressSchema,
    statuses: { 403: "The plan was made by another principal: only they may follow it", 404: "There is no import plan with this id" },
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
      "The audit events the caller may read (decided by what Kafka lets the caller describe), newest first, filtered; page on with the answer's nextCursor. " +
      "Every filter is optional. format=csv answers a CSV file instead.",
    query: auditQuerySchema,
    queryExamples: {
      signIns: { summary: "Successful sign-ins", value: { action: "session.sign-in", outcome: "success", limit: 20 } },
      day: { summary: "One principal's events on one day", value: { principal: "User:admin", from: "2026-12-01", to: "2026-12-01" } },
      csv: { summary: "The sign-ins as a CSV file", value: { action: "session.sign-in", format: "csv" } },
    },
    response: auditPageSchema,
    kafka: true,
    alternativeResponse: { mediaType: "text/csv", description: "With format=csv: the events as a CSV file (header row first)" },
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
      "This document (OpenAPI 3.1). It reveals nothing secret, but like every route except the sign-in it needs a session or Basic credentials: " +
      "the console lets no anonymous request past its first gate.",
    response: z.record(z.string(), z.unknown()).meta({ description: "An OpenAPI 3.1 document" }),
  },
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
  ...ACL_IMPORT_PROGRESS,
  ...AUDIT,
  ...API,
];
