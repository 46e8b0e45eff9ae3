/**
 * Requests for changes (#19), their approvals, and their life cycle:
 *
 *   PENDING --claimRequest--> APPROVING --finishRequest--> APPLIED
 *                                       --releaseRequest--> PENDING (refused, stale, Kafka said no)
 *   PENDING --decideRequest--> DENIED | CANCELLED
 *   PENDING --timeOutRequests (timeoutAt passed)--> TIMED_OUT
 *
 * Every transition is one conditional UPDATE, so two approvers (or an approver and a
 * denier, or two console instances) cannot both win. A claim older than CLAIM_STALE_MS
 * (an instance that died while Kafka was asked) may be taken over.
 */
import { getPrisma } from "./client";
import type { Prisma } from "../generated/prisma/client";

export const REQUEST_STATUSES = ["PENDING", "APPROVING", "APPLIED", "DENIED", "CANCELLED", "TIMED_OUT"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** A claim held longer than this is taken to belong to an instance that died. */
export const CLAIM_STALE_MS = 10 * 60_000;

export interface StoredRequest {
  id: string;
  createdAt: Date;
  clusterId: string;
  requester: string;
  reason: string;
  kind: string;
  input: unknown;
  summary: string;
  grantSeconds: number | null;
  status: RequestStatus;
  timeoutAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  comment: string | null;
  planId: string | null;
  approvals: { principal: string; at: Date; planId: string }[];
  /** A scram.change request's generated password: whether it waits, until when, when it was taken. */
  secret: { held: boolean; deadline: Date | null; retrievedAt: Date | null };
}

type Row = Prisma.ChangeRequestGetPayload<object>;

function fromRow(r: Row, approvals: StoredRequest["approvals"] = []): StoredRequest {
  return {
    id: r.id,
    createdAt: r.createdAt,
    clusterId: r.clusterId,
    requester: r.requester,
    reason: r.reason,
    kind: r.kind,
    input: r.input,
    summary: r.summary,
    grantSeconds: r.grantSeconds,
    status: r.status as RequestStatus,
    timeoutAt: r.timeoutAt,
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt,
    comment: r.comment,
    planId: r.planId,
    approvals,
    secret: { held: r.encryptedSecret !== null, deadline: r.secretDeadline, retrievedAt: r.secretRetrievedAt },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function saveRequest(input: {
  clusterId: string;
  requester: string;
  reason: string;
  kind: string;
  input: unknown;
  summary: string;
  grantSeconds: number | null;
  timeoutAt: Date;
  now?: Date;
}): Promise<StoredRequest> {
  const row = await getPrisma().changeRequest.create({
    data: {
      clusterId: input.clusterId,
      requester: input.requester,
      reason: input.reason,
      kind: input.kind,
      input: input.input as Prisma.InputJsonValue,
      summary: input.summary,
      grantSeconds: input.grantSeconds,
      timeoutAt: input.timeoutAt,
      ...(input.now ? { createdAt: input.now } : {}),
    },
  });
  return fromRow(row);
}

export async function getRequest(id: string): Promise<StoredRequest | null> {
  if (!UUID.test(id)) return null;
  const prisma = getPrisma();
  const [row, approvals] = await Promise.all([
    prisma.changeRequest.findUnique({ where: { id } }),
    prisma.requestApproval.findMany({ where: { requestId: id }, orderBy: { at: "asc" } }),
  ]);
  return row ? fromRow(row, approvals) : null;
}

export interface RequestFilter {
  clusterId: string;
  requester?: string;
  statuses?: readonly RequestStatus[];
  limit: number;
}

/** Newest first, at most `limit`. */
export async function listRequests(filter: RequestFilter): Promise<StoredRequest[]> {
  const rows = await getPrisma().changeRequest.findMany({
    where: {
      clusterId: filter.clusterId,
      ...(filter.requester !== undefined ? { requester: filter.requester } : {}),
      ...(filter.statuses ? { status: { in: [...filter.statuses] } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: filter.limit,
  });
  if (rows.length === 0) return [];
  const approvals = await getPrisma().requestApproval.findMany({
    where: { requestId: { in: rows.map((r) => r.id) } },
    orderBy: { at: "asc" },
  });
  const byRequest = new Map<string, StoredRequest["approvals"]>();
  for (const a of approvals) {
    const list = byRequest.get(a.requestId) ?? [];
    list.push({ principal: a.principal, at: a.at, planId: a.planId });
    byRequest.set(a.requestId, list);
  }
  return rows.map((r) => fromRow(r, byRequest.get(r.id) ?? []));
}

/** How many requests of the cluster wait for a decision. */
export async function countPending(clusterId: string, now = new Date()): Promise<number> {
  return getPrisma().changeRequest.count({ where: { clusterId, status: "PENDING", timeoutAt: { gt: now } } });
}

/** PENDING (not timed out) -> APPROVING by `principal`; a stale claim is taken over. One caller wins. */
export async function claimRequest(id: string, principal: string, now = new Date()): Promise<boolean> {
  const r = await getPrisma().changeRequest.updateMany({
    where: {
      id,
      timeoutAt: { gt: now },
      OR: [{ status: "PENDING" }, { status: "APPROVING", claimedAt: { lt: new Date(now.getTime() - CLAIM_STALE_MS) } }],
    },
    data: { status: "APPROVING", claimedBy: principal, claimedAt: now },
  });
  return r.count === 1;
}

/** APPROVING -> PENDING (nothing was applied). */
export async function releaseRequest(id: string, principal: string): Promise<void> {
  await getPrisma().changeRequest.updateMany({
    where: { id, status: "APPROVING", claimedBy: principal },
    data: { status: "PENDING", claimedBy: null, claimedAt: null },
  });
}

/** Records one approval (idempotent per principal) while the request is held by that approver. */
export async function addApproval(id: string, principal: string, planId: string, now = new Date()): Promise<void> {
  await getPrisma().requestApproval.upsert({
    where: { requestId_principal: { requestId: id, principal } },
    create: { requestId: id, principal, planId, at: now },
    update: { planId, at: now },
  });
}

/** APPROVING -> APPLIED, with the plan that was applied. */
export async function finishRequest(id: string, principal: string, planId: string, now = new Date()): Promise<void> {
  await getPrisma().changeRequest.updateMany({
    where: { id, status: "APPROVING", claimedBy: principal },
    data: { status: "APPLIED", decidedBy: principal, decidedAt: now, planId, claimedBy: null, claimedAt: null },
  });
}

/** PENDING -> DENIED or CANCELLED, with a comment; false when it was no longer pending. */
export async function decideRequest(
  id: string,
  status: "DENIED" | "CANCELLED",
  principal: string,
  comment: string | null,
  now = new Date(),
): Promise<boolean> {
  const r = await getPrisma().changeRequest.updateMany({
    where: { id, status: "PENDING" },
    data: { status, decidedBy: principal, decidedAt: now, comment },
  });
  return r.count === 1;
}

/** PENDING requests whose timeout passed -> TIMED_OUT; answers them (for the audit trail). */
export async function timeOutRequests(now = new Date()): Promise<StoredRequest[]> {
  const prisma = getPrisma();
  const due = await prisma.changeRequest.findMany({ where: { status: "PENDING", timeoutAt: { lte: now } }, take: 500 });
  const done: StoredRequest[] = [];
  for (const row of due) {
    const r = await prisma.changeRequest.updateMany({
      where: { id: row.id, status: "PENDING" },
      data: { status: "TIMED_OUT", decidedAt: now },
    });
    if (r.count === 1) done.push(fromRow({ ...row, status: "TIMED_OUT", decidedAt: now }));
  }
  return done;
}

// ---- a SCRAM change's generated password ----------------------------------------------------

/**
 * Keeps the password an approved scram.change request generated, encrypted, for its requester's
 * single retrieval until `deadline`. Only on the APPLIED request whose plan generated it.
 */
export async function holdRequestSecret(id: string, encrypted: string, deadline: Date): Promise<void> {
  await getPrisma().changeRequest.updateMany({
    where: { id, status: "APPLIED" },
    data: { encryptedSecret: encrypted, secretDeadline: deadline },
  });
}

export type SecretTake =
  | { ok: true; encrypted: string }
  | { ok: false; error: "NOT_FOUND" | "NOT_REQUESTER" | "ALREADY_RETRIEVED" | "EXPIRED" | "NONE" };

/**
 * The requester's one retrieval: returns the encrypted password and erases it in the same
 * statement (two retrievals at once: one gets it). Past the deadline it is not returned.
 */
export async function takeRequestSecret(
  id: string,
  requester: string,
  clusterId: string,
  now = new Date(),
): Promise<SecretTake> {
  const prisma = getPrisma();
  const rows = await prisma.$queryRaw<{ encrypted_secret: string }[]>`
    UPDATE "change_request" AS r
       SET "encrypted_secret" = NULL, "secret_retrieved_at" = ${now}::timestamptz
      FROM (SELECT "id", "encrypted_secret" FROM "change_request"
             WHERE "id" = ${id} AND "requester" = ${requester} AND "cluster_id" = ${clusterId}
               AND "encrypted_secret" IS NOT NULL AND "secret_deadline" > ${now}::timestamptz
             FOR UPDATE) AS old
     WHERE r."id" = old."id"
    RETURNING old."encrypted_secret"`;
  if (rows[0]) return { ok: true, encrypted: rows[0].encrypted_secret };
  const row = UUID.test(id) ? await prisma.changeRequest.findUnique({ where: { id } }) : null;
  if (row === null || row.clusterId !== clusterId) return { ok: false, error: "NOT_FOUND" };
  if (row.requester !== requester) return { ok: false, error: "NOT_REQUESTER" };
  if (row.secretRetrievedAt !== null) return { ok: false, error: "ALREADY_RETRIEVED" };
  if (row.secretDeadline !== null) return { ok: false, error: "EXPIRED" };
  return { ok: false, error: "NONE" };
}

/** Erases every held password past its deadline (the maintenance sweep); returns how many. */
export async function purgeExpiredRequestSecrets(now = new Date()): Promise<number> {
  const r = await getPrisma().changeRequest.updateMany({
    where: { encryptedSecret: { not: null }, secretDeadline: { lte: now } },
    data: { encryptedSecret: null },
  });
  return r.count;
}
