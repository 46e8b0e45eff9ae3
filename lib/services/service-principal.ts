/**
 * The console's service principal (docs/security.md, "The service principal"): per cluster,
 * optional credentials the operator puts in a file (lib/clusters.ts), for a principal that
 * needs only DESCRIBE on the cluster. The console reads ACLs with it for decisions no
 * signed-in user can make alone (who may approve a token request), and only to reach that
 * decision: what it reads is never shown to anyone.
 *
 * Every call is audited as the service principal, naming whom and which requests it acted
 * for: the row (category "other": cluster admins and super users read it) is written before
 * Kafka is asked, and without it Kafka is not asked. A successful repeat of a read (the same
 * user and requests: a page polling) within FOLD_MS is counted on that read's row
 * (repeatCount, lastAt) rather than adding one (lib/db/service-read-audit.ts).
 */
import "server-only";
import { describeAcls, isKafkaOperationError } from "@/lib/kafka";
import { completeAudit, recordIntent } from "@/lib/db/audit";
import { foldServiceRead, foldableServiceRead, markFoldable } from "@/lib/db/service-read-audit";
import { clusterById, type ServicePrincipal } from "@/lib/clusters";
import { toErrorResult } from "@/lib/kafka/error-result";
import type { AclBinding, AclBindingFilter } from "@/lib/policy/types";

/** The service principal of the cluster, or null when the operator configured none. */
export function servicePrincipalOf(clusterId: string): ServicePrincipal | null {
  return clusterById(clusterId).servicePrincipal;
}

export interface ServiceRead {
  /** Dotted verb of the audit row, e.g. service.acls.describe. */
  action: string;
  /** The signed-in principal the decision is for. */
  actingFor: string;
  /** Why, in words: "who may approve these token requests". */
  purpose: string;
  /** Human-readable object, e.g. "token request <id>". */
  target: string;
  /** What it acted for, recorded as is (ids, owners). */
  about: Record<string, unknown>;
}

/** The ACLs, or why they could not be read (a sentence for the person the decision is for). */
export type ServiceAcls = { ok: true; acls: AclBinding[]; principal: string } | { ok: false; message: string };

/** The ACLs matching `filter`, read as the cluster's service principal and audited as it. */
export async function describeAclsAsService(
  service: ServicePrincipal,
  filter: AclBindingFilter,
  read: ServiceRead,
): Promise<ServiceAcls> {
  const clusterId = service.credential.clusterId;
  const intent = async () =>
    (
      await recordIntent({
        principal: service.principal,
        action: read.action,
        category: "other",
        target: read.target,
        request: { actingFor: read.actingFor, purpose: read.purpose, ...read.about, filter },
        subjects: [read.actingFor],
        ...(clusterId !== undefined ? { clusterId } : {}),
      })
    ).id;
  const foldKey =
    `service-read|${clusterId ?? ""}|${service.principal}|${read.action}|${read.actingFor}|` +
    `${read.target}|${JSON.stringify(read.about)}`;
  let foldInto: string | null = null;
  let intentId: string | null = null;
  try {
    foldInto = await foldableServiceRead(foldKey);
    if (foldInto === null) intentId = await intent();
  } catch {
    return { ok: false, message: "its audit row could not be written (database unavailable), so it was not asked." };
  }
  try {
    const acls = await describeAcls(service.credential, filter);
    if (foldInto !== null) await foldServiceRead(foldInto).catch(() => undefined);
    else if (intentId !== null) {
      const id = intentId;
      await completeAudit(id, {
        outcome: "success",
        message: `Read ${acls.length} ACLs for ${read.actingFor}: ${read.purpose}.`,
      })
        .then(() => markFoldable(id, foldKey))
        .catch(() => undefined);
    }
    return { ok: true, acls, principal: service.principal };
  } catch (error) {
    const failure = toErrorResult(error, `read ACLs as the service principal ${service.principal}`);
    const known = isKafkaOperationError(error);
    // A failed repeat of a folded read gets a row of its own.
    const id = intentId ?? (await intent().catch(() => null));
    if (id !== null) {
      await completeAudit(id, {
        outcome: known && error.isAuthorizationFailure ? "denied" : known ? "failure" : "unknown",
        kafkaError: known ? error.code : null,
        message: failure.message,
      }).catch(() => undefined);
    }
    return { ok: false, message: failure.message };
  }
}
