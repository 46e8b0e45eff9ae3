/**
 * Delegation-token requests as lists (#11, #19): the viewer's own and those the viewer may
 * decide (the Token requests page, GET /api/v1/token-requests), the same as one kind among the
 * requests for changes (the Requests page), the navigation's count, and the evidence an
 * approver's entitlement is judged from. The steps (submit, approve, deny, retrieve) are in
 * token-requests.ts.
 */
import "server-only";
import { describeAcls, describeDelegationTokens } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import {
  countPendingTokenRequests,
  listDecidedTokenRequests,
  listMyTokenRequests,
  listPendingTokenRequests,
  openRequestOwners,
  type TokenRequest,
} from "@/lib/db/token-request";
import { ANY_ACL_FILTER, isSuperUser, type AclBinding, type DelegationToken } from "@/lib/policy";
import {
  tokenRequestViewSchema,
  type ApproverCheck,
  type DecidableRequest,
  type TokenRequestLists,
  type TokenRequestView,
} from "@/lib/schemas/tokens";
import { TOKEN_REQUEST_KIND, type TokenRequestItem } from "@/lib/schemas/requests";
import { toAuthorizerConfig } from "@/lib/authorizer-config";
import { clusterIdOf, clusterOf } from "@/lib/clusters";
import { describeAclsAsService } from "./service-principal";
import {
  APPEARS_ENTITLED,
  approverEntitlement,
  formatDuration,
  toTokenRequestView,
  withEntitlement,
  type ApproverEvidence,
} from "./token-view";

export const ANY_USER_ACL = { ...ANY_ACL_FILTER, resourceType: "USER" } as const;

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
export async function evidenceFor(
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
