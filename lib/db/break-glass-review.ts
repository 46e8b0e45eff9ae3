/**
 * After-the-fact reviews of break-glass applies (#19): one per plan. The unique plan id makes
 * two reviewers at once one winner; the review and its audit row are written together, so a
 * review is never stored without its audit row (nor the other way round).
 */
import { getPrisma } from "./client";
import { auditRowData, type AuditInput } from "./audit";

export interface StoredBreakGlassReview {
  id: string;
  clusterId: string;
  planId: string;
  appliedBy: string;
  reviewer: string;
  comment: string;
  reviewedAt: Date;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * Stores the review and its audit row in one transaction. `null`: the plan has a review
 * already (someone else's, possibly written a moment ago): nothing was stored.
 */
export async function saveBreakGlassReview(
  review: Omit<StoredBreakGlassReview, "id" | "reviewedAt">,
  audit: AuditInput,
): Promise<StoredBreakGlassReview | null> {
  try {
    return await getPrisma().$transaction(async (tx) => {
      const row = await tx.breakGlassReview.create({ data: review });
      await tx.auditEvent.create({ data: auditRowData(audit) });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** The review of each of these plans that has one (at most one per plan). */
export async function breakGlassReviewsOf(planIds: readonly string[]): Promise<Map<string, StoredBreakGlassReview>> {
  if (planIds.length === 0) return new Map();
  const rows = await getPrisma().breakGlassReview.findMany({ where: { planId: { in: [...planIds] } } });
  return new Map(rows.map((r) => [r.planId, r]));
}

export async function breakGlassReviewOf(planId: string): Promise<StoredBreakGlassReview | null> {
  return getPrisma().breakGlassReview.findUnique({ where: { planId } });
}
