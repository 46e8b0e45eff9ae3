/**
 * What a request for a change says (#19): its change in one line, the ACL bindings it names or
 * would create (for owners and grants), its audit category, and its audit rows. No state of its
 * own: lib/services/requests.ts runs the life cycle, request-password.ts the SCRAM password.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import { recordAudit } from "@/lib/db/audit";
import type { StoredRequest } from "@/lib/db/change-request";
import { formatEntity } from "@/lib/policy";
import type { AclBinding } from "@/lib/policy/types";
import type { PlanCreateBody } from "@/lib/schemas/plans";
import type { ActionResult } from "@/lib/schemas/result";
import { expandTemplateBody } from "./acl-plans";

export type Failure = Extract<ActionResult<never>, { ok: false }>;

export const NO_SUCH_REQUEST: Failure = {
  ok: false,
  code: "NOT_FOUND",
  message: "There is no request with this id on this cluster.",
};

function describeBinding(
  b: Pick<AclBinding, "permissionType" | "operation" | "resourceType" | "resourceName" | "patternType" | "principal">,
) {
  const pattern = b.patternType === "PREFIXED" ? " (prefix)" : "";
  return `${b.permissionType} ${b.operation} on ${b.resourceType} ${b.resourceName}${pattern} for ${b.principal}`;
}

function describeList(verb: string, bindings: readonly AclBinding[]): string {
  if (bindings.length === 0) return "";
  const first = describeBinding(bindings[0]!);
  const more = bindings.length > 1 ? ` and ${bindings.length - 1} more` : "";
  return `${verb} ${first}${more}`;
}

/** The bindings an ACL plan creates and deletes (none for a quota plan). */
export function planBindings(payload: unknown): AclBinding[] {
  const p = payload as { create?: AclBinding[]; delete?: AclBinding[] } | null;
  return [...(p?.create ?? []), ...(p?.delete ?? [])];
}

/** One line for lists: what the change does. */
export function summarizeChange(change: PlanCreateBody): string {
  switch (change.kind) {
    case "acl.create":
      if (change.template !== undefined) return `${change.template.template} template for ${change.template.principal}`;
      return describeList("create", change.bindings ?? []);
    case "acl.delete":
      return describeList("delete", change.bindings);
    case "acl.change":
      return [describeList("create", change.create), describeList("delete", change.delete)]
        .filter((s) => s !== "")
        .join("; ");
    case "acl.import":
      return `import a ${change.format} ACL file (${change.mode})`;
    case "quota.alter":
      return change.value === null
        ? `remove ${change.key} of ${formatEntity(change.entity)}`
        : `set ${change.key} of ${formatEntity(change.entity)} to ${change.value}`;
    case "scram.change":
      return change.action === "set"
        ? `set a generated ${change.mechanism ?? "SCRAM-SHA-512"} password for the SCRAM user ${change.user}`
        : `delete the ${change.mechanism ?? "every"} SCRAM credential${change.mechanism ? "" : "s"} of ${change.user}`;
  }
}

/** The audit category of a request of this kind (who may see its rows: docs/audit.md). */
export function categoryOfKind(kind: string | null): "acl" | "quota" | "scram" {
  return kind === "quota.alter" ? "quota" : kind === "scram.change" ? "scram" : "acl";
}

/** The bindings a change asks to create (for a grant), or a refusal when the change cannot be a grant. */
export function requestedCreates(change: PlanCreateBody): ActionResult<AclBinding[]> {
  if (change.kind === "acl.create") {
    if (change.template !== undefined) return expandTemplateBody(change.template);
    return { ok: true, data: change.bindings ?? [] };
  }
  if (change.kind === "acl.change") return { ok: true, data: change.create };
  return {
    ok: false,
    code: "VALIDATION",
    message:
      "Only a change that creates ACLs can end by itself (acl.create or acl.change); file it without grantMinutes.",
    fieldErrors: { grantMinutes: ["Only for changes that create ACLs"] },
  };
}

/** The bindings a change names before any plan is made (an import's are known only from its plan). */
export function namedBindings(change: PlanCreateBody): AclBinding[] {
  switch (change.kind) {
    case "acl.create": {
      const creates = requestedCreates(change);
      return creates.ok ? creates.data : [];
    }
    case "acl.delete":
      return change.bindings;
    case "acl.change":
      return [...change.create, ...change.delete];
    default:
      return [];
  }
}

/** One audit row of a step of the request (never a secret: the change as filed, the reason). */
export async function auditRequest(
  viewer: Viewer,
  r: StoredRequest,
  action: "request.file" | "request.approve" | "request.apply" | "request.deny" | "request.cancel" | "request.retrieve",
  outcome: "success" | "failure" | "denied",
  message: string,
  planId: string | null = null,
) {
  await recordAudit({
    principal: viewer.principal,
    action,
    category: categoryOfKind(r.kind),
    target: `request ${r.id}: ${r.summary}`,
    request: {
      requestId: r.id,
      kind: r.kind,
      change: r.input,
      reason: r.reason,
      grantMinutes: r.grantSeconds === null ? null : r.grantSeconds / 60,
    },
    outcome,
    message,
    subjects: [r.requester],
    planId,
    clusterId: r.clusterId,
  });
}
