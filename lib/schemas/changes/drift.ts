/** Drift (#20, docs/drift.md): keep an outside change (acknowledge) or plan its revert. */
import { planViewSchema } from "@/lib/schemas/plans";
import { driftAcknowledgeBodySchema, driftAcknowledgeResultSchema, driftRevertBodySchema } from "@/lib/schemas/drift";
import { defineChange } from "./definition";

const UNKNOWN_ENTRY = { entryIds: ["999999999999"] };

export const driftAcknowledge = defineChange({
  id: "drift.acknowledge",
  summary: "Keep outside changes (acknowledge them, with a comment)",
  description:
    "Records that outside changes (ids from GET /api/v1/drift; one change or every change of one read) are " +
    "kept on purpose, with a mandatory comment, in the audit trail (drift.acknowledge). Nothing changes in " +
    "Kafka. Cluster admins only (ALTER on CLUSTER, or a super user); a change acknowledged before stays as it was.",
  input: driftAcknowledgeBodySchema,
  output: driftAcknowledgeResultSchema,
  audit: { actions: ["drift.acknowledge"], target: "the outside changes and the comment" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/drift/acknowledge",
    operationId: "acknowledgeDrift",
    area: "Audit",
    bodyExamples: {
      unknown: {
        summary: "An id that names no outside change (404)",
        value: { ...UNKNOWN_ENTRY, comment: "Example: made by the platform team's pipeline" },
      },
    },
    statuses: {
      403: "Only cluster admins may keep outside changes",
      404: "An id names no outside change you may see on this cluster",
    },
    kafka: true,
  },
});

export const driftRevert = defineChange({
  id: "drift.revert",
  summary: "Plan the revert of outside changes",
  description:
    "Makes, as the caller, the sealed plan that restores the state before the named outside changes: an ACL " +
    "that appeared outside is deleted (acl.delete of exactly that binding), one that disappeared is created " +
    "again (acl.create), both at once an acl.change; a quota entry is set back to its value before (quota.alter, " +
    "one at a time). Nothing changes in Kafka: apply the plan (POST /api/v1/plans/{id}/apply) or, on a cluster " +
    "that asks for approvals, request it (POST /api/v1/requests/from-plan). Once applied, the changes count as " +
    "reverted. SCRAM credentials and console settings cannot be reverted (400).",
  input: driftRevertBodySchema,
  output: planViewSchema,
  audit: { actions: [], target: "nothing: a plan changes nothing until applied" },
  plan: "previews",
  http: {
    method: "post",
    path: "/api/v1/drift/revert",
    operationId: "revertDrift",
    area: "Audit",
    bodyExamples: { unknown: { summary: "An id that names no outside change (404)", value: UNKNOWN_ENTRY } },
    statuses: {
      404: "An id names no outside change you may see on this cluster",
      409: "Already reverted",
    },
    links: {
      apply: {
        operationId: "applyPlan",
        description: "Apply exactly this plan",
        parameters: { id: "$response.body#/id" },
      },
    },
    kafka: true,
  },
});
