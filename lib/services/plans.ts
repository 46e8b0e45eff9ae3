/**
 * Sealed plans: every change is previewed as a plan kept on the server, and Apply takes
 * only the plan's id. Used by the ACLs page, the quota page and /api/v1/plans.
 *
 *   createPlan(viewer, kind, input)   the kind reads the current state as the viewer and
 *                                     computes the exact change (payload), what is shown
 *                                     (preview) and the basis (a fingerprint of what the
 *                                     plan was computed from); stored with an expiry
 *                                     (PLAN_TTL_MINUTES).
 *   getPlanView(viewer, id, page?)    the plan as shown, and a page of its detail rows;
 *                                     only for the principal who made it.
 *   applyPlan(viewer, id)             claim (OPEN -> APPLYING: one winner, the plan's
 *                                     principal only, before expiry) -> read the basis
 *                                     again from Kafka -> if it differs: 409, the plan is
 *                                     FAILED and nothing is sent -> else execute exactly
 *                                     the payload, audited with the plan id -> APPLIED
 *                                     (something changed) or FAILED (nothing did).
 *
 * Failures, as ActionResult codes (HTTP status through the API):
 *   NOT_FOUND (404)  no plan with this id;
 *   DENIED (403)     the plan belongs to another principal;
 *   CONFLICT (409)   expired, already applied, being applied, failed before, or the
 *                    state it was computed from changed (preview again);
 *   VALIDATION (400) the plan cannot be applied at all (nothing to change, invalid input).
 *
 * Kinds (acl.create, acl.delete, acl.change, quota.alter, acl.import, ...) implement
 * PlanKind (plan-kind.ts) and are listed in plan-kinds.ts.
 */
import { utcText } from "@/lib/utc-text";
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { clusterIdOf, findCluster } from "@/lib/clusters";
import {
  claimForApply,
  finishPlan,
  getPlan,
  purgeExpiredPlans,
  reopenPlan,
  savePlan,
  type StoredPlan,
} from "@/lib/db/change-plan";
import { hashSessionId } from "@/lib/db/session";
import { env } from "@/lib/env";
import type { AnyPlanKind, PlanContext, PlanHeader, PlanRowsPage, PreparedPlan } from "./plan-kind";
import { PLAN_KINDS } from "./plan-kinds";

export type { PlanHeader, PlanRowsPage } from "./plan-kind";

type Failure = Extract<ActionResult<never>, { ok: false }>;

/** What the change_plan row's `preview` column holds: the kind's view and whether Apply may run. */
interface StoredPreview<V = unknown> {
  view: V;
  notApplicable: string | null;
  detail?: unknown;
}

/** A plan as every view shows it: the header and the kind's preview, side by side. */
export type PlanView<V = Record<string, unknown>> = PlanHeader & V;

/** A plan and one page of its detail rows (when the kind has rows). */
export type PlanPageView<V = Record<string, unknown>, Row = unknown> = PlanView<V> & {
  changes: PlanRowsPage<Row> | null;
};

/** Apply's answer: the plan's header after the apply, and what the kind reports. */
export type PlanApplyView<R = Record<string, unknown>> = { plan: PlanHeader } & R;

export const DEFAULT_ROWS_PAGE_SIZE = 100;
export const MAX_ROWS_PAGE_SIZE = 1000;

const kinds = new Map<string, AnyPlanKind>(PLAN_KINDS.map((k) => [k.kind, k]));

/** The kinds plans can be made of (the API documents them). */
export function planKindNames(): string[] {
  return [...kinds.keys()];
}

function kindOf(name: string): AnyPlanKind | null {
  return kinds.get(name) ?? null;
}

function ttlMs(): number {
  return env().PLAN_TTL_MINUTES * 60_000;
}

function headerOf(plan: StoredPlan, now = new Date()): PlanHeader {
  const stored = plan.preview as StoredPreview | null;
  const expired = plan.status === "OPEN" && plan.expiresAt.getTime() <= now.getTime();
  const status: PlanHeader["status"] = expired ? "EXPIRED" : plan.status;
  const notApplicable = stored?.notApplicable ?? null;
  return {
    id: plan.id,
    kind: plan.kind,
    principal: plan.principal,
    status,
    createdAt: plan.createdAt.toISOString(),
    expiresAt: plan.expiresAt.toISOString(),
    appliedAt: plan.appliedAt?.toISOString() ?? null,
    applicable: status === "OPEN" && notApplicable === null,
    notApplicable,
  };
}

function contextOf(plan: StoredPlan): PlanContext<unknown, unknown> {
  const stored = plan.preview as StoredPreview | null;
  return {
    id: plan.id,
    kind: plan.kind,
    payload: plan.payload,
    basis: plan.basis,
    view: stored?.view ?? null,
    detail: stored?.detail ?? null,
  };
}

function viewOf<V>(plan: StoredPlan, now = new Date()): PlanView<V> {
  const stored = plan.preview as StoredPreview<V> | null;
  return { ...(stored?.view as V), ...headerOf(plan, now) };
}

let lastPurge = 0;
/** Expired plans are deleted a day after they expire; checked at most once an hour per process. */
function purgeNowAndThen(now: number): void {
  if (now - lastPurge < 3_600_000) return;
  lastPurge = now;
  purgeExpiredPlans(new Date(now)).catch((error: unknown) => {
    console.error(
      `[console] purging expired plans ` +
        `failed: ${error instanceof Error ? error.message.split("\n").pop() : String(error)}`,
    );
  });
}

/** Preview a change of `kind` as `viewer` and keep it as a plan. */
export async function createPlan<V = Record<string, unknown>>(
  viewer: Viewer,
  kind: string,
  input: unknown,
  options: { requestId?: string } = {},
): Promise<ActionResult<PlanView<V>>> {
  const k = kindOf(kind);
  if (k === null)
    return {
      ok: false,
      code: "VALIDATION",
      message: `Unknown plan kind "${kind}"; one of ${planKindNames().join(", ")}.`,
      fieldErrors: { kind: ["Unknown plan kind"] },
    };
  const prepared = await k.prepare(viewer, input);
  if (!prepared.ok) return prepared;
  const { payload, preview, basis, notApplicable, detail, onSaved } = prepared.data as PreparedPlan<unknown, unknown>;
  let stored: StoredPlan;
  try {
    stored = await savePlan<unknown, StoredPreview>({
      principal: viewer.principal,
      sessionIdHash: viewer.sessionId !== null ? hashSessionId(viewer.sessionId) : null,
      clusterId: clusterIdOf(viewer.credential),
      kind,
      payload,
      preview: { view: preview, notApplicable: notApplicable ?? null, ...(detail !== undefined ? { detail } : {}) },
      basis,
      ttlMs: ttlMs(),
      input,
      requestId: options.requestId ?? null,
    });
  } catch (error) {
    console.error(
      `[console] a ${kind} plan could not be ` +
        `stored: ${error instanceof Error ? error.message.split("\n").pop() : String(error)}`,
    );
    return {
      ok: false,
      code: "INTERNAL",
      message:
        "The console could not keep this plan (database unavailable); nothing was changed. Try again when the " +
        "database is back.",
    };
  }
  purgeNowAndThen(Date.now());
  try {
    onSaved?.(stored.id);
  } catch {
    // Only an optimisation (e.g. a cache for paging).
  }
  return { ok: true, data: viewOf<V>(stored) };
}

async function ownPlan(viewer: Viewer, id: string): Promise<ActionResult<StoredPlan>> {
  const plan = await getPlan(id);
  if (plan === null)
    return {
      ok: false,
      code: "NOT_FOUND",
      message: "There is no plan with this id (it may have expired and been removed); preview the change again.",
    };
  if (plan.principal !== viewer.principal)
    return {
      ok: false,
      code: "DENIED",
      message: `This plan was made by ${plan.principal}; only they may see or apply it.`,
    };
  if (plan.clusterId !== clusterIdOf(viewer.credential)) return otherCluster(plan);
  return { ok: true, data: plan };
}

/** A plan is computed from one cluster's state: on another it is neither shown nor applied. */
function otherCluster(plan: Pick<StoredPlan, "clusterId">): Failure {
  const name = findCluster(plan.clusterId)?.displayName ?? plan.clusterId;
  return {
    ok: false,
    code: "CONFLICT",
    message: `This plan was made on the cluster ${name}; it can be seen and applied only there. Nothing was changed.`,
  };
}

/** The plan as shown, with one page of its detail rows (only for the principal who made it). */
export async function getPlanView<V = Record<string, unknown>, Row = unknown>(
  viewer: Viewer,
  id: string,
  options: { page?: number; pageSize?: number } = {},
): Promise<ActionResult<PlanPageView<V, Row>>> {
  const own = await ownPlan(viewer, id);
  if (!own.ok) return own;
  const plan = own.data;
  const k = kindOf(plan.kind);
  let changes: PlanRowsPage<Row> | null = null;
  if (k?.rows) {
    const pageSize = Math.min(MAX_ROWS_PAGE_SIZE, Math.max(1, Math.floor(options.pageSize ?? DEFAULT_ROWS_PAGE_SIZE)));
    const page = Math.max(1, Math.floor(options.page ?? 1));
    const rows = await k.rows(viewer, contextOf(plan), { page, pageSize });
    if (!rows.ok) return rows;
    changes = rows.data as PlanRowsPage<Row>;
  }
  return { ok: true, data: { ...viewOf<V>(plan), changes } };
}

function claimRefusal(
  reason: Exclude<Awaited<ReturnType<typeof claimForApply>>, { ok: true }>["reason"],
  plan: StoredPlan | null,
): Failure {
  switch (reason) {
    case "NOT_FOUND":
      return {
        ok: false,
        code: "NOT_FOUND",
        message: "There is no plan with this id (it may have expired and been removed); preview the change again.",
      };
    case "NOT_YOURS":
      return {
        ok: false,
        code: "DENIED",
        message: `This plan was made by ${plan?.principal ?? "someone else"}; only they may apply it.`,
      };
    case "OTHER_CLUSTER":
      return otherCluster(plan ?? { clusterId: "another cluster" });
    case "EXPIRED":
      return {
        ok: false,
        code: "CONFLICT",
        message:
          `This plan expired${plan ? ` at ${utcText(plan.expiresAt)}` : ""}; nothing was changed. Preview the ` +
          `change again.`,
      };
    case "ALREADY_APPLIED":
      return {
        ok: false,
        code: "CONFLICT",
        message:
          `This plan was already applied${plan?.appliedAt ? ` at ${utcText(plan.appliedAt)}` : ""}; it is not ` +
          `applied twice.`,
      };
    case "IN_PROGRESS":
      return {
        ok: false,
        code: "CONFLICT",
        message: "This plan is being applied right now (another click or another tab); it is not applied twice.",
      };
    case "FAILED":
      return {
        ok: false,
        code: "CONFLICT",
        message:
          "This plan was refused or failed when it was applied; nothing more is sent for it. Preview the change again.",
      };
  }
}

/**
 * Why a plan may be applied on a four-eyes cluster (requests.approvals > 0): the final
 * approval of a request (lib/services/requests.ts), the removal of an expired grant (its
 * request was approved), or a super user's break-glass with a reason. Anything else is
 * refused there, from the pages, the API's one-call form and imports alike.
 */
export type PlanApproval = "request" | "grant-expiry" | "break-glass";

/** The refusal of a plan applied without approval on a four-eyes cluster; null when it may go on. */
export function fourEyesRefusal(viewer: Viewer, approvedAs: PlanApproval | undefined): Failure | null {
  const approvals = findCluster(clusterIdOf(viewer.credential))?.requests.approvals ?? 0;
  if (approvals === 0 || approvedAs !== undefined) return null;
  return {
    ok: false,
    code: "DENIED",
    message:
      `This cluster needs ${approvals === 1 ? "the approval of someone" : `${approvals} approvals by people`} ` +
      `other than the change's maker before it is applied (four-eyes): request it instead ` +
      `(POST /api/v1/requests, or "Request approval" on the plan). Nothing was changed.`,
  };
}

/**
 * Apply exactly the plan's payload (see the module comment for the order of checks).
 * Only the principal who made it, once, before it expires, and only if what it was
 * computed from is unchanged.
 */
export async function applyPlan<R = Record<string, unknown>>(
  viewer: Viewer,
  id: string,
  options: { approvedAs?: PlanApproval } = {},
): Promise<ActionResult<PlanApplyView<R>>> {
  const fourEyes = fourEyesRefusal(viewer, options.approvedAs);
  if (fourEyes !== null) return fourEyes;
  const own = await ownPlan(viewer, id);
  if (!own.ok) return own;
  const existing = own.data;
  const k = kindOf(existing.kind);
  if (k === null)
    return {
      ok: false,
      code: "CONFLICT",
      message: `This console does not know plans of kind "${existing.kind}"; preview the change again.`,
    };
  const header = headerOf(existing);
  if (header.status === "OPEN" && header.notApplicable !== null) {
    return { ok: false, code: "VALIDATION", message: `This plan cannot be applied: ${header.notApplicable}` };
  }

  const claim = await claimForApply(id, viewer.principal, new Date(), clusterIdOf(viewer.credential));
  if (!claim.ok)
    return claimRefusal(claim.reason, claim.reason === "NOT_FOUND" ? null : ((await getPlan(id)) ?? existing));
  const plan = claim.plan;

  const now = await k.currentBasis(viewer, plan.payload);
  if (!now.ok) {
    // Nothing was sent: the plan stays usable.
    await reopenPlan(id);
    return now;
  }
  if (now.data !== plan.basis) {
    await finishPlan(id, "FAILED");
    return { ok: false, code: "CONFLICT", message: k.staleMessage(plan.basis, now.data) };
  }

  let execution: Awaited<ReturnType<AnyPlanKind["execute"]>>;
  try {
    execution = await k.execute(viewer, contextOf(plan));
  } catch (error) {
    // The kind's audited calls record their own outcome; whether anything reached Kafka is unknown here.
    await finishPlan(id, "APPLIED");
    console.error(
      `[console] applying plan ${id} (${plan.kind}) ` +
        `failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return {
      ok: false,
      code: "INTERNAL",
      message:
        "Applying the plan failed on the console's side; see the audit trail for what reached Kafka. Preview " +
        "again before retrying.",
    };
  }
  await finishPlan(id, execution.changed ? "APPLIED" : "FAILED");
  const after = (await getPlan(id)) ?? plan;
  if (!execution.result.ok) return execution.result;
  return { ok: true, data: { ...(execution.result.data as R), plan: headerOf(after) } };
}

/**
 * The API's one-call form of a plan change (every ACL and quota change of /api/v1 that is
 * not a dry run): make the plan and apply exactly it, so a script gets what a reviewer
 * gets: the basis read twice (a change between the two steps is the apply's 409, and
 * nothing is sent), the plan id in the answer and in every audit row. A plan Apply would
 * refuse is answered by `refused` (the plan stays OPEN, nothing changes); a failure after
 * the plan was made names its id, so the audit trail and GET /api/v1/plans/{id} can be
 * consulted.
 */
export async function makeAndApplyPlan<R>(
  viewer: Viewer,
  kind: string,
  input: unknown,
  refused: (plan: PlanView, notApplicable: string) => ActionResult<PlanApplyView<R>>,
): Promise<ActionResult<PlanApplyView<R>>> {
  const made = await createPlan(viewer, kind, input);
  if (!made.ok) return made;
  if (made.data.notApplicable !== null) return refused(made.data, made.data.notApplicable);
  const applied = await applyPlan<R>(viewer, made.data.id);
  return applied.ok ? applied : { ...applied, message: `${applied.message} (plan ${made.data.id})` };
}

/** The header part of a plan as shown (what Apply's answer carries as `plan`). */
export function planHeaderOf(view: PlanHeader): PlanHeader {
  const { id, kind, principal, status, createdAt, expiresAt, appliedAt, applicable, notApplicable } = view;
  return { id, kind, principal, status, createdAt, expiresAt, appliedAt, applicable, notApplicable };
}
