/**
 * Self-service delegation token requests (docs/tokens.md, "Self-service requests"): a user asks for a
 * token for an owner they cannot create for; someone entitled approves (the console
 * creates the token AS THE APPROVER, so Kafka decides) or denies with a reason; the
 * requester retrieves the HMAC exactly once. Used by the Token requests page, its server
 * actions and /api/v1/token-requests*.
 *
 * Never more than one token per request. A losing approver cannot clean up after itself
 * (only the owner and renewers may expire a token: Kafka answers OWNER_MISMATCH), so
 * the race is decided before Kafka is asked:
 *
 *   1. claim in the database: PENDING -> APPROVING (claimedBy, claimedAt); one winner,
 *      everyone else is told who holds it; deny is refused while it is held;
 *   2. the winner creates the token as itself;
 *   3. Kafka's answer decides: created -> APPROVED with the encrypted HMAC; refused ->
 *      back to PENDING; no answer (timeout, broker gone) -> the outcome is resolved by
 *      describing the owner's tokens (resolveClaim): a token of that owner, requested by
 *      the claimer, issued after the claim, with the requested renewers is recorded; with
 *      none the claim stays until CLAIM_TIMEOUT_MS has passed (a create still queued in a
 *      hung broker may yet land), then the request goes back to PENDING.
 *
 * A claim whose approver died is resolved the same way by the next approve or deny after
 * CLAIM_TIMEOUT_MS, by anyone Kafka shows every token of the claimer for that owner
 * (the claimer, the owner, a super user, DESCRIBE_TOKENS on USER:<owner>). The claim is the
 * fence of every completion, so a slow approver and a resolver cannot both record.
 *
 * Every mutation (create, approve, resolve, deny, retrieve) goes through auditedMutation
 * with category "token-request" and subjects [requester, owner, ...renewers], which the
 * audit visibility rule (lib/services/audit-view.ts) reads. The HMAC is never audited or
 * logged; it is stored only encrypted until its single retrieval or its deadline.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { describeAcls, describeDelegationTokens, isKafkaOperationError } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import {
  claimOf,
  claimTokenRequest,
  createTokenRequest,
  denyTokenRequest,
  getTokenRequest,
  recordClaimedApproval,
  releaseClaim,
  retrieveHmacOnce,
  tokenIdsRecordedElsewhere,
  type Claim,
  type TokenRequest,
} from "@/lib/db/token-request";
import { decryptSecret, encryptSecret } from "@/lib/auth/crypto";
import { aclIsAllowed, isSuperUser, type DelegationToken } from "@/lib/policy";
import type { DecidableRequest, TokenRequestCreateInput, TokenRequestView, TokenRetrieved } from "@/lib/schemas/tokens";
import { auditedMutation, type KafkaWriter, type MutationOutcome, type MutationSpec } from "./audited-mutation";
import { toAuthorizerConfig } from "@/lib/authorizer-config";
import { clusterIdOf, clusterOf } from "@/lib/clusters";
import {
  APPEARS_ENTITLED,
  RETRIEVAL_WINDOW_MS,
  approverEntitlement,
  formatDuration,
  toTokenRequestView,
} from "./token-view";
import { unnamedHost } from "./effective-permissions";
import { ANY_USER_ACL, evidenceFor } from "./token-request-lists";

export {
  countDecidableTokenRequests,
  DECIDABLE_OWNERS_TTL_MS,
  forgetDecidableOwners,
  listTokenRequestItems,
  listTokenRequests,
  summarizeTokenRequest,
  toTokenRequestItem,
  type TokenRequestItems,
} from "./token-request-lists";

type Failure = Extract<ActionResult<never>, { ok: false }>;

/**
 * How long an approval may hold a request before anyone else may resolve it. Well beyond
 * the longest a create can take (connect 5 s, two 30 s request timeouts, 3 s settle), so a
 * live approver has always had Kafka's answer, or given up, before.
 */
export const CLAIM_TIMEOUT_MS = 2 * 60_000;

/** How far the brokers' clocks may be behind the console's when a token is matched to a claim. */
export const CLOCK_SKEW_MS = 5_000;

/** Kafka errors after which the token may or may not exist: the request was sent, the answer never came. */
const OUTCOME_UNKNOWN_CODES = new Set([
  "BROKER_UNAVAILABLE",
  "REQUEST_TIMED_OUT",
  "NETWORK_EXCEPTION",
  "UNKNOWN",
  "UNKNOWN_SERVER_ERROR",
]);

/** True unless Kafka answered with a refusal (then no token was created). */
export function isOutcomeUnknown(error: unknown): boolean {
  return !isKafkaOperationError(error) || OUTCOME_UNKNOWN_CODES.has(error.code);
}

const kafkaCodeOf = (error: unknown): string | null => (isKafkaOperationError(error) ? error.code : null);

/** The principals a request is about, for the audit visibility rule: requester, owner, renewers. */
export function subjectsOf(r: Pick<TokenRequest, "requester" | "owner" | "renewers">): string[] {
  return [...new Set([r.requester, r.owner, ...r.renewers])];
}

const describeRequest = (r: Pick<TokenRequest, "id" | "owner" | "renewers" | "maxLifetimeMs" | "requester">) => ({
  requestId: r.id,
  requester: r.requester,
  owner: r.owner,
  renewers: r.renewers,
  maxLifetimeMs: r.maxLifetimeMs,
});

function specFor(
  viewer: Viewer,
  action: string,
  request: Pick<TokenRequest, "id" | "owner" | "renewers" | "maxLifetimeMs" | "requester">,
  extra: object = {},
): MutationSpec {
  return {
    viewer,
    action,
    category: "token-request",
    target: `token request ${request.id}`,
    request: { ...describeRequest(request), ...extra },
    subjects: subjectsOf(request),
  };
}

export async function submitTokenRequest(
  viewer: Viewer,
  input: TokenRequestCreateInput,
): Promise<ActionResult<TokenRequestView>> {
  if (input.owner === viewer.principal) {
    return {
      ok: false,
      code: "VALIDATION",
      message: "You may create tokens for yourself directly on the Tokens page; no request is needed.",
      fieldErrors: { owner: ["That is you"] },
    };
  }
  const draft = {
    id: randomUUID(),
    requester: viewer.principal,
    owner: input.owner,
    renewers: [...new Set(input.renewers)],
    maxLifetimeMs: input.maxLifetimeMs,
  };
  return auditedMutation(specFor(viewer, "token.request.create", draft, { reason: input.reason }), async () => {
    const created = await createTokenRequest({
      ...draft,
      reason: input.reason,
      clusterId: clusterIdOf(viewer.credential),
    });
    return {
      result: { ok: true, data: toTokenRequestView(created, Date.now()) },
      audit: {
        outcome: "success",
        after: { status: created.status },
        message: `Requested a token for ${created.owner}.`,
      },
    };
  });
}

// ---- resolving a claim from Kafka's tokens ------------------------------------------

type Resolution =
  | { kind: "recorded"; request: TokenRequest; tokenId: string }
  | { kind: "released"; request: TokenRequest }
  /** The claim was completed or released by someone else meanwhile. */
  | { kind: "moved"; request: TokenRequest | null }
  | { kind: "unresolved"; reason: "cannotSee" | "describeFailed" | "ambiguous" | "notYet"; message: string };

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === new Set(a).size && new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));

/** Whether Kafka shows the viewer every token the claimer created for the owner. */
async function seesClaimersTokens(viewer: Viewer, request: TokenRequest, claim: Claim): Promise<boolean> {
  if (viewer.principal === claim.by || viewer.principal === request.owner) return true;
  const config = toAuthorizerConfig(clusterOf(viewer.credential).authorizer);
  if (isSuperUser(viewer.principal, config)) return true;
  const acls = await describeAcls(viewer.credential, ANY_USER_ACL).catch(() => null);
  return (
    acls !== null &&
    aclIsAllowed(acls, config, unnamedHost(acls.map((a) => a.host)))(
      viewer.principal,
      "DESCRIBE_TOKENS",
      "USER",
      request.owner,
    )
  );
}

/**
 * Finds out from Kafka what the approval holding `claim` did: describes the owner's tokens
 * as the viewer and looks for the one token that approval would have created (owner,
 * requester = claimer, issued after the claim, the requested renewers, within the
 * requested lifetime, not recorded on another request). One -> APPROVED with it; none ->
 * PENDING once the claim is older than CLAIM_TIMEOUT_MS; more than one -> left as is.
 */
async function resolveClaim(viewer: Viewer, request: TokenRequest, claim: Claim, now: number): Promise<Resolution> {
  if (!(await seesClaimersTokens(viewer, request, claim))) {
    return {
      kind: "unresolved",
      reason: "cannotSee",
      message:
        `Only ${claim.by}, the owner ${request.owner}, a super user or someone with DESCRIBE_TOKENS on ` +
        `USER ${request.owner} can settle the approval held by ${claim.by}: Kafka would not show you its ` +
        `token.`,
    };
  }
  let tokens: DelegationToken[];
  try {
    tokens = await describeDelegationTokens(viewer.credential, [request.owner]);
  } catch (error) {
    const failure = toErrorResult(error, "describe delegation tokens to settle an approval");
    return {
      kind: "unresolved",
      reason: "describeFailed",
      message: `The console could not ask Kafka for the tokens of ${request.owner}: ${failure.message}`,
    };
  }
  const matching = tokens.filter(
    (t) =>
      t.owner === request.owner &&
      t.requester === claim.by &&
      t.issueTimestamp >= claim.at.getTime() - CLOCK_SKEW_MS &&
      sameSet(t.renewers, request.renewers) &&
      (request.maxLifetimeMs === null || t.maxTimestamp - t.issueTimestamp <= request.maxLifetimeMs),
  );
  const elsewhere = await tokenIdsRecordedElsewhere(
    matching.map((t) => t.tokenId),
    request.id,
  );
  const candidates = matching.filter((t) => !elsewhere.has(t.tokenId));

  if (candidates.length > 1) {
    return {
      kind: "unresolved",
      reason: "ambiguous",
      message:
        `Kafka shows ${candidates.length} tokens that ${claim.by} may have created for this request ` +
        `(${candidates.map((t) => t.tokenId).join(", ")}); the console cannot tell which. Expire the extra ` +
        `ones (as ${request.owner} or a renewer), then approve again.`,
    };
  }
  const token = candidates[0];
  if (token) {
    const deadline = new Date(now + RETRIEVAL_WINDOW_MS);
    const recorded = await recordClaimedApproval(
      request.id,
      claim,
      {
        approver: claim.by,
        tokenId: token.tokenId,
        encryptedHmac: token.hmac ? encryptSecret(token.hmac) : null,
        deadline,
      },
      new Date(now),
    );
    if (recorded.ok) return { kind: "recorded", request: recorded.request, tokenId: token.tokenId };
    return { kind: "moved", request: await getTokenRequest(request.id) };
  }
  if (now - claim.at.getTime() < CLAIM_TIMEOUT_MS) {
    const after = new Date(claim.at.getTime() + CLAIM_TIMEOUT_MS).toISOString();
    return {
      kind: "unresolved",
      reason: "notYet",
      message:
        `Kafka shows no token from this approval yet. The request stays APPROVING (held by ${claim.by}) ` +
        `until ${after}, in case a create still queued in the broker lands; approving or denying after that ` +
        `checks again and records the token or returns the request to PENDING.`,
    };
  }
  const released = await releaseClaim(request.id, claim);
  if (released.ok) return { kind: "released", request: released.request };
  return { kind: "moved", request: await getTokenRequest(request.id) };
}

/** An approval that looks dead (claim older than CLAIM_TIMEOUT_MS), settled from Kafka's tokens, audited. */
async function resolveStaleClaim(
  viewer: Viewer,
  request: TokenRequest,
  claim: Claim,
): Promise<ActionResult<TokenRequest>> {
  const spec = specFor(viewer, "token.request.resolve", request, {
    claimedBy: claim.by,
    claimedAt: claim.at.toISOString(),
  });
  return auditedMutation(spec, async (): Promise<MutationOutcome<TokenRequest>> => {
    const r = await resolveClaim(viewer, request, claim, Date.now());
    switch (r.kind) {
      case "recorded":
        return {
          result: { ok: true, data: r.request },
          audit: {
            outcome: "success",
            after: { status: "APPROVED", tokenId: r.tokenId, approver: claim.by },
            message: `The stalled approval by ${claim.by} had created token ${r.tokenId}; recorded it.`,
          },
        };
      case "released":
        return {
          result: { ok: true, data: r.request },
          audit: {
            outcome: "success",
            after: { status: "PENDING" },
            message: `The stalled approval by ${claim.by} created no token; the request is PENDING again.`,
          },
        };
      case "moved":
        return {
          result: r.request
            ? { ok: true, data: r.request }
            : { ok: false, code: "NOT_FOUND", message: "There is no such token request." },
          audit: { outcome: "failure", message: "Someone else settled the stalled approval first." },
        };
      case "unresolved":
        return {
          result: { ok: false, code: "CONFLICT", message: r.message },
          audit: { outcome: r.reason === "describeFailed" ? "unknown" : "failure", message: r.message },
        };
    }
  });
}

const isStale = (claim: Claim, now: number) => now - claim.at.getTime() >= CLAIM_TIMEOUT_MS;

/** Settles a stalled claim first when there is one; returns the request as it now stands. */
async function settledRequest(viewer: Viewer, request: TokenRequest): Promise<ActionResult<TokenRequest>> {
  const claim = claimOf(request);
  if (!claim || !isStale(claim, Date.now())) return { ok: true, data: request };
  return resolveStaleClaim(viewer, request, claim);
}

function heldMessage(request: TokenRequest, doing: string): string {
  const since = request.claimedAt ? ` since ${request.claimedAt.toISOString()}` : "";
  return (
    `${request.claimedBy ?? "Another approver"} is approving this request right now${since}; it cannot ` +
    `be ${doing} while that approval is under way. Reload in a moment.`
  );
}

function notOpenMessage(request: TokenRequest, doing: string): string {
  return request.status === "APPROVING"
    ? heldMessage(request, doing)
    : `This request is already ${request.status}; only PENDING requests can be decided.`;
}

/** The request, when it was made on the viewer's cluster (one of another cluster is not found here). */
async function findRequest(viewer: Viewer, id: string, doing: string): Promise<ActionResult<TokenRequest>> {
  try {
    const request = await getTokenRequest(id, clusterIdOf(viewer.credential));
    return request
      ? { ok: true, data: request }
      : { ok: false, code: "NOT_FOUND", message: "There is no such token request." };
  } catch (error) {
    return toErrorResult(error, doing);
  }
}

// ---- approve ------------------------------------------------------------------------

/** Claim, create the token as the approver, record it; exactly one token per request. */
export async function approveRequest(viewer: Viewer, id: string): Promise<ActionResult<DecidableRequest>> {
  const found = await findRequest(viewer, id, "approve a token request");
  if (!found.ok) return found;
  let request = found.data;
  if (request.requester !== viewer.principal) {
    const settled = await settledRequest(viewer, request);
    if (!settled.ok) return settled;
    request = settled.data;
  }
  const spec = specFor(viewer, "token.request.approve", request);
  return auditedMutation(spec, (kafka) => approveClaimed(kafka, viewer, request));
}

async function approveClaimed(
  kafka: KafkaWriter,
  viewer: Viewer,
  request: TokenRequest,
): Promise<MutationOutcome<DecidableRequest>> {
  if (request.requester === viewer.principal) {
    const evidence = await evidenceFor(viewer, async () => []);
    const direct = approverEntitlement(viewer.principal, { requester: "", owner: request.owner }, evidence);
    const message = APPEARS_ENTITLED.has(direct.entitlement)
      ? `You cannot approve your own request. Kafka would let you create this token directly (${direct.note}) — ` +
        `create it on the Tokens page instead.`
      : "You cannot approve your own request: someone else who may create tokens for the owner must approve it.";
    return { result: { ok: false, code: "DENIED", message }, audit: { outcome: "denied", message } };
  }
  if (request.status !== "PENDING") {
    const message = notOpenMessage(request, "approved again");
    return { result: { ok: false, code: "CONFLICT", message }, audit: { outcome: "failure", message } };
  }

  const claimed = await claimTokenRequest(request.id, viewer.principal);
  if (!claimed.ok) {
    if (claimed.error === "NOT_FOUND")
      return {
        result: { ok: false, code: "NOT_FOUND", message: "There is no such token request." },
        audit: { outcome: "failure", message: "No such request." },
      };
    const now = (await getTokenRequest(request.id)) ?? { ...request, status: claimed.status };
    const message = notOpenMessage(now, "approved again");
    return { result: { ok: false, code: "CONFLICT", message }, audit: { outcome: "failure", message } };
  }
  const claim = claimOf(claimed.request);
  if (!claim) throw new Error("a claimed token request has no claim");

  let token: DelegationToken;
  try {
    token = await kafka.createDelegationToken(viewer.credential, {
      ...(request.owner !== viewer.principal ? { owner: request.owner } : {}),
      renewers: request.renewers,
      ...(request.maxLifetimeMs !== null ? { maxLifetimeMs: request.maxLifetimeMs } : {}),
    });
  } catch (error) {
    if (!isOutcomeUnknown(error)) return refused(request, claim, error);
    return settleUnknownOutcome(viewer, claimed.request, claim, error);
  }
  return recordCreated(kafka, viewer, request, claim, token);
}

/** Kafka said no: no token exists; the request goes back to PENDING. */
async function refused(
  request: TokenRequest,
  claim: Claim,
  error: unknown,
): Promise<MutationOutcome<DecidableRequest>> {
  const failure: Failure = toErrorResult(error, "create a delegation token for a token request");
  let back = true;
  try {
    back = (await releaseClaim(request.id, claim)).ok;
  } catch (releaseError) {
    back = false;
    toErrorResult(releaseError, "return a refused token request to PENDING");
  }
  const message = back
    ? `${failure.message} The request stays PENDING.`
    : `${failure.message} No token was created; the request could not be returned to PENDING yet (it will be ` +
      `after ${formatDuration(CLAIM_TIMEOUT_MS)}).`;
  return {
    result: { ...failure, message },
    audit: { outcome: failure.code === "DENIED" ? "denied" : "failure", kafkaError: kafkaCodeOf(error), message },
  };
}

/** Kafka's answer was lost: learn from its tokens whether the approval created one. */
async function settleUnknownOutcome(
  viewer: Viewer,
  request: TokenRequest,
  claim: Claim,
  error: unknown,
): Promise<MutationOutcome<DecidableRequest>> {
  const failure: Failure = toErrorResult(error, "create a delegation token for a token request");
  const kafkaError = kafkaCodeOf(error);
  let resolution: Resolution;
  try {
    resolution = await resolveClaim(viewer, request, claim, Date.now());
  } catch (resolveError) {
    const f = toErrorResult(resolveError, "settle an approval whose outcome is unknown");
    resolution = { kind: "unresolved", reason: "describeFailed", message: f.message };
  }
  if (resolution.kind === "recorded") {
    const message =
      `Kafka's answer was lost (${failure.message}), but it shows the token ${resolution.tokenId} ` +
      `this approval created for ${request.owner}; recorded it. ${request.requester} may retrieve it ` +
      `once.`;
    return {
      result: { ok: true, data: decided(resolution.request) },
      audit: { outcome: "success", kafkaError, after: { status: "APPROVED", tokenId: resolution.tokenId }, message },
    };
  }
  if (resolution.kind === "released") {
    const message = `${failure.message} Kafka shows no token from this approval; the request stays PENDING.`;
    return { result: { ...failure, message }, audit: { outcome: "failure", kafkaError, message } };
  }
  const detail = resolution.kind === "moved" ? "Someone else settled this approval meanwhile." : resolution.message;
  const message = `${failure.message} Whether Kafka created the token is not known yet. ${detail}`;
  return {
    result: { ok: false, code: failure.code === "INTERNAL" ? "INTERNAL" : "BROKER_UNAVAILABLE", message },
    audit: { outcome: "unknown", kafkaError, message },
  };
}

function decided(r: TokenRequest): DecidableRequest {
  return { ...toTokenRequestView(r, Date.now()), entitlement: "acl", entitlementNote: "Kafka let you create it." };
}

/** The token exists: record it on the claim (or learn that a resolver already did). */
async function recordCreated(
  kafka: KafkaWriter,
  viewer: Viewer,
  request: TokenRequest,
  claim: Claim,
  token: DelegationToken,
): Promise<MutationOutcome<DecidableRequest>> {
  const now = new Date();
  const deadline = new Date(now.getTime() + RETRIEVAL_WINDOW_MS);
  const after = {
    status: "APPROVED",
    tokenId: token.tokenId,
    owner: token.owner,
    renewers: token.renewers,
    hmacDeadline: deadline.toISOString(),
  };
  const success = (r: TokenRequest): MutationOutcome<DecidableRequest> => ({
    result: { ok: true, data: decided(r) },
    audit: {
      outcome: "success",
      after,
      message:
        `Approved: created token ${token.tokenId} for ${token.owner} ` +
        `as ${viewer.principal}; ${request.requester} may retrieve it once until ${deadline.toISOString()}.`,
    },
  });
  let recorded;
  try {
    recorded = await recordClaimedApproval(
      request.id,
      claim,
      { approver: viewer.principal, tokenId: token.tokenId, encryptedHmac: encryptSecret(token.hmac), deadline },
      now,
    );
  } catch (error) {
    toErrorResult(error, "record a token request approval");
    // The claim still holds: whoever approves after CLAIM_TIMEOUT_MS finds this token by describing.
    const message =
      `Token ${token.tokenId} was created, but the console could not record it (database error). The ` +
      `request stays APPROVING; approving it again after ${formatDuration(CLAIM_TIMEOUT_MS)} finds ` +
      `the token in Kafka and records it.`;
    return {
      result: { ok: false, code: "INTERNAL", message },
      audit: { outcome: "partial", after: { tokenId: token.tokenId }, message },
    };
  }
  if (recorded.ok) return success(recorded.request);
  const current = await getTokenRequest(request.id);
  if (current?.status === "APPROVED" && current.tokenId === token.tokenId) return success(current);

  // Our claim was settled as dead and the request moved on without this token. It must not
  // live on; Kafka lets only the owner and renewers expire it, so this works when we are one.
  let expired = true;
  try {
    await kafka.expireDelegationToken(viewer.credential, token.hmac, -1);
  } catch (error) {
    expired = false;
    toErrorResult(error, "expire a token created by an approval whose claim was lost");
  }
  const status = current?.status ?? "gone";
  const fate = expired
    ? "was expired immediately"
    : `could NOT be expired by you; ${request.owner} or a renewer must expire it`;
  const message =
    `This approval took too long and was settled without it (the request is now ${status}), ` +
    `so the token just created (${token.tokenId}) ${fate}.`;
  return {
    result: { ok: false, code: "CONFLICT", message },
    audit: { outcome: "failure", after: { tokenId: token.tokenId, expired }, message },
  };
}

// ---- deny ---------------------------------------------------------------------------

/**
 * Deny with a reason: the requester may withdraw; others must appear entitled to approve. Never while an approval holds
 * it.
 */
export async function denyRequest(viewer: Viewer, id: string, reason: string): Promise<ActionResult<TokenRequestView>> {
  const found = await findRequest(viewer, id, "deny a token request");
  if (!found.ok) return found;
  const settled = await settledRequest(viewer, found.data);
  if (!settled.ok) return settled;
  const request = settled.data;
  return auditedMutation(
    specFor(viewer, "token.request.deny", request, { reason }),
    async (): Promise<MutationOutcome<TokenRequestView>> => {
      if (request.requester !== viewer.principal) {
        const { entitlement, note } = approverEntitlement(
          viewer.principal,
          request,
          await evidenceFor(viewer, async () => [request]),
        );
        if (!APPEARS_ENTITLED.has(entitlement)) {
          const message = `Only someone who may approve this request can deny it. ${note}`;
          return { result: { ok: false, code: "DENIED", message }, audit: { outcome: "denied", message } };
        }
      }
      const result = await denyTokenRequest(id, viewer.principal, reason);
      if (!result.ok) {
        const current =
          result.error === "NOT_FOUND" ? null : ((await getTokenRequest(id)) ?? { ...request, status: result.status });
        const message = current ? notOpenMessage(current, "denied") : "There is no such token request.";
        return {
          result: { ok: false, code: current ? "CONFLICT" : "NOT_FOUND", message },
          audit: { outcome: "failure", message },
        };
      }
      return {
        result: { ok: true, data: toTokenRequestView(result.request, Date.now()) },
        audit: {
          outcome: "success",
          after: { status: "DENIED" },
          message: `Denied the request of ${request.requester} for ${request.owner}: ${reason}`,
        },
      };
    },
  );
}

// ---- retrieve -----------------------------------------------------------------------

const RETRIEVE_MESSAGES = {
  NOT_FOUND: "There is no such token request.",
  NOT_REQUESTER: "Only the requester can retrieve this token.",
  NOT_APPROVED: "This request has not been approved.",
  ALREADY_RETRIEVED: "The HMAC was already retrieved; the console does not keep it. Ask for a new token if it is lost.",
  EXPIRED: "The retrieval deadline passed and the HMAC was erased (EXPIRED_UNRETRIEVED). Ask for a new token.",
} as const;

/**
 * The requester's one retrieval: the HMAC is erased from the database in the same statement. It is in the answer only.
 */
export async function retrieveRequestedToken(viewer: Viewer, id: string): Promise<ActionResult<TokenRetrieved>> {
  let request: TokenRequest | null;
  try {
    request = await getTokenRequest(id, clusterIdOf(viewer.credential));
  } catch (error) {
    return toErrorResult(error, "retrieve a token");
  }
  const about = request ?? {
    id,
    requester: viewer.principal,
    owner: viewer.principal,
    renewers: [],
    maxLifetimeMs: null,
  };
  return auditedMutation(
    specFor(viewer, "token.request.retrieve", about),
    async (): Promise<MutationOutcome<TokenRetrieved>> => {
      const result = await retrieveHmacOnce(id, viewer.principal, new Date(), clusterIdOf(viewer.credential));
      if (!result.ok) {
        const message = RETRIEVE_MESSAGES[result.error];
        const code =
          result.error === "NOT_FOUND" ? "NOT_FOUND" : result.error === "NOT_REQUESTER" ? "DENIED" : "CONFLICT";
        return {
          result: { ok: false, code, message },
          audit: { outcome: result.error === "NOT_REQUESTER" ? "denied" : "failure", message },
        };
      }
      let hmac: string;
      try {
        hmac = decryptSecret(result.encryptedHmac);
      } catch (error) {
        const failure = toErrorResult(error, "decrypt a retrieved token");
        return {
          result: failure,
          audit: {
            outcome: "failure",
            after: { tokenId: result.tokenId },
            message: "The stored HMAC could not be decrypted (was the console's key changed?).",
          },
        };
      }
      return {
        result: { ok: true, data: { requestId: id, tokenId: result.tokenId, hmac } },
        audit: {
          outcome: "success",
          after: { tokenId: result.tokenId, status: "RETRIEVED" },
          message: `Retrieved token ${result.tokenId} (once; erased from the console).`,
        },
      };
    },
  );
}
