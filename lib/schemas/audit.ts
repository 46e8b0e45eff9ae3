import { z } from "zod";

/** As in lib/db/audit.ts: "pending" = the outcome was never recorded, "unknown" = Kafka's answer was lost. */
export const AUDIT_OUTCOMES = ["success", "failure", "denied", "partial", "pending", "unknown"] as const;

/** An audit row's action, e.g. "acl.create". */
export type AuditActionName = (typeof AUDIT_ACTIONS)[number]["action"];

/** As in lib/db/audit.ts; decides who may read an event (lib/services/audit-view.ts). */
export const AUDIT_CATEGORIES = ["acl", "quota", "token", "token-request", "scram", "session", "other"] as const;

/**
 * The actions the console writes to the audit trail (the services' auditedMutation calls,
 * sign-in and sign-out), with what each means: the Audit page's action filter.
 */
export const AUDIT_ACTIONS = [
  { action: "acl.create", label: "ACLs created" },
  { action: "acl.delete", label: "ACLs deleted" },
  { action: "quota.alter", label: "quota changed" },
  { action: "token.create", label: "token created" },
  { action: "token.renew", label: "token renewed" },
  { action: "token.expire", label: "token expired" },
  { action: "token.request.create", label: "token requested" },
  { action: "token.request.approve", label: "token request approved" },
  { action: "token.request.deny", label: "token request denied" },
  { action: "token.request.resolve", label: "stalled approval settled" },
  { action: "token.request.retrieve", label: "requested token retrieved" },
  { action: "scram.create", label: "SCRAM user created" },
  { action: "scram.add", label: "SCRAM mechanism added" },
  { action: "scram.rotate", label: "SCRAM password rotated" },
  { action: "scram.set", label: "SCRAM credential set" },
  { action: "scram.delete", label: "SCRAM credential or user deleted" },
  { action: "request.file", label: "change requested" },
  { action: "request.approve", label: "request approved (one of several approvals)" },
  { action: "request.apply", label: "request approved and applied" },
  { action: "request.deny", label: "request denied" },
  { action: "request.cancel", label: "request cancelled" },
  { action: "request.timeout", label: "request timed out" },
  { action: "plan.break-glass", label: "plan applied without approval (break-glass)" },
  { action: "grant.end", label: "grant ended early" },
  { action: "grant.expire", label: "grant expired: its ACLs removed" },
  { action: "webhook.set", label: "webhook set" },
  { action: "webhook.delete", label: "webhook removed" },
  { action: "webhook.deliver", label: "notification not delivered (retried)" },
  { action: "session.sign-in", label: "sign-in (and failed sign-ins)" },
  { action: "session.sign-out", label: "sign-out" },
  { action: "session.revoked", label: "session ended: credential refused" },
] as const;

const optionalText = z
  .string()
  .trim()
  .max(500)
  .optional()
  .transform((v) => (v ? v : undefined));

/** A date or date-time; a bare `to` date means the end of that day (UTC), so the day is included. */
const optionalDate = (endOfDay: boolean) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
      const d = new Date(dateOnly && endOfDay ? `${v}T23:59:59.999Z` : v);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({
          code: "custom",
          message: "Use an ISO date or date-time, e.g. 2026-11-30 or 2026-11-30T08:00:00Z",
        });
        return z.NEVER;
      }
      return d;
    });

/** Filters of the Audit page and GET /api/v1/audit (query-string values). */
export const auditQuerySchema = z.object({
  principal: optionalText,
  action: optionalText,
  outcome: z
    .enum(AUDIT_OUTCOMES, { message: `One of ${AUDIT_OUTCOMES.join(", ")}` })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  category: z
    .enum(AUDIT_CATEGORIES, { message: `One of ${AUDIT_CATEGORIES.join(", ")}` })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  from: optionalDate(false),
  to: optionalDate(true),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: optionalText,
  format: z.enum(["json", "csv"]).default("json"),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  principal: z.string(),
  action: z.string(),
  target: z.string(),
  request: z.unknown().optional(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  outcome: z.enum(AUDIT_OUTCOMES),
  kafkaError: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
  category: z.enum(AUDIT_CATEGORIES).optional(),
  subjects: z
    .array(z.string())
    .optional()
    .meta({ description: "Principals the event is about besides the actor (token owner and renewers, requester)" }),
  completedAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "When the outcome was recorded; null while it is pending" }),
  repeatCount: z.number().int().optional().meta({
    description: "How many attempts this row stands for (repeated failed sign-ins from one source are folded)",
  }),
  lastAt: z.string().nullable().optional().meta({ description: "The last of the folded attempts" }),
  planId: z.string().nullable().optional().meta({ description: "The sealed change plan this change applied, if any" }),
});

/** GET /api/v1/audit (JSON): one page of the events the caller may read. */
export const auditPageSchema = z.object({
  events: z.array(auditEventSchema),
  nextCursor: z.string().nullable(),
  visibility: z
    .array(z.string())
    .meta({ description: "What the caller can see and why (decided from what Kafka lets the caller describe)" }),
  problems: z.array(z.string()).meta({ description: "Rights Kafka could not be asked about; counted as not granted" }),
});
