/**
 * Access check: may principal P do operation O on resource R from host H, and why.
 * The ACLs come from the shared ACL snapshot (acl-snapshot.ts), which the viewer may
 * use only after Kafka let them describe ACLs (DESCRIBE on CLUSTER); Kafka's refusal
 * comes back as a readable failure. The ACLs that apply to the resource (Kafka's MATCH)
 * are found with the snapshot's indexes, and the policy core decides over just those
 * (the same decision and rule as over every ACL), so an answer costs in proportion to
 * the ACLs on the resource. The broker settings it depends on are assumptions from the
 * environment (authorizer-config.ts). Used by the Access check page and GET
 * /api/v1/access-check.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { AccessCheckInput, AccessCheckResult } from "@/lib/schemas/access-check";
import { getAclSnapshot, type AclSnapshotRead, type AclSnapshotReadOptions } from "./acl-snapshot";
import { explainAccessDecision } from "./access-check-explain";
import { readAuthorizerConfig } from "./authorizer-config";

export async function explainAccess(viewer: Viewer, input: AccessCheckInput, options: AclSnapshotReadOptions = {}): Promise<AclSnapshotRead<AccessCheckResult>> {
  const acls = await getAclSnapshot(viewer, options);
  if (!acls.ok) return acls;
  const applicable = acls.snapshot.matching(input.resourceType, input.resourceName);
  return { ok: true, data: explainAccessDecision(input, applicable, readAuthorizerConfig()), aclSnapshot: acls.snapshot.info() };
}
