/**
 * The dashboard (home page, GET /api/v1/dashboard): one answer per viewer, each card
 * computed from what Kafka lets that viewer see. A card Kafka refuses (or cannot answer)
 * is `{ ok: false, code, message }` with a message for a person; the other cards still
 * answer.
 */
import { z } from "zod";
import { breakGlassReviewSchema } from "./break-glass";
import { CLIENT_QUOTA_KEYS, RESOURCE_TYPES } from "@/lib/policy";
import { clusterSchema } from "./cluster";
import { AUDIT_CATEGORIES, AUDIT_OUTCOMES } from "./audit";

const unavailable = z.object({
  ok: z.literal(false),
  code: z.string().meta({ description: "DENIED when Kafka refused the caller, BROKER_UNAVAILABLE, ..." }),
  message: z.string(),
});

/** One card: its data, or why the caller cannot see it. */
const card = <T extends z.ZodType>(data: T) =>
  z.discriminatedUnion("ok", [z.object({ ok: z.literal(true), data }), unavailable]);

export const LINT_SEVERITIES = ["error", "warning", "info"] as const;

const lintSummary = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("done"),
    errors: z.number().int(),
    warnings: z.number().int(),
    info: z.number().int(),
    byCode: z.array(
      z.object({
        code: z.string().meta({ description: "The lint code, e.g. dead-allow" }),
        severity: z.enum(LINT_SEVERITIES),
        count: z.number().int().meta({ description: "Findings of this code" }),
        acls: z
          .number()
          .int()
          .meta({ description: "ACLs these findings are about: what GET /api/v1/acls?lintCode=<code> lists" }),
      }),
    ),
  }),
  z.object({
    state: z.literal("onRequest").meta({ description: "Above `limit` ACLs lint runs only when asked (lint=1)" }),
    limit: z.number().int(),
  }),
]);

export const aclPostureSchema = z.object({
  total: z.number().int(),
  byPermission: z.object({ ALLOW: z.number().int(), DENY: z.number().int() }),
  byType: z.array(z.object({ resourceType: z.enum(RESOURCE_TYPES), allow: z.number().int(), deny: z.number().int() })),
  wildcardPrincipal: z
    .object({ allow: z.number().int(), deny: z.number().int() })
    .meta({ description: "ACLs for User:* (every principal)" }),
  wildcardResource: z.number().int().meta({ description: "LITERAL `*` ACLs (every resource of their type)" }),
  prefixed: z.number().int().meta({ description: "PREFIXED ACLs" }),
  lint: lintSummary,
  snapshot: z.object({ takenAt: z.string(), ageMs: z.number(), size: z.number().int() }),
});
export type AclPosture = z.infer<typeof aclPostureSchema>;
export type LintSummary = z.infer<typeof lintSummary>;

export const budgetBarSchema = z.object({
  user: z.string().nullable().meta({ description: "The quota user (principal name); null is <default>" }),
  label: z.string(),
  key: z.enum(CLIENT_QUOTA_KEYS),
  sum: z.number(),
  total: z.number().nullable(),
  sumDisplay: z.string(),
  totalDisplay: z.string(),
  usedPercent: z.number().nullable(),
  overBudget: z.boolean(),
});
export type BudgetBar = z.infer<typeof budgetBarSchema>;

export const quotaPostureSchema = z.object({
  violations: z.array(z.object({ user: z.string().nullable(), key: z.enum(CLIENT_QUOTA_KEYS), message: z.string() })),
  budgets: z.array(budgetBarSchema),
  rule: z.string(),
});
export type QuotaPosture = z.infer<typeof quotaPostureSchema>;

export const TOKEN_ROLES = ["owner", "renewer"] as const;

export const tokenPostureSchema = z.object({
  now: z.number(),
  owned: z.number().int().meta({ description: "Live tokens the caller owns" }),
  renewable: z.number().int().meta({ description: "Live tokens of others the caller may renew (a renewer)" }),
  expiring24h: z.number().int().meta({ description: "Of those, expiring within 24 hours" }),
  expiring7d: z.number().int().meta({ description: "Of those, expiring within 7 days (including the 24 h ones)" }),
  expired: z.number().int().meta({
    description: "Owned or renewable tokens already past their expiry (Kafka removes them at its next sweep)",
  }),
  tokens: z
    .array(
      z.object({
        tokenId: z.string(),
        owner: z.string(),
        role: z.enum(TOKEN_ROLES),
        expiresAt: z.number().meta({ description: "The earlier of the expiry and the max timestamp" }),
        renewableUntil: z.number().meta({ description: "The max timestamp" }),
      }),
    )
    .meta({ description: "The caller's and renewable tokens, soonest expiry first (at most 50)" }),
});
export type TokenPosture = z.infer<typeof tokenPostureSchema>;

export const decisionPostureSchema = z.object({
  pending: z
    .number()
    .int()
    .meta({ description: "Open token requests of others the caller appears entitled to approve" }),
  requests: z.array(z.object({ id: z.string(), owner: z.string(), requester: z.string(), createdAt: z.string() })),
  myOpen: z.number().int().meta({ description: "The caller's own requests still waiting for someone" }),
});
export type DecisionPosture = z.infer<typeof decisionPostureSchema>;

export const recentChangeSchema = z.object({
  id: z.string(),
  at: z.string(),
  principal: z.string(),
  action: z.string(),
  target: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  category: z.enum(AUDIT_CATEGORIES),
  planId: z.string().nullable(),
});
export type RecentChange = z.infer<typeof recentChangeSchema>;

const grantLineSchema = z.object({
  id: z.string(),
  requester: z.string(),
  approver: z.string(),
  principals: z.array(z.string()).meta({ description: "Whom its ACLs are for (each once)" }),
  acls: z.number().int().meta({ description: "ACLs it created, removed at its expiry" }),
  expiresAt: z.string(),
  status: z.enum(["LIVE", "REMOVING"]),
  attempts: z.number().int().meta({ description: "Removals tried so far" }),
  lastError: z.string().nullable().meta({ description: "Why the last removal failed (overdue grants)" }),
});
export type GrantLine = z.infer<typeof grantLineSchema>;

export const requestPostureSchema = z.object({
  approvals: z
    .number()
    .int()
    .meta({ description: "Approvals a request needs on this cluster (requests.approvals; 0: four-eyes off)" }),
  waiting: z
    .number()
    .int()
    .meta({
      description:
        "Requests waiting for a decision: the cluster's pending requests for changes and the pending token " +
        "requests of others the caller appears entitled to approve",
    }),
  tokens: z.number().int().meta({ description: "Of `waiting`, the token requests" }),
  live: z.number().int().meta({ description: "Grants with time left (not ended, not overdue)" }),
  grants: z.array(grantLineSchema).meta({ description: "Of those, the soonest to end first (at most 10)" }),
  overdue: z.number().int().meta({
    description:
      "Grants past their expiry whose ACLs are not yet removed (the removal is retried; e.g. the broker was down)",
  }),
  overdueGrants: z.array(grantLineSchema).meta({ description: "Of those, the oldest first (at most 10)" }),
});
export type RequestPosture = z.infer<typeof requestPostureSchema>;

const breakGlassLineSchema = z.object({
  id: z.string(),
  at: z.string(),
  principal: z.string(),
  target: z.string(),
  planId: z.string().nullable(),
  reason: z.string().nullable(),
  review: breakGlassReviewSchema.nullable().meta({ description: "Who reviewed it after the fact; null: not yet" }),
});

export const breakGlassPostureSchema = z.object({
  days: z.number().int(),
  count: z
    .number()
    .int()
    .meta({ description: "Break-glass applies nobody has reviewed yet, however old, that you may see (at most 10)" }),
  more: z.boolean().meta({ description: "There are more unreviewed ones than `count`: the audit trail lists them" }),
  events: z.array(breakGlassLineSchema).meta({ description: "The unreviewed ones (flagged), newest first" }),
  reviewed: z
    .array(breakGlassLineSchema)
    .meta({ description: "Those of the last `days` days reviewed after the fact, with their review" }),
});
export type BreakGlassPosture = z.infer<typeof breakGlassPostureSchema>;

export const driftPostureSchema = z.object({
  open: z.number().int().meta({ description: "Outside changes you may see neither kept nor reverted (stops at 1000)" }),
  more: z.boolean().meta({ description: "More than `open`" }),
  newest: z
    .array(z.object({ id: z.string(), what: z.string(), summary: z.string(), window: z.string() }))
    .meta({ description: "The newest open ones, newest first (at most 5)" }),
  reading: z.boolean().meta({ description: "Whether the console reads the cluster in the background at all" }),
});
export type DriftPosture = z.infer<typeof driftPostureSchema>;

export const dashboardSchema = z.object({
  principal: z.string(),
  generatedAt: z.string(),
  superUsers: z.object({
    principals: z.array(z.string()),
    source: z
      .string()
      .meta({ description: "Where the console takes super.users from (a client cannot read it from Kafka)" }),
    you: z.boolean(),
  }),
  cluster: card(clusterSchema),
  acls: card(aclPostureSchema),
  quotas: card(quotaPostureSchema),
  tokens: card(tokenPostureSchema),
  decisions: card(decisionPostureSchema),
  recent: card(z.object({ events: z.array(recentChangeSchema) })),
  requests: card(requestPostureSchema),
  breakGlass: card(breakGlassPostureSchema),
  drift: card(driftPostureSchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
export type DashboardCard<T> = { ok: true; data: T } | { ok: false; code: string; message: string };

export const dashboardQuerySchema = z.object({
  lint: z
    .enum(["1", "0"])
    .optional()
    .meta({ description: "1: lint the ACLs even above the automatic limit (cached per ACL snapshot)" }),
});
