import { z } from "zod";

export const AUDIT_OUTCOMES = ["success", "failure", "denied", "partial"] as const;

const optionalText = z
  .string()
  .trim()
  .max(500)
  .optional()
  .transform((v) => (v ? v : undefined));

/** A date or date-time; a bare `to` date means the end of that day (UTC), so the day is included. */
const optionalDate = (endOfDay: boolean) => z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
    const d = new Date(dateOnly && endOfDay ? `${v}T23:59:59.999Z` : v);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: "custom", message: "Use an ISO date or date-time, e.g. 2026-11-30 or 2026-11-30T08:00:00Z" });
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
});
