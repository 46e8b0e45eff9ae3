/**
 * How many filters one DeleteAcls request carries. Kafka's controller answers DeleteAcls
 * by walking every ACL it holds once per filter (AclControlManager.deleteAclsForFilter,
 * converting each ACL to a binding to match it), on its single event thread: at 100,000
 * ACLs one filter costs 0.1-0.3 s on two loaded cores, so one request of 100 filters ran
 * past the client's 30 s request timeout (reported as "Kafka is unreachable" although the
 * controller went on deleting) and kept the controller from everything else meanwhile.
 * Requests of at most DELETE_SCAN_BUDGET filter x ACL steps keep each one short; the
 * total is what Kafka costs either way (kafka-acls.sh --remove sends one filter per
 * binding too).
 */

/** Filter x ACL steps one DeleteAcls may ask of the controller (about 1-6 s at 100,000 ACLs). */
export const DELETE_SCAN_BUDGET = 2_000_000;
/** At most this many filters per request, however few ACLs Kafka holds. */
export const DELETE_FILTERS_MAX = 1_000;
/** What the console assumes Kafka holds before it has read the ACLs once. */
export const ACLS_ASSUMED = 100_000;

const held = globalThis as typeof globalThis & { __kafkaSecurityConsoleAclsHeld?: Map<string, number> };
const counts: Map<string, number> = (held.__kafkaSecurityConsoleAclsHeld ??= new Map<string, number>());

/** Remember how many ACLs a cluster answered in its last full DescribeAcls (shared by every bundle of the process). */
export function noteAclsHeld(count: number, clusterId = "default"): void {
  counts.set(clusterId, count);
}

/** The ACLs a cluster was last seen holding (ACLS_ASSUMED before its first full read). */
export function aclsHeldOn(clusterId = "default"): number {
  return counts.get(clusterId) ?? ACLS_ASSUMED;
}

/** Filters per DeleteAcls request when Kafka holds `aclsHeld` ACLs. */
export function deleteFiltersPerRequest(aclsHeld: number = aclsHeldOn()): number {
  return Math.max(1, Math.min(DELETE_FILTERS_MAX, Math.floor(DELETE_SCAN_BUDGET / Math.max(1, aclsHeld))));
}

/** `items` in consecutive slices of at most `size`. */
export function slices<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
