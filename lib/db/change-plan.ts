/**
 * Sealed plans: a previewed change kept on the server until it is applied or expires.
 *
 * Life cycle (status):
 *   OPEN --claimForApply--> APPLYING --finishPlan--> APPLIED | FAILED
 *   OPEN --(expiresAt passes)--> treated as EXPIRED (purged later)
 *
 * claimForApply is one conditional UPDATE, so two Apply clicks (or two console
 * instances) cannot both run the same plan. Only the principal who made the plan may
 * apply it, and only on the cluster it was made on (clusterId). payload is exactly what will be executed; preview is
 * what was shown.
 */
import { getPrisma } from "./client";
import type { Prisma } from "../generated/prisma/client";

export const PLAN_STATUSES = ["OPEN", "APPLYING", "APPLIED", "FAILED"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export interface StoredPlan<P = unknown, V = unknown> {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  principal: string;
  /** The cluster (lib/clusters.ts) the plan was computed on; it is applied there or nowhere. */
  clusterId: string;
  kind: string;
  payload: P;
  preview: V | null;
  basis: string;
  status: PlanStatus;
  appliedAt: Date | null;
  /** What the plan was made from (the kind's input); null for plans made before it was kept. */
  input: unknown;
  /** The request a reviewer made this plan for, or null. */
  requestId: string | null;
}

type Row = {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  principal: string;
  clusterId: string;
  kind: string;
  payload: unknown;
  preview: unknown;
  basis: string;
  status: string;
  appliedAt: Date | null;
  input: unknown;
  requestId: string | null;
};

function fromRow<P, V>(r: Row): StoredPlan<P, V> {
  return {
    id: r.id,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    principal: r.principal,
    clusterId: r.clusterId,
    kind: r.kind,
    payload: r.payload as P,
    preview: (r.preview ?? null) as V | null,
    basis: r.basis,
    status: r.status as PlanStatus,
    appliedAt: r.appliedAt,
    input: r.input ?? null,
    requestId: r.requestId,
  };
}

export async function savePlan<P, V>(input: {
  principal: string;
  sessionIdHash?: string | null;
  /** Absent: the database's default, "default". */
  clusterId?: string;
  kind: string;
  payload: P;
  preview: V;
  basis: string;
  ttlMs: number;
  now?: Date;
  input?: unknown;
  requestId?: string | null;
}): Promise<StoredPlan<P, V>> {
  const now = input.now ?? new Date();
  const row = await getPrisma().changePlan.create({
    data: {
      principal: input.principal,
      sessionIdHash: input.sessionIdHash ?? null,
      ...(input.clusterId !== undefined ? { clusterId: input.clusterId } : {}),
      kind: input.kind,
      payload: input.payload as Prisma.InputJsonValue,
      preview: input.preview as Prisma.InputJsonValue,
      basis: input.basis,
      ...(input.input !== undefined ? { input: input.input as Prisma.InputJsonValue } : {}),
      requestId: input.requestId ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + input.ttlMs),
    },
  });
  return fromRow<P, V>(row);
}

export async function getPlan<P = unknown, V = unknown>(id: string): Promise<StoredPlan<P, V> | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const row = await getPrisma().changePlan.findUnique({ where: { id } });
  return row ? fromRow<P, V>(row) : null;
}

export type ClaimResult<P, V> =
  | { ok: true; plan: StoredPlan<P, V> }
  | {
      ok: false;
      reason: "NOT_FOUND" | "NOT_YOURS" | "OTHER_CLUSTER" | "EXPIRED" | "ALREADY_APPLIED" | "IN_PROGRESS" | "FAILED";
    };

/**
 * OPEN -> APPLYING for its own principal (on its own cluster, when `clusterId` is given),
 * before it expires; exactly one caller wins.
 */
export async function claimForApply<P = unknown, V = unknown>(
  id: string,
  principal: string,
  now = new Date(),
  clusterId?: string,
): Promise<ClaimResult<P, V>> {
  const plan = await getPlan<P, V>(id);
  if (!plan) return { ok: false, reason: "NOT_FOUND" };
  if (plan.principal !== principal) return { ok: false, reason: "NOT_YOURS" };
  if (clusterId !== undefined && plan.clusterId !== clusterId) return { ok: false, reason: "OTHER_CLUSTER" };
  const claimed = await getPrisma().changePlan.updateMany({
    where: { id, principal, status: "OPEN", expiresAt: { gt: now }, ...(clusterId !== undefined ? { clusterId } : {}) },
    data: { status: "APPLYING" },
  });
  if (claimed.count === 1) return { ok: true, plan: { ...plan, status: "APPLYING" } };
  const again = await getPlan<P, V>(id);
  if (!again) return { ok: false, reason: "NOT_FOUND" };
  if (again.status === "APPLIED") return { ok: false, reason: "ALREADY_APPLIED" };
  if (again.status === "APPLYING") return { ok: false, reason: "IN_PROGRESS" };
  if (again.status === "FAILED") return { ok: false, reason: "FAILED" };
  return { ok: false, reason: "EXPIRED" };
}

/** APPLYING -> APPLIED (something was changed) or FAILED (nothing was). */
export async function finishPlan(id: string, status: "APPLIED" | "FAILED", now = new Date()): Promise<void> {
  await getPrisma().changePlan.updateMany({ where: { id, status: "APPLYING" }, data: { status, appliedAt: now } });
}

/**
 * Back to OPEN when Apply was refused before anything was sent to Kafka (e.g. the database write of the intent failed).
 */
export async function reopenPlan(id: string): Promise<void> {
  await getPrisma().changePlan.updateMany({ where: { id, status: "APPLYING" }, data: { status: "OPEN" } });
}

/** Deletes plans that expired more than `graceMs` ago and were never applied. */
export async function purgeExpiredPlans(now = new Date(), graceMs = 24 * 3_600_000): Promise<number> {
  const r = await getPrisma().changePlan.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - graceMs) }, status: { in: ["OPEN", "FAILED"] } },
  });
  return r.count;
}
