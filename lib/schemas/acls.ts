/**
 * The ACLs area (page forms, server actions, /api/v1/acls): the browse filters, an ACL
 * binding someone wants to create or delete, the template inputs that expand into
 * bindings, and the apply results (the preview of a change is a sealed plan:
 * lib/schemas/plans.ts).
 *
 * Form fields are parsed as strings and checked with refinements rather than enums, so
 * one bad field never hides the errors of the others. The binding rules are Kafka's
 * (validateNewAcl in the policy core is the authority and runs again on every binding
 * in the preview); the form repeats them per field so every error shows at once.
 */
import { z } from "zod";
import {
  ACL_BINDING_FIELDS,
  CLUSTER_RESOURCE_NAME,
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  LINT_CODES,
  SUPPORTED_OPERATIONS,
  WILDCARD_HOST,
  checkAclHost,
  type AclBinding,
  type AclOperation,
  type PatternType,
  type ResourceType,
} from "@/lib/policy";
import { isPrincipal } from "./access-check";
import { safeString } from "./safe-text";

/** ACLs per page when browsing. */
export const ACL_PAGE_SIZE = 200;

const isResourceType = (v: string): v is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(v);
const isOperation = (v: string): v is AclOperation => (OPERATIONS as readonly string[]).includes(v);

// Every text field refuses NUL, control characters and lone surrogates (safe-text.ts).
const trimmed = (max: number) => safeString().trim().max(max, `At most ${max} characters`);
const optional = (max: number) => z.preprocess((v) => v ?? "", trimmed(max));
const anyOr = <T extends readonly string[]>(values: T, what: string) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? "ANY" : v),
    z.enum(["ANY", ...values] as [string, ...string[]], { error: `Choose a ${what}: ANY, ${values.join(", ")}` }),
  );

/**
 * Columns the ACL list sorts by (each then by the browse order: type, name, pattern, principal, operation, permission,
 * host).
 */
export const ACL_SORT_COLUMNS = ACL_BINDING_FIELDS;
export type AclSortColumn = (typeof ACL_SORT_COLUMNS)[number];

/** How the resource name filter compares: the pattern's name exactly, names starting with it, or Kafka's MATCH. */
export const ACL_NAME_MATCHES = ["exact", "prefix", "match"] as const;

/** The largest page the list answers. */
export const ACL_MAX_PAGE_SIZE = 1000;

const choice = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number], error: string) =>
  z.preprocess((v) => (v === undefined || v === "" ? fallback : v), z.enum(values, { error }));

/** Browse filters (query string). Empty fields filter nothing. */
export const aclListQuerySchema = z.object({
  principal: optional(1000).meta({
    description:
      "Principal, exact (alice is read as User:alice) or, with principalMatch=contains, a case-insensitive fragment",
  }),
  principalMatch: choice(["exact", "contains"], "exact", "Choose exact or contains").meta({
    description: "How principal is compared (default exact)",
  }),
  resourceType: anyOr(RESOURCE_TYPES, "resource type").meta({ description: "Resource type (default ANY)" }),
  resourceName: optional(1000).meta({ description: "Resource name, compared as nameMatch says" }),
  nameMatch: choice(ACL_NAME_MATCHES, "exact", "Choose exact, prefix or match").meta({
    description:
      "exact: patterns with exactly this name (default); prefix: patterns whose name starts with it; match: " +
      "the patterns that apply to a resource of " +
      "this name, as kafka-acls.sh --list --resource-pattern-type match answers (LITERAL name, LITERAL *, " +
      "PREFIXED patterns the name starts with)",
  }),
  patternType: anyOr(PATTERN_TYPES, "pattern type").meta({ description: "Pattern type (default ANY)" }),
  host: optional(100).meta({ description: "Host, exact as Kafka stores it (* or an IP address)" }),
  operation: anyOr(OPERATIONS, "operation").meta({ description: "Operation (default ANY)" }),
  permissionType: anyOr(PERMISSION_TYPES, "permission").meta({ description: "Permission (default ANY)" }),
  lintCode: anyOr(LINT_CODES, "lint finding").meta({
    description:
      "Only the ACLs lint findings of this code are about, e.g. dead-allow (default ANY; lint runs over all " +
      "ACLs if it has not on this snapshot)",
  }),
  sort: choice(ACL_SORT_COLUMNS, "resourceType", `Sort by one of ${ACL_SORT_COLUMNS.join(", ")}`).meta({
    description:
      "Column to sort by, then the resource order (default resourceType: type, name, pattern, principal, " +
      "operation, permission, host)",
  }),
  order: choice(["asc", "desc"], "asc", "Choose asc or desc").meta({ description: "Sort direction (default asc)" }),
  page: z
    .preprocess(
      (v) => (v === undefined || v === "" ? 1 : v),
      z.coerce.number({ error: "page is a number" }).int("page is a whole number").min(1, "page starts at 1"),
    )
    .meta({ description: "Page number (default 1; past the last page answers the last)" }),
  pageSize: z
    .preprocess(
      (v) => (v === undefined || v === "" ? ACL_PAGE_SIZE : v),
      z.coerce
        .number({ error: "pageSize is a number" })
        .int("pageSize is a whole number")
        .min(1, "pageSize is at least 1")
        .max(ACL_MAX_PAGE_SIZE, `pageSize is at most ${ACL_MAX_PAGE_SIZE}`),
    )
    .meta({ description: `ACLs per page (default ${ACL_PAGE_SIZE}, at most ${ACL_MAX_PAGE_SIZE})` }),
  refresh: z
    .enum(["true", "false", "1", "0"], { error: "Choose true or false" })
    .optional()
    .transform((v) => v === "true" || v === "1")
    .meta({
      description:
        "true: read the ACLs from Kafka now instead of the shared snapshot (at most ACL_SNAPSHOT_MAX_AGE_MS old)",
    }),
});
export type AclListQuery = z.output<typeof aclListQuerySchema>;

/** One binding as JSON (API bodies, the hidden field of a previewed change): exact enum values. */
export const aclBindingSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  resourceName: safeString().max(1000),
  patternType: z.enum(PATTERN_TYPES),
  principal: safeString().max(1000),
  host: safeString().max(100).default(WILDCARD_HOST),
  operation: z.enum(OPERATIONS),
  permissionType: z.enum(PERMISSION_TYPES),
});

/** A change of up to 500 bindings (create or delete). */
export const aclBindingsSchema = z
  .array(aclBindingSchema)
  .min(1, "Give at least one ACL binding")
  .max(500, "At most 500 bindings at once");

/**
 * A binding to create: its host must be `*` or one IP address, rewritten the way Kafka
 * compares it (the policy core's checkAclHost, the same rule as the forms). Deletions keep
 * aclBindingSchema: they must name an existing ACL's host exactly as Kafka stores it,
 * whatever it is.
 */
export const newAclBindingSchema = aclBindingSchema.extend({
  host: aclBindingSchema.shape.host
    .superRefine((host, ctx) => {
      const check = checkAclHost(host);
      if (!check.ok) ctx.addIssue({ code: "custom", message: check.message });
    })
    .transform(canonicalHost),
});
export const newAclBindingsSchema = z
  .array(newAclBindingSchema)
  .min(1, "Give at least one ACL binding")
  .max(500, "At most 500 bindings at once");

export const aclCreateBodySchema = z.object({
  bindings: newAclBindingsSchema,
  dryRun: z
    .boolean()
    .default(false)
    .meta({ description: "Only preview the change as a sealed plan (same as ?preview=1)" }),
});
export const aclDeleteBodySchema = z.object({
  bindings: aclBindingsSchema.meta({ description: "The exact bindings to delete (each becomes an exact filter)" }),
  dryRun: z
    .boolean()
    .default(false)
    .meta({ description: "Only preview the deletion as a sealed plan (same as ?preview=1)" }),
});
export const aclPreviewQuerySchema = z.object({
  preview: z.enum(["1", "true", "0", "false"]).optional().meta({
    description: "1: make a sealed plan (the preview) and change nothing; apply it with POST /api/v1/plans/{id}/apply",
  }),
});

/** A host that passed checkAclHost, as Kafka compares it (`::1` -> `0:0:0:0:0:0:0:1`). */
function canonicalHost(host: string): string {
  const check = checkAclHost(host);
  return check.ok ? check.host : host;
}

/** The raw-binding form: every field error at once. */
export const aclBindingFormSchema = z
  .object({
    resourceType: optional(40),
    patternType: optional(40),
    resourceName: optional(1000),
    principal: optional(1000),
    host: z.preprocess((v) => (v === undefined || v === "" ? WILDCARD_HOST : v), trimmed(100)),
    operation: optional(40),
    permissionType: optional(40),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const type = isResourceType(v.resourceType) ? v.resourceType : null;
    if (type === null) issue("resourceType", `Choose a resource type: ${RESOURCE_TYPES.join(", ")}`);
    if (!(PATTERN_TYPES as readonly string[]).includes(v.patternType))
      issue("patternType", "Choose LITERAL or PREFIXED");
    if (type === "CLUSTER") {
      if (v.resourceName !== "" && v.resourceName !== CLUSTER_RESOURCE_NAME)
        issue("resourceName", `The only valid name for the CLUSTER resource is ${CLUSTER_RESOURCE_NAME}`);
    } else if (v.resourceName === "")
      issue("resourceName", "Enter the resource name (* for every resource of the type)");
    if (v.principal === "") issue("principal", "Enter a principal, e.g. User:alice (User:* for everyone)");
    else if (!isPrincipal(v.principal))
      issue(
        "principal",
        `Write the principal as Type:name, e.g. User:${v.principal}: Kafka cannot parse a principal without a colon`,
      );
    const host = checkAclHost(v.host);
    if (!host.ok) issue("host", host.message);
    if (!isOperation(v.operation)) issue("operation", `Choose an operation: ${OPERATIONS.join(", ")}`);
    else if (type !== null && v.operation !== "ALL" && !SUPPORTED_OPERATIONS[type].includes(v.operation)) {
      issue(
        "operation",
        `${v.operation} does not apply to ${type} resources; ${type} has ALL, ${SUPPORTED_OPERATIONS[type].join(", ")}`,
      );
    }
    if (!(PERMISSION_TYPES as readonly string[]).includes(v.permissionType))
      issue("permissionType", "Choose ALLOW or DENY");
  })
  .transform((v): AclBinding => ({
    resourceType: v.resourceType as ResourceType,
    resourceName: v.resourceType === "CLUSTER" ? CLUSTER_RESOURCE_NAME : v.resourceName,
    patternType: v.patternType as PatternType,
    principal: v.principal,
    host: canonicalHost(v.host),
    operation: v.operation as AclOperation,
    permissionType: v.permissionType as AclBinding["permissionType"],
  }));

export const TEMPLATE_KINDS = ["producer", "consumer", "transactional", "streams"] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Comma- or space-separated names; empty entries dropped. */
export function splitNames(v: string): string[] {
  return v
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

const checkbox = z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean());

/** The template form: a client role (kafka-acls.sh --producer / --consumer ...) that expands into bindings. */
export const aclTemplateFormSchema = z
  .object({
    template: optional(40),
    principal: optional(1000),
    host: z.preprocess((v) => (v === undefined || v === "" ? WILDCARD_HOST : v), trimmed(100)),
    topics: optional(5000),
    inputTopics: optional(5000),
    outputTopics: optional(5000),
    prefixed: checkbox,
    group: optional(1000),
    transactionalId: optional(1000),
    applicationId: optional(1000),
    idempotent: checkbox,
    exactlyOnce: checkbox,
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!(TEMPLATE_KINDS as readonly string[]).includes(v.template))
      issue("template", `Choose a template: ${TEMPLATE_KINDS.join(", ")}`);
    if (v.principal === "") issue("principal", "Enter the client's principal, e.g. User:svc-orders");
    else if (!isPrincipal(v.principal))
      issue(
        "principal",
        `Write the principal as Type:name, e.g. User:${v.principal}: Kafka cannot parse a principal without a colon`,
      );
    const host = checkAclHost(v.host);
    if (!host.ok) issue("host", host.message);
    if (v.template === "streams") {
      if (v.applicationId === "") issue("applicationId", "Enter the application.id");
      if (splitNames(v.inputTopics).length + splitNames(v.outputTopics).length === 0)
        issue("inputTopics", "Enter at least one input or output topic");
    } else if (splitNames(v.topics).length === 0) issue("topics", "Enter at least one topic");
    if (v.template === "consumer" && v.group === "") issue("group", "Enter the consumer group id");
    if (v.template === "transactional" && v.transactionalId === "")
      issue("transactionalId", "Enter the transactional.id");
  })
  .transform((v) => ({ ...v, host: canonicalHost(v.host) }));
export type AclTemplateForm = z.output<typeof aclTemplateFormSchema>;

/** How one binding of a change fared (or would fare). */
const bindingResultSchema = aclBindingSchema.extend({ host: z.string() });

export const aclApplyResultSchema = z.object({
  kind: z.enum(["create", "delete"]),
  /**
   * unknown: Kafka's answer was lost and reading the ACLs back was not possible, so some binding may or may not be
   * changed.
   */
  outcome: z.enum(["success", "failure", "denied", "partial", "unknown"]),
  message: z.string(),
  results: z.array(
    bindingResultSchema.extend({
      ok: z.boolean(),
      /** Delete: how many ACLs Kafka removed for this binding (0 when it was not there). */
      deleted: z.number().optional(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
      /**
       * Kafka's answer was lost: what reading the ACLs back showed (applied: ok, confirmed by reading back; unknown:
       * could not be read).
       */
      readBack: z.enum(["applied", "not-applied", "unknown"]).optional(),
    }),
  ),
});
export type AclApplyResult = z.infer<typeof aclApplyResultSchema>;

export const aclListResultSchema = z.object({
  acls: z.array(bindingResultSchema),
  /** ACLs the viewer may describe, in all. */
  total: z.number(),
  /** ACLs matching the filters. */
  matching: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pages: z.number(),
  /** The shared ACL snapshot the answer was read from. */
  snapshot: z.object({
    takenAt: z.string().meta({
      description:
        "When the DescribeAcls behind the answer was sent (ISO 8601); the console's own changes since are included",
    }),
    ageMs: z
      .number()
      .meta({ description: "How old that read was when answering; ask with refresh=true for a new one" }),
  }),
});
export type AclListResult = z.infer<typeof aclListResultSchema>;
