/**
 * Kafka connections per signed-in user. The console acts *as* the user: each credential
 * gets its own Admin client (SASL-authenticated as that user), kept in a pool keyed by
 * (mechanism, username, password hash) so a changed password never reuses an old
 * connection, reused across requests, and closed after IDLE_MS without use, at sign-out
 * (closeConnectionsFor) or at shutdown (closeAllConnections).
 *
 * Server-only: never import lib/kafka from a client component.
 */
import { createHash } from "node:crypto";
import { Admin, type Connection } from "@platformatic/kafka";
import { kafkaConfig, type KafkaConfig } from "./config";
import { KafkaOperationError, toKafkaOperationError, type ErrorContext } from "./errors";
import type { KafkaCredential } from "./types";

export const IDLE_MS = 5 * 60_000;
const SWEEP_MS = 30_000;

interface PoolEntry {
  admin: Admin;
  username: string;
  lastUsed: number;
  inflight: number;
}

interface Pool {
  entries: Map<string, PoolEntry>;
  sweeper: NodeJS.Timeout | null;
}

// Kept on globalThis so Next's dev-mode module reloads do not orphan open connections.
const globalPool = globalThis as typeof globalThis & { __kafkaSecurityConsolePool?: Pool };
const pool: Pool = (globalPool.__kafkaSecurityConsolePool ??= { entries: new Map(), sweeper: null });

export function principalOf(cred: Pick<KafkaCredential, "username">): string {
  return `User:${cred.username}`;
}

function poolKey(cred: KafkaCredential): string {
  const passwordHash = createHash("sha256").update(cred.password).digest("hex");
  return `${cred.mechanism}\u0000${cred.username}\u0000${passwordHash}`;
}

/** A new Admin for `cred`; nothing is sent until the first call. */
export function createAdmin(cred: KafkaCredential, config: KafkaConfig = kafkaConfig(), overrides: { retries?: number } = {}): Admin {
  return new Admin({
    clientId: config.clientId,
    bootstrapBrokers: config.bootstrapServers,
    sasl: { mechanism: cred.mechanism, username: cred.username, password: cred.password },
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
    for (const [key, entry] of pool.entries) {
      if (entry.inflight === 0 && now - entry.lastUsed > IDLE_MS) {
        pool.entries.delete(key);
        void entry.admin.close().catch(() => undefined);
      }
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
  const ctx: ErrorContext = typeof api === "string" ? { api, principal: principalOf(cred) } : { ...api, principal: principalOf(cred) };
  const key = poolKey(cred);
  let entry = pool.entries.get(key);
  if (!entry || entry.admin.closed) {
    entry = { admin: createAdmin(cred), username: cred.username, lastUsed: Date.now(), inflight: 0 };
    pool.entries.set(key, entry);
    ensureSweeper();
  }
  entry.inflight += 1;
  try {
    return await fn(entry.admin);
  } catch (error) {
    const converted = toKafkaOperationError(error, ctx);
    if (converted.code === "SASL_AUTHENTICATION_FAILED" || converted.code === "BROKER_UNAVAILABLE") {
      if (pool.entries.get(key) === entry) pool.entries.delete(key);
      void entry.admin.close().catch(() => undefined);
    }
    throw converted;
  } finally {
    entry.inflight -= 1;
    entry.lastUsed = Date.now();
  }
}

/** One authenticated connection to any broker, for the raw protocol APIs. */
export async function anyBrokerConnection(admin: Admin): Promise<Connection> {
  const connections = await admin.connectToBrokers(null);
  const first = [...connections.values()][0];
  if (!first) throw new Error("The cluster metadata lists no brokers.");
  return first;
}

/** Authenticated connections to every broker (ListTransactions is answered per broker). */
export async function allBrokerConnections(admin: Admin): Promise<Map<number, Connection>> {
  return admin.connectToBrokers(null);
}

/** Closes every pooled connection of `username` (all mechanisms and passwords). */
export async function closeConnectionsFor(username: string): Promise<void> {
  const closing: Promise<void>[] = [];
  for (const [key, entry] of pool.entries) {
    if (entry.username === username) {
      pool.entries.delete(key);
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
export async function verifyCredentials(cred: KafkaCredential, config: KafkaConfig = kafkaConfig()): Promise<{ principal: string }> {
  const ctx: ErrorContext = { api: "SaslAuthenticate", principal: principalOf(cred) };
  if (cred.username.length === 0 || cred.password.length === 0) {
    throw new KafkaOperationError({
      code: "SASL_AUTHENTICATION_FAILED",
      api: ctx.api,
      message: "Kafka credentials need a username and a password.",
      kafkaMessage: null,
      missing: [],
    });
  }
  const admin = createAdmin(cred, config, { retries: 0 });
  try {
    await admin.metadata({ topics: [], forceUpdate: true });
    return { principal: principalOf(cred) };
  } catch (error) {
    throw toKafkaOperationError(error, ctx);
  } finally {
    await admin.close().catch(() => undefined);
  }
}
