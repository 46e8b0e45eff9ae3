/**
 * ACL changes through the API: create and delete bindings. Both are sealed-plan changes:
 * without `dryRun` (or ?preview=1) the plan is made and applied in one call; with it, only
 * made. The ACLs page makes the same plans (kinds acl.create / acl.delete) in two steps.
 */
import { z } from "zod";
import { aclCreateBodySchema, aclDeleteBodySchema, aclPreviewQuerySchema } from "@/lib/schemas/acls";
import { aclPlanApplyResultSchema, planViewSchema } from "@/lib/schemas/plans";
import { defineChange } from "./definition";
import { EXAMPLE_BINDING } from "./examples";

const answer = z.union([aclPlanApplyResultSchema, planViewSchema]);

const ONE_CALL =
  "Without dryRun (or ?preview=1) the plan is made and applied in one call: the answer is Apply's (the plan's " +
  "header with its id, outcome, " +
  "per-binding results; some bindings failing is a 200 with outcome partial) and every audit row names the " +
  "plan; ACLs that changed between " +
  "the two steps are a 409 and nothing is sent; bindings Kafka would refuse are a 400 and nothing is sent; " +
  "nothing to change is a 200 with " +
  "no results. A lost Kafka answer is settled by reading the ACLs back (readBack). With dryRun nothing " +
  "changes: the answer is the sealed plan, " +
  "as from POST /api/v1/plans; apply it with POST /api/v1/plans/{id}/apply.";

const STATUSES = {
  409: "The ACLs the plan depends on changed between making and applying it; nothing was sent",
} as const;

export const aclCreate = defineChange({
  id: "acl.create",
  summary: "Create ACL bindings (a sealed plan, applied in the same call unless dryRun)",
  description: `Create ACL bindings as the caller (needs ALTER on CLUSTER). ${ONE_CALL}`,
  input: aclCreateBodySchema,
  output: answer,
  audit: { actions: ["acl.create"], target: "each binding, with the plan id" },
  plan: "sealed",
  http: {
    method: "post",
    path: "/api/v1/acls",
    operationId: "createAcls",
    area: "ACLs",
    query: aclPreviewQuerySchema,
    queryExamples: { preview: { summary: "Only the preview, whatever the body says", value: { preview: "1" } } },
    bodyExamples: {
      preview: {
        summary: "Preview: what would change if User:ksc-api-example could read topic ksc-api-example",
        value: { bindings: [EXAMPLE_BINDING], dryRun: true },
      },
      create: { summary: "Create that binding", value: { bindings: [EXAMPLE_BINDING] } },
    },
    statuses: STATUSES,
    kafka: true,
  },
});

export const aclDelete = defineChange({
  id: "acl.delete",
  summary: "Delete exactly these ACL bindings (a sealed plan, applied in the same call unless dryRun)",
  description: `Delete exactly these ACL bindings as the caller (needs ALTER on CLUSTER). ${ONE_CALL}`,
  input: aclDeleteBodySchema,
  output: answer,
  audit: { actions: ["acl.delete"], target: "each binding, with the plan id" },
  plan: "sealed",
  http: {
    method: "delete",
    path: "/api/v1/acls",
    operationId: "deleteAcls",
    area: "ACLs",
    query: aclPreviewQuerySchema,
    queryExamples: { preview: { summary: "Only the preview, whatever the body says", value: { preview: "1" } } },
    bodyExamples: {
      preview: {
        summary: "Preview the deletion of the example binding",
        value: { bindings: [EXAMPLE_BINDING], dryRun: true },
      },
      delete: { summary: "Delete it", value: { bindings: [EXAMPLE_BINDING] } },
    },
    statuses: STATUSES,
    kafka: true,
  },
});
