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
  CLUSTER_RESOURCE_NAME,
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
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

/** Browse filters (query string). Empty fields filter nothing. */
export const aclListQuerySchema = z.object({
  principal: optional(1000).meta({ description: "Principal, exact (User:alice) or, with principalMatch=contains, a fragment" }),
  principalMatch: z
    .preprocess((v) => (v === undefined || v === "" ? "exact" : v), z.enum(["exact", "contains"], { error: "Choose exact or contains" }))
    .meta({ description: "How principal is compared (default exact)" }),
  resourceType: anyOr(RESOURCE_TYPES, "resource type").meta({ description: "Resource type (default ANY)" }),
  resourceName: optional(1000).meta({ description: "Resource name, exact" }),
  patternType: anyOr(PATTERN_TYPES, "pattern type").meta({ description: "Pattern type (default ANY)" }),
  operation: anyOr(OPERATIONS, "operation").meta({ description: "Operation (default ANY)" }),
  permissionType: anyOr(PERMISSION_TYPES, "permission").meta({ description: "Permission (default ANY)" }),
  page: z
    .preprocess((v) => (v === undefined || v === "" ? 1 : v), z.coerce.number({ error: "page is a number" }).int("page is a whole number").min(1, "page starts at 1"))
    .meta({ description: `Page number, ${ACL_PAGE_SIZE} ACLs per page (default 1)` }),
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
export const aclBindingsSchema = z.array(aclBindingSchema).min(1, "Give at least one ACL binding").max(500, "At most 500 bindings at once");

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
export const newAclBindingsSchema = z.array(newAclBindingSchema).min(1, "Give at least one ACL binding").max(500, "At most 500 bindings at once");

export const aclCreateBodySchema = z.object({
  bindings: newAclBindingsSchema,
  dryRun: z.boolean().default(false).meta({ description: "Only preview the change as a sealed plan (same as ?preview=1)" }),
});
export const aclDeleteBodySchema = z.object({
  bindings: aclBindingsSchema.meta({ description: "The exact bindings to delete (each becomes an exact filter)" }),
  dryRun: z.boolean().default(false).meta({ description: "Only preview the deletion as a sealed plan (same as ?preview=1)" }),
});
export const aclPreviewQuerySchema = z.object({
  preview: z.enum(["1", "true", "0", "false"]).optional().meta({ description: "1: make a sealed plan (the preview) and change nothing; apply it with POST /api/v1/plans/{id}/apply" }),
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
    if (!(PATTERN_TYPES as readonly string[]).includes(v.patternType)) issue("patternType", "Choose LITERAL or PREFIXED");
    if (type === "CLUSTER") {
      if (v.resourceName !== "" && v.resourceName !== CLUSTER_RESOURCE_NAME) issue("resourceName", `The only valid name for the CLUSTER resource is ${CLUSTER_RESOURCE_NAME}`);
    } else if (v.resourceName === "") issue("resourceName", "Enter the resource name (* for every resource of the type)");
    if (v.principal === "") issue("principal", "Enter a principal, e.g. User:alice (User:* for everyone)");
    else if (!isPrincipal(v.principal)) issue("principal", `Write the principal as Type:name, e.g. User:${v.principal}: Kafka cannot parse a principal without a colon`);
    const host = checkAclHost(v.host);
    if (!host.ok) issue("host", host.message);
    if (!isOperation(v.operation)) issue("operation", `Choose an operation: ${OPERATIONS.join(", ")}`);
    else if (type !== null && v.operation !== "ALL" && !SUPPORTED_OPERATIONS[type].includes(v.operation)) {
      issue("operation", `${v.operation} does not apply to ${type} resources; ${type} has ALL, ${SUPPORTED_OPERATIONS[type].join(", ")}`);
    }
    if (!(PERMISSION_TYPES as readonly string[]).includes(v.permissionType)) issue("permissionType", "Choose ALLOW or DENY");
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
    if (!(TEMPLATE_KINDS as readonly string[]).includes(v.template)) issue("template", `Choose a template: ${TEMPLATE_KINDS.join(", ")}`);
    if (v.principal === "") issue("principal", "Enter the client's principal, e.g. User:svc-orders");
    else if (!isPrincipal(v.principal)) issue("principal", `Write the principal as Type:name, e.g. User:${v.principal}: Kafka cannot parse a principal without a colon`);
    const host = checkAclHost(v.host);
    if (!host.ok) issue("host", host.message);
    if (v.template === "streams") {
      if (v.applicationId === "") issue("applicationId", "Enter the application.id");
      if (splitNames(v.inputTopics).length + splitNames(v.outputTopics).length === 0) issue("inputTopics", "Enter at least one input or output topic");
    } else if (splitNames(v.topics).length === 0) issue("topics", "Enter at least one topic");
    if (v.template === "consumer" && v.group === "") issue("group", "Enter the consumer group id");
    if (v.template === "transactional" && v.transactionalId === "") issue("transactionalId", "Enter the transactional.id");
  })
  .transform((v) => ({ ...v, host: canonicalHost(v.host) }));
export type AclTemplateForm = z.output<typeof aclTemplateFormSchema>;

/** How one binding of a change fared (or would fare). */
const bindingResultSchema = aclBindingSchema.extend({ host: z.string() });

export const aclApplyResultSchema = z.object({
  kind: z.enum(["create", "delete"]),
  outcome: z.enum(["success", "failure", "denied", "partial"]),
  message: z.string(),
  results: z.array(
    bindingResultSchema.extend({
      ok: z.boolean(),
      /** Delete: how many ACLs Kafka removed for this binding (0 when it was not there). */
      deleted: z.number().optional(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
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
});
export type AclListResult = z.infer<typeof aclListResultSchema>;
