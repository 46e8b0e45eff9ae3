/**
 * The console's own settings, read from the environment once and checked with zod. A bad
 * value stops the start with every problem listed (instrumentation.ts, and the launcher,
 * call lib/settings-check.ts, which asks this module, the Kafka settings and the
 * authorizer assumptions together); nothing else in the console reads process.env for
 * these settings.
 *
 * Kafka's connection settings are checked the same way in lib/kafka-config.ts, the
 * authorizer assumptions in lib/authorizer-config.ts.
 */
import { z } from "zod";

const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

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

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.string().regex(/^\d{1,5}$/, "PORT must be a port number").default("3000"),
  HOST: z.string().min(1).default("127.0.0.1"),
  SESSION_TTL_HOURS: positiveNumber("SESSION_TTL_HOURS").default(8),
  /** How often (minutes of use) a session's Kafka credential is proven again. */
  CREDENTIAL_REVERIFY_MINUTES: positiveNumber("CREDENTIAL_REVERIFY_MINUTES").default(5),
  COOKIE_SECURE: booleanString.default(false),
  TRUST_PROXY: booleanString.default(false),
  /**
   * Origins (besides the console's own) whose cookie-authenticated requests may change
   * state, comma-separated: the public origin behind a reverse proxy.
   */
  ALLOWED_ORIGINS: z
    .string()
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(origin))
    .default([]),
  /** Largest JSON body an API route accepts, in bytes. */
  MAX_BODY_BYTES: positiveNumber("MAX_BODY_BYTES").default(4 * 1024 * 1024),
  /**
   * How long a client may take to send a whole request (headers and body), in seconds;
   * a slower one gets 408 and is disconnected (scripts/server.ts, lib/api/route.ts).
   */
  REQUEST_TIMEOUT_SECONDS: positiveNumber("REQUEST_TIMEOUT_SECONDS").default(30),
  PLAN_TTL_MINUTES: positiveNumber("PLAN_TTL_MINUTES").default(30),
  /**
   * How old (ms) the shared ACL snapshot may be when a page or API answer uses it; older
   * ones are fetched again (lib/services/acl-snapshot.ts).
   */
  ACL_SNAPSHOT_MAX_AGE_MS: positiveNumber("ACL_SNAPSHOT_MAX_AGE_MS").default(5_000),
  /**
   * How long (ms, at most 30,000) a viewer's proven right to describe ACLs (DESCRIBE on
   * CLUSTER, asked of Kafka) is trusted before Kafka is asked again.
   */
  ACL_VIEWER_PROOF_MAX_AGE_MS: positiveNumber("ACL_VIEWER_PROOF_MAX_AGE_MS")
    .refine((n) => n <= 30_000, "ACL_VIEWER_PROOF_MAX_AGE_MS must be at most 30000 (30 s)")
    .default(30_000),
  /**
   * On SIGTERM/SIGINT, how long (seconds) requests still being served may take to finish
   * before their connections are cut (scripts/server.ts).
   */
  SHUTDOWN_TIMEOUT_SECONDS: positiveNumber("SHUTDOWN_TIMEOUT_SECONDS").default(8),
  /**
   * Prometheus metrics on a port of their own (path /metrics, no token: for a network only
   * the scraper reaches), on HOST. Unset: no such port.
   */
  METRICS_PORT: z.string().regex(/^\d{1,5}$/, "METRICS_PORT must be a port number").optional(),
  /** Prometheus metrics at /api/metrics on the console's port for `Authorization: Bearer <token>`. Unset: not served. */
  METRICS_TOKEN: z.string().min(24, "METRICS_TOKEN must be at least 24 characters (a random secret)").optional(),
  /** The least severe log line written (JSON lines on stdout). */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent" }).default("info"),
  /**
   * The brokers' principal mapping settings, exactly as written in server.properties (unset:
   * the property is unset, i.e. DEFAULT). The console cannot read them from Kafka; the
   * Identities page, the access check and the ACL lint map certificates and Kerberos
   * principals with them (lib/services/identities.ts).
   */
  KAFKA_SSL_PRINCIPAL_MAPPING_RULES: z.string().optional(),
  KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES: z.string().optional(),
  /** The brokers' Kerberos default realm (krb5.conf), which the DEFAULT Kerberos rule compares realms with. Unset: "". */
  KAFKA_KERBEROS_DEFAULT_REALM: z.string().optional(),
  /**
   * How much V8 lets the server's heap grow past what its last full collection kept, in
   * percent (scripts/server.ts applies it). 0: V8's own factor (up to 4x under load).
   */
  HEAP_GROWING_PERCENT: z
    .string()
    .regex(/^\d+$/, "HEAP_GROWING_PERCENT must be a whole number (0: V8's own factor)")
    .transform(Number)
    .refine((n) => n <= 300, "HEAP_GROWING_PERCENT must be at most 300")
    .default(20),
  DATABASE_URL: z.string().min(1).optional(),
  /** Connections in the console database pool of each console instance (lib/db/client.ts). */
  DATABASE_POOL_MAX: z
    .string()
    .regex(/^\d+$/, "DATABASE_POOL_MAX must be a positive whole number")
    .transform(Number)
    .refine((n) => n >= 1, "DATABASE_POOL_MAX must be a positive whole number")
    .default(10),
});

export type ConsoleEnv = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
  constructor(readonly problems: string[]) {
    super(`Invalid console settings in the environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** The variables `keys` of `env`, a blank value read as unset (as a shell `VAR=` means). */
export function pickSettings(env: Readonly<Record<string, string | undefined>>, keys: readonly string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of keys) {
    const value = env[key];
    out[key] = value === undefined || value.trim() === "" ? undefined : value;
  }
  return out;
}

/** Parses the settings; throws EnvError listing every bad variable. */
export function parseEnv(env: Readonly<Record<string, string | undefined>> = process.env): ConsoleEnv {
  const parsed = envSchema.safeParse(pickSettings(env, Object.keys(envSchema.shape)));
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".") || "environment"}: ${i.message}`));
  }
  return parsed.data;
}

let cached: ConsoleEnv | undefined;

/** The process-wide settings, read once. */
export function env(): ConsoleEnv {
  cached ??= parseEnv();
  return cached;
}

/** Tests change the environment between cases: forget the cached settings. */
export function resetEnvForTests(): void {
  cached = undefined;
}
