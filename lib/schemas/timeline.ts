/**
 * The history of one thing (#20, docs/history.md): an ACL binding, a resource's ACLs, a principal,
 * a quota entity or a SCRAM user, as the journal holds it (GET /api/v1/timeline, the Timeline page):
 * when each of its parts appeared and went, made by whom (a console change: actor, plan) or found
 * when (an outside change: the read's window). Newest first, paged.
 */
import { z } from "zod";
import {
  OPERATIONS,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  type AclBinding,
  type PatternType,
  type ResourceType,
} from "@/lib/policy";
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
    operation: text(
      "With resourceType, resourceName and principal: one ACL binding (with host, * by default, and " +
        "permissionType, ALLOW by default)",
    ),
    host: text("One ACL binding's host (* by default)"),
    permissionType: text("One ACL binding's permission: ALLOW (default) or DENY"),
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
    const binding = v.operation !== "" || v.host !== "" || v.permissionType !== "";
    const quota = v.quotaUser !== "" || v.quotaClientId !== "" || v.quotaIp !== "";
    const asked = [v.principal !== "" && !binding, resource || binding, v.scramUser !== "", quota].filter(
      Boolean,
    ).length;
    if (asked !== 1) {
      issue(
        "principal",
        "Ask about one thing: a principal, a resource (resourceType and resourceName), one ACL binding (a resource " +
          "with principal and operation), a SCRAM user or a quota entity",
      );
      return;
    }
    if (v.principal !== "" && !isPrincipal(normalizePrincipal(v.principal)))
      issue("principal", "Write the principal as Type:name (User:alice), or just the name");
    if (binding) {
      if (!resource) issue("resourceType", "One ACL binding needs its resource (resourceType and resourceName)");
      if (v.principal === "") issue("principal", "One ACL binding needs its principal");
      if (!(OPERATIONS as readonly string[]).includes(v.operation.toUpperCase()))
        issue("operation", `Choose an operation: ${OPERATIONS.join(", ")}`);
      if (v.permissionType !== "" && !(PERMISSION_TYPES as readonly string[]).includes(v.permissionType.toUpperCase()))
        issue("permissionType", "ALLOW or DENY");
    }
    if (resource) {
      if (!(RESOURCE_TYPES as readonly string[]).includes(v.resourceType.toUpperCase()))
        issue("resourceType", `Choose a resource type: ${RESOURCE_TYPES.join(", ")}`);
      if (v.resourceName === "") issue("resourceName", "Give the resource's name");
      if (v.patternType !== "" && !["LITERAL", "PREFIXED"].includes(v.patternType.toUpperCase()))
        issue("patternType", "LITERAL or PREFIXED");
    }
  })
  .transform((v) => {
    const resource = {
      resourceType: v.resourceType.toUpperCase() as ResourceType,
      resourceName: v.resourceName,
      patternType: (v.patternType === "" ? "LITERAL" : v.patternType.toUpperCase()) as PatternType,
    };
    const subject: TimelineSubjectQuery =
      v.operation !== ""
        ? {
            kind: "binding",
            binding: {
              ...resource,
              principal: normalizePrincipal(v.principal),
              host: v.host === "" ? "*" : v.host,
              operation: v.operation.toUpperCase() as AclBinding["operation"],
              permissionType: (v.permissionType === ""
                ? "ALLOW"
                : v.permissionType.toUpperCase()) as AclBinding["permissionType"],
            },
          }
        : v.principal !== ""
          ? { kind: "principal", principal: normalizePrincipal(v.principal) }
          : v.resourceType !== "" || v.resourceName !== ""
            ? { kind: "resource", ...resource }
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
  | { kind: "binding"; binding: AclBinding }
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
