/**
 * Access check: may principal P do operation O on resource R from host H, and why.
 * The ACLs come from the shared ACL snapshot (acl-snapshot.ts), which the viewer may
 * use only after Kafka let them describe ACLs (DESCRIBE on CLUSTER); Kafka's refusal
 * comes back as a readable failure. The decision is the policy core's, over the
 * snapshot's authorizer index (no index built per request); the broker settings it
 * depends on are assumptions from the environment (authorizer-config.ts). Used by the
 * Access check page and GET /api/v1/access-check.
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
  const index = acls.snapshot.index();
  const applicable = index.matching(input.resourceType, input.resourceName);
  return { ok: true, data: explainAccessDecision(input, applicable, readAuthorizerConfig(), index), aclSnapshot: acls.snapshot.info() };
}
