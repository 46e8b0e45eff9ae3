/**
 * Requests for changes (#19). Anyone signed in may file a change (an ACL change, a
 * template, an import, a quota change) with a reason instead of applying it; the request
 * holds the change itself. A reviewer asks for its plan (computed as the reviewer, so
 * Kafka decides what they may read) and approves exactly that plan: the console applies
 * it as the approver, so Kafka's own ACLs decide who can approve. If the state changed
 * between the review and the approval, Apply's 409 names the difference and the request
 * stays pending.
 *
 *   file      PENDING, audited request.file (a grantMinutes makes the ACLs it creates a grant)
 *   review    a sealed plan of the request's change, made as the reviewer (request_id on it)
 *   approve   claim (one approver at a time, approve and deny cannot both win) -> on a
 *             four-eyes cluster, an approval short of the count is recorded and the request
 *             stays PENDING; the last one applies the reviewed plan -> APPLIED (+ a grant)
 *   deny      with a comment; cancel (the requester); time out (the cluster's timeoutHours)
 *
 * Four-eyes (requests.approvals > 0 on the cluster): the requester never approves their
 * own request, and every approver is someone else (plans.ts refuses other applies).
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import { clusterById, clusterIdOf } from "@/lib/clusters";
import { recordAudit } from "@/lib/db/audit";
import { getPlan } from "@/lib/db/change-plan";
import {
  addApproval,
  claimRequest,
  countPending,
  decideRequest,
  finishRequest,
  getRequest,
  listRequests,
  releaseRequest,
  saveRequest,
  timeOutRequests,
  type RequestStatus,
  type StoredRequest,
} from "@/lib/db/change-request";
import { getPrisma } from "@/lib/db/client";
import { bindingsHeldByOthers, saveGrant } from "@/lib/db/access-grant";
import { bindingKey, cleanBinding } from "@/lib/policy";
import { entitledToChange } from "./change-entitlement";
import type { AclBinding } from "@/lib/policy/types";
import type { PlanCreateBody } from "@/lib/schemas/plans";
import type {
  RequestFileBody,
  RequestList,
  RequestListFilter,
  RequestListItem,
  RequestListKind,
  RequestStepResult,
  RequestView,
} from "@/lib/schemas/requests";
import type { ActionResult } from "@/lib/schemas/result";
import { grantOfRequesterOrApprover, NO_SERVICE_PRINCIPAL_FOR_GRANTS, scheduleGrant } from "./grants";
import { notify } from "./webhooks";
import { countDecidableTokenRequests, listTokenRequestItems } from "./token-requests";
import { describeRules, maxGrantMinutes, ownerRulesFor, rulesNotOwnedBy } from "./owners";
import { applyPlan, createPlan, type PlanApplyView, type PlanView } from "./plans";
import {
  auditRequest,
  categoryOfKind,
  namedBindings,
  NO_SUCH_REQUEST,
  planBindings,
  requestedCreates,
  summarizeChange,
} from "./request-change";
import { utcText } from "@/lib/utc-text";
import { holdGeneratedPassword } from "./request-password";

export { summarizeChange };
export { retrieveRequestPassword } from "./request-password";

function policyOf(clusterId: string) {
  return clusterById(clusterId).requests;
}

function isSuperUser(viewer: Viewer): boolean {
  return clusterById(clusterIdOf(viewer.credential)).authorizer.superUsers.includes(viewer.principal);
}

async function grantIdOf(requestId: string): Promise<string | null> {
  const row = await getPrisma().accessGrant.findFirst({ where: { requestId }, select: { id: true } });
  return row?.id ?? null;
}

function viewOf(r: StoredRequest, viewer: Viewer, grantId: string | null, now = new Date()): RequestView {
  const policy = policyOf(r.clusterId);
  const timedOut = r.status === "PENDING" && r.timeoutAt.getTime() <= now.getTime();
  const status: RequestStatus = timedOut ? "TIMED_OUT" : r.status;
  const mine = r.requester === viewer.principal;
  let why: string | null = null;
  if (status !== "PENDING") why = `It is ${status.toLowerCase().replace("_", " ")}.`;
  else if (mine && policy.approvals > 0)
    why = "This cluster needs someone other than the requester to approve (four-eyes).";
  else if (r.approvals.some((a) => a.principal === viewer.principal)) why = "You approved it already.";
  else {
    const notOwner = rulesNotOwnedBy(
      viewer.principal,
      ownerRulesFor(namedBindings(r.input as PlanCreateBody), policy.owners),
    );
    if (notOwner.length > 0 && !isSuperUser(viewer))
      why = `Only an owner (or a super user) approves changes on ${describeRules(notOwner)}.`;
  }
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    requester: r.requester,
    reason: r.reason,
    kind: r.kind,
    summary: r.summary,
    change: r.input,
    grantMinutes: r.grantSeconds === null ? null : Math.round(r.grantSeconds / 60),
    status,
    timeoutAt: r.timeoutAt.toISOString(),
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    comment: r.comment,
    planId: r.planId,
    approvals: r.approvals.map((a) => ({ principal: a.principal, at: a.at.toISOString() })),
    approvalsNeeded: Math.max(1, policy.approvals),
    grantId,
    owners: ownerRulesFor(namedBindings(r.input as PlanCreateBody), policy.owners).map((o) => ({
      resourceType: o.resourceType,
      prefix: o.prefix,
      principals: [...o.principals],
    })),
    you: { mayCancel: mine && status === "PENDING", mayReview: why === null, why },
    password:
      r.secret.deadline === null
        ? null
        : {
            available: r.secret.held && r.secret.deadline.getTime() > now.getTime(),
            until: r.secret.deadline.toISOString(),
            retrievedAt: r.secret.retrievedAt?.toISOString() ?? null,
            mayRetrieve: mine,
          },
  };
}

async function ownCluster(viewer: Viewer, id: string): Promise<ActionResult<StoredRequest>> {
  const r = await getRequest(id);
  if (r === null || r.clusterId !== clusterIdOf(viewer.credential)) return NO_SUCH_REQUEST;
  return { ok: true, data: r };
}

/** What a notification says of a request: who, what, why; never anything secret. */
function requestFields(r: StoredRequest, extra: Record<string, unknown> = {}) {
  return {
    request: {
      id: r.id,
      requester: r.requester,
      kind: r.kind,
      summary: r.summary,
      reason: r.reason,
      grantMinutes: r.grantSeconds === null ? null : r.grantSeconds / 60,
      ...extra,
    },
  };
}

function step(
  r: StoredRequest,
  viewer: Viewer,
  grantId: string | null,
  message: string,
): ActionResult<RequestStepResult> {
  return { ok: true, data: { request: viewOf(r, viewer, grantId), message } };
}

/** File a change as a request (anyone signed in). */
export async function fileRequest(viewer: Viewer, body: RequestFileBody): Promise<ActionResult<RequestStepResult>> {
  const clusterId = clusterIdOf(viewer.credential);
  const policy = policyOf(clusterId);
  let grantSeconds: number | null = null;
  if (body.grantMinutes !== undefined) {
    const owned = ownerRulesFor(namedBindings(body.change), policy.owners);
    const most = maxGrantMinutes(policy.maxGrantMinutes, owned);
    if (body.grantMinutes > most)
      return {
        ok: false,
        code: "VALIDATION",
        message:
          `A grant ${owned.length > 0 ? `on ${describeRules(owned)}` : "on this cluster"} lasts at most ${most} ` +
          `minutes; ask for less.`,
        fieldErrors: { grantMinutes: [`At most ${most} minutes`] },
      };
    if (clusterById(clusterId).servicePrincipal === null)
      return {
        ok: false,
        code: "VALIDATION",
        message: `Grants that end by themselves are refused: ${NO_SERVICE_PRINCIPAL_FOR_GRANTS}.`,
      };
    const creates = requestedCreates(body.change);
    if (!creates.ok) return creates;
    if (creates.data.length === 0)
      return { ok: false, code: "VALIDATION", message: "The change creates no ACLs, so there is nothing to grant." };
    grantSeconds = body.grantMinutes * 60;
  }
  const now = new Date();
  const stored = await saveRequest({
    clusterId,
    requester: viewer.principal,
    reason: body.reason,
    kind: body.change.kind,
    input: body.change,
    summary: summarizeChange(body.change).slice(0, 500),
    grantSeconds,
    timeoutAt: new Date(now.getTime() + policy.timeoutHours * 3_600_000),
    now,
  });
  await auditRequest(
    viewer,
    stored,
    "request.file",
    "success",
    `Requested: ${stored.summary}. Reason: ${stored.reason}`,
  );
  await notify(clusterId, "request.filed", requestFields(stored), `${stored.requester} requests: ${stored.summary}`);
  return step(stored, viewer, null, `Request filed; it waits for a decision until ${utcText(stored.timeoutAt)}.`);
}

/** File the change of a plan the viewer previewed (the pages' "Request approval"). */
export async function fileRequestFromPlan(
  viewer: Viewer,
  body: { planId: string; reason: string; grantMinutes?: number | undefined },
): Promise<ActionResult<RequestStepResult>> {
  const plan = await getPlan(body.planId);
  if (plan === null || plan.principal !== viewer.principal || plan.clusterId !== clusterIdOf(viewer.credential))
    return {
      ok: false,
      code: "NOT_FOUND",
      message: "There is no plan of yours with this id on this cluster; preview the change again.",
    };
  if (plan.input === null || plan.requestId !== null)
    return {
      ok: false,
      code: "CONFLICT",
      message: "This plan cannot be turned into a request; preview the change again.",
    };
  const change = { kind: plan.kind, ...(plan.input as object) } as PlanCreateBody;
  return fileRequest(viewer, {
    change,
    reason: body.reason,
    ...(body.grantMinutes !== undefined ? { grantMinutes: body.grantMinutes } : {}),
  });
}

/**
 * Requests of the viewer's cluster: waiting (pending), mine, decided, all; newest first, at most
 * `limit`. Delegation-token requests are one kind among them (kind "token"), listed by the
 * token-request rules of who sees which (lib/services/token-requests.ts listTokenRequestItems);
 * `kind` keeps to requests for changes or to token requests.
 */
export async function listRequestViews(
  viewer: Viewer,
  filter: RequestListFilter,
  limit = 100,
  kind: RequestListKind = "all",
): Promise<ActionResult<RequestList>> {
  const [changes, tokens] = await Promise.all([
    kind === "token" ? null : listChangeRequestViews(viewer, filter, limit),
    kind === "change" ? null : listTokenRequestItems(viewer, filter, limit),
  ]);
  if (tokens !== null && !tokens.ok) return tokens;
  const requests: RequestListItem[] = [...(changes?.requests ?? []), ...(tokens?.data.items ?? [])];
  requests.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  const pendingTokens = tokens?.data.pending ?? 0;
  return {
    ok: true,
    data: {
      requests: requests.slice(0, limit),
      pending: (changes?.pending ?? 0) + pendingTokens,
      pendingTokens,
    },
  };
}

async function listChangeRequestViews(
  viewer: Viewer,
  filter: RequestListFilter,
  limit: number,
): Promise<{ requests: RequestView[]; pending: number }> {
  const clusterId = clusterIdOf(viewer.credential);
  const now = new Date();
  const statuses: Record<RequestListFilter, readonly RequestStatus[] | undefined> = {
    waiting: ["PENDING", "APPROVING"],
    mine: undefined,
    decided: ["APPLIED", "DENIED", "CANCELLED", "TIMED_OUT"],
    all: undefined,
  };
  const rows = await listRequests({
    clusterId,
    limit,
    ...(filter === "mine" ? { requester: viewer.principal } : {}),
    ...(statuses[filter] ? { statuses: statuses[filter] } : {}),
  });
  const visible = filter === "waiting" ? rows.filter((r) => r.timeoutAt.getTime() > now.getTime()) : rows;
  const grants = await getPrisma().accessGrant.findMany({
    where: { requestId: { in: visible.map((r) => r.id) } },
    select: { id: true, requestId: true },
  });
  const grantOf = new Map(grants.map((g) => [g.requestId, g.id]));
  return {
    requests: visible.map((r) => viewOf(r, viewer, grantOf.get(r.id) ?? null, now)),
    pending: await countPending(clusterId, now),
  };
}

export async function getRequestView(viewer: Viewer, id: string): Promise<ActionResult<RequestView>> {
  const r = await ownCluster(viewer, id);
  if (!r.ok) return r;
  return { ok: true, data: viewOf(r.data, viewer, await grantIdOf(id)) };
}

/** How long the navigation's badge waits for Kafka before it counts the requests for changes alone. */
const TOKEN_COUNT_WAIT_MS = 1_500;

/**
 * How many requests wait for a decision on the viewer's cluster (the navigation's badge): the
 * pending requests for changes, and the pending token requests of others the viewer appears
 * entitled to approve. A slow or failing broker leaves the token requests out rather than
 * holding the page.
 */
export async function pendingRequestCount(viewer: Viewer): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(0), TOKEN_COUNT_WAIT_MS);
  });
  const [changes, tokens] = await Promise.all([
    countPending(clusterIdOf(viewer.credential)),
    Promise.race([countDecidableTokenRequests(viewer).catch(() => 0), gaveUp]).finally(() => clearTimeout(timer)),
  ]);
  return changes + tokens;
}

/** The request's change as a sealed plan made as the reviewer: exactly what Approve would apply. */
export async function reviewRequest(viewer: Viewer, id: string): Promise<ActionResult<PlanView>> {
  const r = await ownCluster(viewer, id);
  if (!r.ok) return r;
  const view = viewOf(r.data, viewer, null);
  if (!view.you.mayReview)
    return { ok: false, code: "CONFLICT", message: `You cannot review this request: ${view.you.why}` };
  const { kind, ...input } = r.data.input as PlanCreateBody;
  return createPlan(viewer, kind, input, { requestId: id });
}

/**
 * Approve the request with the plan the viewer reviewed. The last approval applies it as the
 * viewer (Kafka decides whether they may); one short of a four-eyes count is recorded.
 */
export async function approveChangeRequest(
  viewer: Viewer,
  id: string,
  planId: string,
): Promise<ActionResult<RequestStepResult>> {
  const found = await ownCluster(viewer, id);
  if (!found.ok) return found;
  const r = found.data;
  const view = viewOf(r, viewer, null);
  if (!view.you.mayReview)
    return {
      ok: false,
      code: r.requester === viewer.principal ? "DENIED" : "CONFLICT",
      message: `You cannot approve this request: ${view.you.why}`,
    };
  // An approval short of the count sends nothing to Kafka, so Kafka cannot refuse it: the console
  // checks that the approver may make the change (the last approval is applied as the approver
  // and Kafka decides). Approvals are only ever added, so one that is the last by this read stays
  // the last once the request is claimed.
  const counted = r.approvals.filter((a) => a.principal !== viewer.principal && a.principal !== r.requester).length;
  if (policyOf(r.clusterId).approvals > counted + 1) {
    const entitled = await entitledToChange(viewer, r.kind, "give an approval short of the count");
    if (!entitled.ok) return entitled;
  }
  const plan = await getPlan(planId);
  if (plan === null || plan.requestId !== id || plan.principal !== viewer.principal)
    return {
      ok: false,
      code: "CONFLICT",
      message: "Approve the plan you reviewed for this request (review it first: its plan is made as you).",
    };
  const owned = ownerRulesFor(planBindings(plan.payload), policyOf(r.clusterId).owners);
  const notOwner = rulesNotOwnedBy(viewer.principal, owned);
  if (notOwner.length > 0 && !isSuperUser(viewer))
    return {
      ok: false,
      code: "DENIED",
      message:
        `Only an owner (or a super user) may approve changes on ${describeRules(notOwner)}. ` + `Nothing was changed.`,
    };
  if (!(await claimRequest(id, viewer.principal)))
    return {
      ok: false,
      code: "CONFLICT",
      message: "This request is being decided by someone else right now, or was decided; nothing was changed.",
    };
  // The approvals as they are now that this approver holds the request: another approver may
  // have recorded theirs since it was read above (counting from that read would record this one
  // as short of the count instead of applying, and the request would wait for a third).
  const held = (await getRequest(id)) ?? r;
  if (held.approvals.some((a) => a.principal === viewer.principal)) {
    await releaseRequest(id, viewer.principal);
    return { ok: false, code: "CONFLICT", message: "You approved this request already; nothing was changed." };
  }
  const policy = policyOf(r.clusterId);
  const others = held.approvals.filter((a) => a.principal !== viewer.principal && a.principal !== r.requester).length;
  if (policy.approvals > 1 && others + 1 < policy.approvals) {
    await addApproval(id, viewer.principal, planId);
    await releaseRequest(id, viewer.principal);
    const message = `Approval ${others + 1} of ${policy.approvals} recorded; it is applied at the last approval.`;
    await auditRequest(viewer, r, "request.approve", "success", message, planId);
    await notify(
      r.clusterId,
      "request.approved",
      requestFields(r, { approver: viewer.principal }),
      `${viewer.principal} approved ${r.requester}'s request (${others + 1} of ${policy.approvals}): ${r.summary}`,
    );
    const again = (await getRequest(id)) ?? r;
    return step(again, viewer, null, message);
  }
  const applied = await applyPlan<{ outcome?: string; message?: string; results?: unknown[] }>(viewer, planId, {
    approvedAs: "request",
  });
  if (!applied.ok) {
    await releaseRequest(id, viewer.principal);
    await auditRequest(
      viewer,
      r,
      "request.apply",
      applied.code === "DENIED" ? "denied" : "failure",
      applied.message,
      planId,
    ).catch(() => undefined);
    return { ...applied, message: `${applied.message} The request is still pending.` };
  }
  await addApproval(id, viewer.principal, planId);
  await finishRequest(id, viewer.principal, planId);
  let grantId: string | null = null;
  let grantNote = "";
  if (r.grantSeconds !== null) {
    const grant = await recordGrant(r, viewer, planId, applied.data.results ?? []);
    grantId = grant?.id ?? null;
    grantNote = grant
      ? ` Its ACLs are removed at ${utcText(grant.expiresAt)}.`
      : " It created no ACLs, so there is nothing to remove later.";
  }
  const secretNote = r.kind === "scram.change" ? await holdGeneratedPassword(r, applied.data) : "";
  const message = `Approved and applied (plan ${planId}): ${applied.data.message ?? "done"}.${grantNote}${secretNote}`;
  await auditRequest(viewer, r, "request.apply", "success", message, planId);
  await notify(
    r.clusterId,
    "request.applied",
    requestFields(r, { approver: viewer.principal, planId, grantId }),
    `${viewer.principal} approved and applied ${r.requester}'s request: ${r.summary}`,
  );
  const after = (await getRequest(id)) ?? r;
  return step(after, viewer, grantId, message);
}

/**
 * The grant of an applied request: the bindings its plan created (never one that was there
 * before, unless another live grant holds it: then both hold it), removed at the expiry.
 */
async function recordGrant(r: StoredRequest, approver: Viewer, planId: string, results: unknown[]) {
  const created = results
    .filter((x): x is AclBinding & { action: string; ok: boolean } => {
      const o = x as { action?: string; ok?: boolean };
      return o.action === "create" && o.ok === true;
    })
    .map(cleanBinding);
  const requested = requestedCreates(r.input as PlanCreateBody);
  const alsoHeld = requested.ok ? await bindingsHeldByOthers(r.clusterId, "", requested.data) : [];
  const keys = new Set<string>();
  const bindings: AclBinding[] = [...created, ...alsoHeld].filter((b) => {
    const k = bindingKey(b);
    if (keys.has(k)) return false;
    keys.add(k);
    return true;
  });
  if (bindings.length === 0) return null;
  const expiresAt = new Date(Date.now() + r.grantSeconds! * 1000);
  const grant = await saveGrant({
    clusterId: r.clusterId,
    requestId: r.id,
    requester: r.requester,
    approver: approver.principal,
    planId,
    bindings,
    expiresAt,
  });
  await scheduleGrant(grant);
  return grant;
}

export async function denyChangeRequest(
  viewer: Viewer,
  id: string,
  comment: string,
): Promise<ActionResult<RequestStepResult>> {
  if (comment.trim() === "")
    return {
      ok: false,
      code: "VALIDATION",
      message: "Say why the request is denied: a comment is required.",
      fieldErrors: { comment: ["A comment is required"] },
    };
  const found = await ownCluster(viewer, id);
  if (!found.ok) return found;
  const r = found.data;
  if (r.requester === viewer.principal)
    return { ok: false, code: "DENIED", message: "You filed this request: cancel it instead of denying it." };
  // A deny sends nothing to Kafka: the console checks that the reviewer may make the change, and
  // the owners rules, as for an approval.
  const notOwner = rulesNotOwnedBy(
    viewer.principal,
    ownerRulesFor(namedBindings(r.input as PlanCreateBody), policyOf(r.clusterId).owners),
  );
  if (notOwner.length > 0 && !isSuperUser(viewer))
    return {
      ok: false,
      code: "DENIED",
      message: `Only an owner (or a super user) may deny changes on ${describeRules(notOwner)}. Nothing was changed.`,
    };
  const entitled = await entitledToChange(viewer, r.kind, "deny this request");
  if (!entitled.ok) return entitled;
  const reviewed = await getPrisma().changePlan.count({ where: { requestId: id, principal: viewer.principal } });
  if (reviewed === 0 && !isSuperUser(viewer))
    return { ok: false, code: "DENIED", message: "Review the request before denying it (only a reviewer may deny)." };
  if (!(await decideRequest(id, "DENIED", viewer.principal, comment)))
    return {
      ok: false,
      code: "CONFLICT",
      message: "This request is no longer pending (decided, being approved, or timed out).",
    };
  const message = `Denied: ${comment}`;
  await auditRequest(viewer, r, "request.deny", "success", message);
  await notify(
    r.clusterId,
    "request.denied",
    requestFields(r, { deniedBy: viewer.principal, comment }),
    `${viewer.principal} denied ${r.requester}'s request: ${r.summary}`,
  );
  return step((await getRequest(id)) ?? r, viewer, null, message);
}

export async function cancelChangeRequest(viewer: Viewer, id: string): Promise<ActionResult<RequestStepResult>> {
  const found = await ownCluster(viewer, id);
  if (!found.ok) return found;
  const r = found.data;
  if (r.requester !== viewer.principal)
    return { ok: false, code: "DENIED", message: `Only ${r.requester}, who filed it, may cancel this request.` };
  if (!(await decideRequest(id, "CANCELLED", viewer.principal, null)))
    return {
      ok: false,
      code: "CONFLICT",
      message: "This request is no longer pending (decided, being approved, or timed out).",
    };
  await auditRequest(viewer, r, "request.cancel", "success", "Cancelled by the requester.");
  return step((await getRequest(id)) ?? r, viewer, null, "Cancelled.");
}

/** The sweep's part: pending requests past their timeout become TIMED_OUT, each audited. */
export async function timeOutDueRequests(now = new Date()): Promise<number> {
  const done = await timeOutRequests(now);
  for (const r of done) {
    await recordAudit({
      principal: "console",
      action: "request.timeout",
      category: categoryOfKind(r.kind),
      target: `request ${r.id}: ${r.summary}`,
      request: { requestId: r.id },
      outcome: "success",
      message: `No decision by ${utcText(r.timeoutAt)}; the request timed out.`,
      subjects: [r.requester],
      clusterId: r.clusterId,
    }).catch(() => undefined);
  }
  return done.length;
}

/**
 * A super user's apply of their own plan on a four-eyes cluster, without approval: a reason
 * is required and recorded (plan.break-glass) before the plan is applied, and the dashboard
 * flags it until someone else has reviewed it after the fact (break-glass.ts).
 */
export async function breakGlassApply(
  viewer: Viewer,
  planId: string,
  reason: string,
): Promise<ActionResult<PlanApplyView>> {
  const clusterId = clusterIdOf(viewer.credential);
  if (policyOf(clusterId).approvals === 0)
    return {
      ok: false,
      code: "VALIDATION",
      message: "This cluster does not need approvals; apply the plan as usual (POST /api/v1/plans/{id}/apply).",
    };
  if (!isSuperUser(viewer))
    return {
      ok: false,
      code: "DENIED",
      message: "Only a super user of this cluster may apply without approval (break-glass). Request it instead.",
    };
  // The plan's kind, kept with the reason: the after-the-fact review needs the right that kind
  // needs (break-glass.ts); the plan itself may be gone by then.
  const kind = (await getPlan(planId).catch(() => null))?.kind ?? null;
  try {
    await recordAudit({
      principal: viewer.principal,
      action: "plan.break-glass",
      category: categoryOfKind(kind),
      target: `plan ${planId}`,
      request: { planId, reason, ...(kind !== null ? { kind } : {}) },
      outcome: "success",
      message: `Applied without approval (break-glass): ${reason}`,
      planId,
      clusterId,
    });
  } catch {
    return {
      ok: false,
      code: "INTERNAL",
      message: "The break-glass could not be recorded (database unavailable), so nothing was applied.",
    };
  }
  return applyPlan(viewer, planId, { approvedAs: "break-glass" });
}

/**
 * Asks to extend a live grant: a new request for the same ACLs, with a reason and a new
 * duration (its requester or approver). Approved, it is a grant of its own holding them too,
 * so the first grant's expiry keeps them until the new one ends.
 */
export async function extendGrant(
  viewer: Viewer,
  grantId: string,
  body: { reason: string; grantMinutes: number },
): Promise<ActionResult<RequestStepResult>> {
  const own = await grantOfRequesterOrApprover(viewer, grantId, "ask to extend this grant");
  if (!own.ok) return own;
  const g = own.data;
  if (g.status === "ENDED")
    return { ok: false, code: "CONFLICT", message: "This grant has ended; request the access anew." };
  return fileRequest(viewer, {
    change: { kind: "acl.create", bindings: g.bindings },
    reason: `Extend grant ${g.id}: ${body.reason}`,
    grantMinutes: body.grantMinutes,
  });
}
