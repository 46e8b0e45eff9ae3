/**
 * Kafka connections per signed-in user. The console acts *as* the user: each credential
 * gets its own Admin client (SASL-authenticated as that user, to the cluster the
 * credential names, lib/clusters.ts), kept in a pool keyed by (cluster, mechanism,
 * username, password hash) so a changed password never reuses an old connection, reused across requests, and closed
 * after IDLE_MS without use, at sign-out (closeConnectionsFor) or at shutdown (closeAllConnections).
 *
 * Kafka authenticates a connection once, when it opens: a connection keeps working after
 * the user's credential is deleted. So a pooled Admin lives at most maxAgeMs()
 * (CREDENTIAL_REVERIFY_MINUTES, the same period after which a session proves its
 * credential again) and is then replaced by a new one, which authenticates anew. A call
 * that fails with a SASL authentication error drops its pool entry and is remembered
 * (lastCredentialRejection), so sessions of that user prove their credential again at
 * once instead of at their next period.
 *
 * Server-only: never import lib/kafka from a client component.
 */
import { createHash } from "node:crypto";
import { Admin, AuthenticationError, type SASLOptions } from "@platformatic/kafka";
import { env } from "@/lib/env";
import { clusterIdOf, clusterOf } from "@/lib/clusters";
import type { KafkaConfig } from "@/lib/kafka-config";
import { KafkaOperationError, toKafkaOperationError, type ErrorContext } from "./errors";
import { recordKafkaCall } from "@/lib/observability/hooks";
import type { KafkaCredential } from "./types";

export const IDLE_MS = 5 * 60_000;
const SWEEP_MS = 30_000;

interface PoolEntry {
  admin: Admin;
  clusterId: string;
  username: string;
  createdAt: number;
  lastUsed: number;
  inflight: number;
  /** Out of the pool; closed as soon as its last call returns. */
  retired: boolean;
}

interface Pool {
  entries: Map<string, PoolEntry>;
  sweeper: NodeJS.Timeout | null;
  /** cluster id and username -> when a pooled call last failed SASL authentication. */
  rejections?: Map<string, number>;
}

// Kept on globalThis so Next's dev-mode module reloads do not orphan open connections.
const globalPool = globalThis as typeof globalThis & { __kafkaSecurityConsolePool?: Pool };
const pool: Pool = (globalPool.__kafkaSecurityConsolePool ??= { entries: new Map(), sweeper: null });
const rejections: Map<string, number> = (pool.rejections ??= new Map<string, number>());
const MAX_REJECTIONS_TRACKED = 10_000;

/** How long a pooled Admin may be used before it is replaced (and so re-authenticates). */
export function maxAgeMs(): number {
  return env().CREDENTIAL_REVERIFY_MINUTES * 60_000;
}

/**
 * How to reach the cluster a credential is for: its listener, or for a person signed in with
 * single sign-on, the brokers' OAUTHBEARER listener when the cluster names one.
 */
export function kafkaConfigOf(cred: Pick<KafkaCredential, "clusterId" | "mechanism">): KafkaConfig {
  const cluster = clusterOf(cred);
  const oauthListener = cred.mechanism === "OAUTHBEARER" ? cluster.oidc?.bootstrapServers : null;
  return oauthListener ? { ...cluster.kafka, bootstrapServers: [...oauthListener] } : cluster.kafka;
}

/**
 * A broker refusing an OAUTHBEARER token answers `{"status":"invalid_token",…}` (RFC 7628) instead of
 * failing the exchange: the refusal must end the authentication, once (the client's own validator
 * calls back twice and goes on as if authenticated).
 */
function refuseInvalidToken(authBytes: Buffer, callback: (error: Error | null, authBytes: Buffer) => void): void {
  let status: unknown;
  try {
    status = authBytes.length > 0 ? (JSON.parse(authBytes.toString("utf8")) as { status?: unknown }).status : undefined;
  } catch {
    status = undefined;
  }
  if (typeof status === "string" && status !== "success")
    callback(
      new AuthenticationError(`SASL authentication failed: the broker refused the token (${status}).`),
      authBytes,
    );
  else callback(null, authBytes);
}

/** The SASL options of a credential: its password, or the person's current access token. */
export function saslOf(cred: KafkaCredential): SASLOptions {
  if (cred.mechanism !== "OAUTHBEARER")
    return { mechanism: cred.mechanism, username: cred.username, password: cred.password };
  const oauth = cred.oauth;
  if (!oauth) throw new Error("an OAUTHBEARER credential needs its token");
  return { mechanism: "OAUTHBEARER", token: oauth.token, authBytesValidator: refuseInvalidToken };
}

/** Users are per cluster: alice on one cluster is not alice on another. */
function userKey(cred: Pick<KafkaCredential, "clusterId" | "username">): string {
  return `${clusterIdOf(cred)}\u0000${cred.username}`;
}

/**
 * When a pooled call of this user (on the credential's cluster) last failed SASL authentication (epoch ms), if ever.
 */
export function lastCredentialRejection(cred: Pick<KafkaCredential, "clusterId" | "username">): number | undefined {
  return rejections.get(userKey(cred));
}

/**
 * Records that Kafka refused a credential of this user (a pooled call, or a session's
 * re-proof), so every session of that user on that cluster proves its credential again at once.
 */
export function rememberRejection(cred: Pick<KafkaCredential, "clusterId" | "username">): void {
  const username = userKey(cred);
  rejections.delete(username);
  rejections.set(username, Date.now());
  if (rejections.size > MAX_REJECTIONS_TRACKED) {
    const oldest = rejections.keys().next().value;
    if (oldest !== undefined) rejections.delete(oldest);
  }
}

/** Takes `entry` out of the pool; closes it now if idle, else when its last call returns. */
function retire(key: string, entry: PoolEntry): void {
  if (pool.entries.get(key) === entry) pool.entries.delete(key);
  entry.retired = true;
  if (entry.inflight === 0) void entry.admin.close().catch(() => undefined);
}

export function principalOf(cred: Pick<KafkaCredential, "username">): string {
  return `User:${cred.username}`;
}

function poolKey(cred: KafkaCredential): string {
  // A session's connections outlive its tokens: they re-authenticate with the next one.
  if (cred.oauth) return `${clusterIdOf(cred)}\u0000OAUTHBEARER\u0000${cred.username}\u0000${cred.oauth.key}`;
  const passwordHash = createHash("sha256").update(cred.password).digest("hex");
  return `${clusterIdOf(cred)}\u0000${cred.mechanism}\u0000${cred.username}\u0000${passwordHash}`;
}

/** A new Admin for `cred` (to its cluster unless `config` says otherwise); nothing is sent until the first call. */
export function createAdmin(
  cred: KafkaCredential,
  config: KafkaConfig = kafkaConfigOf(cred),
  overrides: { retries?: number } = {},
): Admin {
  return new Admin({
    clientId: config.clientId,
    bootstrapBrokers: config.bootstrapServers,
    sasl: saslOf(cred),
    ...(config.tls ? { tls: config.tls } : {}),
    connectTimeout: 5_000,
    requestTimeout: 30_000,
    retries: overrides.retries ?? 1,
    retryDelay: 250,
  });
}

function ensureSweeper(): void {
  if (pool.sweeper) return;
  pool.sweeper = setInterval(() => {
    const now = Date.now();
    const maxAge = maxAgeMs();
    for (const [key, entry] of pool.entries) {
      if (entry.inflight === 0 && (now - entry.lastUsed > IDLE_MS || now - entry.createdAt >= maxAge))
        retire(key, entry);
    }
    if (pool.entries.size === 0 && pool.sweeper) {
      clearInterval(pool.sweeper);
      pool.sweeper = null;
    }
  }, SWEEP_MS);
  pool.sweeper.unref();
}

/**
 * Runs `fn` with the pooled Admin of `cred`. Errors from the Kafka client come out as
 * KafkaOperationError (named after `api`, with the resources it was about, so denials
 * name the missing permission); a credential the broker rejects drops its pooled connection.
 */
export async function withAdmin<T>(
  cred: KafkaCredential,
  api: string | Omit<ErrorContext, "principal">,
  fn: (admin: Admin) => Promise<T>,
): Promise<T> {
  const who = { principal: principalOf(cred), oauth: cred.mechanism === "OAUTHBEARER" };
  const ctx: ErrorContext = typeof api === "string" ? { api, ...who } : { ...api, ...who };
  const key = poolKey(cred);
  const now = Date.now();
  let entry = pool.entries.get(key);
  if (entry && (entry.admin.closed || now - entry.createdAt >= maxAgeMs())) {
    retire(key, entry);
    entry = undefined;
  }
  if (!entry) {
    entry = {
      admin: createAdmin(cred),
      clusterId: clusterIdOf(cred),
      username: cred.username,
      createdAt: now,
      lastUsed: now,
      inflight: 0,
      retired: false,
    };
    pool.entries.set(key, entry);
    ensureSweeper();
  }
  entry.inflight += 1;
  const startedAt = performance.now();
  try {
    const result = await fn(entry.admin);
    recordKafkaCall(ctx.api, "ok", startedAt);
    return result;
  } catch (error) {
    const converted = toKafkaOperationError(error, { ...ctx, tls: kafkaConfigOf(cred).tls !== undefined });
    recordKafkaCall(ctx.api, converted.code, startedAt);
    if (converted.code === "SASL_AUTHENTICATION_FAILED") rememberRejection(cred);
    if (converted.code === "SASL_AUTHENTICATION_FAILED" || converted.code === "BROKER_UNAVAILABLE") retire(key, entry);
    throw converted;
  } finally {
    entry.inflight -= 1;
    entry.lastUsed = Date.now();
    if (entry.retired && entry.inflight === 0) void entry.admin.close().catch(() => undefined);
  }
}

/**
 * One authenticated connection to a broker that answers, for the raw protocol APIs (one broker down does not stop the
 * console).
 */
export { anyBrokerConnection } from "./brokers";

/** Closes every pooled connection of this user on the credential's cluster (all mechanisms and passwords). */
export async function closeConnectionsFor(cred: Pick<KafkaCredential, "clusterId" | "username">): Promise<void> {
  const closing: Promise<void>[] = [];
  const clusterId = clusterIdOf(cred);
  for (const [key, entry] of pool.entries) {
    if (entry.username === cred.username && entry.clusterId === clusterId) {
      pool.entries.delete(key);
      entry.retired = true;
      closing.push(entry.admin.close().catch(() => undefined));
    }
  }
  await Promise.all(closing);
}

export async function closeAllConnections(): Promise<void> {
  const entries = [...pool.entries.values()];
  pool.entries.clear();
  if (pool.sweeper) {
    clearInterval(pool.sweeper);
    pool.sweeper = null;
  }
  await Promise.all(entries.map((e) => e.admin.close().catch(() => undefined)));
}

/** How many Admin clients are pooled (for tests and diagnostics). */
export function pooledConnectionCount(username?: string): number {
  let n = 0;
  for (const entry of pool.entries.values()) if (username === undefined || entry.username === username) n += 1;
  return n;
}

/**
 * Proves a credential with a real SASL handshake on a fresh connection (never a pooled
 * one), then fetches metadata, which every authenticated principal may do.
 * Throws KafkaOperationError SASL_AUTHENTICATION_FAILED or BROKER_UNAVAILABLE.
 */
export async function verifyCredentials(
  cred: KafkaCredential,
  config: KafkaConfig = kafkaConfigOf(cred),
): Promise<{ principal: string }> {
  const ctx: ErrorContext = {
    api: "SaslAuthenticate",
    principal: principalOf(cred),
    tls: config.tls !== undefined,
    oauth: cred.mechanism === "OAUTHBEARER",
  };
  if (cred.username.length === 0 || (cred.password.length === 0 && !cred.oauth)) {
    throw new KafkaOperationError({
      code: "SASL_AUTHENTICATION_FAILED",
      api: ctx.api,
      message: "Kafka credentials need a username and a password.",
      kafkaMessage: null,
      missing: [],
    });
  }
  const admin = createAdmin(cred, config, { retries: 0 });
  const startedAt = performance.now();
  try {
    await admin.metadata({ topics: [], forceUpdate: true });
    recordKafkaCall(ctx.api, "ok", startedAt);
    return { principal: principalOf(cred) };
  } catch (error) {
    const converted = toKafkaOperationError(error, ctx);
    recordKafkaCall(ctx.api, converted.code, startedAt);
    throw converted;
  } finally {
    await admin.close().catch(() => undefined);
  }
}
