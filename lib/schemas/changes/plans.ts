/** Sealed plans: preview any ACL, import or quota change and keep it; apply exactly a kept plan. */
import { planApplyResultSchema, planCreateBodySchema, planViewSchema } from "@/lib/schemas/plans";
import { defineChange, NO_INPUT } from "./definition";
import { EXAMPLE_BINDING, EXAMPLE_IMPORT_YAML, EXAMPLE_QUOTA_ENTITY, uuidPathParam } from "./examples";

export const PLAN_ID = uuidPathParam("The plan's id (from POST /api/v1/plans)");
export const NO_SUCH_PLAN = "There is no plan with this id (it may have expired and been removed)";
export const NOT_YOUR_PLAN = "The plan was made by another principal: only they may see and apply it";

export const planCreate = defineChange({
  id: "plan.create",
  summary: "Preview a change and keep it as a sealed plan",
  description:
    "Reads the ACLs Kafka holds now (needs DESCRIBE on CLUSTER) and answers the plan: exactly what Apply will " +
    "create and delete, the bindings " +
    "Kafka would refuse, no-ops, the blast radius (every decision of the universe the console knows that " +
    "changes: counts, rules for principals " +
    "and resources not yet seen, groups by principal and by resource, the first rows) and the equivalent " +
    "kafka-acls.sh commands. Nothing " +
    "changes in Kafka. The plan is kept until expiresAt (PLAN_TTL_MINUTES); only its principal may see or " +
    "apply it. Kinds: acl.create, " +
    "acl.delete, acl.change; acl.import (a desired-state file as the export writes it: add-only creates what " +
    "Kafka lacks; sync also deletes " +
    "what the file lacks inside a scope of principals and/or a resource-name prefix; an empty file, sync " +
    "without a scope, or a file with " +
    "nothing inside the scope is a 400 and deletes nothing); quota.alter (one key of one entity: every " +
    "affected (user, client-id) pair with " +
    "the quota Kafka applies and the KIP-55 budget before and after, the kafka-configs.sh command; it reads " +
    "the quotas, not the ACLs).",
  input: planCreateBodySchema,
  output: planViewSchema,
  audit: { actions: [], target: "nothing: a plan changes nothing until applied" },
  plan: "previews",
  http: {
    method: "post",
    path: "/api/v1/plans",
    operationId: "createPlan",
    area: "Plans",
    bodyExamples: {
      create: {
        summary: "Plan: User:ksc-api-example may read topic ksc-api-example",
        value: { kind: "acl.create", bindings: [EXAMPLE_BINDING] },
      },
      template: {
        summary: "Plan: the consumer template for User:ksc-api-example",
        value: {
          kind: "acl.create",
          template: {
            template: "consumer",
            principal: "User:ksc-api-example",
            topics: ["ksc-api-example"],
            group: "ksc-api-example",
          },
        },
      },
      delete: {
        summary: "Plan: delete the example binding (nothing to delete unless it exists)",
        value: { kind: "acl.delete", bindings: [EXAMPLE_BINDING] },
      },
      change: {
        summary: "Plan: delete one binding and create another",
        value: {
          kind: "acl.change",
          delete: [EXAMPLE_BINDING],
          create: [{ ...EXAMPLE_BINDING, operation: "DESCRIBE" }],
        },
      },
      import: {
        summary: "Plan: import a YAML file add-only (sync would also delete, inside scope, what the file lacks)",
        value: { kind: "acl.import", content: EXAMPLE_IMPORT_YAML, format: "yaml", mode: "add-only" },
      },
      quota: {
        summary: "Plan: a 1 MiB/s produce quota for user ksc-api-example",
        value: { kind: "quota.alter", entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: 1048576 },
      },
    },
    links: {
      rows: {
        operationId: "getPlan",
        description: "Every decision change of this plan, paged",
        parameters: { id: "$response.body#/id" },
      },
      apply: {
        operationId: "applyPlan",
        description: "Apply exactly this plan",
        parameters: { id: "$response.body#/id" },
      },
      progress: {
        operationId: "getImportProgress",
        description: "An acl.import plan: how far its apply has come",
        parameters: { id: "$response.body#/id" },
      },
    },
    kafka: true,
  },
});

export const planApply = defineChange({
  id: "plan.apply",
  summary: "Apply exactly a previewed plan",
  description:
    "Claims the plan (once: a second apply, or one racing it, answers 409), reads the ACLs again from Kafka " +
    "and refuses with 409 if those the " +
    "plan depends on changed since the preview (nothing is sent; preview again). Otherwise deletes, then " +
    "creates, exactly the plan's bindings " +
    "as the caller, in batches, each batch audited with the plan id. A 200 may report outcome partial with " +
    "per-binding results. 400 when the " +
    "plan cannot be applied at all (nothing to change, or bindings Kafka would refuse: see notApplicable).",
  input: NO_INPUT,
  output: planApplyResultSchema,
  audit: {
    actions: ["acl.create", "acl.delete", "quota.alter"],
    target: "each batch's bindings, or the quota entity, with the plan id",
  },
  plan: "applies",
  http: {
    method: "post",
    path: "/api/v1/plans/{id}/apply",
    operationId: "applyPlan",
    area: "Plans",
    pathParams: PLAN_ID,
    statuses: {
      403: `${NOT_YOUR_PLAN}. Or: Kafka refused the change`,
      404: NO_SUCH_PLAN,
      409:
        "Expired, already applied (or being applied), failed before, or the ACLs (for quota.alter: the quotas) " +
        "it depends on changed since " +
        "the preview: preview again",
    },
    kafka: true,
  },
});
