/**
 * Self-service delegation token requests (docs/tokens.md, "Self-service requests").
 *
 * Life cycle (status):
 *   PENDING --claimTokenRequest--> APPROVING --recordClaimedApproval--> APPROVED
 *                                  APPROVING --releaseClaim--> PENDING
 *   APPROVED --retrieveHmacOnce--> RETRIEVED
 *            --purgeExpiredHmacs (deadline passed)--> EXPIRED_UNRETRIEVED
 *   PENDING --deny--> DENIED            (never while APPROVING)
 *
 * Every transition is one conditional UPDATE, so concurrent callers cannot both win.
 * Approval claims the request in the database BEFORE Kafka is asked: of ten approvers
 * racing, exactly one moves it PENDING -> APPROVING and only that one creates a token.
 * The claim (claimedBy, claimedAt) is the fence: completing or releasing it names the
 * exact claim, so an approver whose claim was resolved by someone else (it looked dead)
 * cannot overwrite that resolution.
 *
 * The HMAC is stored only encrypted (the caller passes encryptSecret(hmac)), handed out
 * once by retrieveHmacOnce (an UPDATE ... RETURNING that erases it in the same statement),
 * and erased by purgeExpiredHmacs once its deadline passes. Records returned by this
 * module never include the encrypted HMAC, only whether it is still available.
 */
import { getPrisma } from "./client";
import type { TokenRequest as Row } from "../generated/prisma/client";

export const TOKEN_REQUEST_STATUSES = [
  "PENDING",
  "APPROVING",
  "APPROVED",
  "DENIED",
  "RETRIEVED",
  "EXPIRED_UNRETRIEVED",
] as const;
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
  /** The approver holding the request while Kafka is asked (status APPROVING), and since when. */
  claimedBy: string | null;
  claimedAt: Date | null;
  /** True while an encrypted HMAC is stored (approved, not yet retrieved, not purged). */
  hmacAvailable: boolean;
}

export interface NewTokenRequest {
  /** A UUID chosen by the caller (so the audit intent can name it); generated when absent. */
  id?: string;
  requester: string;
  owner: string;
  renewers?: readonly string[];
  maxLifetimeMs?: number | null;
  reason: string;
  /** The cluster the token is wanted on. Absent: the database's default, "default". */
  clusterId?: string;
}

export type DecisionFailure =
  { ok: false; error: "NOT_FOUND" } | { ok: false; error: "NOT_PENDING"; status: TokenRequestStatus };
export type DecisionResult = { ok: true; request: TokenRequest } | DecisionFailure;

/** One approver's hold on a request: exactly these two values fence its completion. */
export interface Claim {
  by: string;
  at: Date;
}

export type ClaimFailure = DecisionFailure | { ok: false; error: "CLAIM_LOST"; status: TokenRequestStatus };
export type ClaimResult = { ok: true; request: TokenRequest } | ClaimFailure;

export type RetrieveResult =
  | { ok: true; tokenId: string; encryptedHmac: string }
  | {
      ok: false;
      error: "NOT_FOUND" | "NOT_REQUESTER" | "NOT_APPROVED" | "ALREADY_RETRIEVED" | "EXPIRED";
      status?: TokenRequestStatus;
    };

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
    claimedBy: r.claimedBy,
    claimedAt: r.claimedAt,
    hmacAvailable: r.encryptedHmac !== null,
  };
}

export async function createTokenRequest(input: NewTokenRequest, now: Date = new Date()): Promise<TokenRequest> {
  const renewers = [...new Set(input.renewers ?? [])];
  if (
    input.maxLifetimeMs !== undefined &&
    input.maxLifetimeMs !== null &&
    (!Number.isSafeInteger(input.maxLifetimeMs) || input.maxLifetimeMs <= 0)
  ) {
    throw new RangeError(`maxLifetimeMs must be a positive integer number of milliseconds, got ${input.maxLifetimeMs}`);
  }
  const row = await getPrisma().tokenRequest.create({
    data: {
      ...(input.id ? { id: input.id } : {}),
      requester: input.requester,
      owner: input.owner,
      renewers,
      maxLifetimeMs: input.maxLifetimeMs == null ? null : BigInt(input.maxLifetimeMs),
      reason: input.reason,
      status: "PENDING",
      createdAt: now,
      ...(input.clusterId !== undefined ? { clusterId: input.clusterId } : {}),
    },
  });
  return toRecord(row);
}

/**
 * The request with this id; with `clusterId`, only when it was made on that cluster (else null, as if there were none).
 */
export async function getTokenRequest(id: string, clusterId?: string): Promise<TokenRequest | null> {
  const row = await getPrisma().tokenRequest.findUnique({ where: { id } });
  return row && (clusterId === undefined || row.clusterId === clusterId) ? toRecord(row) : null;
}

/** The requester's own requests (on `clusterId` when given), newest first. */
export async function listMyTokenRequests(requester: string, limit = 200, clusterId?: string): Promise<TokenRequest[]> {
  const rows = await getPrisma().tokenRequest.findMany({
    where: { requester, ...(clusterId !== undefined ? { clusterId } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(limit, 1), 1000),
  });
  return rows.map(toRecord);
}

/**
 * Open requests (PENDING, and APPROVING while an approval is under way), oldest first: the
 * approval queue. Who may see which one is decided by the caller (lib/services/token-requests.ts):
 * `owners` lists the owners whose requests the viewer may decide, `requester` adds the
 * viewer's own requests. Without either option every open request is listed.
 */
export async function listPendingTokenRequests(
  options: { owners?: readonly string[]; requester?: string; limit?: number; clusterId?: string } = {},
): Promise<TokenRequest[]> {
  const visible =
    options.owners === undefined && options.requester === undefined
      ? {}
      : {
          OR: [
            { owner: { in: [...(options.owners ?? [])] } },
            ...(options.requester !== undefined ? [{ requester: options.requester }] : []),
          ],
        };
  const rows = await getPrisma().tokenRequest.findMany({
    where: {
      status: { in: ["PENDING", "APPROVING"] },
      ...visible,
      ...(options.clusterId !== undefined ? { clusterId: options.clusterId } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: Math.min(Math.max(options.limit ?? 200, 1), 1000),
  });
  return rows.map(toRecord);
}

/**
 * The owners of the open (PENDING or APPROVING) requests (on `clusterId` when given), each once;
 * with `notRequester`, only of the requests someone else asked for.
 */
export async function openRequestOwners(clusterId?: string, notRequester?: string): Promise<string[]> {
  const rows = await getPrisma().tokenRequest.findMany({
    where: {
      status: { in: ["PENDING", "APPROVING"] },
      ...(clusterId !== undefined ? { clusterId } : {}),
      ...(notRequester !== undefined ? { requester: { not: notRequester } } : {}),
    },
    distinct: ["owner"],
    select: { owner: true },
    orderBy: { owner: "asc" },
  });
  return rows.map((r) => r.owner);
}

/** The statuses of a decided request: approved (retrieved or not), denied. */
export const DECIDED_TOKEN_REQUEST_STATUSES = [
  "APPROVED",
  "DENIED",
  "RETRIEVED",
  "EXPIRED_UNRETRIEVED",
] as const satisfies readonly TokenRequestStatus[];

/**
 * Decided requests of `clusterId` that `principal` took part in (asked for, or approved or denied),
 * newest first, at most `limit`.
 */
export async function listDecidedTokenRequests(options: {
  clusterId: string;
  principal: string;
  limit: number;
}): Promise<TokenRequest[]> {
  const rows = await getPrisma().tokenRequest.findMany({
    where: {
      clusterId: options.clusterId,
      status: { in: [...DECIDED_TOKEN_REQUEST_STATUSES] },
      OR: [{ requester: options.principal }, { approver: options.principal }],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(options.limit, 1), 1000),
  });
  return rows.map(toRecord);
}

/** How many PENDING requests of `clusterId` are for one of `owners` and asked by someone other than `notRequester`. */
export async function countPendingTokenRequests(options: {
  clusterId: string;
  owners: readonly string[];
  notRequester: string;
}): Promise<number> {
  if (options.owners.length === 0) return 0;
  return getPrisma().tokenRequest.count({
    where: {
      clusterId: options.clusterId,
      status: "PENDING",
      owner: { in: [...options.owners] },
      requester: { not: options.notRequester },
    },
  });
}

/** Which of `tokenIds` are already recorded on a request other than `exceptId`. */
export async function tokenIdsRecordedElsewhere(tokenIds: readonly string[], exceptId: string): Promise<Set<string>> {
  if (tokenIds.length === 0) return new Set();
  const rows = await getPrisma().tokenRequest.findMany({
    where: { tokenId: { in: [...tokenIds] }, id: { not: exceptId } },
    select: { tokenId: true },
  });
  return new Set(rows.map((r) => r.tokenId).filter((t): t is string => t !== null));
}

async function failure(id: string): Promise<DecisionFailure> {
  const row = await getPrisma().tokenRequest.findUnique({ where: { id }, select: { status: true } });
  return row ? { ok: false, error: "NOT_PENDING", status: row.status } : { ok: false, error: "NOT_FOUND" };
}

/**
 * Takes the request for one approver before Kafka is asked: PENDING -> APPROVING with
 * claimedBy/claimedAt, only if it is still PENDING (atomic). Of any number of approvers
 * racing, exactly one gets { ok: true }; the others get NOT_PENDING with the status.
 */
export async function claimTokenRequest(id: string, approver: string, now: Date = new Date()): Promise<DecisionResult> {
  const prisma = getPrisma();
  const { count } = await prisma.tokenRequest.updateMany({
    where: { id, status: "PENDING" },
    data: { status: "APPROVING", claimedBy: approver, claimedAt: now },
  });
  if (count === 0) return failure(id);
  const row = await prisma.tokenRequest.findUniqueOrThrow({ where: { id } });
  return { ok: true, request: toRecord(row) };
}

/** The claim a record holds, when it is APPROVING. */
export function claimOf(request: Pick<TokenRequest, "status" | "claimedBy" | "claimedAt">): Claim | null {
  return request.status === "APPROVING" && request.claimedBy !== null && request.claimedAt !== null
    ? { by: request.claimedBy, at: request.claimedAt }
    : null;
}

async function claimFailure(id: string): Promise<ClaimFailure> {
  const f = await failure(id);
  return f.error === "NOT_FOUND" ? f : { ok: false, error: "CLAIM_LOST", status: f.status };
}

/**
 * Completes a claim with the token Kafka created: APPROVING (this exact claim) ->
 * APPROVED with the token id and the encrypted HMAC (null when it could not be learned).
 * CLAIM_LOST when the claim was resolved or replaced meanwhile.
 */
export async function recordClaimedApproval(
  id: string,
  claim: Claim,
  approval: { approver: string; tokenId: string; encryptedHmac: string | null; deadline: Date },
  now: Date = new Date(),
): Promise<ClaimResult> {
  const prisma = getPrisma();
  const { count } = await prisma.tokenRequest.updateMany({
    where: { id, status: "APPROVING", claimedBy: claim.by, claimedAt: claim.at },
    data: {
      status: "APPROVED",
      approver: approval.approver,
      decidedAt: now,
      tokenId: approval.tokenId,
      encryptedHmac: approval.encryptedHmac,
      hmacDeadline: approval.deadline,
    },
  });
  if (count === 0) return claimFailure(id);
  const row = await prisma.tokenRequest.findUniqueOrThrow({ where: { id } });
  return { ok: true, request: toRecord(row) };
}

/**
 * Claims and records in one go, for a token that already exists (tests, data imports):
 * PENDING -> APPROVED through the same claim, so it races like an approval does.
 */
export async function approveTokenRequest(
  id: string,
  approver: string,
  tokenId: string,
  encryptedHmac: string,
  deadline: Date,
  now: Date = new Date(),
): Promise<DecisionResult> {
  const claimed = await claimTokenRequest(id, approver, now);
  if (!claimed.ok) return claimed;
  const recorded = await recordClaimedApproval(
    id,
    { by: approver, at: now },
    { approver, tokenId, encryptedHmac, deadline },
    now,
  );
  if (recorded.ok) return recorded;
  return recorded.error === "NOT_FOUND" ? recorded : { ok: false, error: "NOT_PENDING", status: recorded.status };
}

/** Gives a claim up (Kafka refused, or no token was created): APPROVING (this exact claim) -> PENDING. */
export async function releaseClaim(id: string, claim: Claim): Promise<ClaimResult> {
  const prisma = getPrisma();
  const { count } = await prisma.tokenRequest.updateMany({
    where: { id, status: "APPROVING", claimedBy: claim.by, claimedAt: claim.at },
    data: { status: "PENDING", claimedBy: null, claimedAt: null },
  });
  if (count === 0) return claimFailure(id);
  const row = await prisma.tokenRequest.findUniqueOrThrow({ where: { id } });
  return { ok: true, request: toRecord(row) };
}

/** Denies a PENDING request with a reason (atomic); an APPROVING one is refused (NOT_PENDING). */
export async function denyTokenRequest(
  id: string,
  approver: string,
  reason: string,
  now: Date = new Date(),
): Promise<DecisionResult> {
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
export async function retrieveHmacOnce(
  id: string,
  requester: string,
  now: Date = new Date(),
  clusterId?: string,
): Promise<RetrieveResult> {
  const prisma = getPrisma();
  const rows = await prisma.$queryRaw<{ token_id: string; encrypted_hmac: string }[]>`
    UPDATE "token_request" AS t
       SET "encrypted_hmac" = NULL, "status" = 'RETRIEVED', "retrieved_at" = ${now}::timestamptz
      FROM (SELECT "id", "encrypted_hmac" FROM "token_request"
             WHERE "id" = ${id} AND "requester" = ${requester} AND "status" = 'APPROVED'
               AND (${clusterId ?? null}::text IS NULL OR "cluster_id" = ${clusterId ?? null}::text)
               AND "encrypted_hmac" IS NOT NULL AND "hmac_deadline" > ${now}::timestamptz
             FOR UPDATE) AS old
     WHERE t."id" = old."id"
    RETURNING t."token_id", old."encrypted_hmac"`;
  const hit = rows[0];
  if (hit) return { ok: true, tokenId: hit.token_id, encryptedHmac: hit.encrypted_hmac };

  const row = await prisma.tokenRequest.findUnique({ where: { id } });
  if (!row || (clusterId !== undefined && row.clusterId !== clusterId)) return { ok: false, error: "NOT_FOUND" };
  if (row.requester !== requester) return { ok: false, error: "NOT_REQUESTER" };
  if (row.status === "RETRIEVED") return { ok: false, error: "ALREADY_RETRIEVED", status: row.status };
  if (
    row.status === "EXPIRED_UNRETRIEVED" ||
    (row.status === "APPROVED" && row.hmacDeadline !== null && row.hmacDeadline <= now)
  ) {
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
