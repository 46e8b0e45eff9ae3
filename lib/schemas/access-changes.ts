/**
 * "What changed in P's access between T1 and T2" (#20, docs/history.md): the question
 * (GET /api/v1/access-changes, the principal page's History section) and its answer, every
 * decision gained or lost with the change that caused it (a console change with its actor and
 * plan, or an outside change with its window). JSON or CSV.
 */
import { z } from "zod";
import { OPERATIONS, PATTERN_TYPES, RESOURCE_TYPES } from "@/lib/policy";
import { aclBindingResponseSchema } from "./acl-binding";
import { parseInstant } from "./access-check";
import { principalParamSchema } from "./effective-permissions";
import { safeString } from "./safe-text";

/** How many change sets one answer holds at most (a longer period is refused: ask a shorter one). */
export const ACCESS_CHANGES_MAX_STEPS = 10_000;
/** How far ahead of the server's clock an instant may be (clocks differ a little). */
const SKEW_MS = 60_000;

const instantField = (what: string) =>
  safeString()
    .trim()
    .max(40, "At most 40 characters")
    .meta({ description: `${what} (ISO 8601, e.g. 2026-11-03T14:00:00Z; a time without a zone is UTC)` });

export const accessChangesQuerySchema = z
  .object({
    principal: safeString().meta({ description: "The principal, Type:name (User:alice) or just the name (alice)" }),
    from: instantField("The start of the period; empty: when the cluster's history journal begins").default(""),
    to: instantField("The end of the period; empty: now").default(""),
    format: z.enum(["json", "csv"]).default("json").meta({ description: "json (default) or csv" }),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!principalParamSchema.safeParse(v.principal).success)
      issue("principal", "Write the principal as Type:name (User:alice), or just the name (alice)");
    const from = v.from === "" ? Number.NEGATIVE_INFINITY : parseInstant(v.from);
    const to = v.to === "" ? Date.now() : parseInstant(v.to);
    if (Number.isNaN(from)) issue("from", "Enter an instant as ISO 8601, e.g. 2026-11-03T14:00:00Z");
    if (Number.isNaN(to)) issue("to", "Enter an instant as ISO 8601, e.g. 2026-12-03T14:00:00Z, or leave it empty");
    if (!Number.isNaN(to) && to > Date.now() + SKEW_MS)
      issue("to", "That is still to come: the history knows only the past");
    if (!Number.isNaN(from) && !Number.isNaN(to) && from >= to) issue("to", "The end must come after the start");
  })
  .transform((v) => ({
    principal: principalParamSchema.parse(v.principal),
    /** null: when the journal begins. */
    from: v.from === "" ? null : parseInstant(v.from),
    to: v.to === "" ? Date.now() : parseInstant(v.to),
    format: v.format,
  }));
export type AccessChangesQuery = z.output<typeof accessChangesQuerySchema>;

const ruleSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("superUser") }),
  z.object({ kind: z.literal("acl"), acl: aclBindingResponseSchema }),
  z.object({ kind: z.literal("noAclMatched") }),
  z.object({ kind: z.literal("default") }),
]);

const answerSchema = z.object({ decision: z.enum(["ALLOWED", "DENIED"]), rule: ruleSchema });

export const accessChangeSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  patternType: z.enum(PATTERN_TYPES),
  resourceName: z.string(),
  operation: z.enum(OPERATIONS),
  change: z.enum(["gained", "lost"]),
  before: answerSchema,
  after: answerSchema,
  beforeVia: z.string().meta({ description: "The rule that decided before, in words" }),
  afterVia: z.string().meta({ description: "The rule that decides after, in words" }),
});

export const accessChangeCauseSchema = z.object({
  origin: z.enum(["console", "outside", "observed"]).meta({
    description:
      "console: made through the console (actor, plan); outside: found between two reads (window); observed: " +
      "found after a gap in reading (the window is the gap)",
  }),
  windowFrom: z.string().meta({ description: "When the change may have happened at the earliest" }),
  windowTo: z.string().meta({ description: "When it had happened at the latest (a console change: equal)" }),
  actor: z.string().nullable(),
  planId: z.string().nullable(),
  auditId: z.string().nullable(),
  changes: z.array(z.string()).meta({ description: "What the change set did that bears on the principal" }),
});

export const accessChangeStepSchema = z.object({
  cause: accessChangeCauseSchema,
  superUser: z.enum(["gained", "lost"]).nullable(),
  decisions: z.array(accessChangeSchema),
});

export const accessChangesSchema = z.object({
  principal: z.string(),
  from: z.string(),
  to: z.string(),
  statement: z.string().meta({ description: "What the journal can vouch for over the period" }),
  notes: z.array(z.string()),
  steps: z.array(accessChangeStepSchema),
});
export type AccessChanges = z.infer<typeof accessChangesSchema>;
export type AccessChangeStepView = z.infer<typeof accessChangeStepSchema>;
