/**
 * Grants that end by themselves (#19): the ACL bindings one applied plan created, and
 * when they are to be removed.
 *
 *   LIVE --claimRemoval (expiresAt passed; one worker wins)--> REMOVING
 *   REMOVING --finishRemoval--> ENDED (outcome: removed | already-gone | kept)
 *   REMOVING --releaseRemoval (Kafka or the database failed; retried later)--> LIVE
 *
 * A REMOVING claim older than REMOVAL_STALE_MS belongs to an instance that died: it is
 * taken over. Removing ACLs is itself idempotent in Kafka (deleting what is gone deletes
 * nothing), so a removal run twice changes nothing the second time; the claim keeps it
 * to one audited removal in the normal case.
 */
import { getPrisma } from "./client";
import type { Prisma } from "../generated/prisma/client";
import type { AclBinding } from "../policy/types";

export const GRANT_STATUSES = ["LIVE", "REMOVING", "ENDED"] as const;
export type GrantStatus = (typeof GRANT_STATUSES)[number];

export const REMOVAL_STALE_MS = 5 * 60_000;

export interface StoredGrant {
  id: string;
  createdAt: Date;
  clusterId: string;
  requestId: string | null;
  requester: string;
  approver: string;
  planId: string;
  bindings: AclBinding[];
  expiresAt: Date;
  status: GrantStatus;
  endedAt: Date | null;
  endedBy: string | null;
  removalPlanId: string | null;
  outcome: string | null;
  attempts: number;
  lastError: string | null;
}

type Row = Prisma.AccessGrantGetPayload<object>;

function fromRow(r: Row): StoredGrant {
  return {
    id: r.id,
    createdAt: r.createdAt,
    clusterId: r.clusterId,
    requestId: r.requestId,
    requester: r.requester,
    approver: r.approver,
    planId: r.planId,
    bindings: r.bindings as unknown as AclBinding[],
    expiresAt: r.expiresAt,
    status: r.status as GrantStatus,
    endedAt: r.endedAt,
    endedBy: r.endedBy,
    removalPlanId: r.removalPlanId,
    outcome: r.outcome,
    attempts: r.attempts,
    lastError: r.lastError,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function saveGrant(input: {
  clusterId: string;
  requestId: string | null;
  requester: string;
  approver: string;
  planId: string;
  bindings: readonly AclBinding[];
  expiresAt: Date;
}): Promise<StoredGrant> {
  const row = await getPrisma().accessGrant.create({
    data: { ...input, bindings: input.bindings as unknown as Prisma.InputJsonValue },
  });
  return fromRow(row);
}

export async function getGrant(id: string): Promise<StoredGrant | null> {
  if (!UUID.test(id)) return null;
  const row = await getPrisma().accessGrant.findUnique({ where: { id } });
  return row ? fromRow(row) : null;
}

/** The grants of a cluster not yet ended (LIVE or being removed), soonest expiry first. */
export async function liveGrants(
  clusterId: string,
  options: { principal?: string; limit?: number } = {},
): Promise<StoredGrant[]> {
  const rows = await getPrisma().accessGrant.findMany({
    where: {
      clusterId,
      status: { in: ["LIVE", "REMOVING"] },
      ...(options.principal !== undefined ? { requester: options.principal } : {}),
    },
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
    ...(options.limit !== undefined ? { take: options.limit } : {}),
  });
  return rows.map(fromRow);
}

/** Grants whose expiry has passed and that are not ended (due now, or overdue after failures). */
export async function dueGrants(now = new Date(), limit = 1000): Promise<StoredGrant[]> {
  const rows = await getPrisma().accessGrant.findMany({
    where: { status: { in: ["LIVE", "REMOVING"] }, expiresAt: { lte: now } },
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map(fromRow);
}

/** The bindings of every other grant of the cluster not yet ended: a removal keeps what they also hold. */
export async function bindingsHeldByOthers(clusterId: string, exceptId: string): Promise<AclBinding[]> {
  const rows = await getPrisma().accessGrant.findMany({
    where: { clusterId, status: { in: ["LIVE", "REMOVING"] }, id: { not: exceptId } },
    select: { bindings: true },
  });
  return rows.flatMap((r) => r.bindings as unknown as AclBinding[]);
}

/** LIVE (expired) or a stale REMOVING -> REMOVING; one caller wins. */
export async function claimRemoval(id: string, now = new Date()): Promise<StoredGrant | null> {
  const r = await getPrisma().accessGrant.updateMany({
    where: {
      id,
      expiresAt: { lte: now },
      OR: [{ status: "LIVE" }, { status: "REMOVING", claimedAt: { lt: new Date(now.getTime() - REMOVAL_STALE_MS) } }],
    },
    data: { status: "REMOVING", claimedAt: now, attempts: { increment: 1 } },
  });
  return r.count === 1 ? getGrant(id) : null;
}

/** REMOVING -> ENDED with what happened. */
export async function finishRemoval(
  id: string,
  result: { outcome: string; removalPlanId: string | null; message: string | null },
  now = new Date(),
): Promise<void> {
  await getPrisma().accessGrant.updateMany({
    where: { id, status: "REMOVING" },
    data: {
      status: "ENDED",
      endedAt: now,
      outcome: result.outcome,
      removalPlanId: result.removalPlanId,
      lastError: result.message,
      claimedAt: null,
    },
  });
}

/** REMOVING -> LIVE after a failure; the job engine tries again later. */
export async function releaseRemoval(id: string, error: string): Promise<void> {
  await getPrisma().accessGrant.updateMany({
    where: { id, status: "REMOVING" },
    data: { status: "LIVE", lastError: error.slice(0, 2000), claimedAt: null },
  });
}

/** Ends a live grant early: its expiry becomes now (the removal then runs as for any expiry). */
export async function endGrantEarly(id: string, by: string, now = new Date()): Promise<boolean> {
  const r = await getPrisma().accessGrant.updateMany({
    where: { id, status: "LIVE", expiresAt: { gt: now } },
    data: { expiresAt: now, endedBy: by },
  });
  return r.count === 1;
}

/** A grant not yet ended this long past its expiry is overdue (its removal failed and is retried). */
export const OVERDUE_AFTER_MS = 60_000;

/**
 * The dashboard's view of a cluster's grants not yet ended: how many still have time left
 * and how many are overdue, each with the first `take` (soonest expiry first). Four reads on
 * the (cluster_id, status, expires_at) index, each bounded: a count and a `take`, never a scan
 * of the rows themselves.
 */
export async function grantSummary(
  clusterId: string,
  now = new Date(),
  take = 10,
): Promise<{ live: number; soonest: StoredGrant[]; overdue: number; oldestOverdue: StoredGrant[] }> {
  const prisma = getPrisma();
  const cutoff = new Date(now.getTime() - OVERDUE_AFTER_MS);
  const notEnded = { clusterId, status: { in: ["LIVE", "REMOVING"] } };
  const liveWhere = { ...notEnded, expiresAt: { gte: cutoff } };
  const overdueWhere = { ...notEnded, expiresAt: { lt: cutoff } };
  const orderBy = [{ expiresAt: "asc" as const }, { id: "asc" as const }];
  const [live, soonest, overdue, oldestOverdue] = await Promise.all([
    prisma.accessGrant.count({ where: liveWhere }),
    prisma.accessGrant.findMany({ where: liveWhere, orderBy, take }),
    prisma.accessGrant.count({ where: overdueWhere }),
    prisma.accessGrant.findMany({ where: overdueWhere, orderBy, take }),
  ]);
  return { live, soonest: soonest.map(fromRow), overdue, oldestOverdue: oldestOverdue.map(fromRow) };
}

/**
 * The grants of a cluster not yet ended that concern one principal: it asked for them, or
 * their ACLs are for it (jsonb containment on the bindings). Soonest expiry first.
 */
export async function liveGrantsConcerning(clusterId: string, principal: string, limit = 100): Promise<StoredGrant[]> {
  const rows = await getPrisma().accessGrant.findMany({
    where: {
      clusterId,
      status: { in: ["LIVE", "REMOVING"] },
      OR: [{ requester: principal }, { bindings: { array_contains: [{ principal }] } }],
    },
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map(fromRow);
}
