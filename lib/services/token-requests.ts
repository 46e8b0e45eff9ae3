/**
 * Self-service delegation token requests (DESIGN.md, "Token flows"): a user asks for a
 * token for an owner they cannot create for; someone entitled approves (the console
 * creates the token AS THE APPROVER, so Kafka decides) or denies with a reason; the
 * requester retrieves the HMAC exactly once. Used by the Token requests page, its server
 * actions and /api/v1/token-requests*.
 *
 * Approval order: create the token in Kafka (only then is there a token id and HMAC),
 * then record the approval atomically from PENDING. An approver who loses that race
 * expires the token it just created, at once. A Kafka refusal leaves the request PENDING.
 * The HMAC is stored only encrypted until its single retrieval or its deadline; it is
 * never audited or logged.
 */
import "server-only";
import { createDelegationToken, describeAcls, describeDelegationTokens, expireDelegationToken, type KafkaCredential } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/actions/result";
import { toErrorResult } from "@/lib/actions/errors";
import { recordAudit } from "@/lib/db/audit";
import {
  approveTokenRequest,
  createTokenRequest,
  denyTokenRequest,
  getTokenRequest,
  listMyTokenRequests,
  listPendingTokenRequests,
  retrieveHmacOnce,
  type TokenRequest,
} from "@/lib/db/token-request";
import { decryptSecret, encryptSecret } from "@/lib/auth/crypto";
import type { AclBinding, DelegationToken } from "@/lib/policy";
import type { DecidableRequest, TokenRequestCreateInput, TokenRequestLists, TokenRequestView, TokenRetrieved } from "@/lib/schemas/tokens";
import { readAuthorizerConfig, toAuthorizerConfig } from "./authorizer-config";
import { APPEARS_ENTITLED, RETRIEVAL_WINDOW_MS, approverEntitlement, toTokenRequestView, withEntitlement, type ApproverEvidence } from "./token-view";
import { kafkaCodeOf } from "./tokens";

type Failure = Extract<ActionResult<never>, { ok: false }>;

/** The console's connections come from the loopback address of the dev broker's host. */
const CONSOLE_HOST = "127.0.0.1";

/**
 * What the viewer's approval entitlement can be judged from: the USER-resource ACLs when
 * Kafka lets the viewer describe them (DESCRIBE on CLUSTER), the super users assumed from
 * the environment, and the owners the viewer has created tokens for before.
 */
async function evidenceFor(cred: KafkaCredential, viewer: string): Promise<ApproverEvidence> {
  const config = toAuthorizerConfig(readAuthorizerConfig());
  const [acls, tokens] = await Promise.all([
    describeAcls(cred, { resourceType: "USER", resourceName: null, patternType: "ANY", principal: null, host: null, operation: "ANY", permissionType: "ANY" }).catch(
      () => null as AclBinding[] | null,
    ),
    describeDelegationTokens(cred, null).catch(() => [] as DelegationToken[]),
  ]);
  const createdFor = new Set(tokens.filter((t) => t.requester === viewer && t.owner !== viewer).map((t) => t.owner));
  return { config, acls, createdFor, host: CONSOLE_HOST };
}

export async function listTokenRequests(viewer: Viewer, now = Date.now()): Promise<ActionResult<TokenRequestLists>> {
  try {
    const [mine, pending, evidence] = await Promise.all([
      listMyTokenRequests(viewer.principal),
      listPendingTokenRequests(),
      evidenceFor(viewer.credential, viewer.principal),
    ]);
    return {
      ok: true,
      data: {
        mine: mine.map((r) => toTokenRequestView(r, now)),
        pending: pending.map((r) => withEntitlement(toTokenRequestView(r, now), viewer.principal, evidence)),
        aclsReadable: evidence.acls !== null,
        now,
      },
    };
  } catch (error) {
    return toErrorResult(error, "list token requests");
  }
}

const describeRequest = (r: Pick<TokenRequest, "id" | "owner" | "renewers" | "maxLifetimeMs" | "requester">) => ({
  requestId: r.id,
  requester: r.requester,
  owner: r.owner,
  renewers: r.renewers,
  maxLifetimeMs: r.maxLifetimeMs,
});

export async function submitTokenRequest(viewer: Viewer, input: TokenRequestCreateInput): Promise<ActionResult<TokenRequestView>> {
  if (input.owner === viewer.principal) {
    return { ok: false, code: "VALIDATION", message: "You may create tokens for yourself directly on the Tokens page; no request is needed.", fieldErrors: { owner: ["That is you"] } };
  }
  try {
    const created = await createTokenRequest({ requester: viewer.principal, owner: input.owner, renewers: input.renewers, maxLifetimeMs: input.maxLifetimeMs, reason: input.reason });
    await recordAudit({
      principal: viewer.principal,
      action: "token.request.create",
      target: `token request ${created.id}`,
      request: { ...describeRequest(created), reason: created.reason },
      outcome: "success",
      message: `Requested a token for ${created.owner}.`,
    });
    return { ok: true, data: toTokenRequestView(created, Date.now()) };
  } catch (error) {
    return toErrorResult(error, "submit a token request");
  }
}

async function pendingRequest(id: string): Promise<ActionResult<TokenRequest>> {
  const request = await getTokenRequest(id);
  if (!request) return { ok: false, code: "NOT_FOUND", message: "There is no such token request." };
  if (request.status !== "PENDING") return { ok: false, code: "CONFLICT", message: `This request is already ${request.status}; only PENDING requests can be decided.` };
  return { ok: true, data: request };
}

/** Create the token as the approver, then record the approval (atomic from PENDING). */
export async function approveRequest(viewer: Viewer, id: string): Promise<ActionResult<DecidableRequest>> {
  const found = await pendingRequest(id);
  if (!found.ok) return found;
  const request = found.data;
  const audit = { principal: viewer.principal, action: "token.request.approve", target: `token request ${id}`, request: describeRequest(request) };

  if (request.requester === viewer.principal) {
    const evidence = await evidenceFor(viewer.credential, viewer.principal);
    const direct = approverEntitlement(viewer.principal, { requester: "", owner: request.owner }, evidence);
    const message = APPEARS_ENTITLED.has(direct.entitlement)
      ? `You cannot approve your own request. Kafka would let you create this token directly (${direct.note}) — create it on the Tokens page instead.`
      : "You cannot approve your own request: someone else who may create tokens for the owner must approve it.";
    await recordAudit({ ...audit, outcome: "denied", message });
    return { ok: false, code: "DENIED", message };
  }

  let token: DelegationToken;
  try {
    token = await createDelegationToken(viewer.credential, {
      ...(request.owner !== viewer.principal ? { owner: request.owner } : {}),
      renewers: request.renewers,
      ...(request.maxLifetimeMs !== null ? { maxLifetimeMs: request.maxLifetimeMs } : {}),
    });
  } catch (error) {
    const failure: Failure = toErrorResult(error, "create a delegation token for a token request");
    const message = `${failure.message} The request stays PENDING.`;
    await recordAudit({ ...audit, outcome: failure.code === "DENIED" ? "denied" : "failure", kafkaError: kafkaCodeOf(error), message });
    return { ...failure, message };
  }

  const now = new Date();
  const deadline = new Date(now.getTime() + RETRIEVAL_WINDOW_MS);
  let recorded;
  try {
    recorded = await approveTokenRequest(id, viewer.principal, token.tokenId, encryptSecret(token.hmac), deadline, now);
  } catch (error) {
    recorded = null;
    toErrorResult(error, "record a token request approval");
  }
  if (!recorded?.ok) {
    // Someone else decided first (or the record failed): the token we created must not live on.
    let expired = true;
    try {
      await expireDelegationToken(viewer.credential, token.hmac, -1);
    } catch (error) {
      expired = false;
      toErrorResult(error, "expire a token created by a losing approval");
    }
    const state = recorded && !recorded.ok && recorded.error === "NOT_PENDING" ? `was already ${recorded.status}` : "could not be updated";
    const message = `The request ${state}, so the token just created (${token.tokenId}) ${expired ? "was expired immediately" : "could NOT be expired; expire it on the Tokens page"}.`;
    await recordAudit({ ...audit, after: { tokenId: token.tokenId, expired }, outcome: "failure", message });
    return { ok: false, code: "CONFLICT", message };
  }
  await recordAudit({
    ...audit,
    after: { status: "APPROVED", tokenId: token.tokenId, owner: token.owner, renewers: token.renewers, hmacDeadline: deadline.toISOString() },
    outcome: "success",
    message: `Approved: created token ${token.tokenId} for ${token.owner} as ${viewer.principal}; ${request.requester} may retrieve it once until ${deadline.toISOString()}.`,
  });
  const view = toTokenRequestView(recorded.request, now.getTime());
  return { ok: true, data: { ...view, entitlement: "acl", entitlementNote: "Kafka let you create it." } };
}

/** Deny with a reason: the requester may withdraw; others must appear entitled to approve. */
export async function denyRequest(viewer: Viewer, id: string, reason: string): Promise<ActionResult<TokenRequestView>> {
  const found = await pendingRequest(id);
  if (!found.ok) return found;
  const request = found.data;
  const audit = { principal: viewer.principal, action: "token.request.deny", target: `token request ${id}`, request: { ...describeRequest(request), reason } };
  if (request.requester !== viewer.principal) {
    const { entitlement, note } = approverEntitlement(viewer.principal, request, await evidenceFor(viewer.credential, viewer.principal));
    if (!APPEARS_ENTITLED.has(entitlement)) {
      const message = `Only someone who may approve this request can deny it. ${note}`;
      await recordAudit({ ...audit, outcome: "denied", message });
      return { ok: false, code: "DENIED", message };
    }
  }
  const result = await denyTokenRequest(id, viewer.principal, reason);
  if (!result.ok) {
    const message = result.error === "NOT_FOUND" ? "There is no such token request." : `This request is already ${result.status}.`;
    await recordAudit({ ...audit, outcome: "failure", message });
    return { ok: false, code: result.error === "NOT_FOUND" ? "NOT_FOUND" : "CONFLICT", message };
  }
  await recordAudit({ ...audit, after: { status: "DENIED" }, outcome: "success", message: `Denied the request of ${request.requester} for ${request.owner}: ${reason}` });
  return { ok: true, data: toTokenRequestView(result.request, Date.now()) };
}

const RETRIEVE_MESSAGES = {
  NOT_FOUND: "There is no such token request.",
  NOT_REQUESTER: "Only the requester can retrieve this token.",
  NOT_APPROVED: "This request has not been approved.",
  ALREADY_RETRIEVED: "The HMAC was already retrieved; the console does not keep it. Ask for a new token if it is lost.",
  EXPIRED: "The retrieval deadline passed and the HMAC was erased (EXPIRED_UNRETRIEVED). Ask for a new token.",
} as const;

/** The requester's one retrieval: the HMAC is erased from the database in the same statement. */
export async function retrieveRequestedToken(viewer: Viewer, id: string): Promise<ActionResult<TokenRetrieved>> {
  const audit = { principal: viewer.principal, action: "token.request.retrieve", target: `token request ${id}` };
  let result;
  try {
    result = await retrieveHmacOnce(id, viewer.principal);
  } catch (error) {
    return toErrorResult(error, "retrieve a token");
  }
  if (!result.ok) {
    const message = RETRIEVE_MESSAGES[result.error];
    await recordAudit({ ...audit, outcome: result.error === "NOT_REQUESTER" ? "denied" : "failure", message });
    const code = result.error === "NOT_FOUND" ? "NOT_FOUND" : result.error === "NOT_REQUESTER" ? "DENIED" : "CONFLICT";
    return { ok: false, code, message };
  }
  let hmac: string;
  try {
    hmac = decryptSecret(result.encryptedHmac);
  } catch (error) {
    const failure = toErrorResult(error, "decrypt a retrieved token");
    await recordAudit({ ...audit, request: { tokenId: result.tokenId }, outcome: "failure", message: "The stored HMAC could not be decrypted (was the console's key changed?)." });
    return failure;
  }
  await recordAudit({ ...audit, request: { tokenId: result.tokenId }, outcome: "success", message: `Retrieved token ${result.tokenId} (once; erased from the console).` });
  return { ok: true, data: { requestId: id, tokenId: result.tokenId, hmac } };
}
