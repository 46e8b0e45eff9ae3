/**
 * The contract of one kind of sealed plan (acl.create, acl.delete, acl.change, and the
 * quota and import kinds): what lib/services/plans.ts needs from a kind to preview,
 * keep, show and apply it. No imports of any kind here, so kind modules and plans.ts can
 * both import this file without a cycle. Kinds are listed in plan-kinds.ts.
 *
 * A kind answers four questions:
 *
 * - prepare(viewer, input): read the current state as the viewer, compute the exact
 *   change (`payload`: what apply will execute, nothing else), what is shown
 *   (`preview`: JSON, stored with the plan) and the `basis` (a fingerprint of what the
 *   plan was computed from). `notApplicable` says why Apply is refused (nothing to
 *   change, invalid input): the plan is still kept and shown.
 * - currentBasis(viewer, payload): the same fingerprint, read again from Kafka now
 *   (never from a cache older than the call). Apply compares it with the stored one.
 * - execute(viewer, plan): carry out exactly `plan.payload`, audited with `plan.id`
 *   (the audit event's planId); report whether anything changed in Kafka.
 * - rows (optional): a page of the plan's full detail (e.g. every decision change) for
 *   GET /api/v1/plans/{id} and the plan page.
 */
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";

/** What prepare computed; plans.ts stores it with an expiry. */
export interface PreparedPlan<P, V> {
  payload: P;
  preview: V;
  basis: string;
  /** Set when Apply must refuse this plan whatever happens (nothing to change, invalid bindings): shown to the user. */
  notApplicable?: string | null;
  /**
   * Kept with the plan but not shown (e.g. the universe a blast radius was computed over, to page through it later).
   */
  detail?: unknown;
  /**
   * Called once the plan is stored, with its id (e.g. to keep a computed structure in
   * memory for paging). Errors are ignored.
   */
  onSaved?: (id: string) => void;
}

/** What execute did: the caller's result, and whether Kafka was changed at all (APPLIED vs FAILED). */
export interface PlanExecution<R> {
  result: ActionResult<R>;
  /** True when at least one change reached Kafka (or may have: outcome unknown). */
  changed: boolean;
}

/** One page of a plan's detail rows. */
export interface PlanRowsPage<T> {
  page: number;
  pageSize: number;
  total: number;
  pages: number;
  rows: T[];
  /** False when the rows can no longer be listed (e.g. the state they were computed from changed); `note` says why. */
  complete: boolean;
  note?: string;
}

/** A stored plan as its kind sees it. */
export interface PlanContext<P, V> {
  id: string;
  kind: string;
  payload: P;
  basis: string;
  /** The preview as stored (what was shown). */
  view: V;
  /** PreparedPlan.detail as stored (null when none). */
  detail: unknown;
}

export interface PlanKind<I = unknown, P = unknown, V = unknown, R = unknown, Row = unknown> {
  /** "acl.create", "quota.alter", ...: stored on the plan, sent by clients. */
  kind: string;
  /** The audit/action category the kind belongs to (for messages). */
  area: "acl" | "quota" | "scram";
  prepare(viewer: Viewer, input: I): Promise<ActionResult<PreparedPlan<P, V>>>;
  currentBasis(viewer: Viewer, payload: P): Promise<ActionResult<string>>;
  /** The 409 message when the basis changed, e.g. "The ACLs changed since this preview (…); preview again." */
  staleMessage(then: string, now: string): string;
  execute(viewer: Viewer, plan: PlanContext<P, V>): Promise<PlanExecution<R>>;
  rows?(
    viewer: Viewer,
    plan: PlanContext<P, V>,
    page: { page: number; pageSize: number },
  ): Promise<ActionResult<PlanRowsPage<Row>>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds kinds of every input/payload type
export type AnyPlanKind = PlanKind<any, any, any, any, any>;

/** The fields every plan view has, whatever its kind (the kind's preview is spread beside them). */
export interface PlanHeader {
  id: string;
  kind: string;
  principal: string;
  status: "OPEN" | "APPLYING" | "APPLIED" | "FAILED" | "EXPIRED";
  createdAt: string;
  expiresAt: string;
  appliedAt: string | null;
  /** Whether Apply may run it now (OPEN, not expired, applicable). */
  applicable: boolean;
  /** Why Apply would refuse, when it would. */
  notApplicable: string | null;
}
