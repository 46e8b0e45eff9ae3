/**
 * Every setting of the console, in one zod schema, and the one module that reads
 * process.env (a lint fence, eslint.config.js, refuses it anywhere else in app/,
 * components/ and lib/). Each setting carries its documentation (settingDocs: what it
 * means, its default, whether the build reads it), from which scripts/docs-config.ts
 * writes docs/configuration.md.
 *
 * The schema is made of sections, each checked by the code that gives it meaning, with the
 * values read here handed down:
 *
 *   - consoleSchema: the server's own settings, parsed once by env() (parseEnv).
 *   - kafkaConnectionSchema and clusterSettingsSchema: where Kafka is and what the console
 *     assumes of its brokers; lib/clusters.ts (with lib/kafka-config.ts and
 *     lib/authorizer-config.ts) turns them, or the CLUSTERS_FILE, into clusters.
 *   - secretKeySchema: the key lib/auth/crypto.ts encrypts stored secrets with.
 *   - embeddedDatabaseSchema: the embedded PGlite server (lib/db/embedded.ts).
 *
 * A bad value stops the start with every problem listed (lib/settings-check.ts asks all
 * sections together). The sections other than the console's are read again at each use
 * (their readers cache what they build from them): the launcher sets DATABASE_URL and the
 * tests change the Kafka and key variables between cases. A few settings are read by the
 * build or by shell scripts, not by the console: EXTERNAL_SETTINGS documents them.
 */
import { z } from "zod";

/** Environment variables as given: name to raw value. */
export type Settings = Readonly<Record<string, string | undefined>>;

// ---- Documentation of each setting ---------------------------------------------------

export const SETTING_SECTIONS = {
  kafka: "Kafka clusters",
  database: "Console database",
  secret: "Secret key",
  server: "Server",
  external: "Read by the build and the scripts",
} as const;

export type SettingSection = keyof typeof SETTING_SECTIONS;

export interface SettingDoc {
  section: SettingSection;
  /** Markdown, one paragraph. */
  description: string;
  /** Markdown; when absent, the schema's default value (or "unset"). */
  default?: string;
  /** Read when the app is built (next.config.ts, or inlined in a bundle): changing it needs a new build. */
  buildTime?: boolean;
}

/** The documentation of each field of envSchema. */
export const settingDocs = z.registry<SettingDoc>();

function documented(section: SettingSection) {
  type More = Omit<SettingDoc, "section" | "description">;
  return <T extends z.ZodType>(schema: T, description: string, more: More = {}) => {
    settingDocs.add(schema, { section, description, ...more });
    return schema;
  };
}

const kafkaDoc = documented("kafka");
const databaseDoc = documented("database");
const secretDoc = documented("secret");
const serverDoc = documented("server");

// ---- Shared value types ----------------------------------------------------------------

const booleanString = (error?: string) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], error ? { error } : undefined)
    .transform((v) => v === "true" || v === "1" || v === "yes");

const trueOrFalse = booleanString("must be true or false");

const positiveNumber = (name: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, `${name} must be a positive number`)
    .transform(Number)
    .refine((n) => n > 0 && Number.isFinite(n), `${name} must be a positive number`);

const origin = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.origin === s.replace(/\/$/, "");
  } catch {
    return false;
  }
}, "each entry must be an origin such as https://console.example.com (scheme, host and port only)");

const portNumber = (name: string) => z.string().regex(/^\d{1,5}$/, `${name} must be a port number`);

// ---- Kafka clusters --------------------------------------------------------------------

/** Where the single cluster is and how to reach it (lib/kafka-config.ts checks them together). */
export const kafkaConnectionSchema = z.object({
  KAFKA_BOOTSTRAP_SERVERS: kafkaDoc(z.string().trim().min(1).optional(), "your cluster, e.g. `b1:9092,b2:9092`", {
    default: "unset: start the local broker at `127.0.0.1:$KAFKA_PORT`",
  }),
  KAFKA_SECURITY_PROTOCOL: kafkaDoc(z.enum(["SASL_PLAINTEXT", "SASL_SSL"]).default("SASL_PLAINTEXT"), "or `SASL_SSL`"),
  KAFKA_TLS_CA_FILE: kafkaDoc(
    z.string().min(1).optional(),
    "PEM bundle that signs the brokers' certificates (with `SASL_SSL`)",
  ),
  KAFKA_TLS_CERT_FILE: kafkaDoc(
    z.string().min(1).optional(),
    "client certificate (PEM), when the listener asks for one; with `KAFKA_TLS_KEY_FILE`",
  ),
  KAFKA_TLS_KEY_FILE: kafkaDoc(z.string().min(1).optional(), "the client certificate's key (PEM)"),
  KAFKA_TLS_REJECT_UNAUTHORIZED: kafkaDoc(booleanString().default(true), "set `false` only for a test cluster"),
  KAFKA_PORT: kafkaDoc(
    portNumber("KAFKA_PORT").optional(),
    "port of the local dev broker's client listener (and of the default `KAFKA_BOOTSTRAP_SERVERS`)",
    { default: "`9092`" },
  ),
  KAFKA_CLIENT_ID: kafkaDoc(
    z.string().trim().min(1).default("kafka-security-console"),
    "the `client.id` the brokers see on the console's connections (every cluster)",
  ),
});

/**
 * What the console cannot read from the brokers, and the clusters file. Raw text: Kafka's
 * own reading rules apply (lib/authorizer-config.ts, lib/clusters.ts).
 */
export const clusterSettingsSchema = z.object({
  CLUSTERS_FILE: kafkaDoc(
    z.string().optional(),
    "a YAML or JSON file naming several clusters (below); the single-cluster Kafka variables are then refused",
    { default: "unset: the variables of this section describe one cluster" },
  ),
  KAFKA_SUPER_USERS: kafkaDoc(
    z.string().optional(),
    "the brokers' `super.users` (`;`-separated), which a client cannot read; used to explain and preview decisions",
    { default: "`User:admin` with the local broker, else none" },
  ),
  KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: kafkaDoc(
    z.string().optional(),
    "the brokers' `allow.everyone.if.no.acl.found`, likewise (anything but `true` is read as `false`, as Kafka does)",
    { default: "`false`" },
  ),
  KAFKA_SERVICE_CREDENTIALS_FILE: kafkaDoc(
    z.string().optional(),
    "the console's **service principal**: a file (mode 0600; JSON or YAML with `username`, `password`, " +
      "`mechanism`, default `SCRAM-SHA-512`) for a principal that needs only DESCRIBE on the cluster. When a " +
      "signed-in user cannot describe ACLs, the console reads them with it to decide who may approve a token " +
      "request (never to show anyone ACLs) and audits each read as that principal (`service.acls.describe`, " +
      "naming the requests and the user). Without it only the owner, super users and those Kafka shows tokens " +
      "they created for the owner see a request. In `CLUSTERS_FILE`: `serviceCredentialsFile` per cluster",
    { default: "unset: none (`npm start` with the local broker: `.kafka/console-service.json`)" },
  ),
  KAFKA_REQUIRED_APPROVALS: kafkaDoc(
    z.string().optional(),
    "**four-eyes**: how many people other than its maker must approve an ACL, quota or SCRAM change before it " +
      "is applied (`0`: off, anyone Kafka lets make a change applies it; `1` or more: every change goes through " +
      "a request, and only super users may apply at once, with a reason: break-glass). In `CLUSTERS_FILE`: " +
      "`requests.approvals` per cluster",
    { default: "`0`" },
  ),
  KAFKA_REQUEST_TIMEOUT_HOURS: kafkaDoc(
    z.string().optional(),
    "how long a request waits for a decision before it times out. In `CLUSTERS_FILE`: `requests.timeoutHours`",
    { default: "`72`" },
  ),
  KAFKA_MAX_GRANT_MINUTES: kafkaDoc(
    z.string().optional(),
    "the longest a grant that ends by itself may last (ACLs a request creates for a while); removals run as " +
      "the service principal, which then needs ALTER on the cluster. In `CLUSTERS_FILE`: `requests.maxGrantMinutes`",
    { default: "`480` (8 hours)" },
  ),
  KAFKA_HISTORY_INTERVAL_SECONDS: kafkaDoc(
    z.string().optional(),
    "how often the console reads the cluster's ACLs, client quotas and SCRAM users as its service principal to " +
      "find changes made outside it, in seconds (`0`: off; needs a service principal). In `CLUSTERS_FILE`: " +
      "`history.intervalSeconds`",
    { default: "`60`" },
  ),
  KAFKA_HISTORY_RETENTION_DAYS: kafkaDoc(
    z.string().optional(),
    "how long the history journal keeps changes, in days; older ones are folded into a checkpoint. In " +
      "`CLUSTERS_FILE`: `history.retentionDays`",
    { default: "`400`" },
  ),
  KAFKA_RESOURCE_OWNERS: kafkaDoc(
    z.string().optional(),
    "owners of resources by type and name prefix, as YAML or JSON: " +
      "`[{resourceType: TOPIC, prefix: payments-, principals: [User:bob], maxGrantMinutes: 60}]`. A change " +
      "touching an owned resource is approved only by one of its owners (or a super user), and a grant on it " +
      "lasts at most its `maxGrantMinutes`. In `CLUSTERS_FILE`: `requests.owners`",
    { default: "none: anyone Kafka lets make a change may approve it" },
  ),
  KAFKA_SSL_PRINCIPAL_MAPPING_RULES: kafkaDoc(
    z.string().optional(),
    "the brokers' `ssl.principal.mapping.rules`, exactly as written in server.properties (which a client " +
      "cannot read); used by Identities, the access check and the ACL lint",
    { default: "unset (`DEFAULT`)" },
  ),
  KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES: kafkaDoc(
    z.string().optional(),
    "the brokers' `sasl.kerberos.principal.to.local.rules`, likewise",
    { default: "unset (`DEFAULT`)" },
  ),
  KAFKA_KERBEROS_DEFAULT_REALM: kafkaDoc(
    z.string().optional(),
    "the brokers' Kerberos default realm (krb5.conf), which the Kerberos `DEFAULT` rule compares with",
    { default: 'unset (`""`)' },
  ),
  KAFKA_OIDC_ISSUER: kafkaDoc(
    z.string().optional(),
    "single sign-on (docs/sso.md): the OpenID Connect provider's issuer URL; the sign-in page then offers " +
      '"Sign in with …" and the console reaches Kafka with the person\'s access token (SASL/OAUTHBEARER). ' +
      "In `CLUSTERS_FILE`: `oidc.issuer` (and the same names below)",
    { default: "unset: password sign-in only" },
  ),
  KAFKA_OIDC_NAME: kafkaDoc(z.string().optional(), "the provider's name on the sign-in button", {
    default: "the issuer's host",
  }),
  KAFKA_OIDC_CLIENT_ID: kafkaDoc(z.string().optional(), "the console's client id at the provider"),
  KAFKA_OIDC_CLIENT_SECRET_FILE: kafkaDoc(z.string().optional(), "a file holding the client's secret", {
    default: "unset: a public client (PKCE only)",
  }),
  KAFKA_OIDC_SCOPES: kafkaDoc(z.string().optional(), "scopes asked for, space-separated (must include `openid`)", {
    default: "`openid profile offline_access`",
  }),
  KAFKA_OIDC_PRINCIPAL_CLAIM: kafkaDoc(
    z.string().optional(),
    "the access token's claim the brokers name the principal by (their `sasl.oauthbearer.sub.claim.name`)",
    { default: "`sub`" },
  ),
  KAFKA_OIDC_AUDIENCE: kafkaDoc(
    z.string().optional(),
    "the audience access tokens must carry (the brokers' `sasl.oauthbearer.expected.audience`)",
    { default: "unset: not checked" },
  ),
  KAFKA_OIDC_RESOURCE: kafkaDoc(z.string().optional(), "an RFC 8707 resource indicator to ask tokens for"),
  KAFKA_OIDC_BOOTSTRAP_SERVERS: kafkaDoc(
    z.string().optional(),
    "the brokers' OAUTHBEARER listener, when it is not `KAFKA_BOOTSTRAP_SERVERS`",
  ),
  KAFKA_OIDC_ONLY: kafkaDoc(z.string().optional(), "`true`: offer only single sign-on (no password form)", {
    default: "`false`",
  }),
});

// ---- Console database --------------------------------------------------------------------

export const embeddedDatabaseSchema = z.object({
  EMBEDDED_DB_PORT: databaseDoc(
    z.string().optional(),
    "port on 127.0.0.1 of the embedded database (without `DATABASE_URL`); `0` picks a free one",
    { default: "`54329`" },
  ),
  EMBEDDED_DB_MAX_CONNECTIONS: databaseDoc(
    z.string().optional(),
    "simultaneous connections the embedded database accepts (more are refused)",
    { default: "`64`" },
  ),
});

// ---- Secret key --------------------------------------------------------------------------

/** Raw: lib/auth/crypto.ts parses the key when it first needs it. */
export const secretKeySchema = z.object({
  CONSOLE_SECRET_KEY: secretDoc(
    z.string().optional(),
    "32-byte key (hex or base64) encrypting stored credentials and HMACs; **required in production** " +
      "(`openssl rand -base64 32`)",
    { default: "unset: a development key generated in `~/.config/kafka-security-console/secret.key`" },
  ),
  CONSOLE_SECRET_KEY_FILE: secretDoc(
    z.string().optional(),
    "a file holding that key instead (outside production it is created, mode 0600, when missing)",
  ),
  CONSOLE_SECRET_KEY_PREVIOUS: secretDoc(
    z.string().optional(),
    "earlier keys (comma-separated, same formats), only to decrypt what they encrypted; remove them once old " +
      "sessions and token requests have expired",
  ),
  XDG_CONFIG_HOME: secretDoc(
    z.string().optional(),
    "where the development key is kept (`$XDG_CONFIG_HOME/kafka-security-console/secret.key`)",
    { default: "`~/.config`" },
  ),
});

// ---- Server ------------------------------------------------------------------------------

/** The console's own settings: env() parses them once. */
export const consoleSchema = z.object({
  NODE_ENV: serverDoc(
    z.enum(["development", "production", "test"]).default("development"),
    "`production` (what `scripts/server.ts` runs with) never generates a secret key; `development` (`next dev`) " +
      "lets the pages' scripts use eval",
  ),
  PORT: serverDoc(portNumber("PORT").default("3000"), "the port the console listens on"),
  HOST: serverDoc(z.string().min(1).default("127.0.0.1"), "the address the console listens on"),
  SESSION_TTL_HOURS: serverDoc(positiveNumber("SESSION_TTL_HOURS").default(8), "session lifetime"),
  CREDENTIAL_REVERIFY_MINUTES: serverDoc(
    positiveNumber("CREDENTIAL_REVERIFY_MINUTES").default(5),
    "how often, while a session is in use, its Kafka credential is proven again (a revoked credential ends " +
      "the session)",
  ),
  COOKIE_SECURE: serverDoc(trueOrFalse.default(false), "set `true` behind HTTPS (also turns on HSTS)"),
  TRUST_PROXY: serverDoc(
    trueOrFalse.default(false),
    "`true` behind a reverse proxy: the client address is the entry the proxy appended to `X-Forwarded-For`; " +
      "otherwise always the socket address",
  ),
  ALLOWED_ORIGINS: serverDoc(
    z
      .string()
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .pipe(z.array(origin))
      .default([]),
    "comma-separated origins (e.g. `https://console.example.com`) besides the console's own from which browsers " +
      "may send changes; set it to the public origin behind a reverse proxy. next.config.ts hands it to Next's " +
      "server-action check",
    { default: "none", buildTime: true },
  ),
  MAX_BODY_BYTES: serverDoc(
    positiveNumber("MAX_BODY_BYTES").default(4 * 1024 * 1024),
    "largest API request body (413 beyond), and largest form a server action accepts (next.config.ts)",
    { buildTime: true },
  ),
  REQUEST_TIMEOUT_SECONDS: serverDoc(
    positiveNumber("REQUEST_TIMEOUT_SECONDS").default(30),
    "a request whose headers and body have not arrived by then is answered 408 and closed",
  ),
  WEBHOOK_ALLOW_HTTP: serverDoc(
    trueOrFalse.default(false),
    "`true` lets a cluster's webhook use plain `http://` (otherwise only `https://`)",
  ),
  WEBHOOK_ALLOWED_HOSTS: serverDoc(
    z
      .string()
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim().toLowerCase())
          .filter(Boolean),
      )
      .default([]),
    "comma-separated host names or IP addresses a webhook may reach although they are loopback, private, " +
      "link-local or metadata addresses (refused otherwise, checked after DNS resolution)",
    { default: "none" },
  ),
  PLAN_TTL_MINUTES: serverDoc(
    positiveNumber("PLAN_TTL_MINUTES").default(30),
    "how long a previewed plan can be applied",
  ),
  GRANT_REMOVAL_STALE_SECONDS: serverDoc(
    positiveNumber("GRANT_REMOVAL_STALE_SECONDS").default(300),
    "how long an expired grant's removal claimed by a console instance may take before another instance takes " +
      "it over (the first is taken to have died)",
  ),
  ACL_SNAPSHOT_MAX_AGE_MS: serverDoc(
    positiveNumber("ACL_SNAPSHOT_MAX_AGE_MS").default(5_000),
    "how old the shared ACL snapshot may be before it is fetched again",
  ),
  ACL_VIEWER_PROOF_MAX_AGE_MS: serverDoc(
    positiveNumber("ACL_VIEWER_PROOF_MAX_AGE_MS")
      .refine((n) => n <= 30_000, "ACL_VIEWER_PROOF_MAX_AGE_MS must be at most 30000 (30 s)")
      .default(30_000),
    "how long Kafka's answer that a viewer may describe ACLs (DESCRIBE on CLUSTER) is reused (at most 30 s)",
  ),
  SHUTDOWN_TIMEOUT_SECONDS: serverDoc(
    positiveNumber("SHUTDOWN_TIMEOUT_SECONDS").default(8),
    "on SIGTERM/SIGINT, how long requests being served may take to finish before their connections are cut",
  ),
  METRICS_PORT: serverDoc(
    portNumber("METRICS_PORT").optional(),
    "Prometheus metrics at `/metrics` on this port (on `HOST`, no token: for a network only the scraper reaches)",
    { default: "unset: none" },
  ),
  METRICS_TOKEN: serverDoc(
    z.string().min(24, "METRICS_TOKEN must be at least 24 characters (a random secret)").optional(),
    "Prometheus metrics at `/api/metrics` on the console's port for `Authorization: Bearer <token>` " +
      "(at least 24 characters)",
    { default: "unset: none" },
  ),
  LOG_LEVEL: serverDoc(
    z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
    "least severe log line written (JSON lines on stdout): `fatal`, `error`, `warn`, `info`, `debug` (adds the " +
      "probes' requests), `trace`, `silent`",
  ),
  HEAP_GROWING_PERCENT: serverDoc(
    z
      .string()
      .regex(/^\d+$/, "HEAP_GROWING_PERCENT must be a whole number (0: V8's own factor)")
      .transform(Number)
      .refine((n) => n <= 300, "HEAP_GROWING_PERCENT must be at most 300")
      .default(20),
    "how far (percent) V8 lets the server's heap grow past what its last full collection kept; `0` leaves V8's " +
      "own factor, which under load let the RSS reach 565 MB at 100,000 ACLs where `20` kept it at 372 MB, for " +
      "roughly 20% fewer requests per second",
  ),
  DATABASE_URL: databaseDoc(z.string().min(1).optional(), "PostgreSQL for sessions, audit, plans and token requests", {
    default: "unset: embedded PGlite in `.data/pglite`",
  }),
  DATABASE_POOL_MAX: databaseDoc(
    z
      .string()
      .regex(/^\d+$/, "DATABASE_POOL_MAX must be a positive whole number")
      .transform(Number)
      .refine((n) => n >= 1, "DATABASE_POOL_MAX must be a positive whole number")
      .default(10),
    "connections to the console database in each console instance's pool",
  ),
});

const { CLUSTERS_FILE, ...brokerAssumptions } = clusterSettingsSchema.shape;
const { DATABASE_URL, DATABASE_POOL_MAX, ...serverSettings } = consoleSchema.shape;

/** Every setting the console reads (in the order docs/configuration.md lists them). */
export const envSchema = z.object({
  CLUSTERS_FILE,
  ...kafkaConnectionSchema.shape,
  ...brokerAssumptions,
  DATABASE_URL,
  DATABASE_POOL_MAX,
  ...embeddedDatabaseSchema.shape,
  ...secretKeySchema.shape,
  ...serverSettings,
});

export type SettingName = keyof typeof envSchema.shape;
export type ConsoleEnv = z.infer<typeof consoleSchema>;
type ClusterSettingName = keyof typeof clusterSettingsSchema.shape | keyof typeof kafkaConnectionSchema.shape;
export type ClusterSettings = Partial<Record<ClusterSettingName, string>>;

/** Settings read by `next build` (next.config.ts) and the shell scripts, never by the console. */
export const EXTERNAL_SETTINGS: readonly ({ name: string } & Omit<SettingDoc, "section">)[] = [
  {
    name: "NEXT_DIST_DIR",
    default: "`.next`",
    buildTime: true,
    description: "Next's build folder (several builds can coexist)",
  },
  {
    name: "KSC_BUILD_SKIP_TYPECHECK",
    default: "unset",
    buildTime: true,
    description:
      "`1`: `next build` skips its type check (`npm start` sets it; `npm run typecheck` checks the same " + "sources)",
  },
  { name: "KAFKA_CONTROLLER_PORT", default: "`9093`", description: "the local dev broker's controller port" },
  {
    name: "KAFKA_SASL_SSL_PORT",
    default: "`KAFKA_PORT`+2 (`9094`)",
    description: "the local dev broker's SASL_SSL listener",
  },
  {
    name: "KAFKA_MTLS_PORT",
    default: "`KAFKA_PORT`+3 (`9095`)",
    description: "the local dev broker's SSL listener that requires a client certificate",
  },
  {
    name: "KAFKA_HEAP",
    default: "`-Xmx1536m -Xms256m`",
    description: "the local dev broker's heap (enough for 300,000 ACLs)",
  },
  {
    name: "KAFKA_STOP_TIMEOUT",
    default: "`60`",
    description: "how many seconds `npm run kafka:stop` waits for a clean shutdown before killing the broker",
  },
  { name: "KAFKA_STATE_DIR", default: "`.kafka`", description: "the local dev broker's data, logs and TLS files" },
  {
    name: "KAFKA_CLUSTER_BASE_PORT",
    default: "`19092`",
    description:
      "the local 3-broker cluster (`npm run kafka:start -- --brokers 3`): node N's SASL_PLAINTEXT " +
      "listener is this + N-1, its controller +10, SASL_SSL +20, mTLS +30",
  },
  { name: "KAFKA_CLUSTER_STATE_DIR", default: "`.kafka-cluster`", description: "the local 3-broker cluster's state" },
  { name: "SEED", default: "unset", description: "`0`: `npm start` writes no demo data to the local broker" },
];

// ---- Reading -----------------------------------------------------------------------------

const SETTING_NAMES = Object.keys(envSchema.shape) as SettingName[];

/** The variables `keys` of `env`, a blank value read as unset (as a shell `VAR=` means). */
export function pickSettings<K extends string>(env: Settings, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = env[key];
    out[key] = value === undefined || value.trim() === "" ? undefined : value;
  }
  return out;
}

/** The settings as the environment has them now (raw text, blank read as unset). */
export function currentSettings(): Partial<Record<SettingName, string>> {
  return pickSettings(process.env, SETTING_NAMES);
}

export class EnvError extends Error {
  override name = "EnvError";
  constructor(readonly problems: string[]) {
    super(`Invalid console settings in the environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** Parses the console's own settings; throws EnvError listing every bad variable. */
export function parseEnv(env: Settings = process.env): ConsoleEnv {
  const parsed = consoleSchema.safeParse(pickSettings(env, Object.keys(consoleSchema.shape)));
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".") || "environment"}: ${i.message}`));
  }
  return parsed.data;
}

let cached: ConsoleEnv | undefined;

/** The console's own settings, read once per process. */
export function env(): ConsoleEnv {
  cached ??= parseEnv();
  return cached;
}

/** Tests change the environment between cases: forget the cached settings. */
export function resetEnvForTests(): void {
  cached = undefined;
}

/**
 * DATABASE_URL now: the launcher sets it when it serves the embedded database, and the
 * integration tests point it at a fresh database per file.
 */
export function databaseUrl(): string | undefined {
  return pickSettings(process.env, ["DATABASE_URL"]).DATABASE_URL;
}

const CLUSTER_SETTING_NAMES = [
  ...Object.keys(clusterSettingsSchema.shape),
  ...Object.keys(kafkaConnectionSchema.shape),
] as (keyof ClusterSettings)[];

/** The Kafka and cluster settings now (raw; lib/clusters.ts checks them, or the CLUSTERS_FILE). */
export function clusterSettings(): ClusterSettings {
  return pickSettings(process.env, CLUSTER_SETTING_NAMES);
}

export type SecretKeySettings = Partial<Record<keyof typeof secretKeySchema.shape | "NODE_ENV", string>>;

/** The secret key settings now (raw; lib/auth/crypto.ts parses the key), with NODE_ENV. */
export function secretKeySettings(): SecretKeySettings {
  const names = [...Object.keys(secretKeySchema.shape), "NODE_ENV"] as (keyof SecretKeySettings)[];
  return pickSettings(process.env, names);
}

export type EmbeddedDatabaseSettings = Partial<Record<keyof typeof embeddedDatabaseSchema.shape, string>>;

/** The embedded database's settings now (raw; lib/db/embedded.ts checks them when it starts). */
export function embeddedDatabaseSettings(): EmbeddedDatabaseSettings {
  return pickSettings(process.env, Object.keys(embeddedDatabaseSchema.shape) as (keyof EmbeddedDatabaseSettings)[]);
}
