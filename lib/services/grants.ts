/**
 * Grants that end by themselves (#19): recording the ACL bindings an applied request
 * created, and removing them at the expiry.
 *
 * The removal (removeExpiredGrant) is what the job queue runs for a grant, and what the
 * minute sweep runs for every grant that is due; delivery is at least once, so it is
 * idempotent:
 *
 *   1. claim the grant (LIVE and due -> REMOVING; one caller wins, a stale claim of a dead
 *      instance is taken over; anyone else does nothing);
 *   2. the bindings to remove: the grant's own (only what its plan created, never a binding
 *      that was already there), minus those another LIVE grant also holds (one being removed
 *      holds nothing: two grants of a binding removed at once must not keep it for each other);
 *   3. as the cluster's service principal: a sealed acl.delete plan for exactly those, and
 *      apply it (the basis is read twice as for any plan; Kafka deleting nothing for a
 *      binding that is gone changes nothing);
 *   4. ENDED with the outcome (removed, already-gone: deleted by hand meanwhile, kept: all
 *      held by other grants), audited as the service principal acting for the grant, its
 *      requester and approver, with the removal plan's id. A failure (broker down, the
 *      service principal refused) puts the grant back to LIVE and throws, so the queue
 *      retries with backoff; the dashboard shows it overdue meanwhile.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import { clusterById } from "@/lib/clusters";
import { recordAudit, type AuditInput } from "@/lib/db/audit";
import { getPlan } from "@/lib/db/change-plan";
import {
  bindingsHeldByOthers,
  claimRemoval,
  finishRemoval,
  noteRemovalPlan,
  OVERDUE_AFTER_MS,
  releaseRemoval,
  type StoredGrant,
} from "@/lib/db/access-grant";
import { bindingsOnlyItHolds } from "@/lib/policy";
import type { GrantView } from "@/lib/schemas/requests";
import type { ActionResult } from "@/lib/schemas/result";
import { clusterIdOf } from "@/lib/clusters";
import { endGrantEarly, getGrant, liveGrants, liveGrantsConcerning } from "@/lib/db/access-grant";
import type { AclBinding } from "@/lib/policy/types";
import { applyPlan, createPlan } from "./plans";
import { sendJob } from "@/lib/jobs/queue";
import { notify } from "./webhooks";

export const NO_SERVICE_PRINCIPAL_FOR_GRANTS =
  "this cluster has no service principal configured (KAFKA_SERVICE_CREDENTIALS_FILE, or serviceCredentialsFile in " +
  "the clusters file), and the console removes expired grants as it; grants that end by themselves are off";

/** Plans made for one removal when the ACLs keep changing between a plan and its apply. */
const REMOVAL_PLAN_ATTEMPTS = 3;

export type RemovalOutcome = "removed" | "already-gone" | "kept" | "not-due";

/** The service principal of a cluster as a viewer (no session), or null when none is configured. */
export function serviceViewerOf(clusterId: string): Viewer | null {
  const service = clusterById(clusterId).servicePrincipal;
  return service ? { sessionId: null, principal: service.principal, credential: service.credential } : null;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The grant.expire audit row: the service principal acting for the grant, its requester and approver. */
function expiryAudit(
  grant: StoredGrant,
  principal: string,
  outcome: "success" | "failure",
  message: string,
  removalPlanId: string | null,
  removed: readonly AclBinding[],
): AuditInput {
  return {
    principal,
    action: "grant.expire",
    category: "acl",
    target: `grant ${grant.id}`,
    request: {
      grantId: grant.id,
      requestId: grant.requestId,
      actingFor: { requester: grant.requester, approver: grant.approver },
      bindings: removed,
      expiresAt: grant.expiresAt.toISOString(),
    },
    outcome,
    message,
    subjects: [grant.requester, grant.approver],
    planId: removalPlanId,
    clusterId: grant.clusterId,
  };
}

/**
 * Removes what an expired grant created (see the module comment). Returns what happened;
 * throws when it must be tried again later. The grant is ENDED first (only if this claim still
 * holds it), then audited, so an instance whose claim was taken over audits nothing.
 */
export async function removeExpiredGrant(
  grantId: string,
  now = new Date(),
): Promise<{ outcome: RemovalOutcome; message: string }> {
  const grant = await claimRemoval(grantId, now);
  if (grant === null) return NOT_DUE;
  const viewer = serviceViewerOf(grant.clusterId);
  if (viewer === null) {
    await releaseRemoval(grant, NO_SERVICE_PRINCIPAL_FOR_GRANTS);
    throw new Error(NO_SERVICE_PRINCIPAL_FOR_GRANTS);
  }
  const end = async (
    outcome: Exclude<RemovalOutcome, "not-due">,
    message: string,
    planId: string | null,
    removed: readonly AclBinding[],
  ) => {
    const audit = expiryAudit(grant, viewer.principal, "success", message, planId, removed);
    if (!(await finishRemoval(grant, { outcome, removalPlanId: planId, message }, audit))) return NOT_DUE;
    await notify(
      grant.clusterId,
      "grant.expired",
      grantFields(grant),
      `The grant of ${grant.requester} ended: ${message}`,
    );
    return { outcome, message };
  };
  try {
    const toRemove = bindingsOnlyItHolds(grant, await bindingsHeldByOthers(grant.clusterId, grant.id, grant.bindings));
    if (toRemove.length === 0)
      return await end(
        "kept",
        "Every ACL of this grant is also held by another live grant; nothing was removed.",
        null,
        [],
      );
    for (let attempt = 1; ; attempt++) {
      const plan = await createPlan<{ counts?: { delete?: number } }>(viewer, "acl.delete", { bindings: toRemove });
      if (!plan.ok) throw new Error(plan.message);
      if (plan.data.notApplicable !== null) {
        if (!plan.data.notApplicable.startsWith("Nothing to change")) throw new Error(plan.data.notApplicable);
        const earlier = grant.removalPlanId === null ? null : await getPlan(grant.removalPlanId);
        if (earlier !== null && (earlier.status === "APPLIED" || earlier.status === "APPLYING"))
          return await end(
            "removed",
            `Removed the grant's ACLs at its expiry (plan ${earlier.id}, sent by an instance that stopped before ` +
              `recording it; taken over and found done).`,
            earlier.id,
            toRemove,
          );
        return await end(
          "already-gone",
          `The grant's ACLs were already gone (deleted outside the grant meanwhile); nothing else was removed ` +
            `(plan ${plan.data.id}).`,
          plan.data.id,
          [],
        );
      }
      await noteRemovalPlan(grant, plan.data.id);
      const applied = await applyPlan<{ outcome: string; message: string }>(viewer, plan.data.id, {
        approvedAs: "grant-expiry",
      });
      // The ACLs changed between this plan and its apply (a removal of another grant of the same
      // binding, any change on the topic): 409 and nothing sent, or Kafka deleted nothing since
      // the binding was gone by then. Plan again from the new state.
      const changedMeanwhile = !applied.ok && (applied.code === "CONFLICT" || applied.code === "NOT_FOUND");
      if (changedMeanwhile && attempt < REMOVAL_PLAN_ATTEMPTS) continue;
      if (!applied.ok) throw new Error(`${applied.message} (plan ${plan.data.id})`);
      if (applied.data.outcome !== "success") throw new Error(`${applied.data.message} (plan ${plan.data.id})`);
      const when = grant.endedBy === null ? "at its expiry" : `now (ended early by ${grant.endedBy})`;
      return await end("removed", `Removed the grant's ACLs ${when}: ${applied.data.message}`, plan.data.id, toRemove);
    }
  } catch (error) {
    const message = messageOf(error);
    await releaseRemoval(grant, message).catch(() => undefined);
    await recordAudit(
      expiryAudit(grant, viewer.principal, "failure", `Removal failed, retried later: ${message}`, null, []),
    ).catch(() => undefined);
    throw error;
  }
}

const NOT_DUE = {
  outcome: "not-due",
  message: "not due, already ended, or being removed elsewhere",
} as const satisfies { outcome: RemovalOutcome; message: string };

export const GRANT_EXPIRY_JOB = "grant-expiry";
export const GRANT_EXPIRING_JOB = "grant-expiring";
/** How long before its expiry a grant's "expiring soon" notification goes out. */
export const EXPIRING_SOON_MS = 15 * 60_000;

function grantFields(g: StoredGrant) {
  return {
    grant: {
      id: g.id,
      requestId: g.requestId,
      requester: g.requester,
      approver: g.approver,
      expiresAt: g.expiresAt.toISOString(),
      bindings: g.bindings,
    },
  };
}

/** Queues a grant's expiry and its "expiring soon" notification (each once: the job id is the grant's). */
export async function scheduleGrant(g: StoredGrant): Promise<void> {
  try {
    await sendJob(GRANT_EXPIRY_JOB, { grantId: g.id }, { startAfter: g.expiresAt, id: g.id });
    const soon = new Date(g.expiresAt.getTime() - EXPIRING_SOON_MS);
    if (soon.getTime() > Date.now()) await sendJob(GRANT_EXPIRING_JOB, { grantId: g.id }, { startAfter: soon });
  } catch (error) {
    console.error(
      `[console] queueing the expiry of grant ${g.id}: ${messageOf(error)} (the minute sweep removes it anyway)`,
    );
  }
}

/** The "expiring soon" job: nothing when the grant ended early. */
export async function notifyExpiringSoon(grantId: string): Promise<void> {
  const g = await getGrant(grantId);
  if (g === null || g.status !== "LIVE") return;
  await notify(
    g.clusterId,
    "grant.expiring",
    grantFields(g),
    `The grant of ${g.requester} ends at ${g.expiresAt.toISOString()}.`,
  );
}

export function grantViewOf(g: StoredGrant, now = new Date()): GrantView {
  return {
    id: g.id,
    requestId: g.requestId,
    requester: g.requester,
    approver: g.approver,
    planId: g.planId,
    bindings: g.bindings,
    createdAt: g.createdAt.toISOString(),
    expiresAt: g.expiresAt.toISOString(),
    status: g.status,
    overdue: g.status !== "ENDED" && g.expiresAt.getTime() < now.getTime() - OVERDUE_AFTER_MS,
    outcome: g.outcome,
    lastError: g.lastError,
    removalPlanId: g.removalPlanId,
  };
}

/** Grants of the viewer's cluster not yet ended (optionally those of one principal), soonest expiry first. */
export async function listLiveGrants(
  viewer: Viewer,
  principal?: string,
): Promise<ActionResult<{ grants: GrantView[] }>> {
  const grants = await liveGrants(clusterIdOf(viewer.credential), {
    ...(principal !== undefined ? { principal } : {}),
    limit: 1000,
  });
  const now = new Date();
  return { ok: true, data: { grants: grants.map((g) => grantViewOf(g, now)) } };
}

/** A grant of the viewer's cluster that the viewer requested or approved (who may end or extend it). */
export async function grantOfRequesterOrApprover(
  viewer: Viewer,
  id: string,
  what: string,
): Promise<ActionResult<StoredGrant>> {
  const g = await getGrant(id);
  if (g === null || g.clusterId !== clusterIdOf(viewer.credential))
    return { ok: false, code: "NOT_FOUND", message: "There is no grant with this id on this cluster." };
  if (viewer.principal !== g.requester && viewer.principal !== g.approver)
    return {
      ok: false,
      code: "DENIED",
      message: `Only ${g.requester} (its requester) or ${g.approver} (its approver) may ${what}.`,
    };
  return { ok: true, data: g };
}

/**
 * Ends a live grant now (its requester or its approver): the removal runs at once, as at
 * any expiry (as the service principal, through a plan).
 */
export async function endGrant(
  viewer: Viewer,
  id: string,
): Promise<ActionResult<{ grant: GrantView; message: string }>> {
  const own = await grantOfRequesterOrApprover(viewer, id, "end this grant early");
  if (!own.ok) return own;
  const g = own.data;
  if (!(await endGrantEarly(id, viewer.principal)))
    return { ok: false, code: "CONFLICT", message: "This grant has ended, is ending, or is being removed already." };
  await recordAudit({
    principal: viewer.principal,
    action: "grant.end",
    category: "acl",
    target: `grant ${g.id}`,
    request: { grantId: g.id, requestId: g.requestId },
    outcome: "success",
    message: "Ended early; its ACLs are removed now.",
    subjects: [g.requester, g.approver],
    clusterId: g.clusterId,
  });
  let message = "Ended; its ACLs are being removed.";
  try {
    const r = await removeExpiredGrant(id);
    message = r.message;
  } catch (error) {
    message = `Ended; removing its ACLs failed and is retried: ${messageOf(error)}`;
  }
  const after = (await getGrant(id)) ?? g;
  return { ok: true, data: { grant: grantViewOf(after), message } };
}

/** The grants not yet ended that one principal asked for or whose ACLs are for it, soonest expiry first. */
export async function grantsConcerning(
  viewer: Viewer,
  principal: string,
): Promise<ActionResult<{ grants: GrantView[]; now: number }>> {
  try {
    const grants = await liveGrantsConcerning(clusterIdOf(viewer.credential), principal);
    const now = new Date();
    return { ok: true, data: { grants: grants.map((g) => grantViewOf(g, now)), now: now.getTime() } };
  } catch (error) {
    return { ok: false, code: "INTERNAL", message: `The grants could not be read: ${messageOf(error)}` };
  }
}
