/**
 * Self-service delegation token requests (DESIGN.md, "Token flows").
 *
 * Life cycle (status):
 *   PENDING --approve--> APPROVED --retrieveHmacOnce--> RETRIEVED
 *                                 --purgeExpiredHmacs (deadline passed)--> EXPIRED_UNRETRIEVED
 *   PENDING --deny--> DENIED
 *
 * Every transition is one conditional UPDATE, so concurrent callers cannot both win:
 * of two approvers racing, exactly one gets { ok: true }; the other gets NOT_PENDING and
 * must expire the Kafka token it created (the console creates the token before recording
 * the approval, because only then does it have a token id and HMAC).
 *
 * The HMAC is stored only encrypted (the caller passes encryptSecret(hmac)), handed out
 * once by retrieveHmacOnce (an UPDATE ... RETURNING that erases it in the same statement),
 * and erased by purgeExpiredHmacs once its deadline passes. Records returned by this
 * module never include the encrypted HMAC, only whether it is still available.
 */
import { getPrisma } from "./client";
import type { TokenRequest as Row } from "../generated/prisma/client";

export const TOKEN_REQUEST_STATUSES = ["PENDING", "APPROVING", "APPROVED", "DENIED", "RETRIEVED", "EXPIRED_UNRETRIEVED"] as const;
export type TokenRequestStatus = (typeof TOKEN_REQUEST_STATUSES)[number];

export interface TokenRequest {
  id: string;
  createdAt: Date;
  /** Principal who asked, e.g. User:bob. */
  requester: string;
  /** Principal the token is for (KIP-373 owner), e.g. User:svc-orders. */
  owner: string;
  renewers: string[];
  /** Requested max lifetime in ms; null = the broker's delegation.token.max.lifetime.ms. */
  maxLifetimeMs: number | null;
  reason: string;
  status: TokenRequestStatus;
  approver: string | null;
  decidedAt: Date | null;
  decisionReason: string | null;
  tokenId: string | null;
  /** Until when the requester can retrieve the HMAC (set at approval). */
  hmacDeadline: Date | null;
  retrievedAt: Date | null;
  /** True while an encrypted HMAC is stored (approved, not yet retrieved, not purged). */
  hmacAvailable: boolean;
}

export interface NewTokenRequest {
  requester: string;
  owner: string;
  renewers?: readonly string[];
  maxLifetimeMs?: number | null;
  reason: string;
}

export type DecisionFailure = { ok: false; error: "NOT_FOUND" } | { ok: false; error: "NOT_PENDING"; status: TokenRequestStatus };
export type DecisionResult = { ok: true; request: TokenRequest } | DecisionFailure;

export type RetrieveResult =
  | { ok: true; tokenId: string; encryptedHmac: string }
  | { ok: false; error: "NOT_FOUND" | "NOT_REQUESTER" | "NOT_APPROVED" | "ALREADY_RETRIEVED" | "EXPIRED"; status?: TokenRequestStatus };

function toRecord(r: Row): TokenRequest {
  return {
    id: r.id,
    createdAt: r.createdAt,
    requester: r.requester,
    owner: r.owner,
    renewers: [...r.renewers],
    maxLifetimeMs: r.maxLifetimeMs === null ? null : Number(r.maxLifetimeMs),
    reason: r.reason,
    status: r.status,
    approver: r.approver,
    decidedAt: r.decidedAt,
    decisionReason: r.decisionReason,
    tokenId: r.tokenId,
    hmacDeadline: r.hmacDeadline,
    retrievedAt: r.retrievedAt,
    hmacAvailable: r.encryptedHmac !== null,
  };
}

export async function createTokenRequest(input: NewTokenRequest, now: Date = new Date()): Promise<TokenRequest> {
  const renewers = [...new Set(input.renewers ?? [])];
  if (input.maxLifetimeMs !== undefined && input.maxLifetimeMs !== null && (!Number.isSafeInteger(input.maxLifetimeMs) || input.maxLifetimeMs <= 0)) {
    throw new RangeError(`maxLifetimeMs must be a positive integer number of milliseconds, got ${input.maxLifetimeMs}`);
  }
  const row = await getPrisma().tokenRequest.create({
    data: {
      requester: input.requester,
      owner: input.owner,
      renewers,
      maxLifetimeMs: input.maxLifetimeMs == null ? null : BigInt(input.maxLifetimeMs),
      reason: input.reason,
      status: "PENDING",
      createdAt: now,
    },
  });
  return toRecord(row);
}

export async function getTokenRequest(id: string): Promise<TokenRequest | null> {
  const row = await getPrisma().tokenRequest.findUnique({ where: { id } });
  return row ? toRecord(row) : null;
}

/** The requester's own requests, newest first. */
export async function listMyTokenRequests(requester: string, limit = 200): Promise<TokenRequest[]> {
  const rows = await getPrisma().tokenRequest.findMany({
    where: { requester },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(limit, 1), 1000),
  });
  return rows.map(toRecord);
}

/**
 * Pending requests, oldest first (the approval queue). Who may approve which one is
 * decided by the caller (CREATE_TOKENS on USER:<owner>); `owners` narrows the list.
 */
export async function listPendingTokenRequests(options: { owners?: readonly string[]; limit?: number } = {}): Promise<TokenRequest[]> {
  const rows = await getPrisma().tokenRequest.findMany({
    where: { status: "PENDING", ...(options.owners ? { owner: { in: [...options.owners] } } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: Math.min(Math.max(options.limit ?? 200, 1), 1000),
  });
  return rows.map(toRecord);
}

async function failure(id: string): Promise<DecisionFailure> {
  const row = await getPrisma().tokenRequest.findUnique({ where: { id }, select: { status: true } });
  return row ? { ok: false, error: "NOT_PENDING", status: row.status } : { ok: false, error: "NOT_FOUND" };
}

/**
 * Records the approval and the created token, only if the request is still PENDING
 * (atomic). `encryptedHmac` must already be encrypted; `deadline` bounds its retrieval.
 */
export async function approveTokenRequest(
  id: string,
  approver: string,
  tokenId: string,
  encryptedHmac: string,
  deadline: Date,
  now: Date = new Date(),
): Promise<DecisionResult> {
  const prisma = getPrisma();
  const { count } = await prisma.tokenRequest.updateMany({
    where: { id, status: "PENDING" },
    data: { status: "APPROVED", approver, decidedAt: now, tokenId, encryptedHmac, hmacDeadline: deadline },
  });
  if (count === 0) return failure(id);
  const row = await prisma.tokenRequest.findUniqueOrThrow({ where: { id } });
  return { ok: true, request: toRecord(row) };
}

/** Denies a PENDING request with a reason (atomic). */
export async function denyTokenRequest(id: string, approver: string, reason: string, now: Date = new Date()): Promise<DecisionResult> {
  const prisma = getPrisma();
  const { count } = await prisma.tokenRequest.updateMany({
    where: { id, status: "PENDING" },
    data: { status: "DENIED", approver, decidedAt: now, decisionReason: reason },
  });
  if (count === 0) return failure(id);
  const row = await prisma.tokenRequest.findUniqueOrThrow({ where: { id } });
  return { ok: true, request: toRecord(row) };
}

/**
 * Hands the encrypted HMAC to the requester exactly once: one UPDATE ... RETURNING
 * takes it and erases it, so concurrent calls cannot both receive it. Refused after
 * the deadline even if the purge has not run yet.
 */
export async function retrieveHmacOnce(id: string, requester: string, now: Date = new Date()): Promise<RetrieveResult> {
  const prisma = getPrisma();
  const rows = await prisma.$queryRaw<{ token_id: string; encrypted_hmac: string }[]>`
    UPDATE "token_request" AS t
       SET "encrypted_hmac" = NULL, "status" = 'RETRIEVED', "retrieved_at" = ${now}::timestamptz
      FROM (SELECT "id", "encrypted_hmac" FROM "token_request"
             WHERE "id" = ${id} AND "requester" = ${requester} AND "status" = 'APPROVED'
               AND "encrypted_hmac" IS NOT NULL AND "hmac_deadline" > ${now}::timestamptz
             FOR UPDATE) AS old
     WHERE t."id" = old."id"
    RETURNING t."token_id", old."encrypted_hmac"`;
  const hit = rows[0];
  if (hit) return { ok: true, tokenId: hit.token_id, encryptedHmac: hit.encrypted_hmac };

  const row = await prisma.tokenRequest.findUnique({ where: { id } });
  if (!row) return { ok: false, error: "NOT_FOUND" };
  if (row.requester !== requester) return { ok: false, error: "NOT_REQUESTER" };
  if (row.status === "RETRIEVED") return { ok: false, error: "ALREADY_RETRIEVED", status: row.status };
  if (row.status === "EXPIRED_UNRETRIEVED" || (row.status === "APPROVED" && row.hmacDeadline !== null && row.hmacDeadline <= now)) {
    return { ok: false, error: "EXPIRED", status: row.status };
  }
  return { ok: false, error: "NOT_APPROVED", status: row.status };
}

/** Erases every unretrieved HMAC whose deadline is at or before `now`; returns how many. */
export async function purgeExpiredHmacs(now: Date = new Date()): Promise<number> {
  const { count } = await getPrisma().tokenRequest.updateMany({
    where: { status: "APPROVED", encryptedHmac: { not: null }, hmacDeadline: { lte: now } },
    data: { encryptedHmac: null, status: "EXPIRED_UNRETRIEVED" },
  });
  return count;
}
