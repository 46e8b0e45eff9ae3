/**
 * Access check: may principal P do operation O on resource R from host H, and why.
 * The ACLs come from the shared ACL snapshot (acl-snapshot.ts), which the viewer may
 * use only after Kafka let them describe ACLs (DESCRIBE on CLUSTER); Kafka's refusal
 * comes back as a readable failure. The ACLs that apply to the resource (Kafka's MATCH)
 * are found with the snapshot's indexes, and the policy core decides over just those
 * (the same decision and rule as over every ACL), so an answer costs in proportion to
 * the ACLs on the resource. The broker settings it depends on are assumptions from the
 * environment (lib/authorizer-config.ts). A client given by certificate DN or Kerberos
 * principal is first mapped to its principal with the configured mapping rules
 * (identities.ts), and the answer says how; a client Kafka would refuse to map is a
 * failure naming Kafka's exception, and rules that cost more than a request may
 * (identities.ts's regex budget) are refused (RULES_TOO_COSTLY). Used by the Access check
 * page and GET /api/v1/access-check.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { AccessCheckInput, AccessCheckResult } from "@/lib/schemas/access-check";
import { fromAclSnapshot, type AclSnapshotRead, type AclSnapshotReadOptions } from "./acl-snapshot";
import { explainAccessDecision } from "./access-check-explain";
import { explainAccessAsOf } from "./access-history";
import { clusterOf } from "@/lib/clusters";
import { mapConfiguredClient, requestRegexBudget, rulesTooCostly, type MappedClient } from "./identities";

/** `options.signal`: the request's, so that mapping a client stops when its client has gone. */
export async function explainAccess(
  viewer: Viewer,
  input: Omit<AccessCheckInput, "at"> & { at?: number | null },
  options: AclSnapshotReadOptions & { signal?: AbortSignal } = {},
): Promise<AclSnapshotRead<AccessCheckResult>> {
  const { client, at = null, ...request } = input;
  let mapping: AccessCheckResult["mapping"];
  if (client !== null) {
    let mapped: MappedClient;
    try {
      mapped = mapConfiguredClient(client.kind, client.value, viewer.credential, requestRegexBudget(options.signal));
    } catch (e) {
      return rulesTooCostly(e);
    }
    const field = client.kind === "certificate" ? "certificateDn" : "kerberosPrincipal";
    if (!mapped.ok)
      return { ok: false, code: "VALIDATION", message: mapped.message, fieldErrors: { [field]: [mapped.message] } };
    request.principal = mapped.principal;
    const who =
      client.kind === "certificate"
        ? `A client presenting certificate ` +
          `DN ${client.value}${mapped.canonicalDn !== null ? ` (which Kafka writes ${mapped.canonicalDn})` : ""}`
        : `Kerberos principal ${client.value}`;
    mapping = {
      kind: client.kind,
      input: client.value,
      principal: mapped.principal,
      rule: mapped.rule,
      rules: mapped.rules,
      sentence:
        `${who} is ${mapped.principal} to Kafka ` +
        `(${mapped.rule === null ? "no rule consulted" : `rule ${mapped.rule}`}; ${mapped.rules}).`,
    };
  }
  if (at !== null) {
    // As of an instant: from the history journal (the mapping rules are today's).
    const answer = await explainAccessAsOf(viewer, request, at);
    return answer.ok
      ? { ok: true, data: mapping ? { ...answer.data, mapping } : answer.data, aclSnapshot: null }
      : answer;
  }
  return fromAclSnapshot(viewer, options, (snapshot) => {
    const applicable = snapshot.matching(request.resourceType, request.resourceName);
    const answer = explainAccessDecision(request, applicable, clusterOf(viewer.credential).authorizer);
    return mapping ? { ...answer, mapping } : answer;
  });
}
