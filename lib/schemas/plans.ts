/**
 * Sealed plans (lib/services/plans.ts, /api/v1/plans, the ACLs page): what a client sends
 * to make a plan, the plan as shown (a header every kind shares, then the kind's preview),
 * its pages of decision changes, and what Apply reports.
 *
 * Plan kinds send `{ kind, ...input }`. Adding a kind: add its body schema to
 * planCreateBodySchema's list and its view to planViewSchema / planApplyResultSchema.
 */
import { z } from "zod";
import { OPERATIONS, RESOURCE_TYPES } from "@/lib/policy";
import { TEMPLATE_KINDS, aclApplyResultSchema, aclBindingSchema, newAclBindingSchema } from "./acls";
import { aclImportBodySchema, aclImportSourceSchema } from "./acl-io";
import { quotaAlterPlanBodySchema, quotaAlterResultSchema, quotaPlanPreviewSchema } from "./quotas";
import { safeString } from "./safe-text";
import { scramChangePlanBodySchema, scramChangeResultSchema, scramPlanPreviewSchema } from "./scram-users";

export const PLAN_VIEW_STATUSES = ["OPEN", "APPLYING", "APPLIED", "FAILED", "EXPIRED"] as const;

/** Decision rows per page of GET /api/v1/plans/{id} (default and most). */
export const PLAN_ROWS_PAGE_SIZE = 100;
export const PLAN_ROWS_MAX_PAGE_SIZE = 1000;
/** Bindings per list in one plan request. */
export const PLAN_MAX_BINDINGS = 500;

// ---- input ----------------------------------------------------------------------------------

const createList = z.array(newAclBindingSchema).max(PLAN_MAX_BINDINGS, `At most ${PLAN_MAX_BINDINGS} bindings at once`);
const deleteList = z.array(aclBindingSchema).max(PLAN_MAX_BINDINGS, `At most ${PLAN_MAX_BINDINGS} bindings at once`);
const names = z.array(safeString().max(1000)).max(PLAN_MAX_BINDINGS).default([]);

/**
 * A client role (kafka-acls.sh --producer / --consumer ...) expanded into bindings on the server; the ACLs page's
 * template form as JSON.
 */
export const aclTemplateBodySchema = z.object({
  template: z.enum(TEMPLATE_KINDS).meta({
    description: "Which role: producer, consumer, transactional (producer) or streams (Kafka Streams application)",
  }),
  principal: safeString().max(1000).meta({ description: "The client's principal, e.g. User:svc-orders" }),
  host: safeString().max(100).default("*").meta({ description: "* or one IP address" }),
  topics: names.meta({ description: "producer, consumer, transactional: the topics" }),
  inputTopics: names.meta({ description: "streams: input topics" }),
  outputTopics: names.meta({ description: "streams: output topics" }),
  prefixed: z
    .boolean()
    .default(false)
    .meta({ description: "Topic (and group / transactional id) names are prefixes (PREFIXED)" }),
  group: safeString()
    .max(1000)
    .default("")
    .meta({ description: "consumer (required), transactional (optional): the group id" }),
  transactionalId: safeString().max(1000).default("").meta({ description: "transactional: the transactional.id" }),
  applicationId: safeString().max(1000).default("").meta({ description: "streams: the application.id" }),
  idempotent: z.boolean().default(false).meta({ description: "producer: also IDEMPOTENT_WRITE on the cluster" }),
  exactlyOnce: z.boolean().default(false).meta({ description: "streams: exactly-once (transactional ids)" }),
});
export type AclTemplateBody = z.output<typeof aclTemplateBodySchema>;

export const aclCreatePlanBodySchema = z
  .object({
    kind: z.literal("acl.create"),
    bindings: createList.optional().meta({ description: "The bindings to create (give this or template)" }),
    template: aclTemplateBodySchema
      .optional()
      .meta({ description: "A client role to expand into bindings (give this or bindings)" }),
  })
  .superRefine((v, ctx) => {
    if ((v.bindings === undefined || v.bindings.length === 0) === (v.template === undefined)) {
      ctx.addIssue({ code: "custom", path: ["bindings"], message: "Give either bindings (at least one) or template" });
    }
  });

export const aclDeletePlanBodySchema = z.object({
  kind: z.literal("acl.delete"),
  bindings: deleteList
    .min(1, "Give at least one ACL binding")
    .meta({ description: "The exact bindings to delete (each becomes an exact filter)" }),
});

export const aclChangePlanBodySchema = z
  .object({
    kind: z.literal("acl.change"),
    create: createList.default([]).meta({ description: "Bindings to create" }),
    delete: deleteList.default([]).meta({ description: "Bindings to delete (applied first)" }),
  })
  .superRefine((v, ctx) => {
    if (v.create.length + v.delete.length === 0)
      ctx.addIssue({ code: "custom", path: ["create"], message: "Give at least one binding to create or delete" });
  });

/** POST /api/v1/plans: the change to preview, by kind. */
export const aclImportPlanBodySchema = aclImportBodySchema.extend({ kind: z.literal("acl.import") });

export const planCreateBodySchema = z.discriminatedUnion("kind", [
  aclCreatePlanBodySchema,
  aclDeletePlanBodySchema,
  aclChangePlanBodySchema,
  aclImportPlanBodySchema,
  quotaAlterPlanBodySchema,
  scramChangePlanBodySchema,
]);
export type PlanCreateBody = z.output<typeof planCreateBodySchema>;

const pageNumber = (fallback: number, max: number, what: string) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? fallback : v),
    z.coerce
      .number({ error: `${what} is a number` })
      .int(`${what} is a whole number`)
      .min(1, `${what} starts at 1`)
      .max(max, `${what} is at most ${max}`),
  );

/** GET /api/v1/plans/{id}: which page of decision changes. */
export const planPageQuerySchema = z.object({
  page: pageNumber(1, 1_000_000_000, "page").meta({ description: "Page of decision changes (default 1)" }),
  pageSize: pageNumber(PLAN_ROWS_PAGE_SIZE, PLAN_ROWS_MAX_PAGE_SIZE, "pageSize").meta({
    description: `Decision changes per page (default ${PLAN_ROWS_PAGE_SIZE}, at most ${PLAN_ROWS_MAX_PAGE_SIZE})`,
  }),
});
export type PlanPageQuery = z.output<typeof planPageQuerySchema>;

// ---- the plan as shown -------------------------------------------------------------------------

export const planHeaderSchema = z.object({
  id: z.string().meta({ description: "The plan's id: Apply takes only this" }),
  kind: z.string().meta({ description: "acl.create, acl.delete, acl.change, ..." }),
  principal: z.string().meta({ description: "Who made it: only they may see and apply it" }),
  status: z
    .enum(PLAN_VIEW_STATUSES)
    .meta({ description: "OPEN (may be applied), APPLYING, APPLIED, FAILED (refused or nothing changed), EXPIRED" }),
  createdAt: z.string(),
  expiresAt: z.string().meta({ description: "After this, Apply answers 409 (PLAN_TTL_MINUTES after the preview)" }),
  appliedAt: z.string().nullable(),
  applicable: z.boolean().meta({ description: "Whether Apply may run it now" }),
  notApplicable: z
    .string()
    .nullable()
    .meta({ description: "Why Apply would refuse (nothing to change, bindings Kafka would refuse)" }),
});
export type PlanHeaderView = z.infer<typeof planHeaderSchema>;

const bindingView = aclBindingSchema.extend({ host: z.string() });

export const aclDecisionRowSchema = z.object({
  principal: z.string(),
  host: z.string().meta({
    description: "A host named in an ACL, `*`, or the label standing for every other client address (otherHost)",
  }),
  resourceType: z.enum(RESOURCE_TYPES),
  resourceName: z.string(),
  operation: z.enum(OPERATIONS),
  before: z.enum(["ALLOWED", "DENIED"]),
  after: z.enum(["ALLOWED", "DENIED"]),
});
export type AclDecisionRow = z.infer<typeof aclDecisionRowSchema>;

export const aclPlanRuleSchema = z.object({
  kind: z.enum(["wildcard-principal", "wildcard-resource", "prefixed-resource"]),
  change: z.enum(["create", "delete"]),
  binding: bindingView,
  text: z
    .string()
    .meta({ description: "The rule in words, e.g. “and every TOPIC not yet seen whose name starts with `orders`”" }),
});

export const cliCommandSchema = z.object({
  command: z.string(),
  warning: z.string().optional().meta({ description: "Set when the command cannot mean exactly the console's change" }),
});

export const aclPlanPreviewSchema = z.object({
  summary: z.string().meta({ description: "The plan in one sentence" }),
  create: z.array(bindingView).meta({ description: "Exactly what Apply creates" }),
  delete: z.array(bindingView).meta({ description: "Exactly what Apply deletes (first)" }),
  invalid: z
    .array(
      z.object({ binding: z.unknown(), message: z.string(), from: z.enum(["create", "desired"]), index: z.number() }),
    )
    .meta({
      description: "Bindings Kafka would refuse, with its message; while any remain the plan cannot be applied",
    }),
  noOps: z.array(bindingView).meta({ description: "Creates already present and deletes not present: nothing to do" }),
  refused: z.object({ code: z.string(), message: z.string() }).nullable(),
  counts: z.object({
    changes: z.number().meta({ description: "Decisions that change" }),
    gained: z.number().meta({ description: "DENIED -> ALLOWED" }),
    lost: z.number().meta({ description: "ALLOWED -> DENIED" }),
    principals: z.number().meta({ description: "Principals with at least one changed decision" }),
    resources: z.number().meta({ description: "Resources with at least one changed decision" }),
    checked: z
      .number()
      .meta({ description: "Requests of the universe whose decision was compared (the rest cannot change)" }),
    universe: z.object({ principals: z.number(), hosts: z.number(), resources: z.number(), requests: z.number() }),
  }),
  rules: z
    .array(aclPlanRuleSchema)
    .meta({ description: "What the change also does to principals and resources not yet seen" }),
  byPrincipal: z
    .array(z.object({ principal: z.string(), gained: z.number(), lost: z.number() }))
    .meta({ description: "The first principals with changes (counts.principals in all)" }),
  byResource: z
    .array(
      z.object({
        resourceType: z.enum(RESOURCE_TYPES),
        resourceName: z.string(),
        gained: z.number(),
        lost: z.number(),
      }),
    )
    .meta({ description: "The first resources with changes (counts.resources in all)" }),
  firstChanges: z
    .array(aclDecisionRowSchema)
    .meta({ description: "The first decision changes; GET /api/v1/plans/{id} pages through all of them" }),
  cli: z
    .array(cliCommandSchema)
    .meta({ description: "The kafka-acls.sh commands making the same change (deletes first)" }),
  assumptions: z.object({ superUsers: z.array(z.string()), allowEveryoneIfNoAclFound: z.boolean() }),
  universeNotes: z.array(z.string()).meta({
    description:
      "Sources of the universe that could not be read (e.g. SCRAM users Kafka does not let the caller describe)",
  }),
  otherHost: z.string().meta({ description: "The host label standing for every client address no ACL names" }),
  aclSnapshot: z.object({ takenAt: z.string(), size: z.number() }),
});
export type AclPlanPreview = z.infer<typeof aclPlanPreviewSchema>;

export const aclPlanViewSchema = planHeaderSchema.extend(aclPlanPreviewSchema.shape);
export type AclPlanView = z.infer<typeof aclPlanViewSchema>;

/** An acl.import plan: an ACL plan, and where it came from (file format, mode, scope). */
export const aclImportPlanViewSchema = aclPlanViewSchema.extend({ import: aclImportSourceSchema });
export type AclImportPlanView = z.infer<typeof aclImportPlanViewSchema>;

/**
 * A quota.alter plan: Kafka's validation, the KIP-55 check, every affected pair before and after, the kafka-configs.sh
 * command.
 */
export const quotaPlanViewSchema = planHeaderSchema.extend(quotaPlanPreviewSchema.shape);
export type QuotaPlanView = z.infer<typeof quotaPlanViewSchema>;

/** A scram.change plan: the user's credentials before and after, the kafka-configs.sh command. */
export const scramPlanViewSchema = planHeaderSchema.extend(scramPlanPreviewSchema.shape);
export type ScramPlanView = z.infer<typeof scramPlanViewSchema>;

/** POST /api/v1/plans answers the plan as shown. */
export const planViewSchema = z.union([
  aclPlanViewSchema,
  aclImportPlanViewSchema,
  quotaPlanViewSchema,
  scramPlanViewSchema,
]);

export const aclDecisionRowsPageSchema = z.object({
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  pages: z.number(),
  rows: z.array(aclDecisionRowSchema),
  complete: z.boolean().meta({
    description: "False when the rows can no longer be listed (the ACLs changed since the preview): note says why",
  }),
  note: z.string().optional(),
});

export const aclPlanPageViewSchema = aclPlanViewSchema.extend({
  changes: aclDecisionRowsPageSchema
    .nullable()
    .meta({ description: "One page of every decision change, in order (resource, principal, host, operation)" }),
});
export type AclPlanPageView = z.infer<typeof aclPlanPageViewSchema>;

/** GET /api/v1/plans/{id}. */
export const planPageViewSchema = z.union([
  aclPlanPageViewSchema,
  aclImportPlanViewSchema.extend({ changes: aclPlanPageViewSchema.shape.changes }),
  quotaPlanViewSchema.extend({ changes: z.null().meta({ description: "Quota plans have no decision rows" }) }),
  scramPlanViewSchema.extend({ changes: z.null().meta({ description: "SCRAM plans have no decision rows" }) }),
]);

const aclBindingOutcome = aclApplyResultSchema.shape.results.element;

export const aclPlanApplyResultSchema = z.object({
  plan: planHeaderSchema,
  outcome: z.enum(["success", "partial", "failure", "denied", "unknown"]),
  message: z.string(),
  batches: z.number().meta({
    description: "Audited Kafka requests made (deletes first, then creates, at most ACL_APPLY_BATCH bindings each)",
  }),
  results: z
    .array(aclBindingOutcome.extend({ action: z.enum(["create", "delete"]) }))
    .meta({ description: "What Kafka did with each binding of the plan" }),
  notSent: z
    .array(bindingView.extend({ action: z.enum(["create", "delete"]) }))
    .meta({ description: "Bindings not sent because an earlier batch failed" }),
});
export type AclPlanApplyResult = z.infer<typeof aclPlanApplyResultSchema>;

/** What applying a quota.alter plan answers: the plan's header, and the alteration as applied. */
export const quotaPlanApplyResultSchema = quotaAlterResultSchema.extend({ plan: planHeaderSchema });

/** What applying a scram.change plan answers: the change as made (a generated password once, to its applier). */
export const scramPlanApplyResultSchema = scramChangeResultSchema.extend({ plan: planHeaderSchema });

/** POST /api/v1/plans/{id}/apply. */
export const planApplyResultSchema = z.union([
  aclPlanApplyResultSchema,
  quotaPlanApplyResultSchema,
  scramPlanApplyResultSchema,
]);
