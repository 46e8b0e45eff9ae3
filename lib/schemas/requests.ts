/**
 * Requests for changes and grants that end by themselves (#19): what is filed, what is
 * shown, what each step answers. A request holds the change itself (a plan body, as
 * POST /api/v1/plans takes it), never a plan: the reviewer's plan is computed as the
 * reviewer and sealed when they approve.
 */
import { z } from "zod";
import { aclBindingFormSchema, aclBindingSchema } from "./acls";
import { planCreateBodySchema } from "./plans";
import { safeString } from "./safe-text";
import { tokenRequestViewSchema } from "./tokens";

export const REQUEST_VIEW_STATUSES = ["PENDING", "APPROVING", "APPLIED", "DENIED", "CANCELLED", "TIMED_OUT"] as const;
export const REQUEST_LIST_FILTERS = ["waiting", "mine", "decided", "all"] as const;
export type RequestListFilter = (typeof REQUEST_LIST_FILTERS)[number];
/** Which kinds a list holds: requests for changes (ACLs, quotas), delegation-token requests, or both. */
export const REQUEST_LIST_KINDS = ["all", "change", "token"] as const;
export type RequestListKind = (typeof REQUEST_LIST_KINDS)[number];
/** The `kind` of a delegation-token request in the list (a change request's is its plan kind, e.g. acl.create). */
export const TOKEN_REQUEST_KIND = "token";

export const REASON_MAX = 1000;

const reason = safeString()
  .trim()
  .min(1, "Say why: a reason is required")
  .max(REASON_MAX, `At most ${REASON_MAX} characters`);

export const requestFileBodySchema = z.object({
  change: planCreateBodySchema.meta({ description: "The change, exactly as POST /api/v1/plans takes it" }),
  reason,
  grantMinutes: z
    .number({ error: "grantMinutes is a whole number of minutes" })
    .int("grantMinutes is a whole number of minutes")
    .positive("grantMinutes must be more than 0")
    .optional()
    .meta({
      description:
        "Make the ACLs it creates end by themselves this many minutes after they are applied (at most the " +
        "cluster's maxGrantMinutes; only changes that create ACLs)",
    }),
});
export type RequestFileBody = z.output<typeof requestFileBodySchema>;

export const requestFromPlanBodySchema = z.object({
  planId: z.uuid({ error: "planId is the id of a plan you previewed" }),
  reason,
  grantMinutes: requestFileBodySchema.shape.grantMinutes,
});

export const requestApproveBodySchema = z.object({
  planId: z.uuid({ error: "planId is the id of the plan you reviewed (POST /api/v1/requests/{id}/review)" }),
});

export const requestDenyBodySchema = z.object({ comment: reason });

export const requestListQuerySchema = z.object({
  filter: z.enum(REQUEST_LIST_FILTERS, { error: `One of ${REQUEST_LIST_FILTERS.join(", ")}` }).default("waiting"),
  kind: z
    .enum(REQUEST_LIST_KINDS, { error: `One of ${REQUEST_LIST_KINDS.join(", ")}` })
    .default("all")
    .meta({
      description:
        "all (the default): requests for changes and delegation-token requests; change: only requests for " +
        "changes; token: only delegation-token requests",
    }),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const requestViewSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  requester: z.string(),
  reason: z.string(),
  kind: z.string(),
  summary: z.string(),
  change: z.unknown().meta({ description: "The change as filed (a plan body)" }),
  grantMinutes: z.number().nullable(),
  status: z.enum(REQUEST_VIEW_STATUSES),
  timeoutAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  comment: z.string().nullable(),
  planId: z.string().nullable().meta({ description: "The plan that was applied (once APPLIED)" }),
  approvals: z.array(z.object({ principal: z.string(), at: z.string() })),
  approvalsNeeded: z.number().meta({ description: "Approvals by people other than the requester it needs (≥ 1)" }),
  grantId: z.string().nullable(),
  owners: z.array(z.object({ resourceType: z.string(), prefix: z.string(), principals: z.array(z.string()) })).meta({
    description:
      "The cluster's owner rules this change touches: only one of their owners (or a super user) may approve. " +
      "Empty: anyone Kafka lets make the change (an import's resources are known at its review)",
  }),
  you: z.object({
    mayCancel: z.boolean(),
    mayReview: z
      .boolean()
      .meta({ description: "Pending and not yours on a four-eyes cluster, not yet approved by you" }),
    why: z.string().nullable().meta({ description: "Why you may not review it, when you may not" }),
  }),
  password: z
    .object({
      available: z.boolean().meta({ description: "Whether it is still kept for its one retrieval" }),
      until: z.string().meta({ description: "Until when the requester may retrieve it" }),
      retrievedAt: z.string().nullable(),
      mayRetrieve: z.boolean().meta({ description: "Whether you are the requester" }),
    })
    .nullable()
    .meta({
      description:
        "An approved scram.change set: the password the console generated, kept encrypted for the requester's " +
        "one retrieval (POST /api/v1/requests/{id}/password); never shown to the approver",
    }),
});
export type RequestView = z.infer<typeof requestViewSchema>;

/** The requester's one retrieval of the password an approved SCRAM request generated. */
export const requestPasswordSchema = z.object({
  requestId: z.string(),
  user: z.string(),
  mechanism: z.string(),
  password: z.string().meta({ description: "Shown once: erased from the console as it is answered" }),
  message: z.string(),
});
export type RequestPassword = z.infer<typeof requestPasswordSchema>;

/**
 * A delegation-token request as the Requests page lists it (kind "token"): the token request as
 * GET /api/v1/token-requests shows it, what it asks in one line, and what the caller may do.
 * It is decided with the token-request operations (approve, deny, retrieve).
 */
export const tokenRequestItemSchema = tokenRequestViewSchema.extend({
  kind: z.literal(TOKEN_REQUEST_KIND),
  summary: z.string(),
  you: z.object({
    mayDecide: z.boolean().meta({
      description:
        "Pending, not yours, and you appear entitled to create tokens for its owner (Kafka decides at approval)",
    }),
    why: z.string().nullable().meta({ description: "Why you may not decide it, or how you appear entitled" }),
  }),
});
export type TokenRequestItem = z.infer<typeof tokenRequestItemSchema>;

export const requestListSchema = z.object({
  requests: z.array(z.union([requestViewSchema, tokenRequestItemSchema])).meta({
    description:
      "Newest first. Requests for changes have their plan kind (acl.create, quota.alter, …); delegation-token " +
      'requests have kind "token"',
  }),
  pending: z.number().meta({
    description:
      "Waiting for a decision: the cluster's pending requests for changes, and the pending token requests of " +
      "others the caller appears entitled to approve (with kind, only those of that kind)",
  }),
  pendingTokens: z.number().meta({ description: "Of `pending`, the token requests" }),
});
export type RequestList = z.infer<typeof requestListSchema>;
export type RequestListItem = RequestList["requests"][number];

/** Whether a listed request is a delegation-token request. */
export function isTokenItem(r: RequestListItem): r is TokenRequestItem {
  return r.kind === TOKEN_REQUEST_KIND;
}

export const grantViewSchema = z.object({
  id: z.string(),
  requestId: z.string().nullable(),
  requester: z.string(),
  approver: z.string(),
  planId: z.string(),
  bindings: z.array(aclBindingSchema.extend({ host: z.string() })),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(["LIVE", "REMOVING", "ENDED"]),
  overdue: z.boolean().meta({ description: "Past its expiry and not yet removed (retried; e.g. the broker was down)" }),
  outcome: z.string().nullable(),
  lastError: z.string().nullable(),
  removalPlanId: z.string().nullable(),
});
export type GrantView = z.infer<typeof grantViewSchema>;

export const grantListSchema = z.object({ grants: z.array(grantViewSchema) });

export const requestStepResultSchema = z.object({
  request: requestViewSchema,
  message: z.string(),
});
export type RequestStepResult = z.infer<typeof requestStepResultSchema>;

export const grantListQuerySchema = z.object({
  principal: safeString()
    .trim()
    .max(1000)
    .optional()
    .transform((v) => (v ? v : undefined))
    .meta({ description: "Only the grants of this requester, e.g. User:alice" }),
});

export const webhookSetBodySchema = z.object({
  url: safeString().trim().min(1, "The webhook's URL is required").max(2000, "At most 2000 characters"),
  secret: safeString()
    .min(16, "The signing secret has at least 16 characters")
    .max(200, "At most 200 characters")
    .meta({ description: "The HMAC-SHA256 key the receiver checks X-KSC-Signature-256 with; never shown again" }),
});

export const webhookViewSchema = z.object({
  configured: z.boolean(),
  target: z.string().nullable().meta({ description: "The URL's origin only (a webhook URL's path is often a secret)" }),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

export const grantExtendBodySchema = z.object({
  reason,
  grantMinutes: z
    .number({ error: "grantMinutes is a whole number of minutes" })
    .int("grantMinutes is a whole number of minutes")
    .positive("grantMinutes must be more than 0"),
});

/** A form's "Ends after (minutes)": empty is none; anything else must be a whole number. */
function minutesField(v: unknown): unknown {
  if (typeof v !== "string") return v;
  return v.trim() === "" ? undefined : Number(v.trim());
}

const withMinutes = (raw: unknown): unknown =>
  typeof raw === "object" && raw !== null
    ? { ...raw, grantMinutes: minutesField((raw as { grantMinutes?: unknown }).grantMinutes) }
    : raw;

/** The pages' "Request approval" of a previewed plan: the plan id, a reason, optional minutes. */
export const requestFromPlanFormSchema = z.preprocess(withMinutes, requestFromPlanBodySchema);

/**
 * The Requests page's "New request": one ACL binding (the create form's fields), a reason and
 * optional minutes, filed as an acl.create request.
 */
export const requestAclFormSchema = aclBindingFormSchema
  .and(z.object({ reason: z.unknown(), grantMinutes: z.unknown() }))
  .transform(({ reason, grantMinutes, ...binding }): unknown => ({
    change: { kind: "acl.create", bindings: [binding] },
    reason,
    ...(minutesField(grantMinutes) === undefined ? {} : { grantMinutes: minutesField(grantMinutes) }),
  }))
  .pipe(requestFileBodySchema);

/**
 * The Users page's "Request a SCRAM change" on a four-eyes cluster: user, set or delete,
 * mechanism, iterations and a reason, filed as a scram.change request (no password: it is
 * generated at approval and kept for the requester).
 */
export const requestScramFormSchema = z
  .object({
    user: z.unknown(),
    action: z.unknown(),
    mechanism: z.unknown(),
    iterations: z.unknown(),
    reason: z.unknown(),
  })
  .transform(({ reason, mechanism, iterations, ...rest }): unknown => ({
    change: {
      kind: "scram.change",
      ...rest,
      ...(mechanism === "" || mechanism === "ALL" || mechanism === undefined ? {} : { mechanism }),
      ...(iterations === "" || iterations === undefined ? {} : { iterations }),
    },
    reason,
  }))
  .pipe(requestFileBodySchema);

/** Whether a plan's ACLs may end by themselves (a change that creates ACLs; not an import): "Ends after". */
export function canEndPlan(plan: { kind: string; create?: readonly unknown[] }): boolean {
  return (plan.kind === "acl.create" || plan.kind === "acl.change") && (plan.create?.length ?? 0) > 0;
}
