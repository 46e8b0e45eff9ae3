/**
 * Effective permissions for people and auditors: the principal view
 * (`/principals/<principal>`, GET /api/v1/principals/{principal}) and the exports "what can
 * P do" and "who can do what" on one resource or every resource under a name prefix
 * (GET /api/v1/effective-permissions, JSON or CSV).
 *
 * Every answer is computed by the policy core from ONE ACL snapshot and says which
 * (`aclSnapshot.takenAt`). Without a host the answers are for a client whose address no
 * ACL names (only `*`-host ACLs count); a decision that differs from a host some ACL
 * names is given beside it (`otherHosts`), or per row in the exports.
 */
import { z } from "zod";
import { CLUSTER_RESOURCE_NAME, OPERATIONS, RESOURCE_TYPES, canonicalIp, type ResourceType } from "@/lib/policy";
import { aclBindingResponseSchema } from "./acl-binding";
import { accessCheckResultSchema, asOfProblem, isIpAddress, isPrincipal, parseInstant } from "./access-check";
import { appliedQuotaSchema } from "./quotas";
import { safeString } from "./safe-text";
import { tokenViewSchema } from "./tokens";

const isResourceType = (v: string): v is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(v);

/** `alice` means `User:alice` (Kafka's default principal type); `Type:name` is kept exactly (case-sensitive). */
export function normalizePrincipal(input: string): string {
  return input.includes(":") ? input : `User:${input}`;
}

/** The principal view's page link (the principal URL-encoded as one path segment). */
export function principalHref(principal: string): string {
  return `/principals/${encodeURIComponent(principal)}`;
}

/** The principal, as typed or from the URL: `alice` is `User:alice`. */
export const principalParamSchema = safeString()
  .trim()
  .min(1, "Enter a principal, e.g. User:alice or alice")
  .max(1000, "At most 1000 characters")
  .transform(normalizePrincipal)
  .refine(isPrincipal, "Write the principal as Type:name (User:alice), or just the name (alice)");

const hostField = safeString()
  .trim()
  .max(100, "At most 100 characters")
  .default("")
  .meta({ description: "A client IP address (exactly as Kafka prints it); empty: a client whose address no ACL names" })
  .refine(
    (v) => v === "" || (v !== "*" && isIpAddress(v)),
    "Enter an IP address, e.g. 10.0.0.7, or leave it empty for a host no ACL names",
  )
  .transform((v) => (v === "" ? null : (canonicalIp(v) ?? v)));

/** "As of" an instant (#20), as text: empty is now. */
const asOfText = (description: string) =>
  safeString().trim().max(40, "At most 40 characters").default("").meta({ description });

const AS_OF_WORDS =
  "As of this instant (ISO 8601, e.g. 2026-11-03T14:00:00Z; a time without a zone is UTC): the ACLs, super " +
  "users and settings the history journal holds for then (docs/history.md)";

/** "As of" an instant, checked: a time to come is refused (the history knows only the past); null is now. */
const asOfField = asOfText(`${AS_OF_WORDS}. Empty: now`)
  .superRefine((v, ctx) => {
    const problem = asOfProblem(v);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform((v) => (v === "" ? null : parseInstant(v)));

/** The principal view's options (page GET form, GET /api/v1/principals/{principal}). */
export const principalViewQuerySchema = z.object({ host: hostField, at: asOfField });
export type PrincipalViewQuery = z.output<typeof principalViewQuerySchema>;

export const EXPORT_FORMATS = ["json", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_DECISIONS = ["relevant", "all"] as const;

/** The export's question, as the query string gives it; parse with effectivePermissionsQuerySchema. */
export const effectivePermissionsQueryFieldsSchema = z.object({
  principal: safeString()
    .trim()
    .max(1000, "At most 1000 characters")
    .default("")
    .meta({ description: "What can this principal do (User:alice, or alice)" }),
  resourceType: safeString()
    .trim()
    .toUpperCase()
    .default("")
    .meta({ description: "Who can do what on a resource of this type", enum: [...RESOURCE_TYPES] }),
  resourceName: safeString()
    .max(1000, "At most 1000 characters")
    .default("")
    .meta({ description: "One resource (CLUSTER: kafka-cluster)" }),
  prefix: safeString().max(1000, "At most 1000 characters").default("").meta({
    description:
      "Instead of resourceName: every known resource whose name starts with this, and any other name under it",
  }),
  host: hostField,
  format: z
    .enum(EXPORT_FORMATS, { message: "format is json or csv" })
    .default("json")
    .meta({ description: "json (default) or csv" }),
  decisions: z
    .enum(EXPORT_DECISIONS, { message: "decisions is relevant or all" })
    .default("relevant")
    .meta({
      description:
        "For a principal: relevant (default) lists the resources where something is ALLOWED or an ACL decides; " +
        "all lists every known resource",
    }),
  at: asOfText(`${AS_OF_WORDS}, with notes on what it can vouch for. Omitted or empty: now, from the ACL snapshot`),
});

export type EffectivePermissionsQuestion =
  | { kind: "principal"; principal: string }
  | { kind: "resource"; resourceType: ResourceType; resourceName: string }
  | { kind: "prefix"; resourceType: ResourceType; prefix: string };

/** Exactly one question: a principal, or a resource type with a name or a prefix. */
export const effectivePermissionsQuerySchema = effectivePermissionsQueryFieldsSchema
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const aboutResource = v.resourceType !== "" || v.resourceName !== "" || v.prefix !== "";
    const atProblem = asOfProblem(v.at);
    if (atProblem !== null) issue("at", atProblem);
    if (v.principal !== "") {
      if (aboutResource) issue("principal", "Ask about a principal or about resources, not both");
      else if (!isPrincipal(normalizePrincipal(v.principal)))
        issue("principal", "Write the principal as Type:name (User:alice), or just the name");
      return;
    }
    if (!aboutResource) {
      issue(
        "principal",
        "Give a principal (what can it do), or a resourceType with a resourceName or a prefix (who can do what)",
      );
      return;
    }
    if (!isResourceType(v.resourceType)) issue("resourceType", `Choose a resource type: ${RESOURCE_TYPES.join(", ")}`);
    if (v.resourceName !== "" && v.prefix !== "") issue("prefix", "Give a resourceName or a prefix, not both");
    else if (v.resourceType === "CLUSTER") {
      if (v.prefix !== "" || (v.resourceName !== "" && v.resourceName !== CLUSTER_RESOURCE_NAME))
        issue("resourceName", `The CLUSTER resource is always named ${CLUSTER_RESOURCE_NAME}`);
    } else if (v.resourceName === "" && v.prefix === "") issue("resourceName", "Give the resource name, or a prefix");
  })
  .transform((v) => {
    const question: EffectivePermissionsQuestion =
      v.principal !== ""
        ? { kind: "principal", principal: normalizePrincipal(v.principal) }
        : v.prefix !== ""
          ? { kind: "prefix", resourceType: v.resourceType as ResourceType, prefix: v.prefix }
          : {
              kind: "resource",
              resourceType: v.resourceType as ResourceType,
              resourceName: v.resourceType === "CLUSTER" ? CLUSTER_RESOURCE_NAME : v.resourceName,
            };
    return {
      question,
      host: v.host,
      format: v.format,
      decisions: v.decisions,
      /** null: now, from the ACL snapshot; else the instant (ms) the history journal answers for. */
      at: v.at === "" ? null : parseInstant(v.at),
    };
  });
export type EffectivePermissionsQuery = z.output<typeof effectivePermissionsQuerySchema>;

// ---- answers ------------------------------------------------------------------------------

const ruleSchema = accessCheckResultSchema.shape.rule;
const decisionSchema = z.enum(["ALLOWED", "DENIED"]);

export const aclSnapshotInfoSchema = z.object({
  takenAt: z.string().meta({ description: "When the DescribeAcls behind this answer was sent (ISO 8601)" }),
  ageMs: z.number(),
  size: z.number().int().meta({ description: "ACLs in the snapshot" }),
});

const assumptionsSchema = accessCheckResultSchema.shape.assumptions;

/** One decision at a host some ACL names, where it differs from the answer for other hosts. */
const hostDecisionSchema = z.object({
  host: z.string(),
  decision: decisionSchema,
  rule: ruleSchema,
  via: z.array(z.string()),
});

export const permissionCellSchema = z.object({
  operation: z.enum(OPERATIONS),
  decision: decisionSchema,
  rule: ruleSchema,
  /** Why, in short labels: `User:*`, `PREFIXED "orders"`, `implied by READ`, `DENY wins`, `super.users`. */
  via: z.array(z.string()),
  otherHosts: z.array(hostDecisionSchema),
});
export type PermissionCell = z.output<typeof permissionCellSchema>;

/** Where the console knows a resource from: Kafka listed it to the caller, an ACL names it, or both. */
export const RESOURCE_ORIGINS = ["listed", "acl", "listed+acl"] as const;

export const principalResourceSchema = z.object({
  resourceName: z.string(),
  origin: z.enum(RESOURCE_ORIGINS),
  cells: z.array(permissionCellSchema),
});

export const principalSectionSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  operations: z.array(z.enum(OPERATIONS)),
  /** Known resources of this type. */
  total: z.number().int(),
  /** The resources shown: something ALLOWED, or an ACL decides (a DENY). The others are DENIED for want of an ACL. */
  resources: z.array(principalResourceSchema),
});
export type PrincipalSection = z.output<typeof principalSectionSchema>;

export const principalPatternSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  patternType: z.enum(["LITERAL", "PREFIXED"]),
  resourceName: z.string(),
  /** In words: `every TOPIC`, `every TOPIC starting with "orders-"`. */
  covers: z.string(),
  cells: z.array(
    z.object({
      operation: z.enum(OPERATIONS),
      decision: decisionSchema,
      rule: ruleSchema,
      via: z.array(z.string()),
      exceptions: z.array(aclBindingResponseSchema),
    }),
  ),
});

export const principalPermissionsSchema = z.object({
  principal: z.string(),
  host: z.string().nullable(),
  superUser: z.boolean(),
  sections: z.array(principalSectionSchema),
  /** PREFIXED and LITERAL `*` grants of this principal (or User:*): they also cover names not yet seen. */
  patterns: z.array(principalPatternSchema),
  acls: z.object({
    own: z.array(aclBindingResponseSchema).meta({ description: "ACLs whose principal is exactly this one" }),
    wildcard: z
      .array(aclBindingResponseSchema)
      .meta({ description: "ACLs for User:*, which apply to every principal" }),
  }),
});
export type PrincipalPermissions = z.output<typeof principalPermissionsSchema>;

export const principalQuotasSchema = z.object({
  user: z.string().meta({ description: "The quota user: the principal's name" }),
  clients: z.array(
    z.object({
      clientId: z.string().nullable().meta({ description: "null: any client id without a quota of its own" }),
      applied: appliedQuotaSchema,
    }),
  ),
});

const unavailable = z.object({ error: z.string() });

export const principalViewSchema = z.object({
  principal: z.string(),
  aclSnapshot: aclSnapshotInfoSchema.nullable(),
  assumptions: assumptionsSchema,
  permissions: z
    .union([principalPermissionsSchema, unavailable])
    .meta({ description: "From the ACLs (needs DESCRIBE on CLUSTER), or Kafka's reason" }),
  quotas: z
    .union([principalQuotasSchema, unavailable])
    .meta({ description: "The quotas Kafka applies (needs DESCRIBE_CONFIGS on CLUSTER), or Kafka's reason" }),
  tokens: z
    .union([z.object({ tokens: z.array(tokenViewSchema) }), unavailable])
    .meta({ description: "The principal's tokens the caller may describe" }),
  /** Resource types Kafka would not list to the caller (only the names ACLs give are known). */
  notes: z.array(z.string()),
});
export type PrincipalView = z.output<typeof principalViewSchema>;

/** One row of an export: one principal, resource, operation and host. */
export const effectiveRowSchema = z.object({
  principal: z.string(),
  resourceType: z.enum(RESOURCE_TYPES),
  resourceName: z.string(),
  /**
   * listed / acl / listed+acl; `unseen` stands for any other name under the prefix; `anyone` rows are User:* for
   * principals no ACL names.
   */
  resource: z.enum([...RESOURCE_ORIGINS, "unseen"]),
  operation: z.enum(OPERATIONS),
  host: z.string().nullable().meta({ description: "null: a client whose address no ACL names" }),
  decision: decisionSchema,
  rule: ruleSchema,
  via: z.array(z.string()),
});
export type EffectiveRow = z.output<typeof effectiveRowSchema>;

export const effectiveExportSchema = z.object({
  question: z.union([
    z.object({ kind: z.literal("principal"), principal: z.string() }),
    z.object({ kind: z.literal("resource"), resourceType: z.enum(RESOURCE_TYPES), resourceName: z.string() }),
    z.object({ kind: z.literal("prefix"), resourceType: z.enum(RESOURCE_TYPES), prefix: z.string() }),
  ]),
  host: z.string().nullable(),
  aclSnapshot: aclSnapshotInfoSchema,
  assumptions: assumptionsSchema,
  rows: z.array(effectiveRowSchema),
  /**
   * Known resources (or principals) left out: every decision DENIED for want of an ACL (decisions=relevant), or past
   * the limit.
   */
  omitted: z.number().int(),
  notes: z.array(z.string()),
});
export type EffectiveExport = z.output<typeof effectiveExportSchema>;
