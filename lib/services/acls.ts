/**
 * The ACLs area: browse, lint, preview, create and delete, always as the signed-in
 * viewer, so Kafka decides what they may see and change (DESCRIBE on CLUSTER to read,
 * ALTER on CLUSTER to change); its refusals come back as readable failures. Every
 * change writes one audit event for the batch, naming each binding's outcome. Used by
 * the ACLs page's server actions and by /api/v1/acls.
 */
import "server-only";
import { createAcls, deleteAcls, describeAcls } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/actions/result";
import { kafkaErrorCode, toErrorResult } from "@/lib/actions/errors";
import { recordAudit } from "@/lib/db/audit";
import { KafkaOperationError } from "@/lib/kafka/errors";
import { ANY_ACL_FILTER, lintAcls, validateNewAcl, type AclBinding, type AclBindingFilter, type Finding } from "@/lib/policy";
import type { AclApplyResult, AclListQuery, AclListResult, AclPreview } from "@/lib/schemas/acls";
import { bindingLine, distinctBindings, previewAclChange } from "./acl-preview";
import { outcomeOf, summary, type BindingResult } from "./acls-outcome";
import { browseAcls } from "./acls-browse";
import { readAuthorizerConfig } from "./authorizer-config";

type Failure = Extract<ActionResult<never>, { ok: false }>;

/** Every ACL the viewer may describe (Kafka answers all or nothing). */
export async function readAllAcls(viewer: Viewer): Promise<ActionResult<AclBinding[]>> {
  try {
    return { ok: true, data: await describeAcls(viewer.credential, ANY_ACL_FILTER) };
  } catch (error) {
    return toErrorResult(error, "describe ACLs");
  }
}

export async function listAcls(viewer: Viewer, query: AclListQuery): Promise<ActionResult<AclListResult>> {
  const all = await readAllAcls(viewer);
  return all.ok ? { ok: true, data: browseAcls(all.data, query) } : all;
}

/** Above this many ACLs the page lints only on request (lint over 100,000 ACLs takes about a second). */
export const LINT_ON_LOAD_LIMIT = 20_000;

/**
 * The page's data: one describe, then the filtered page and the lint findings over all
 * ACLs (null when there are more than LINT_ON_LOAD_LIMIT and lint was not asked for).
 */
export async function aclOverview(
  viewer: Viewer,
  query: AclListQuery,
  options: { lint?: boolean } = {},
): Promise<ActionResult<{ list: AclListResult; findings: Finding[] | null }>> {
  const all = await readAllAcls(viewer);
  if (!all.ok) return all;
  const lint = options.lint === true || all.data.length <= LINT_ON_LOAD_LIMIT;
  return { ok: true, data: { list: browseAcls(all.data, query), findings: lint ? lintAcls(all.data) : null } };
}

function assumptions() {
  const { superUsers, allowEveryoneIfNoAclFound } = readAuthorizerConfig();
  return { superUsers, allowEveryoneIfNoAclFound };
}

/** What creating or deleting the bindings would do, against the ACLs Kafka holds now. */
export async function previewAcls(viewer: Viewer, kind: AclPreview["kind"], bindings: AclBinding[]): Promise<ActionResult<AclPreview>> {
  const all = await readAllAcls(viewer);
  if (!all.ok) return all;
  return { ok: true, data: previewAclChange(kind, all.data, bindings, assumptions()) };
}

/** Kafka's messages for the bindings it would refuse, all at once (nothing is sent while any remain). */
function validationFailure(bindings: readonly AclBinding[]): Failure | null {
  const fieldErrors: Record<string, string[]> = {};
  const lines: string[] = [];
  bindings.forEach((b, i) => {
    const v = validateNewAcl(b);
    if (v.ok) return;
    fieldErrors[`bindings.${i}`] = [v.message];
    lines.push(`${bindingLine(b)}: ${v.message}`);
  });
  if (lines.length === 0) return null;
  return { ok: false, code: "VALIDATION", message: `Nothing was created. Kafka would refuse ${lines.length === 1 ? "this ACL" : "these ACLs"}: ${lines.join("; ")}`, fieldErrors };
}

function auditTarget(bindings: readonly AclBinding[]): string {
  const first = bindings.slice(0, 3).map((b) => `${b.resourceType}:${b.resourceName} ${b.patternType} ${b.principal} ${b.operation} ${b.permissionType}`);
  return bindings.length > 3 ? `${first.join("; ")}; and ${bindings.length - 3} more` : first.join("; ");
}

/** One audit event for the batch; then the result: ok with per-binding outcomes, or a failure when nothing was changed. */
async function finish(viewer: Viewer, kind: AclApplyResult["kind"], bindings: readonly AclBinding[], results: BindingResult[]): Promise<ActionResult<AclApplyResult>> {
  const outcome = outcomeOf(results);
  const message = summary(kind, results);
  const firstError = results.find((r) => r.error)?.error ?? null;
  await recordAudit({
    principal: viewer.principal,
    action: `acl.${kind}`,
    target: auditTarget(bindings),
    request: { bindings },
    before: kind === "delete" ? { bindings: results.filter((r) => r.ok && (r.deleted ?? 0) > 0).map(({ ok: _ok, deleted: _d, error: _e, ...b }) => b) } : undefined,
    after: { results },
    outcome,
    kafkaError: firstError?.code ?? null,
    message,
  });
  if (outcome === "denied" || outcome === "failure") {
    const messages = [...new Set(results.map((r) => r.error?.message ?? ""))];
    const text = messages.length === 1 ? `${messages[0]} Nothing was ${kind === "create" ? "created" : "deleted"}.` : message;
    return { ok: false, code: firstError ? kafkaErrorCode(firstError.code) : "KAFKA_ERROR", message: text };
  }
  return { ok: true, data: { kind, outcome, message, results } };
}

async function thrown(viewer: Viewer, kind: AclApplyResult["kind"], bindings: readonly AclBinding[], error: unknown): Promise<Failure> {
  const failure = toErrorResult(error, `${kind} ACLs`);
  await recordAudit({
    principal: viewer.principal,
    action: `acl.${kind}`,
    target: auditTarget(bindings),
    request: { bindings },
    outcome: failure.code === "DENIED" ? "denied" : "failure",
    kafkaError: error instanceof KafkaOperationError ? error.code : null,
    message: failure.message,
  });
  return failure;
}

/** Creates the bindings as the viewer (after Kafka's validation, all or nothing), audited. */
export async function createAclsAudited(viewer: Viewer, input: AclBinding[]): Promise<ActionResult<AclApplyResult>> {
  const bindings = distinctBindings(input);
  const invalid = validationFailure(bindings);
  if (invalid) return invalid;
  let created;
  try {
    created = await createAcls(viewer.credential, bindings);
  } catch (error) {
    return thrown(viewer, "create", bindings, error);
  }
  const results = created.map(({ binding, error }) => ({ ...binding, ok: error === null, error: error ? { code: error.code, message: error.message } : null }));
  return finish(viewer, "create", bindings, results);
}

/** The exact filter for one binding: its own pattern type, principal, host, operation and permission. */
export function exactFilter(b: AclBinding): AclBindingFilter {
  return { ...b };
}

/** Deletes exactly the bindings as the viewer, audited. */
export async function deleteAclsAudited(viewer: Viewer, input: AclBinding[]): Promise<ActionResult<AclApplyResult>> {
  const bindings = distinctBindings(input);
  let deleted;
  try {
    deleted = await deleteAcls(viewer.credential, bindings.map(exactFilter));
  } catch (error) {
    return thrown(viewer, "delete", bindings, error);
  }
  const results = deleted.map(({ deleted: removed, error }, i) => {
    const binding = bindings[i]!;
    if (error) return { ...binding, ok: false, deleted: 0, error: { code: error.code, message: error.message } };
    if (removed.length === 0) return { ...binding, ok: false, deleted: 0, error: { code: "NOT_FOUND", message: "Kafka holds no such ACL (already deleted?)" } };
    return { ...binding, ok: true, deleted: removed.length, error: null };
  });
  return finish(viewer, "delete", bindings, results);
}
