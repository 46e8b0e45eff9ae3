/**
 * Grants that end by themselves (#19): the ACL bindings one applied plan created, and
 * when they are to be removed.
 *
 *   LIVE --claimRemoval (expiresAt passed; one worker wins)--> REMOVING
 *   REMOVING --finishRemoval--> ENDED (outcome: removed | already-gone | kept)
 *   REMOVING --releaseRemoval (Kafka or the database failed; retried later)--> LIVE
 *
 * A REMOVING claim older than removalStaleMs() (GRANT_REMOVAL_STALE_SECONDS) belongs to an
 * instance that died: it is taken over. Each claim is fenced by its claimedAt: finishing or
 * releasing a claim that was taken over meanwhile does nothing (and says so), so a slow
 * instance whose claim went stale cannot end the grant a second time. Removing ACLs is itself
 * idempotent in Kafka (deleting what is gone deletes nothing).
 */
import { createHash, randomUUID } from "node:crypto";
import { env } from "../env";
import { getPrisma } from "./client";
import { auditRowData, type AuditInput } from "./audit";
import { bindingKey } from "../policy/acl/acl-index";
import type { Prisma } from "../generated/prisma/client";
import type { AclBinding } from "../policy/types";

export const GRANT_STATUSES = ["LIVE", "REMOVING", "ENDED"] as const;
export type GrantStatus = (typeof GRANT_STATUSES)[number];

/** How old a REMOVING claim must be to be taken over (its instance is taken to have died). */
export function removalStaleMs(): number {
  return env().GRANT_REMOVAL_STALE_SECONDS * 1000;
}

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
  /** When the removal now under way was claimed (the claim's fencing token); null when none is. */
  claimedAt: Date | null;
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
    claimedAt: r.claimedAt,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The stored key of a binding (SHA-256 hex of its seven fields: PostgreSQL text holds no NUL). */
export function storedBindingKey(b: AclBinding): string {
  return createHash("sha256").update(bindingKey(b)).digest("hex");
}

/** Saves a grant and which bindings it holds, in one transaction. */
export async function saveGrant(input: {
  clusterId: string;
  requestId: string | null;
  requester: string;
  approver: string;
  planId: string;
  bindings: readonly AclBinding[];
  expiresAt: Date;
}): Promise<StoredGrant> {
  const id = randomUUID();
  const keys = [...new Set(input.bindings.map(storedBindingKey))];
  const [row] = await getPrisma().$transaction([
    getPrisma().accessGrant.create({
      data: {
        id,
        clusterId: input.clusterId,
        requestId: input.requestId,
        requester: input.requester,
        approver: input.approver,
        planId: input.planId,
        bindings: input.bindings as unknown as Prisma.InputJsonValue,
        expiresAt: input.expiresAt,
      },
    }),
    getPrisma().grantBinding.createMany({
      data: keys.map((bindingKey) => ({ grantId: id, clusterId: input.clusterId, bindingKey })),
    }),
  ]);
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

/**
 * Which of `bindings` another LIVE grant of the cluster also holds: a removal keeps those. A
 * grant being removed (REMOVING) holds nothing any more: were it counted, two grants of one
 * binding removed at the same moment would each keep it for the other, and it would stay.
 * Read after the caller's own claim, so of two concurrent removals at least one sees the other.
 * By index (grant_binding), so its cost grows with these bindings, not with the grants.
 */
export async function bindingsHeldByOthers(
  clusterId: string,
  exceptId: string,
  bindings: readonly AclBinding[],
): Promise<AclBinding[]> {
  const byKey = new Map(bindings.map((b) => [storedBindingKey(b), b]));
  if (byKey.size === 0) return [];
  const rows = await getPrisma().grantBinding.findMany({
    where: { clusterId, bindingKey: { in: [...byKey.keys()] }, grantId: { not: exceptId } },
    select: { grantId: true, bindingKey: true },
  });
  if (rows.length === 0) return [];
  const live = await getPrisma().accessGrant.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.grantId))] }, status: "LIVE" },
    select: { id: true },
  });
  const liveIds = new Set(live.map((g) => g.id));
  const held = new Set(rows.filter((r) => liveIds.has(r.grantId)).map((r) => r.bindingKey));
  return [...held].map((k) => byKey.get(k)!);
}

/**
 * LIVE (expired at `now`) or a stale REMOVING -> REMOVING; one caller wins. The claim is
 * stamped with the clock's time (not `now`, which may be a sweep's start or a test's future),
 * so its staleness is measured from when it was really taken.
 */
export async function claimRemoval(id: string, now = new Date()): Promise<StoredGrant | null> {
  const claimedAt = new Date();
  const r = await getPrisma().accessGrant.updateMany({
    where: {
      id,
      expiresAt: { lte: now },
      OR: [
        { status: "LIVE" },
        { status: "REMOVING", claimedAt: { lt: new Date(claimedAt.getTime() - removalStaleMs()) } },
      ],
    },
    data: { status: "REMOVING", claimedAt, attempts: { increment: 1 } },
  });
  if (r.count !== 1) return null;
  const grant = await getGrant(id);
  return grant?.status === "REMOVING" && grant.claimedAt?.getTime() === claimedAt.getTime() ? grant : null;
}

type Claim = Pick<StoredGrant, "id" | "claimedAt">;

const claimed = (claim: Claim) => ({ id: claim.id, status: "REMOVING", claimedAt: claim.claimedAt });

/** Notes the removal plan of the claim before it is applied (an instance taking over can tell what was sent). */
export async function noteRemovalPlan(claim: Claim, removalPlanId: string): Promise<void> {
  await getPrisma().accessGrant.updateMany({ where: claimed(claim), data: { removalPlanId } });
}

/** REMOVING -> ENDED with what happened; false when this claim was taken over meanwhile (nothing is changed). */
export async function finishRemoval(
  claim: Claim,
  result: { outcome: string; removalPlanId: string | null; message: string | null },
  audit?: AuditInput,
  now = new Date(),
): Promise<boolean> {
  // One transaction: an instance that stops between the two can neither end the grant unaudited
  // nor audit an end that did not happen.
  return getPrisma().$transaction(async (tx) => {
    const r = await tx.accessGrant.updateMany({
      where: claimed(claim),
      data: {
        status: "ENDED",
        endedAt: now,
        outcome: result.outcome,
        removalPlanId: result.removalPlanId,
        lastError: result.message,
        claimedAt: null,
      },
    });
    if (r.count !== 1) return false;
    if (audit) await tx.auditEvent.create({ data: auditRowData(audit) });
    return true;
  });
}

/** REMOVING -> LIVE after a failure (unless the claim was taken over); the job engine tries again later. */
export async function releaseRemoval(claim: Claim, error: string): Promise<void> {
  await getPrisma().accessGrant.updateMany({
    where: claimed(claim),
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
