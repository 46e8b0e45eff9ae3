import { z } from "zod";

/** As in lib/db/audit.ts: "pending" = the outcome was never recorded, "unknown" = Kafka's answer was lost. */
export const AUDIT_OUTCOMES = ["success", "failure", "denied", "partial", "pending", "unknown"] as const;

/** An audit row's action, e.g. "acl.create". */
export type AuditActionName = keyof typeof AUDIT_ACTION_LABELS;

/** As in lib/db/audit.ts; decides who may read an event (lib/services/audit-view.ts). */
export const AUDIT_CATEGORIES = ["acl", "quota", "token", "token-request", "scram", "session", "other"] as const;

/**
 * The actions the console writes to the audit trail (the services' auditedMutation calls,
 * sign-in and sign-out), with what each means: the Audit page's action filter.
 */
export const AUDIT_ACTION_LABELS = {
  "acl.create": "ACLs created",
  "acl.delete": "ACLs deleted",
  "quota.alter": "quota changed",
  "token.create": "token created",
  "token.renew": "token renewed",
  "token.expire": "token expired",
  "token.request.create": "token requested",
  "token.request.approve": "token request approved",
  "token.request.deny": "token request denied",
  "token.request.resolve": "stalled approval settled",
  "token.request.retrieve": "requested token retrieved",
  "scram.create": "SCRAM user created",
  "scram.add": "SCRAM mechanism added",
  "scram.rotate": "SCRAM password rotated",
  "scram.set": "SCRAM credential set",
  "scram.delete": "SCRAM credential or user deleted",
  "request.file": "change requested",
  "request.approve": "request approved (one of several approvals)",
  "request.apply": "request approved and applied",
  "request.deny": "request denied",
  "request.cancel": "request cancelled",
  "request.retrieve": "requested SCRAM password retrieved",
  "request.timeout": "request timed out",
  "plan.break-glass": "plan applied without approval (break-glass)",
  "plan.break-glass-review": "break-glass reviewed after the fact",
  "grant.end": "grant ended early",
  "grant.expire": "grant expired: its ACLs removed",
  "webhook.set": "webhook set",
  "webhook.delete": "webhook removed",
  "drift.acknowledge": "outside change kept (acknowledged)",
  "webhook.deliver": "notification not delivered (retried)",
  "session.sign-in": "sign-in (and failed sign-ins)",
  "session.sign-out": "sign-out",
  "session.revoked": "session ended: credential refused",
} as const;

export const AUDIT_ACTIONS = Object.entries(AUDIT_ACTION_LABELS).map(([action, label]) => ({
  action: action as AuditActionName,
  label,
}));

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
