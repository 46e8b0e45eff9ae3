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
  countPendingTokenRequests,
  createTokenRequest,
  denyTokenRequest,
  getTokenRequest,
  listDecidedTokenRequests,
  listMyTokenRequests,
  listPendingTokenRequests,
  openRequestOwners,
  recordClaimedApproval,
  releaseClaim,
  retrieveHmacOnce,
  tokenIdsRecordedElsewhere,
  type Claim,
  type TokenRequest,
} from "@/lib/db/token-request";
import { decryptSecret, encryptSecret } from "@/lib/auth/crypto";
import { aclIsAllowed, ANY_ACL_FILTER, isSuperUser, type AclBinding, type DelegationToken } from "@/lib/policy";
import {
  tokenRequestViewSchema,
  type ApproverCheck,
  type DecidableRequest,
  type TokenRequestCreateInput,
  type TokenRequestLists,
  type TokenRequestView,
  type TokenRetrieved,
} from "@/lib/schemas/tokens";
import { TOKEN_REQUEST_KIND, type TokenRequestItem } from "@/lib/schemas/requests";
import { auditedMutation, type KafkaWriter, type MutationOutcome, type MutationSpec } from "./audited-mutation";
import { toAuthorizerConfig } from "@/lib/authorizer-config";
import { clusterIdOf, clusterOf } from "@/lib/clusters";
import { describeAclsAsService } from "./service-principal";
import {
  APPEARS_ENTITLED,
  RETRIEVAL_WINDOW_MS,
  approverEntitlement,
  formatDuration,
  toTokenRequestView,
  withEntitlement,
  type ApproverEvidence,
} from "./token-view";
import { unnamedHost } from "./effective-permissions";

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

const ANY_USER_ACL = { ...ANY_ACL_FILTER, resourceType: "USER" } as const;

/** The open requests whose approvers a decision judges. */
type Judged = Pick<TokenRequest, "id" | "owner" | "requester">;

const NO_SERVICE_PRINCIPAL =
  "this cluster has no service principal configured (KAFKA_SERVICE_CREDENTIALS_FILE, or serviceCredentialsFile " +
  "in the clusters file) to read them for the console";

/**
 * What the viewer's approval entitlement can be judged from: the USER-resource ACLs when
 * Kafka lets the viewer describe them (DESCRIBE on CLUSTER), else as the cluster's service
 * principal read them for the requests `judged` names (only those the ACLs decide: not the
 * viewer's own, not for the viewer, not for a super user; audited as the service principal);
 * the super users assumed from the settings; and the owners the viewer has created tokens
 * for before.
 */
async function evidenceFor(
  viewer: Viewer,
  judged: () => Promise<readonly Judged[]>,
): Promise<ApproverEvidence & { check: ApproverCheck }> {
  const cluster = clusterOf(viewer.credential);
  const config = toAuthorizerConfig(cluster.authorizer);
  const [acls, tokens] = await Promise.all([
    describeAcls(viewer.credential, ANY_USER_ACL).catch(() => null as AclBinding[] | null),
    describeDelegationTokens(viewer.credential, null).catch(() => [] as DelegationToken[]),
  ]);
  const createdFor = new Set(
    tokens.filter((t) => t.requester === viewer.principal && t.owner !== viewer.principal).map((t) => t.owner),
  );
  const evidence = { config, acls, createdFor };
  if (acls !== null) return { ...evidence, check: { by: "you" } };
  const service = cluster.servicePrincipal;
  if (!service) return { ...evidence, check: { by: "nobody", reason: NO_SERVICE_PRINCIPAL } };
  const check: ApproverCheck = { by: "servicePrincipal", principal: service.principal };
  const needed = isSuperUser(viewer.principal, config)
    ? []
    : (await judged()).filter((r) => r.requester !== viewer.principal && r.owner !== viewer.principal);
  if (needed.length === 0) return { ...evidence, check };
  const ids = needed.map((r) => r.id);
  const read = await describeAclsAsService(service, ANY_USER_ACL, {
    action: "service.acls.describe",
    actingFor: viewer.principal,
    purpose: "who may approve these token requests",
    target:
      ids.length === 1
        ? `token request ${ids[0]}`
        : `token requests ${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ` and ${ids.length - 3} more` : ""}`,
    about: { requestIds: ids, owners: [...new Set(needed.map((r) => r.owner))] },
  });
  if (!read.ok)
    return {
      ...evidence,
      check: {
        by: "nobody",
        reason:
          `the console's service principal ${service.principal} could not read ` +
          `them: ${read.message.replace(/\.$/, "")}`,
      },
    };
  return { ...evidence, acls: read.acls, aclsReadBy: read.principal, check };
}

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

/**
 * The viewer's own requests, and the open requests the viewer may decide: those of owners
 * the viewer appears entitled to create tokens for (the owner, a super user, CREATE_TOKENS
 * on USER:<owner> in the ACLs Kafka lets the viewer read, or tokens Kafka shows the viewer
 * created for that owner), plus the viewer's own open requests. Nobody else's reasons.
 */
export async function listTokenRequests(viewer: Viewer, now = Date.now()): Promise<ActionResult<TokenRequestLists>> {
  try {
    // Requests are per cluster: nothing made on another is listed here.
    const clusterId = clusterIdOf(viewer.credential);
    const [mine, open] = await Promise.all([
      listMyTokenRequests(viewer.principal, undefined, clusterId),
      openForViewer(viewer, clusterId, now),
    ]);
    return {
      ok: true,
      data: {
        mine: mine.map((r) => toTokenRequestView(r, now)),
        pending: open.pending,
        aclsReadable: open.evidence.check.by === "you",
        approverCheck: open.evidence.check,
        now,
      },
    };
  } catch (error) {
    return toErrorResult(error, "list token requests");
  }
}

/**
 * The open requests the viewer sees (those of owners the viewer appears entitled to create
 * tokens for, and the viewer's own), oldest first, each with its entitlement; and which owners
 * those are.
 */
async function openForViewer(viewer: Viewer, clusterId: string, now: number, limit?: number) {
  const owners = await openRequestOwners(clusterId);
  const others = owners.filter((owner) => owner !== viewer.principal);
  const evidence = await evidenceFor(viewer, () =>
    others.length === 0 ? Promise.resolve([]) : listPendingTokenRequests({ owners: others, clusterId }),
  );
  const decidable = owners.filter((owner) =>
    APPEARS_ENTITLED.has(approverEntitlement(viewer.principal, { requester: "", owner }, evidence).entitlement),
  );
  const pending = await listPendingTokenRequests({
    owners: decidable,
    requester: viewer.principal,
    clusterId,
    ...(limit !== undefined ? { limit } : {}),
  });
  return {
    evidence,
    decidable,
    pending: pending.map((r) => withEntitlement(toTokenRequestView(r, now), viewer.principal, evidence)),
  };
}

// ---- token requests on the Requests page (one kind of request among the others) ----------------

/** One line for the Requests page: what the token request asks for. */
export function summarizeTokenRequest(r: Pick<TokenRequestView, "owner" | "renewers" | "maxLifetimeMs">): string {
  const renewers = r.renewers.length > 0 ? `, renewable by ${r.renewers.join(", ")}` : "";
  const lifetime = r.maxLifetimeMs === null ? "" : `, for at most ${formatDuration(r.maxLifetimeMs)}`;
  return `delegation token for ${r.owner}${renewers}${lifetime}`;
}

function decidedWhy(view: TokenRequestView, principal: string): string {
  const by = view.approver === null ? "" : ` by ${view.approver === principal ? "you" : view.approver}`;
  switch (view.status) {
    case "DENIED":
      return `It was ${view.approver === view.requester ? "withdrawn" : "denied"}${by}.`;
    case "APPROVED":
    case "RETRIEVED":
    case "EXPIRED_UNRETRIEVED":
      return `It was approved${by}.`;
    default:
      return `It is ${view.status.toLowerCase()}.`;
  }
}

/** A token request as the Requests page lists it; one of the open list comes with the viewer's entitlement. */
export function toTokenRequestItem(view: TokenRequestView | DecidableRequest, principal: string): TokenRequestItem {
  const entitlement = "entitlement" in view ? view : null;
  let you: TokenRequestItem["you"];
  if (view.requester === principal && (view.status === "PENDING" || view.status === "APPROVING"))
    you = { mayDecide: false, why: "Your own request: someone else must approve it." };
  else if (view.status === "APPROVING")
    you = { mayDecide: false, why: `${view.claimedBy ?? "Another approver"} is approving it right now.` };
  else if (view.status !== "PENDING") you = { mayDecide: false, why: decidedWhy(view, principal) };
  else if (entitlement === null) you = { mayDecide: false, why: null };
  else you = { mayDecide: APPEARS_ENTITLED.has(entitlement.entitlement), why: entitlement.entitlementNote };
  // The view's own fields only (a decidable request also carries the viewer's entitlement).
  const fields = Object.fromEntries(
    Object.keys(tokenRequestViewSchema.shape).map((key) => [key, view[key as keyof TokenRequestView]]),
  ) as TokenRequestView;
  return {
    ...fields,
    kind: TOKEN_REQUEST_KIND,
    summary: summarizeTokenRequest(view),
    you,
  };
}

const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

export interface TokenRequestItems {
  /** Newest first, at most the limit asked for. */
  items: TokenRequestItem[];
  /** Pending requests of others the viewer appears entitled to approve. */
  pending: number;
}

/**
 * The viewer's token requests for the Requests page, with the token-request rules of who sees
 * what: waiting = the open requests the viewer may decide and the viewer's own open ones (as
 * "Requests I can decide" on the Token requests page); mine = the viewer's own; decided = the
 * decided ones the viewer asked for or decided; all = all of these. Nobody else's reasons.
 */
export async function listTokenRequestItems(
  viewer: Viewer,
  filter: "waiting" | "mine" | "decided" | "all",
  limit: number,
  now = Date.now(),
): Promise<ActionResult<TokenRequestItems>> {
  try {
    const clusterId = clusterIdOf(viewer.credential);
    const principal = viewer.principal;
    const wantsOpen = filter === "waiting" || filter === "all";
    const [open, mine, decided] = await Promise.all([
      wantsOpen ? openForViewer(viewer, clusterId, now, limit) : null,
      filter === "mine" || filter === "all" ? listMyTokenRequests(principal, limit, clusterId) : [],
      filter === "decided" || filter === "all" ? listDecidedTokenRequests({ clusterId, principal, limit }) : [],
    ]);
    const byId = new Map<string, TokenRequestItem>();
    for (const r of [...mine, ...decided]) byId.set(r.id, toTokenRequestItem(toTokenRequestView(r, now), principal));
    // The open ones carry the viewer's entitlement: they win over the same request read as "mine".
    for (const r of open?.pending ?? []) byId.set(r.id, toTokenRequestItem(r, principal));
    const pending =
      open !== null
        ? await countPendingTokenRequests({ clusterId, owners: open.decidable, notRequester: principal })
        : await countDecidableTokenRequests(viewer);
    return { ok: true, data: { items: [...byId.values()].sort(newestFirst).slice(0, limit), pending } };
  } catch (error) {
    return toErrorResult(error, "list token requests");
  }
}

/** How long the owners a viewer may decide for are remembered for the navigation's badge. */
export const DECIDABLE_OWNERS_TTL_MS = 30_000;
const DECIDABLE_OWNERS_KEPT = 500;
const decidableOwnersSeen = new Map<string, { until: number; owners: Map<string, boolean> }>();

/** Forget what the badge remembered (tests). */
export function forgetDecidableOwners(): void {
  decidableOwnersSeen.clear();
}

/**
 * How many pending token requests of others the viewer appears entitled to approve: the
 * navigation's badge and the dashboard, on every page. Without open requests of others it asks
 * nothing of Kafka; whom the viewer may decide for (the owner, a super user, or the ACLs and
 * tokens Kafka shows) is judged as the Token requests page does and remembered for
 * DECIDABLE_OWNERS_TTL_MS per viewer, so pages do not each read the ACLs; the count is always fresh.
 */
export async function countDecidableTokenRequests(viewer: Viewer, now = Date.now()): Promise<number> {
  const clusterId = clusterIdOf(viewer.credential);
  const principal = viewer.principal;
  const owners = await openRequestOwners(clusterId, principal);
  if (owners.length === 0) return 0;
  const key = `${clusterId}\n${principal}`;
  let seen = decidableOwnersSeen.get(key);
  if (seen === undefined || seen.until <= now) seen = { until: now + DECIDABLE_OWNERS_TTL_MS, owners: new Map() };
  const unjudged = owners.filter((owner) => !seen.owners.has(owner));
  if (unjudged.length > 0) {
    const config = toAuthorizerConfig(clusterOf(viewer.credential).authorizer);
    // The owner and a super user need no evidence; only the others make Kafka be asked.
    const needEvidence = isSuperUser(principal, config) ? [] : unjudged.filter((owner) => owner !== principal);
    const evidence: ApproverEvidence =
      needEvidence.length === 0
        ? { config, acls: null, createdFor: new Set() }
        : await evidenceFor(viewer, () => listPendingTokenRequests({ owners: needEvidence, clusterId }));
    for (const owner of unjudged)
      seen.owners.set(
        owner,
        APPEARS_ENTITLED.has(approverEntitlement(principal, { requester: "", owner }, evidence).entitlement),
      );
  }
  decidableOwnersSeen.delete(key);
  decidableOwnersSeen.set(key, seen);
  while (decidableOwnersSeen.size > DECIDABLE_OWNERS_KEPT) {
    const oldest = decidableOwnersSeen.keys().next().value;
    if (oldest === undefined) break;
    decidableOwnersSeen.delete(oldest);
  }
  const decidable = owners.filter((owner) => seen.owners.get(owner) === true);
  return countPendingTokenRequests({ clusterId, owners: decidable, notRequester: principal });
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
