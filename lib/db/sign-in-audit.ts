/**
 * Failed sign-ins on the audit trail, folded so that no client can grow the table at the
 * speed it can send requests.
 *
 * Failures from one source (cluster + client source + lower-case username) within AGGREGATE_MS of
 * the first go into one audit row: the first inserts it (repeatCount 1, sourceKey set),
 * every later one adds 1 to repeatCount and sets lastAt and the latest message. A client
 * trying many usernames gets its own row for each of the first MAX_USERNAMES_PER_SOURCE
 * of them in that time; failures for any further usernames fold into one more row for
 * the client (principal User:ANONYMOUS). So one client adds at most
 * MAX_USERNAMES_PER_SOURCE + 1 rows per cluster per AGGREGATE_MS, however fast it guesses.
 * Rows belong to the cluster signed in to: only that cluster's audit shows them.
 *
 * Each fold runs in one short transaction holding an advisory lock on the client, so
 * concurrent failures on several console instances still find the same row. Within one
 * instance the folds of a client are queued, so a burst from one client holds one
 * database connection at a time instead of exhausting the pool.
 */
import { getPrisma } from "./client";
import { redactSecrets } from "./audit";
import type { Prisma, PrismaClient } from "../generated/prisma/client";

export const AGGREGATE_MS = 60 * 60_000;
export const MAX_USERNAMES_PER_SOURCE = 10;
export const SIGN_IN_ACTION = "session.sign-in";
/** Waiting for a pooled connection under load may take longer than Prisma's default 2 s. */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

export interface SignInFailure {
  /** The cluster the sign-in was for (lib/clusters.ts). */
  clusterId: string;
  /** The client address as resolved (shown in the row). */
  clientAddress: string;
  /** What the failures are counted per (addressSource of the address). */
  clientSource: string;
  username: string;
  mechanism: string;
  /** INVALID_CREDENTIALS or THROTTLED. */
  code: string;
  message: string;
}

function sourcePrefix(failure: Pick<SignInFailure, "clusterId" | "clientSource">): string {
  return `sign-in-failure|${failure.clusterId}|${failure.clientSource}|`;
}

/** The last queued fold per client source, per database client (one per console instance). */
const queuesByClient = new WeakMap<PrismaClient, Map<string, Promise<unknown>>>();

/** Records one failed sign-in; returns the id of the row it went into and its count. */
export function recordSignInFailure(
  failure: SignInFailure,
  now: Date = new Date(),
  prisma: PrismaClient = getPrisma(),
): Promise<{ id: string; repeatCount: number }> {
  const prefix = sourcePrefix(failure);
  let queues = queuesByClient.get(prisma);
  if (!queues) queuesByClient.set(prisma, (queues = new Map<string, Promise<unknown>>()));
  const previous = queues.get(prefix) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => fold(failure, now, prisma));
  queues.set(prefix, next);
  void next
    .catch(() => undefined)
    .finally(() => {
      if (queues.get(prefix) === next) queues.delete(prefix);
    });
  return next;
}

async function fold(
  failure: SignInFailure,
  now: Date,
  prisma: PrismaClient,
): Promise<{ id: string; repeatCount: number }> {
  const prefix = sourcePrefix(failure);
  const userKey = `${prefix}${failure.username.toLowerCase()}`;
  const overflowKey = `${prefix}*`;
  const openSince = new Date(now.getTime() - AGGREGATE_MS);
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${prefix}, 0))`;
    const bump = async (sourceKey: string) => {
      const rows = await tx.$queryRaw<{ id: bigint; repeat_count: number }[]>`
        UPDATE audit_event
        SET repeat_count = repeat_count + 1, last_at = ${now}::timestamptz, message = ${failure.message}
        WHERE id = (
          SELECT id FROM audit_event
          WHERE source_key = ${sourceKey} AND at > ${openSince}::timestamptz
          ORDER BY at DESC, id DESC LIMIT 1
        )
        RETURNING id, repeat_count`;
      const row = rows[0];
      return row ? { id: row.id.toString(), repeatCount: Number(row.repeat_count) } : null;
    };
    const insert = async (sourceKey: string, principal: string, target: string, request: unknown) => {
      const row = await tx.auditEvent.create({
        data: {
          at: now,
          principal,
          action: SIGN_IN_ACTION,
          target,
          request: redactSecrets(request) as Prisma.InputJsonValue,
          outcome: "denied",
          kafkaError: null,
          message: failure.message,
          category: "session",
          subjects: [],
          completedAt: now,
          repeatCount: 1,
          sourceKey,
          clusterId: failure.clusterId,
        },
        select: { id: true, repeatCount: true },
      });
      return { id: row.id.toString(), repeatCount: row.repeatCount };
    };

    const same = await bump(userKey);
    if (same) return same;
    const [{ n } = { n: 0 }] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_event
      WHERE category = 'session' AND at > ${openSince}::timestamptz
        AND source_key LIKE ${escapeLike(prefix) + "%"} AND source_key <> ${overflowKey}`;
    if (Number(n) < MAX_USERNAMES_PER_SOURCE) {
      return insert(userKey, `User:${failure.username}`, `User:${failure.username}`, {
        username: failure.username,
        mechanism: failure.mechanism,
        client: failure.clientAddress,
        code: failure.code,
      });
    }
    const overflow = await bump(overflowKey);
    if (overflow) return overflow;
    return insert(overflowKey, "User:ANONYMOUS", `sign-ins for more than ${MAX_USERNAMES_PER_SOURCE} usernames`, {
      client: failure.clientAddress,
      firstUsername: failure.username,
      mechanism: failure.mechanism,
      code: failure.code,
    });
  }, TRANSACTION_OPTIONS);
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
