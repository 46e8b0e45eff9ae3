/**
 * Break-glass applies and their after-the-fact review (#19): a super user applied a plan
 * without approval on a four-eyes cluster; someone else entitled to make that change reviews
 * it, with a comment. What a review takes and what the break-glass page and API show.
 */
import { z } from "zod";
import { safeString } from "./safe-text";

export const BREAK_GLASS_COMMENT_MAX = 1000;

export const breakGlassReviewBodySchema = z.object({
  comment: safeString()
    .trim()
    .min(1, "Say what you checked: a comment is required")
    .max(BREAK_GLASS_COMMENT_MAX, `At most ${BREAK_GLASS_COMMENT_MAX} characters`)
    .meta({ description: "What the reviewer checked, e.g. the incident it was for; kept with the review" }),
});
export type BreakGlassReviewBody = z.output<typeof breakGlassReviewBodySchema>;

export const breakGlassReviewSchema = z.object({
  reviewer: z.string(),
  at: z.string(),
  comment: z.string(),
});
export type BreakGlassReview = z.infer<typeof breakGlassReviewSchema>;

export const breakGlassViewSchema = z.object({
  planId: z.string(),
  appliedBy: z.string().meta({ description: "The super user who applied the plan without approval" }),
  at: z.string(),
  reason: z.string().nullable(),
  category: z.string(),
  changes: z
    .array(z.object({ action: z.string(), target: z.string(), outcome: z.string(), at: z.string() }))
    .meta({ description: "What the apply did, from the audit trail (the rows of this plan you may read)" }),
  review: breakGlassReviewSchema.nullable().meta({ description: "null: not reviewed yet (flagged on the dashboard)" }),
  you: z.object({ mayReview: z.boolean(), why: z.string().nullable() }),
});
export type BreakGlassView = z.infer<typeof breakGlassViewSchema>;

export const breakGlassReviewResultSchema = z.object({ breakGlass: breakGlassViewSchema, message: z.string() });
export type BreakGlassReviewResult = z.infer<typeof breakGlassReviewResultSchema>;
