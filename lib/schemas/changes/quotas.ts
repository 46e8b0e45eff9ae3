/**
 * A quota change through the API: set (value) or remove (null) one key of one entity. A
 * sealed-plan change like the quota page's (kind quota.alter): made and applied in one
 * call unless dryRun.
 */
import { z } from "zod";
import { quotaAlterationSchema } from "@/lib/schemas/quotas";
import { quotaPlanApplyResultSchema, quotaPlanViewSchema } from "@/lib/schemas/plans";
import { defineChange } from "./definition";
import { EXAMPLE_QUOTA_ENTITY } from "./examples";

export const quotaAlter = defineChange({
  id: "quota.alter",
  summary: "Set or remove one quota key on one entity (a sealed plan, applied in the same call unless dryRun)",
  description:
    "Set (value) or remove (null) one quota key on one entity as the caller (ALTER_CONFIGS on CLUSTER), after " +
    "Kafka's validation and the console's " +
    "KIP-55 rule. Without dryRun a quota.alter plan is made and applied in one call: the answer is Apply's " +
    "(the alteration and the plan's header " +
    "with its id), the audit row names the plan, and the check runs again inside a per-user lock against a " +
    "fresh read. With dryRun nothing " +
    "changes: the answer is the sealed plan, as from POST /api/v1/plans (Kafka's validation, the KIP-55 check, " +
    "every affected (user, client-id) " +
    "pair with the quota Kafka applies and the user's KIP-55 budget before and after, the kafka-configs.sh " +
    "command); apply exactly it with " +
    'POST /api/v1/plans/{id}/apply, which answers 409 "The quotas changed since this preview; preview again." ' +
    "when a quota it depends on changed " +
    "in between.",
  input: quotaAlterationSchema,
  output: z.union([quotaPlanApplyResultSchema, quotaPlanViewSchema]),
  audit: { actions: ["quota.alter"], target: "the entity and key, with the plan id" },
  plan: "sealed",
  http: {
    method: "post",
    path: "/api/v1/quotas",
    operationId: "alterQuota",
    area: "Quotas",
    bodyExamples: {
      preview: {
        summary: "Preview a 1 MiB/s produce quota for user ksc-api-example",
        value: { entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: 1048576, dryRun: true },
      },
      set: { summary: "Set it", value: { entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: 1048576 } },
      remove: {
        summary: "Remove it again (value null)",
        value: { entity: EXAMPLE_QUOTA_ENTITY, key: "producer_byte_rate", value: null },
      },
    },
    statuses: {
      409:
        "Rejected by the console's KIP-55 sub-quota budget rule (Kafka itself would accept it), other changes " +
        "of the user's quotas were still " +
        "in progress, or the quotas changed between making and applying the plan",
    },
    kafka: true,
  },
});
