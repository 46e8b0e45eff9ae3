/**
 * The history of one thing (#20, docs/history.md): an ACL binding, a resource's ACLs, a principal,
 * a quota entity or a SCRAM user, as the journal holds it (GET /api/v1/timeline, the Timeline page):
 * when each of its parts appeared and went, made by whom (a console change: actor, plan) or found
 * when (an outside change: the read's window). Newest first, paged.
 */
import { z } from "zod";
import { RESOURCE_TYPES, type PatternType, type ResourceType } from "@/lib/policy";
import { isPrincipal } from "./access-check";
import { normalizePrincipal } from "./effective-permissions";
import { safeString } from "./safe-text";

export const TIMELINE_PAGE_SIZE = 100;

const text = (description: string) =>
  safeString().trim().max(1000, "At most 1000 characters").default("").meta({ description });

export const timelineQuerySchema = z
  .object({
    principal: text("A principal (User:alice or alice): every ACL naming it, its SCRAM credentials, its user quotas"),
    resourceType: text("With resourceName: the ACLs of one resource pattern"),
    resourceName: text("The resource's name"),
    patternType: text("LITERAL (default) or PREFIXED"),
    scramUser: text("A SCRAM user's credentials"),
    quotaUser: text("A quota entity's user (<default> for the default user)"),
    quotaClientId: text("A quota entity's client id (<default> for the default client id)"),
    quotaIp: text("A quota entity's IP (<default> for the default IP)"),
    cursor: z
      .string()
      .regex(/^\d{1,19}$/, "cursor is the nextCursor of an earlier page")
      .optional()
      .meta({ description: "The nextCursor of the previous page" }),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const resource = v.resourceType !== "" || v.resourceName !== "";
    const quota = v.quotaUser !== "" || v.quotaClientId !== "" || v.quotaIp !== "";
    const asked = [v.principal !== "", resource, v.scramUser !== "", quota].filter(Boolean).length;
    if (asked !== 1) {
      issue(
        "principal",
        "Ask about one thing: a principal, a resource (resourceType and resourceName), a SCRAM user or a quota entity",
      );
      return;
    }
    if (v.principal !== "" && !isPrincipal(normalizePrincipal(v.principal)))
      issue("principal", "Write the principal as Type:name (User:alice), or just the name");
    if (resource) {
      if (!(RESOURCE_TYPES as readonly string[]).includes(v.resourceType.toUpperCase()))
        issue("resourceType", `Choose a resource type: ${RESOURCE_TYPES.join(", ")}`);
      if (v.resourceName === "") issue("resourceName", "Give the resource's name");
      if (v.patternType !== "" && !["LITERAL", "PREFIXED"].includes(v.patternType.toUpperCase()))
        issue("patternType", "LITERAL or PREFIXED");
    }
  })
  .transform((v) => {
    const subject: TimelineSubjectQuery =
      v.principal !== ""
        ? { kind: "principal", principal: normalizePrincipal(v.principal) }
        : v.resourceType !== "" || v.resourceName !== ""
          ? {
              kind: "resource",
              resourceType: v.resourceType.toUpperCase() as ResourceType,
              resourceName: v.resourceName,
              patternType: (v.patternType === "" ? "LITERAL" : v.patternType.toUpperCase()) as PatternType,
            }
          : v.scramUser !== ""
            ? { kind: "scram", user: v.scramUser }
            : {
                kind: "quota",
                entity: {
                  ...(v.quotaUser !== "" ? { user: v.quotaUser === "<default>" ? null : v.quotaUser } : {}),
                  ...(v.quotaClientId !== ""
                    ? { "client-id": v.quotaClientId === "<default>" ? null : v.quotaClientId }
                    : {}),
                  ...(v.quotaIp !== "" ? { ip: v.quotaIp === "<default>" ? null : v.quotaIp } : {}),
                },
              };
    return { subject, cursor: v.cursor };
  });

export type TimelineSubjectQuery =
  | { kind: "principal"; principal: string }
  | { kind: "resource"; resourceType: ResourceType; resourceName: string; patternType: PatternType }
  | { kind: "scram"; user: string }
  | { kind: "quota"; entity: { user?: string | null; "client-id"?: string | null; ip?: string | null } };
export type TimelineQuery = z.output<typeof timelineQuerySchema>;

export const timelineEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(["acl", "quota", "scram", "setting"]),
  op: z.enum(["appeared", "disappeared"]),
  summary: z.string().meta({ description: "The change in words" }),
  origin: z.enum(["console", "outside", "observed"]),
  windowFrom: z.string().meta({ description: "When it may have happened at the earliest (console: when applied)" }),
  windowTo: z.string().meta({ description: "When it had happened at the latest" }),
  actor: z.string().nullable().meta({ description: "Who made a console change" }),
  planId: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelineSchema = z.object({
  subject: z.string().meta({ description: "What the timeline is of, in words" }),
  entries: z.array(timelineEntrySchema),
  nextCursor: z.string().nullable(),
  since: z.string().nullable().meta({ description: "When the journal began: nothing earlier is known" }),
  visibility: z.array(z.string()),
});
export type Timeline = z.infer<typeof timelineSchema>;
