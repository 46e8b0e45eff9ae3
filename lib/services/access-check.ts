/**
 * Access check: may principal P do operation O on resource R from host H, and why.
 * The ACLs come from Kafka, read as the signed-in viewer with a MATCH filter (every
 * ACL that applies to R: its literal name, LITERAL `*`, prefixes), so the viewer needs
 * DESCRIBE on CLUSTER; Kafka's refusal comes back as a readable failure. The broker
 * settings the answer depends on are assumptions from the environment
 * (authorizer-config.ts). Used by the Access check page and GET /api/v1/access-check.
 */
import "server-only";
import { describeAcls } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/actions/result";
import { toErrorResult } from "@/lib/actions/errors";
import type { AccessCheckInput, AccessCheckResult } from "@/lib/schemas/access-check";
import { applicableAclsFilter, explainAccessDecision } from "./access-check-explain";
import { readAuthorizerConfig } from "./authorizer-config";

export async function explainAccess(viewer: Viewer, input: AccessCheckInput): Promise<ActionResult<AccessCheckResult>> {
  let acls;
  try {
    acls = await describeAcls(viewer.credential, applicableAclsFilter(input));
  } catch (error) {
    return toErrorResult(error, "describe the ACLs for an access check");
  }
  return { ok: true, data: explainAccessDecision(input, acls, readAuthorizerConfig()) };
}
