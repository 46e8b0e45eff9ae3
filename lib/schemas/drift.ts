/**
 * Drift (#20, docs/drift.md): changes of the security state made outside the console, as the
 * journal's background read found them, and what was decided about each ("keep it", "revert it").
 */
import { z } from "zod";
import { aclBindingSchema } from "./acls";
import { safeString } from "./safe-text";

export const DRIFT_KINDS = ["acl", "quota", "scram", "setting"] as const;
/** Outside changes per page (default and most). */
export const DRIFT_PAGE_SIZE = 50;
export const DRIFT_MAX_PAGE_SIZE = 200;
/** Outside changes one "keep it" or "revert it" may name. */
export const DRIFT_MAX_ENTRIES = 500;

/** What the journal cannot see: said wherever drift is shown. */
export const DRIFT_BLIND_SPOTS = [
  "An ACL, quota or SCRAM credential added and removed again between two reads is never seen.",
  "A SCRAM password change that keeps the mechanism and iterations is invisible: Kafka shows nothing more.",
  "Who made an outside change: Kafka does not say; only the window in which it happened is known.",
] as const;

const entryId = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, "An outside change's id is a positive whole number (from GET /api/v1/drift)");

export const driftEntrySchema = z.object({
  id: entryId,
  kind: z.enum(DRIFT_KINDS),
  op: z.enum(["appeared", "disappeared"]),
  origin: z.enum(["outside", "observed"]).meta({
    description:
      "outside: found between two successive reads; observed: found by the first read after a gap in reading " +
      "(the window is the gap)",
  }),
  what: z.string().meta({ description: "ACL binding, quota entry, SCRAM credential or console setting" }),
  summary: z.string().meta({ description: "The change in words" }),
  binding: aclBindingSchema.nullable().meta({ description: "The ACL binding (kind acl)" }),
  resources: z.array(z.string()),
  principals: z.array(z.string()),
  acknowledged: z
    .object({ by: z.string(), at: z.string(), comment: z.string() })
    .nullable()
    .meta({ description: "Kept on purpose ('keep it'), by whom and why; null: not acknowledged" }),
  revert: z
    .object({ planId: z.string(), status: z.string(), by: z.string(), appliedAt: z.string().nullable() })
    .nullable()
    .meta({ description: "The newest plan made to revert it; status APPLIED: reverted" }),
  notRevertable: z.string().nullable().meta({ description: "Why the console cannot revert it; null: it can" }),
});
export type DriftEntry = z.infer<typeof driftEntrySchema>;

export const driftGroupSchema = z.object({
  from: z.string(),
  to: z.string(),
  window: z.string().meta({ description: 'The read\'s window in words ("between 14:02:10 and 14:02:40 UTC")' }),
  origin: z.enum(["outside", "observed"]),
  entries: z.array(driftEntrySchema),
});
export type DriftGroup = z.infer<typeof driftGroupSchema>;

export const driftPageSchema = z.object({
  groups: z.array(driftGroupSchema).meta({ description: "Outside changes grouped by the read that found them" }),
  nextCursor: z.string().nullable(),
  open: z.number().int().meta({ description: "Outside changes you may see neither acknowledged nor reverted" }),
  openMore: z.boolean().meta({ description: "There are more open ones than `open` counts (it stops at 1000)" }),
  visibility: z.array(z.string()),
  problems: z.array(z.string()),
  blindSpots: z.array(z.string()),
  reading: z.object({
    intervalSeconds: z.number().int(),
    servicePrincipal: z.boolean().meta({ description: "Whether the console reads the cluster in the background" }),
    since: z
      .string()
      .nullable()
      .meta({ description: "When the journal began (its first read): nothing before is known; null: not yet" }),
  }),
  mayDecide: z.boolean().meta({ description: "Whether you may keep (acknowledge) outside changes: cluster admins" }),
});
export type DriftPage = z.infer<typeof driftPageSchema>;

export const driftListQuerySchema = z.object({
  cursor: entryId.optional().meta({ description: "nextCursor of the previous page" }),
  limit: z.coerce
    .number({ error: "limit is a number" })
    .int("limit is a whole number")
    .min(1, "limit is at least 1")
    .max(DRIFT_MAX_PAGE_SIZE, `limit is at most ${DRIFT_MAX_PAGE_SIZE}`)
    .optional(),
  status: z
    .enum(["open", "all"])
    .optional()
    .meta({ description: "open: only changes neither acknowledged nor reverted; all (default): every one" }),
});
export type DriftListQuery = z.infer<typeof driftListQuerySchema>;

const entryIds = z
  .array(entryId)
  .min(1, "Name at least one outside change")
  .max(DRIFT_MAX_ENTRIES, `At most ${DRIFT_MAX_ENTRIES} outside changes at once`);

export const driftAcknowledgeBodySchema = z.object({
  entryIds,
  comment: safeString()
    .trim()
    .min(1, "Say why the change is kept: the comment is mandatory")
    .max(1000, "At most 1000 characters"),
});
export type DriftAcknowledgeBody = z.infer<typeof driftAcknowledgeBodySchema>;

export const driftAcknowledgeResultSchema = z.object({
  acknowledged: z.number().int().meta({ description: "Outside changes acknowledged by this call" }),
  already: z.number().int().meta({ description: "Those acknowledged before (left as they were)" }),
  auditId: z.string(),
});
export type DriftAcknowledgeResult = z.infer<typeof driftAcknowledgeResultSchema>;

export const driftRevertBodySchema = z.object({ entryIds });
export type DriftRevertBody = z.infer<typeof driftRevertBodySchema>;
