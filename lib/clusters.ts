/**
 * Which Kafka clusters the console manages and how to reach each: the one place that
 * answers it. Everything cluster-specific (the connection settings, the SASL mechanisms a
 * user may sign in with, the brokers' `super.users` and `allow.everyone.if.no.acl.found`,
 * their principal mapping rules) is read here, per cluster id.
 *
 * Two sources, never mixed:
 *
 *   - CLUSTERS_FILE (YAML or JSON, see CLUSTERS_FILE_EXAMPLE) names every cluster. It is
 *     checked with zod and refused with every problem listed (each naming its place in
 *     the file), as lib/settings-check.ts asks at start. The single-cluster variables
 *     (KAFKA_BOOTSTRAP_SERVERS, KAFKA_SUPER_USERS, ...) are then refused: a cluster
 *     described twice would be described wrongly once.
 *   - Without it, the single-cluster settings lib/env.ts reads (checked by lib/kafka-config.ts
 *     and lib/authorizer-config.ts, the mapping rules taken as written) are one cluster
 *     with the id "default", so `npm start` still needs no configuration.
 *
 * The default cluster (the file's `default`, else its first cluster) is the one meant by
 * an address or API call that names none.
 */
import { readFileSync, statSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { clusterSettings, pickSettings, type ClusterSettings, type SettingName } from "./env";
import { KafkaConfigError, loadKafkaConfig, type KafkaConfig } from "./kafka-config";
import { KAFKA_MECHANISMS, type KafkaCredential, type KafkaMechanism } from "./kafka-credential";
import { authorizerConfigProblems, readAuthorizerConfig } from "./authorizer-config";
import { parseKerberosRules, parseSslRules, splitKerberosRules } from "./policy";
import type { AccessCheckAssumptions } from "./schemas/access-check";
import { OIDC_VARIABLES, oidcFromVariables, oidcSchema, toOidcSettings, type OidcSettings } from "./oidc-settings";

type Env = ClusterSettings | Readonly<Record<string, string | undefined>>;

/** The id of the one cluster the environment variables describe (no CLUSTERS_FILE). */
export const DEFAULT_CLUSTER_ID = "default";

/** The client.id of the console's connections when KAFKA_CLIENT_ID is unset. */
const DEFAULT_CLIENT_ID = "kafka-security-console";

/** The brokers' principal mapping properties, exactly as written in server.properties (null: unset, i.e. DEFAULT). */
export interface PrincipalMappingSettings {
  sslRules: string | null;
  kerberosRules: string | null;
  /** krb5.conf's default realm, which the DEFAULT Kerberos rule compares with (null: ""). */
  kerberosDefaultRealm: string | null;
}

export interface Cluster {
  /** URL-safe slug: lower-case letters, digits and dashes. */
  id: string;
  displayName: string;
  kafka: KafkaConfig;
  /** The mechanisms the sign-in offers for this cluster, in the order given. */
  saslMechanisms: readonly KafkaMechanism[];
  /** `super.users` and `allow.everyone.if.no.acl.found` as the console assumes them. */
  authorizer: AccessCheckAssumptions;
  principalMapping: PrincipalMappingSettings;
  /**
   * The console's service principal on this cluster, from the credentials file the operator
   * named (KAFKA_SERVICE_CREDENTIALS_FILE, or the clusters file's serviceCredentialsFile);
   * null when none is configured. Used only for decisions no signed-in user can make alone
   * (lib/services/service-principal.ts), never to show a user what they could not read.
   */
  servicePrincipal: ServicePrincipal | null;
  /** How requests for changes are reviewed on this cluster, and how long grants may last. */
  requests: RequestPolicy;
  /** The history journal's background read and retention (#20, docs/history.md). */
  history: HistorySettings;
  /** Single sign-on with an OpenID Connect provider (#21, docs/sso.md); null: password sign-in only. */
  oidc: OidcSettings | null;
}

export interface HistorySettings {
  /** Seconds between background reads; 0: off. */
  intervalSeconds: number;
  retentionDays: number;
}

export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { intervalSeconds: 60, retentionDays: 400 };

const historySchema = z
  .object({
    intervalSeconds: z
      .number({ error: "intervalSeconds must be a number of seconds (0: off)" })
      .int("intervalSeconds must be a whole number of seconds")
      .min(0, "intervalSeconds must be 0 (off) or more")
      .max(86_400, "intervalSeconds must be at most a day (86400)")
      .refine((n) => n === 0 || n >= 5, "intervalSeconds must be 0 (off) or at least 5")
      .default(DEFAULT_HISTORY_SETTINGS.intervalSeconds),
    retentionDays: z
      .number({ error: "retentionDays must be a number of days" })
      .int("retentionDays must be a whole number of days")
      .min(1, "retentionDays must be at least 1")
      .max(36_500, "retentionDays must be at most 100 years")
      .default(DEFAULT_HISTORY_SETTINGS.retentionDays),
  })
  .strict();

/** A cluster's rules for requests (#19): four-eyes, how long a request waits, the longest grant, owners. */
export interface RequestPolicy {
  /** Approvals by people other than the maker a change needs before it is applied; 0: four-eyes off. */
  approvals: number;
  timeoutHours: number;
  maxGrantMinutes: number;
  /**
   * Owners of resources by type and name prefix: a change touching such a resource is approved only by
   * one of its owners (or a super user), and a grant on it lasts at most its maxGrantMinutes.
   */
  owners: readonly OwnerRule[];
}

export interface OwnerRule {
  resourceType: (typeof OWNED_RESOURCE_TYPES)[number];
  /** A resource-name prefix ("" owns every resource of the type). */
  prefix: string;
  principals: readonly string[];
  maxGrantMinutes?: number | undefined;
}

export const OWNED_RESOURCE_TYPES = [
  "TOPIC",
  "GROUP",
  "TRANSACTIONAL_ID",
  "CLUSTER",
  "USER",
  "DELEGATION_TOKEN",
] as const;

export const DEFAULT_REQUEST_POLICY: RequestPolicy = {
  approvals: 0,
  timeoutHours: 72,
  maxGrantMinutes: 480,
  owners: [],
};

const ownerRuleSchema = z
  .object({
    resourceType: z.enum(OWNED_RESOURCE_TYPES, {
      error: `resourceType must be one of ${OWNED_RESOURCE_TYPES.join(", ")}`,
    }),
    prefix: z.string({ error: 'prefix must be a string ("" for every name)' }),
    principals: z
      .array(
        z
          .string({ error: "each owner must be a principal Type:name" })
          .refine((s) => /^[^:\s]+:\S/.test(s), "each owner must be a principal Type:name, e.g. User:alice"),
        { error: "principals must be a list of principals" },
      )
      .min(1, "principals must name at least one owner"),
    maxGrantMinutes: z
      .number({ error: "maxGrantMinutes must be a number of minutes" })
      .int("maxGrantMinutes must be a whole number of minutes")
      .positive("maxGrantMinutes must be more than 0")
      .optional(),
  })
  .strict();

const requestPolicySchema = z
  .object({
    approvals: z
      .number({ error: "approvals must be a whole number from 0 to 5" })
      .int("approvals must be a whole number from 0 to 5")
      .min(0, "approvals must be a whole number from 0 to 5")
      .max(5, "approvals must be a whole number from 0 to 5")
      .default(DEFAULT_REQUEST_POLICY.approvals),
    timeoutHours: z
      .number({ error: "timeoutHours must be a number of hours" })
      .positive("timeoutHours must be more than 0")
      .max(24 * 365, "timeoutHours must be at most a year")
      .default(DEFAULT_REQUEST_POLICY.timeoutHours),
    maxGrantMinutes: z
      .number({ error: "maxGrantMinutes must be a number of minutes" })
      .int("maxGrantMinutes must be a whole number of minutes")
      .positive("maxGrantMinutes must be more than 0")
      .max(366 * 24 * 60, "maxGrantMinutes must be at most a year")
      .default(DEFAULT_REQUEST_POLICY.maxGrantMinutes),
    owners: z.array(ownerRuleSchema, { error: "owners must be a list" }).default([]),
  })
  .strict();

export interface ServicePrincipal {
  /** `User:<username>`. */
  principal: string;
  /** The file it was read from (for messages; its content is never shown). */
  file: string;
  credential: KafkaCredential;
}

export interface ClusterRegistry {
  clusters: readonly Cluster[];
  defaultId: string;
  /** The clusters file read, or null when the environment describes the one cluster. */
  file: string | null;
}

/** The variables that describe the single cluster; with CLUSTERS_FILE the file says all of it. */
export const SINGLE_CLUSTER_VARIABLES = [
  "KAFKA_BOOTSTRAP_SERVERS",
  "KAFKA_SECURITY_PROTOCOL",
  "KAFKA_TLS_CA_FILE",
  "KAFKA_TLS_CERT_FILE",
  "KAFKA_TLS_KEY_FILE",
  "KAFKA_TLS_REJECT_UNAUTHORIZED",
  "KAFKA_SUPER_USERS",
  "KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND",
  "KAFKA_SSL_PRINCIPAL_MAPPING_RULES",
  "KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES",
  "KAFKA_KERBEROS_DEFAULT_REALM",
  "KAFKA_SERVICE_CREDENTIALS_FILE",
  "KAFKA_REQUIRED_APPROVALS",
  "KAFKA_REQUEST_TIMEOUT_HOURS",
  "KAFKA_MAX_GRANT_MINUTES",
  "KAFKA_RESOURCE_OWNERS",
  "KAFKA_HISTORY_INTERVAL_SECONDS",
  "KAFKA_HISTORY_RETENTION_DAYS",
  ...(Object.keys(OIDC_VARIABLES) as (keyof typeof OIDC_VARIABLES)[]),
] as const satisfies readonly SettingName[];

export const CLUSTERS_FILE_EXAMPLE = `# CLUSTERS_FILE=clusters.yaml (JSON works too)
default: dev                        # optional; else the first cluster
clusters:
  - id: dev                         # in addresses: /c/dev/acls
    name: Development
    bootstrapServers: [127.0.0.1:9092]
    securityProtocol: SASL_PLAINTEXT  # or SASL_SSL
    saslMechanisms: [SCRAM-SHA-512, SCRAM-SHA-256, PLAIN]
    superUsers: [User:admin]        # the brokers' super.users
    allowEveryoneIfNoAclFound: false
    # serviceCredentialsFile: /etc/kafka-console/dev-service.yaml  # the console's service principal (optional)
    # requests: { approvals: 0, timeoutHours: 72, maxGrantMinutes: 480 }  # four-eyes off (the default)
    # history: { intervalSeconds: 60, retentionDays: 400 }  # the journal's background read (the default)
  - id: prod-eu
    name: Production (EU)
    bootstrapServers: [kafka-1.example:9093, kafka-2.example:9093]
    securityProtocol: SASL_SSL
    tls: { caFile: /etc/kafka/ca.pem, rejectUnauthorized: true }  # also certFile, keyFile
    saslMechanisms: [SCRAM-SHA-512]
    superUsers: [User:admin, User:ops]
    requests:
      approvals: 2                  # four-eyes: two people besides the maker approve every change
      maxGrantMinutes: 240
      owners:                       # only these approve changes on their resources (and super users)
        - { resourceType: TOPIC, prefix: payments-, principals: [User:payments-lead], maxGrantMinutes: 60 }
    oidc:                           # single sign-on (docs/sso.md); the brokers need an OAUTHBEARER listener
      name: Okta                    # "Sign in with Okta"
      issuer: https://example.okta.com/oauth2/default
      clientId: kafka-security-console
      clientSecretFile: /etc/kafka-console/okta-secret   # omit for a public client (PKCE only)
      scopes: [openid, profile, offline_access, kafka]
      principalClaim: sub           # the brokers' sasl.oauthbearer.sub.claim.name
      audience: api://kafka         # the brokers' sasl.oauthbearer.expected.audience
      bootstrapServers: [kafka-1.example:9097]  # the OAUTHBEARER listener, if not bootstrapServers
      # only: true                  # no password form for this cluster
    principalMapping:
      sslRules: "RULE:^CN=([^,]*),.*$/$1/L,DEFAULT"
      kerberosRules: DEFAULT
      kerberosDefaultRealm: EXAMPLE.COM
`;

const hostPort = /^(\[[0-9a-fA-F:.]+\]|[^\s:,]+):(\d{1,5})$/;
const nonBlank = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`);

/** `a,b` or `[a, b]`, as a list of trimmed non-empty entries. */
const listOf = (separator: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `must be a list (or one string separated by "${separator}")` })
    .transform((v) =>
      (typeof v === "string" ? v.split(separator) : v).map((s) => s.trim()).filter((s) => s.length > 0),
    );

const clusterSchema = z
  .object({
    id: z
      .string({ error: "id must be a string" })
      .regex(
        /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/,
        "id must be a URL-safe slug: lower-case letters, digits and dashes (at most 40, no dash first or last)",
      ),
    name: nonBlank("name").optional(),
    bootstrapServers: listOf(",").pipe(
      z
        .array(
          z
            .string()
            .refine((s) => hostPort.test(s) && Number(s.slice(s.lastIndexOf(":") + 1)) <= 65535, "must be host:port"),
        )
        .min(1, "bootstrapServers must name at least one host:port"),
    ),
    securityProtocol: z
      .enum(["SASL_PLAINTEXT", "SASL_SSL"], { error: "securityProtocol must be SASL_PLAINTEXT or SASL_SSL" })
      .default("SASL_PLAINTEXT"),
    tls: z
      .object({
        caFile: nonBlank("caFile").optional(),
        certFile: nonBlank("certFile").optional(),
        keyFile: nonBlank("keyFile").optional(),
        rejectUnauthorized: z.boolean({ error: "rejectUnauthorized must be true or false" }).default(true),
      })
      .strict()
      .optional(),
    saslMechanisms: z
      .array(z.enum(KAFKA_MECHANISMS, { error: `each mechanism must be one of ${KAFKA_MECHANISMS.join(", ")}` }))
      .min(1, "saslMechanisms must offer at least one mechanism")
      .default([...KAFKA_MECHANISMS]),
    superUsers: listOf(";")
      .pipe(
        z.array(
          z
            .string()
            .refine(
              (s) => s.includes(":"),
              "must be a principal Type:name (e.g. User:admin); Kafka would refuse to start with it",
            ),
        ),
      )
      .default([]),
    allowEveryoneIfNoAclFound: z.boolean({ error: "allowEveryoneIfNoAclFound must be true or false" }).default(false),
    principalMapping: z
      .object({
        sslRules: z.string({ error: "sslRules must be a string" }).nullable().default(null),
        kerberosRules: z.string({ error: "kerberosRules must be a string" }).nullable().default(null),
        kerberosDefaultRealm: z.string({ error: "kerberosDefaultRealm must be a string" }).nullable().default(null),
      })
      .strict()
      .default({ sslRules: null, kerberosRules: null, kerberosDefaultRealm: null }),
    serviceCredentialsFile: nonBlank("serviceCredentialsFile").optional(),
    requests: requestPolicySchema.default(() => ({ ...DEFAULT_REQUEST_POLICY, owners: [] })),
    history: historySchema.default(() => ({ ...DEFAULT_HISTORY_SETTINGS })),
    oidc: oidcSchema.optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (c.tls && c.securityProtocol !== "SASL_SSL")
      problem(["tls"], "tls is set but securityProtocol is SASL_PLAINTEXT; set it to SASL_SSL");
    if (c.tls && Boolean(c.tls.certFile) !== Boolean(c.tls.keyFile))
      problem(["tls"], "certFile and keyFile must be set together");
    for (const key of ["caFile", "certFile", "keyFile"] as const) {
      const file = c.tls?.[key];
      if (file === undefined) continue;
      const unreadable = readError(file);
      if (unreadable) problem(["tls", key], `${file} cannot be read: ${unreadable}`);
    }
    if (c.serviceCredentialsFile !== undefined) {
      const read = readServiceCredentials(c.serviceCredentialsFile, c.id);
      if ("problems" in read) for (const p of read.problems) problem(["serviceCredentialsFile"], p);
    }
    try {
      parseSslRules(c.principalMapping.sslRules);
    } catch (error) {
      problem(["principalMapping", "sslRules"], `a broker would refuse to start with these rules: ${messageOf(error)}`);
    }
    try {
      const rules = c.principalMapping.kerberosRules;
      parseKerberosRules(
        c.principalMapping.kerberosDefaultRealm ?? "",
        rules === null ? null : splitKerberosRules(rules),
      );
    } catch (error) {
      problem(
        ["principalMapping", "kerberosRules"],
        `a broker would refuse to start with these rules: ${messageOf(error)}`,
      );
    }
  });

const fileSchema = z
  .object({
    default: z.string({ error: "default must be a cluster id" }).optional(),
    clusters: z
      .array(clusterSchema, { error: "clusters must be a list of clusters" })
      .min(1, "clusters must name at least one cluster"),
  })
  .strict()
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    f.clusters.forEach((c, i) => {
      if (seen.has(c.id))
        ctx.addIssue({
          code: "custom",
          path: ["clusters", i, "id"],
          message: `id "${c.id}" is used by an earlier cluster`,
        });
      seen.add(c.id);
    });
    if (f.default !== undefined && !seen.has(f.default))
      ctx.addIssue({
        code: "custom",
        path: ["default"],
        message: `default "${f.default}" is not the id of a cluster in the file`,
      });
  });

export class ClustersError extends Error {
  override name = "ClustersError";
  constructor(readonly problems: string[]) {
    super(`Invalid clusters settings:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readError(file: string): string | null {
  try {
    readFileSync(file);
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

const serviceCredentialsSchema = z
  .object({
    username: nonBlank("username"),
    password: z.string({ error: "password must be a string" }).min(1, "password must not be empty"),
    mechanism: z
      .enum(KAFKA_MECHANISMS, { error: `mechanism must be one of ${KAFKA_MECHANISMS.join(", ")}` })
      .default("SCRAM-SHA-512"),
  })
  .strict();

/**
 * The service principal in `file` (JSON or YAML: username, password, mechanism), or the
 * problems with the file. It holds a password: like the console's secret key file it must
 * not be readable by other users, and no problem ever quotes its content.
 */
export function readServiceCredentials(file: string, clusterId: string): ServicePrincipal | { problems: string[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
    const mode = statSync(file).mode;
    if (process.platform !== "win32" && (mode & 0o077) !== 0) {
      return {
        problems: [
          `${file} is readable by other users (mode ${(mode & 0o777).toString(8)}); it holds a password: run ` +
            `chmod 600 ${file}`,
        ],
      };
    }
  } catch (error) {
    return { problems: [`${file} cannot be read: ${messageOf(error)}`] };
  }
  let document: unknown;
  try {
    document = /^\s*[[{]/.test(text) ? JSON.parse(text) : parseYaml(text);
  } catch {
    return { problems: [`${file} is not valid JSON or YAML (its content is not shown: it holds a password)`] };
  }
  const parsed = serviceCredentialsSchema.safeParse(document);
  if (!parsed.success)
    return { problems: parsed.error.issues.map((i) => `${file}: ${pathName(i.path) || "the file"}: ${i.message}`) };
  const { username, password, mechanism } = parsed.data;
  return { principal: `User:${username}`, file, credential: { username, password, mechanism, clusterId } };
}

/** `clusters[1].tls.caFile` for the zod path ["clusters", 1, "tls", "caFile"]. */
function pathName(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out;
}

/** The document in `text`, read as JSON when it looks like JSON, else as YAML. */
function parseDocument(text: string, file: string): unknown {
  try {
    return /^\s*[[{]/.test(text) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ClustersError([
      `CLUSTERS_FILE=${file}: not valid ${/^\s*[[{]/.test(text) ? "JSON" : "YAML"}: ${messageOf(error).split("\n")[0]}`,
    ]);
  }
}

/**
 * The clusters a clusters file names; throws ClustersError listing every problem, each with its place in the file.
 * `clientId`: the client.id of their connections (KAFKA_CLIENT_ID).
 */
export function parseClustersFile(text: string, file: string, clientId = DEFAULT_CLIENT_ID): ClusterRegistry {
  const parsed = fileSchema.safeParse(parseDocument(text, file));
  if (!parsed.success) {
    throw new ClustersError(
      parsed.error.issues.map((i) => `CLUSTERS_FILE=${file}: ${pathName(i.path) || "the file"}: ${i.message}`),
    );
  }
  const clusters = parsed.data.clusters.map((c): Cluster => {
    const tls = c.tls
      ? {
          rejectUnauthorized: c.tls.rejectUnauthorized,
          ...(c.tls.caFile ? { ca: readFileSync(c.tls.caFile, "utf8") } : {}),
          ...(c.tls.certFile ? { cert: readFileSync(c.tls.certFile, "utf8") } : {}),
          ...(c.tls.keyFile ? { key: readFileSync(c.tls.keyFile, "utf8") } : {}),
        }
      : c.securityProtocol === "SASL_SSL"
        ? { rejectUnauthorized: true }
        : undefined;
    return {
      id: c.id,
      displayName: c.name ?? c.id,
      kafka: { bootstrapServers: c.bootstrapServers, securityProtocol: c.securityProtocol, tls, clientId },
      saslMechanisms: [...new Set(c.saslMechanisms)],
      authorizer: {
        superUsers: c.superUsers,
        allowEveryoneIfNoAclFound: c.allowEveryoneIfNoAclFound,
        source: `the clusters file's superUsers of "${c.id}"`,
        warnings: [],
      },
      principalMapping: c.principalMapping,
      servicePrincipal:
        c.serviceCredentialsFile === undefined
          ? null
          : (readServiceCredentials(c.serviceCredentialsFile, c.id) as ServicePrincipal),
      requests: c.requests,
      history: c.history,
      oidc: c.oidc === undefined ? null : toOidcSettings(c.oidc),
    };
  });
  return { clusters, defaultId: parsed.data.default ?? clusters[0]!.id, file };
}

/** A variable's text as a number for the schema to judge ("" and unset: its default; not a number: NaN, refused). */
function numberOrUndefined(text: string | undefined): number | undefined {
  const t = text?.trim();
  return t === undefined || t === "" ? undefined : Number(t);
}

function clientIdOf(env: Env): string {
  return env.KAFKA_CLIENT_ID?.trim() || DEFAULT_CLIENT_ID;
}

/** The one cluster today's environment variables describe. Throws ClustersError listing every problem. */
function environmentCluster(env: Env): ClusterRegistry {
  const problems: string[] = [];
  let kafka: KafkaConfig | undefined;
  try {
    kafka = loadKafkaConfig(env);
  } catch (error) {
    if (!(error instanceof KafkaConfigError)) throw error;
    problems.push(error.message);
  }
  problems.push(...authorizerConfigProblems(env));
  const e = pickSettings(env, [
    "KAFKA_SSL_PRINCIPAL_MAPPING_RULES",
    "KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES",
    "KAFKA_KERBEROS_DEFAULT_REALM",
    "KAFKA_SERVICE_CREDENTIALS_FILE",
    "KAFKA_REQUIRED_APPROVALS",
    "KAFKA_REQUEST_TIMEOUT_HOURS",
    "KAFKA_MAX_GRANT_MINUTES",
    "KAFKA_RESOURCE_OWNERS",
    "KAFKA_HISTORY_INTERVAL_SECONDS",
    "KAFKA_HISTORY_RETENTION_DAYS",
    ...(Object.keys(OIDC_VARIABLES) as (keyof typeof OIDC_VARIABLES)[]),
  ]);
  const history = historySchema.safeParse({
    intervalSeconds: numberOrUndefined(e.KAFKA_HISTORY_INTERVAL_SECONDS),
    retentionDays: numberOrUndefined(e.KAFKA_HISTORY_RETENTION_DAYS),
  });
  if (!history.success)
    for (const issue of history.error.issues)
      problems.push(
        `${issue.path[0] === "retentionDays" ? "KAFKA_HISTORY_RETENTION_DAYS" : "KAFKA_HISTORY_INTERVAL_SECONDS"}: ` +
          issue.message,
      );
  let owners: unknown = undefined;
  try {
    owners = e.KAFKA_RESOURCE_OWNERS?.trim() ? parseYaml(e.KAFKA_RESOURCE_OWNERS) : undefined;
  } catch (error) {
    problems.push(`KAFKA_RESOURCE_OWNERS: not YAML or JSON: ${messageOf(error)}`);
  }
  const requests = requestPolicySchema.safeParse({
    approvals: numberOrUndefined(e.KAFKA_REQUIRED_APPROVALS),
    timeoutHours: numberOrUndefined(e.KAFKA_REQUEST_TIMEOUT_HOURS),
    maxGrantMinutes: numberOrUndefined(e.KAFKA_MAX_GRANT_MINUTES),
    owners,
  });
  if (!requests.success) {
    const names: Record<string, string> = {
      approvals: "KAFKA_REQUIRED_APPROVALS",
      timeoutHours: "KAFKA_REQUEST_TIMEOUT_HOURS",
      maxGrantMinutes: "KAFKA_MAX_GRANT_MINUTES",
      owners: "KAFKA_RESOURCE_OWNERS",
    };
    for (const issue of requests.error.issues)
      problems.push(`${names[String(issue.path[0])] ?? "requests"}: ${issue.message}`);
  }
  let servicePrincipal: ServicePrincipal | null = null;
  if (e.KAFKA_SERVICE_CREDENTIALS_FILE !== undefined) {
    const read = readServiceCredentials(e.KAFKA_SERVICE_CREDENTIALS_FILE.trim(), DEFAULT_CLUSTER_ID);
    if ("problems" in read) problems.push(...read.problems.map((p) => `KAFKA_SERVICE_CREDENTIALS_FILE: ${p}`));
    else servicePrincipal = read;
  }
  const oidc = oidcFromVariables(e);
  if (oidc !== null && "problems" in oidc) problems.push(...oidc.problems);
  if (problems.length > 0 || !kafka) throw new ClustersError(problems);
  return {
    clusters: [
      {
        id: DEFAULT_CLUSTER_ID,
        displayName: kafka.bootstrapServers.join(","),
        kafka,
        saslMechanisms: KAFKA_MECHANISMS,
        authorizer: readAuthorizerConfig(env),
        principalMapping: {
          sslRules: e.KAFKA_SSL_PRINCIPAL_MAPPING_RULES ?? null,
          kerberosRules: e.KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES ?? null,
          kerberosDefaultRealm: e.KAFKA_KERBEROS_DEFAULT_REALM ?? null,
        },
        servicePrincipal,
        requests: requests.success ? requests.data : DEFAULT_REQUEST_POLICY,
        history: history.success ? history.data : DEFAULT_HISTORY_SETTINGS,
        oidc: oidc as OidcSettings | null,
      },
    ],
    defaultId: DEFAULT_CLUSTER_ID,
    file: null,
  };
}

/** Every cluster the settings describe; throws ClustersError listing every problem. */
export function loadClusters(env: Env = clusterSettings()): ClusterRegistry {
  const file = env.CLUSTERS_FILE?.trim();
  if (!file) return environmentCluster(env);
  const problems = SINGLE_CLUSTER_VARIABLES.filter((name) => (env[name] ?? "").trim() !== "").map(
    (name) => `${name}: set together with CLUSTERS_FILE; the clusters file describes every cluster, so say it there`,
  );
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    problems.push(`CLUSTERS_FILE=${file} cannot be read: ${messageOf(error)}`);
  }
  let registry: ClusterRegistry | undefined;
  if (text !== undefined) {
    try {
      registry = parseClustersFile(text, file, clientIdOf(env));
    } catch (error) {
      if (!(error instanceof ClustersError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0 || !registry) throw new ClustersError(problems);
  return registry;
}

/** Each problem with the clusters settings as one line; empty when they are fine (lib/settings-check.ts). */
export function clusterProblems(env: Env = clusterSettings()): string[] {
  try {
    loadClusters(env);
    return [];
  } catch (error) {
    if (error instanceof ClustersError) return error.problems;
    throw error;
  }
}

let cached: { key: string; registry: ClusterRegistry } | undefined;

/**
 * The clusters of the process's settings, read again only when a variable they come from
 * changes (tests set them per case; a running console never does).
 */
function registry(): ClusterRegistry {
  const settings = clusterSettings();
  const key = JSON.stringify(settings);
  if (cached?.key !== key) cached = { key, registry: loadClusters(settings) };
  return cached.registry;
}

/** Every cluster, in the order the settings name them. */
export function clusters(): readonly Cluster[] {
  return registry().clusters;
}

export function defaultClusterId(): string {
  return registry().defaultId;
}

/** The cluster with this id, or undefined when no cluster has it. */
export function findCluster(id: string): Cluster | undefined {
  return registry().clusters.find((c) => c.id === id);
}

/** The cluster with this id (the default cluster when none is given); throws for an id no cluster has. */
export function clusterById(id: string | undefined | null = undefined): Cluster {
  const wanted = id ?? registry().defaultId;
  const cluster = findCluster(wanted);
  if (!cluster) throw new UnknownClusterError(wanted);
  return cluster;
}

/** The id of the cluster a credential is for: the one it names, else the default cluster. */
export function clusterIdOf(cred: Pick<KafkaCredential, "clusterId">): string {
  return cred.clusterId ?? defaultClusterId();
}

/** The cluster a credential (a viewer's, a plan's) is for. */
export function clusterOf(cred: Pick<KafkaCredential, "clusterId">): Cluster {
  return clusterById(clusterIdOf(cred));
}

export class UnknownClusterError extends Error {
  override name = "UnknownClusterError";
  constructor(readonly clusterId: string) {
    super(`No cluster has the id "${clusterId}".`);
  }
}

/** Tests change the environment between cases: forget the cached clusters. */
export function resetClustersForTests(): void {
  cached = undefined;
}
