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
 *      that was already there), minus those another grant not yet ended also holds;
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
import { recordAudit } from "@/lib/db/audit";
import {
  bindingsHeldByOthers,
  claimRemoval,
  finishRemoval,
  OVERDUE_AFTER_MS,
  releaseRemoval,
  type StoredGrant,
} from "@/lib/db/access-grant";
import { bindingKey } from "@/lib/policy";
import type { GrantView } from "@/lib/schemas/requests";
import type { ActionResult } from "@/lib/schemas/result";
import { clusterIdOf } from "@/lib/clusters";
import { endGrantEarly, getGrant, liveGrants, liveGrantsConcerning } from "@/lib/db/access-grant";
import type { AclBinding } from "@/lib/policy/types";
import { applyPlan, createPlan } from "./plans";

export const NO_SERVICE_PRINCIPAL_FOR_GRANTS =
  "this cluster has no service principal configured (KAFKA_SERVICE_CREDENTIALS_FILE, or serviceCredentialsFile in " +
  "the clusters file), and the console removes expired grants as it; grants that end by themselves are off";

export type RemovalOutcome = "removed" | "already-gone" | "kept" | "not-due";

/** The service principal of a cluster as a viewer (no session), or null when none is configured. */
export function serviceViewerOf(clusterId: string): Viewer | null {
  const service = clusterById(clusterId).servicePrincipal;
  return service ? { sessionId: null, principal: service.principal, credential: service.credential } : null;
}

/** The grant's bindings no other grant not yet ended also holds. */
export function bindingsToRemove(grant: Pick<StoredGrant, "bindings">, heldByOthers: readonly AclBinding[]) {
  const held = new Set(heldByOthers.map(bindingKey));
  const seen = new Set<string>();
  return grant.bindings.filter((b) => {
    const key = bindingKey(b);
    if (held.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function auditExpiry(
  grant: StoredGrant,
  principal: string,
  outcome: "success" | "failure",
  message: string,
  removalPlanId: string | null,
  removed: readonly AclBinding[],
) {
  await recordAudit({
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
  });
}

/**
 * Removes what an expired grant created (see the module comment). Returns what happened;
 * throws when it must be tried again later.
 */
export async function removeExpiredGrant(
  grantId: string,
  now = new Date(),
): Promise<{ outcome: RemovalOutcome; message: string }> {
  const grant = await claimRemoval(grantId, now);
  if (grant === null) return { outcome: "not-due", message: "not due, already ended, or being removed elsewhere" };
  const viewer = serviceViewerOf(grant.clusterId);
  if (viewer === null) {
    await releaseRemoval(grant.id, NO_SERVICE_PRINCIPAL_FOR_GRANTS);
    throw new Error(NO_SERVICE_PRINCIPAL_FOR_GRANTS);
  }
  try {
    const toRemove = bindingsToRemove(grant, await bindingsHeldByOthers(grant.clusterId, grant.id));
    if (toRemove.length === 0) {
      const message = `Every ACL of this grant is also held by another live grant; nothing was removed.`;
      await auditExpiry(grant, viewer.principal, "success", message, null, []);
      await finishRemoval(grant.id, { outcome: "kept", removalPlanId: null, message });
      return { outcome: "kept", message };
    }
    const plan = await createPlan<{ counts?: { delete?: number } }>(viewer, "acl.delete", { bindings: toRemove });
    if (!plan.ok) throw new Error(plan.message);
    if (plan.data.notApplicable !== null) {
      if (!plan.data.notApplicable.startsWith("Nothing to change")) throw new Error(plan.data.notApplicable);
      const message =
        `The grant's ACLs were already gone (deleted outside the grant meanwhile); nothing else was removed ` +
        `(plan ${plan.data.id}).`;
      await auditExpiry(grant, viewer.principal, "success", message, plan.data.id, []);
      await finishRemoval(grant.id, { outcome: "already-gone", removalPlanId: plan.data.id, message });
      return { outcome: "already-gone", message };
    }
    const applied = await applyPlan<{ outcome: string; message: string }>(viewer, plan.data.id, {
      approvedAs: "grant-expiry",
    });
    if (!applied.ok) throw new Error(`${applied.message} (plan ${plan.data.id})`);
    if (applied.data.outcome !== "success") throw new Error(`${applied.data.message} (plan ${plan.data.id})`);
    const message = `Removed the grant's ACLs at its expiry: ${applied.data.message}`;
    await auditExpiry(grant, viewer.principal, "success", message, plan.data.id, toRemove);
    await finishRemoval(grant.id, { outcome: "removed", removalPlanId: plan.data.id, message });
    return { outcome: "removed", message };
  } catch (error) {
    const message = messageOf(error);
    await releaseRemoval(grant.id, message).catch(() => undefined);
    await auditExpiry(grant, viewer.principal, "failure", `Removal failed, retried later: ${message}`, null, []).catch(
      () => undefined,
    );
    throw error;
  }
}

export const GRANT_EXPIRY_JOB = "grant-expiry";

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

/**
 * Ends a live grant now (its requester or its approver): the removal runs at once, as at
 * any expiry (as the service principal, through a plan).
 */
export async function endGrant(
  viewer: Viewer,
  id: string,
): Promise<ActionResult<{ grant: GrantView; message: string }>> {
  const g = await getGrant(id);
  if (g === null || g.clusterId !== clusterIdOf(viewer.credential))
    return { ok: false, code: "NOT_FOUND", message: "There is no grant with this id on this cluster." };
  if (viewer.principal !== g.requester && viewer.principal !== g.approver)
    return {
      ok: false,
      code: "DENIED",
      message: `Only ${g.requester} (its requester) or ${g.approver} (its approver) may end this grant early.`,
    };
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
