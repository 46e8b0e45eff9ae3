/**
 * Whether a signed-in user is entitled to make a change (#19): the check of the decisions
 * Kafka does not take itself. The final approval of a request is applied as the approver, so
 * Kafka decides; an approval short of the count, a deny and a break-glass review send nothing
 * to Kafka, so the console asks the policy core the question Kafka would ask of the change:
 *
 *   CreateAcls / DeleteAcls   ALTER on CLUSTER kafka-cluster
 *   AlterClientQuotas         ALTER_CONFIGS on CLUSTER kafka-cluster
 *
 * It is the Access check's question (access-check.ts explainAccess): over the cluster's ACLs
 * as the console reads them (the ACL snapshot, read as the user: Kafka lets them read it with
 * DESCRIBE on CLUSTER, which ALTER implies), with the configured super.users and
 * allow.everyone.if.no.acl.found. The host is one no ACL names (only `*`-host ACLs count), as
 * the Access check and the principal page ask when no host is given: the console cannot know
 * the address Kafka would see a client of the user connect from. A right that some ACL gives
 * only from a named host therefore does not count, and the refusal names that host.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import { CLUSTER_RESOURCE_NAME, type AclOperation } from "@/lib/policy";
import type { ActionResult } from "@/lib/schemas/result";
import { explainAccess } from "./access-check";

export interface Entitlement {
  operation: AclOperation;
  /** Why Kafka would allow it, in a sentence (the deciding rule). */
  reason: string;
}

/** The right on CLUSTER a plan kind needs in Kafka. */
export function operationForChange(kind: string): "ALTER" | "ALTER_CONFIGS" {
  return kind.startsWith("quota.") ? "ALTER_CONFIGS" : "ALTER";
}

function whatItDoes(operation: AclOperation): string {
  return operation === "ALTER_CONFIGS"
    ? "AlterClientQuotas needs ALTER_CONFIGS"
    : "CreateAcls and DeleteAcls need ALTER";
}

/**
 * `ok` when the policy core says Kafka would let `viewer` make a change of `kind` on their
 * cluster; otherwise DENIED with the rule that decided (or why the ACLs could not be read),
 * written for the person refused. `doing` is what they tried: "give an approval short of the count".
 */
export async function entitledToChange(
  viewer: Viewer,
  kind: string,
  doing: string,
  options: { signal?: AbortSignal } = {},
): Promise<ActionResult<Entitlement>> {
  const operation = operationForChange(kind);
  const rule = `Kafka's rule for this change: ${whatItDoes(operation)} on CLUSTER ${CLUSTER_RESOURCE_NAME}.`;
  const answer = await explainAccess(
    viewer,
    {
      principal: viewer.principal,
      client: null,
      operation,
      resourceType: "CLUSTER",
      resourceName: CLUSTER_RESOURCE_NAME,
      host: null,
    },
    options,
  );
  if (!answer.ok) {
    if (answer.code !== "DENIED")
      return { ...answer, message: `Your right to ${doing} could not be checked: ${answer.message}` };
    return {
      ok: false,
      code: "DENIED",
      message:
        `You may not ${doing}: only someone entitled to make the change may. ${rule} The console checks it over ` +
        `the cluster's ACLs read as you, and Kafka does not let you describe them (DESCRIBE on CLUSTER, which ` +
        `ALTER implies). Nothing was changed.`,
    };
  }
  const result = answer.data;
  if (result.decision === "ALLOWED") return { ok: true, data: { operation, reason: result.reason } };
  const elsewhere = result.hosts.differing.filter((h) => h.decision === "ALLOWED").map((h) => h.host);
  const hosts =
    elsewhere.length > 0
      ? ` An ACL allows it from ${elsewhere.join(", ")} only; the check asks from a host no ACL names, since the ` +
        `console cannot know the address Kafka would see.`
      : "";
  return {
    ok: false,
    code: "DENIED",
    message:
      `You may not ${doing}: only someone entitled to make the change may. ${rule} For ${viewer.principal}: ` +
      `${result.reason}${hosts} Nothing was changed.`,
  };
}
