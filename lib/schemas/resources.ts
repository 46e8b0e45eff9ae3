/**
 * The Resources area (page, GET /api/v1/resources): the index of resources per type
 * with the number of ACLs that apply to each, and one resource's detail: the ACLs that
 * apply to it grouped by why they apply, and the effective-permission matrix.
 *
 * Query fields arrive as strings; the detail's name is required except for CLUSTER,
 * whose only name is kafka-cluster.
 */
import { z } from "zod";
import { aclBindingResponseSchema } from "./acl-binding";
import { CLUSTER_RESOURCE_NAME, OPERATIONS, RESOURCE_TYPES, type ResourceType } from "@/lib/policy";

/** The index's sections, in the order the page shows them. */
export const RESOURCE_SECTIONS = [
  "TOPIC",
  "GROUP",
  "TRANSACTIONAL_ID",
  "CLUSTER",
  "USER",
  "DELEGATION_TOKEN",
] as const satisfies readonly ResourceType[];

const isResourceType = (v: string): v is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(v);

/** The index's name filter (a case-insensitive fragment; empty shows everything). */
export const resourceIndexQuerySchema = z.object({
  q: z.preprocess((v) => v ?? "", z.string().trim().max(255, "At most 255 characters")),
});
export type ResourceIndexQuery = z.output<typeof resourceIndexQuerySchema>;

/** One resource: `type` (a Kafka resource type) and `name` (kafka-cluster for CLUSTER when omitted). */
export const resourceDetailQueryFieldsSchema = z.object({
  type: z.preprocess((v) => v ?? "", z.string().trim().toUpperCase()),
  name: z.preprocess((v) => v ?? "", z.string().max(1000, "At most 1000 characters")),
});

export const resourceDetailQuerySchema = resourceDetailQueryFieldsSchema
  .superRefine((v, ctx) => {
    if (!isResourceType(v.type)) {
      ctx.addIssue({ code: "custom", path: ["type"], message: `Choose a resource type: ${RESOURCE_TYPES.join(", ")}` });
      return;
    }
    if (v.type === "CLUSTER") {
      if (v.name !== "" && v.name !== CLUSTER_RESOURCE_NAME) {
        ctx.addIssue({
          code: "custom",
          path: ["name"],
          message: `The cluster resource is always named ${CLUSTER_RESOURCE_NAME}`,
        });
      }
    } else if (v.name === "") {
      ctx.addIssue({ code: "custom", path: ["name"], message: "Give the resource name" });
    }
  })
  .transform((v) => ({ type: v.type as ResourceType, name: v.type === "CLUSTER" ? CLUSTER_RESOURCE_NAME : v.name }));
export type ResourceDetailQuery = z.output<typeof resourceDetailQuerySchema>;

const aclBindingSchema = aclBindingResponseSchema;

/**
 * Why an ACL applies to a resource: its exact LITERAL name, LITERAL `*`, or a PREFIXED pattern the name starts with.
 */
export const APPLY_REASONS = ["literal", "wildcard", "prefixed"] as const;
export type ApplyReason = (typeof APPLY_REASONS)[number];

export const applicableGroupSchema = z.object({
  reason: z.enum(APPLY_REASONS),
  /** The pattern the group's ACLs share (the name, `*`, or the prefix). */
  pattern: z.string(),
  label: z.string(),
  acls: z.array(aclBindingSchema),
});
export type ApplicableGroup = z.output<typeof applicableGroupSchema>;

const ruleSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("superUser") }),
  z.object({ kind: z.literal("acl"), acl: aclBindingSchema }),
  z.object({ kind: z.literal("noAclMatched") }),
  z.object({ kind: z.literal("default") }),
]);

export const resourceDetailSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  resourceName: z.string(),
  /**
   * Every ACL that applies (Kafka's MATCH), grouped by why: the exact name, then prefixes (longest first), then `*`.
   */
  groups: z.array(applicableGroupSchema),
  /** The operations valid for the resource type (the matrix's columns). */
  operations: z.array(z.enum(OPERATIONS)),
  /**
   * One row per principal: User:* first (any other principal no ACL here names, super users aside), then each super
   * user, then every principal the applicable ACLs name; for clients whose host no ACL names.
   */
  rows: z.array(
    z.object({
      principal: z.string(),
      /** In super.users (as assumed): Kafka allows it everything without looking at ACLs. */
      superUser: z.boolean(),
      cells: z.array(
        z.object({
          operation: z.enum(OPERATIONS),
          decision: z.enum(["ALLOWED", "DENIED"]),
          rule: ruleSchema,
          reason: z.string(),
          /**
           * The deciding rule in short labels (super.users, DENY wins, PREFIXED "x", from 10.0.0.7, implied by READ).
           */
          via: z.array(z.string()),
          /**
           * The hosts this principal's (or User:*'s) applicable ACLs name where the answer differs, with that answer.
           */
          otherHosts: z.array(
            z.object({
              host: z.string(),
              decision: z.enum(["ALLOWED", "DENIED"]),
              rule: ruleSchema,
              via: z.array(z.string()),
            }),
          ),
        }),
      ),
      /** Hosts named by this principal's applicable ACLs: a client from one of them may get another answer. */
      specificHosts: z.array(z.string()),
    }),
  ),
  assumptions: z.object({
    superUsers: z.array(z.string()),
    allowEveryoneIfNoAclFound: z.boolean(),
    source: z.string(),
    warnings: z.array(z.string()),
  }),
});
export type ResourceDetail = z.output<typeof resourceDetailSchema>;

/** One section of the index: the resources of one type the viewer may see, with ACL counts when ACLs could be read. */
export const resourceSectionSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  resources: z.array(z.object({ name: z.string(), acls: z.number().int().nullable() })),
  /** Kafka's readable reason when this type's resources could not be listed. */
  error: z.string().nullable(),
  /**
   * Set when part of the list is missing: brokers that did not answer (groups and transactional ids are listed per
   * broker).
   */
  note: z.string().nullable().default(null),
});
export type ResourceSection = z.output<typeof resourceSectionSchema>;

export const resourceIndexSchema = z.object({
  sections: z.array(resourceSectionSchema),
  /** Null when ACLs were read; else Kafka's readable reason (the counts are then null). */
  aclsUnavailable: z.string().nullable(),
});
export type ResourceIndex = z.output<typeof resourceIndexSchema>;
