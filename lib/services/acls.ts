/**
 * The ACLs area: browse, lint, create and delete, always as the signed-in viewer, so
 * Kafka decides what they may see and change (DESCRIBE on CLUSTER to read, ALTER on
 * CLUSTER to change); its refusals come back as readable failures. Reads come from the
 * shared ACL snapshot (acl-snapshot.ts), which proves the viewer's own right first. Every change goes
 * through auditedMutation: one audit event for the batch, its intent recorded before
 * Kafka is called and each binding's outcome after. The page and /api/v1/plans reach
 * createAclsAudited / deleteAclsAudited only through a sealed plan (acl-plans.ts,
 * which passes the plan id); POST / DELETE /api/v1/acls call them directly for scripts.
 */
import "server-only";
import type { AclWriteConfirmation, KafkaCredential } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { kafkaErrorCode } from "@/lib/kafka/error-result";
import {
  bindingKey,
  flaggedAcls,
  lintAcls,
  validateNewAcl,
  type AclBinding,
  type AclBindingFilter,
  type AclStore,
  type Finding,
  type LintCode,
} from "@/lib/policy";
import { configuredPrincipalMapping, requestRegexBudget } from "./identities";
import type { AclApplyResult, AclListQuery, AclListResult } from "@/lib/schemas/acls";
import { bindingLine, distinctBindings } from "./acl-preview";
import { outcomeOf, summary, type BindingResult } from "./acls-outcome";
import { toStoreQuery } from "./acls-browse";
import { getAclSnapshot, type AclSnapshot, type AclSnapshotReadOptions } from "./acl-snapshot";
import { auditedMutation, type KafkaWriter, type MutationOutcome } from "./audited-mutation";

type Failure = Extract<ActionResult<never>, { ok: false }>;

/** Every ACL the viewer may describe (Kafka answers all or nothing), from the shared snapshot, in the browse order. */
export async function readAllAcls(
  viewer: Viewer,
  options: AclSnapshotReadOptions = {},
): Promise<ActionResult<AclBinding[]>> {
  const read = await getAclSnapshot(viewer, options);
  return read.ok ? { ok: true, data: read.snapshot.all() } : read;
}

/**
 * One page of the list: a slice of the snapshot's order for the query, with the snapshot's
 * time. A lint code narrows it to the ACLs its findings are about (lint runs if it has not
 * on this snapshot: the filter asks for it).
 */
export function listOf(snapshot: AclSnapshot, query: AclListQuery, cluster: ClusterOfStore = {}): AclListResult {
  const { takenAt, ageMs } = snapshot.info();
  const request = toStoreQuery(query);
  if (query.lintCode === "ANY") return { ...snapshot.query(request), snapshot: { takenAt, ageMs } };
  const flagged = flaggedBy(snapshot.store, query.lintCode as LintCode, cluster);
  const acls = flagged.size === 0 ? [] : snapshot.all(request).filter((b) => flagged.has(bindingKey(b)));
  const pageSize = request.pageSize ?? acls.length;
  const pages = Math.max(1, Math.ceil(acls.length / pageSize));
  const page = Math.min(Math.max(1, request.page ?? 1), pages);
  return {
    acls: acls.slice((page - 1) * pageSize, page * pageSize),
    total: snapshot.size,
    matching: acls.length,
    page,
    pageSize,
    pages,
    snapshot: { takenAt, ageMs },
  };
}

/** The list as GET /api/v1/acls answers it (refresh: a DescribeAcls sent for this request). */
export async function listAcls(viewer: Viewer, query: AclListQuery): Promise<ActionResult<AclListResult>> {
  const read = await getAclSnapshot(viewer, { forceRefresh: query.refresh });
  return read.ok ? { ok: true, data: listOf(read.snapshot, query, viewer.credential) } : read;
}

/**
 * Above this many ACLs the page lints only on request (lint over 100,000 ACLs takes about a second); once run, a
 * snapshot's findings are kept.
 */
export const LINT_ON_LOAD_LIMIT = 20_000;

/**
 * Lint findings per store: a snapshot whose ACLs did not change keeps its store, so lint runs once per change of the
 * ACLs.
 */
const lintCache = new WeakMap<AclStore, Finding[]>();

/** Which cluster a snapshot's store holds the ACLs of (its mapping rules lint them); {} is the default cluster. */
export type ClusterOfStore = Pick<KafkaCredential, "clusterId">;

/**
 * The store's lint findings (with the principal mapping rules of the store's cluster), run
 * when asked or when the store is small; kept per store (a store holds one cluster's ACLs).
 * The ACLs page and the dashboard share them.
 */
export function lintOf(store: AclStore, run: boolean, cluster: ClusterOfStore = {}): Finding[] | null {
  let findings = lintCache.get(store) ?? null;
  if (findings === null && (run || store.size <= LINT_ON_LOAD_LIMIT)) {
    findings = lintAcls(store.bindings(), {
      principalMapping: configuredPrincipalMapping(cluster),
      regexBudget: requestRegexBudget(),
    });
    lintCache.set(store, findings);
  }
  return findings;
}

/** The ACLs the findings of each code are about (flaggedAcls), as binding keys. */
export function flaggedKeys(findings: readonly Finding[]): Map<LintCode, Set<string>> {
  const byCode = new Map<LintCode, Set<string>>();
  for (const f of findings) {
    let keys = byCode.get(f.code);
    if (keys === undefined) byCode.set(f.code, (keys = new Set()));
    for (const b of flaggedAcls(f)) keys.add(bindingKey(b));
  }
  return byCode;
}

/** Per store, once its lint has run. */
const flaggedCache = new WeakMap<AclStore, Map<LintCode, Set<string>>>();

function flaggedBy(store: AclStore, code: LintCode, cluster: ClusterOfStore): ReadonlySet<string> {
  let byCode = flaggedCache.get(store);
  if (byCode === undefined) {
    byCode = flaggedKeys(lintOf(store, true, cluster) ?? []);
    flaggedCache.set(store, byCode);
  }
  return byCode.get(code) ?? new Set();
}

/**
 * The page's data, from the shared snapshot: the page of the list and the lint findings
 * over all ACLs (null when there are more than LINT_ON_LOAD_LIMIT, lint was not asked for
 * and has not run on these ACLs yet).
 */
export async function aclOverview(
  viewer: Viewer,
  query: AclListQuery,
  options: { lint?: boolean } = {},
): Promise<ActionResult<{ list: AclListResult; findings: Finding[] | null }>> {
  const read = await getAclSnapshot(viewer, { forceRefresh: query.refresh });
  if (!read.ok) return read;
  return {
    ok: true,
    data: {
      list: listOf(read.snapshot, query, viewer.credential),
      findings: lintOf(read.snapshot.store, options.lint === true, viewer.credential),
    },
  };
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
  return {
    ok: false,
    code: "VALIDATION",
    message:
      `Nothing was created. Kafka would ` +
      `refuse ${lines.length === 1 ? "this ACL" : "these ACLs"}: ${lines.join("; ")}`,
    fieldErrors,
  };
}

export function auditTarget(bindings: readonly AclBinding[]): string {
  const first = bindings
    .slice(0, 3)
    .map(
      (b) => `${b.resourceType}:${b.resourceName} ${b.patternType} ${b.principal} ${b.operation} ${b.permissionType}`,
    );
  return bindings.length > 3 ? `${first.join("; ")}; and ${bindings.length - 3} more` : first.join("; ");
}

/** Options of an apply: the sealed plan it carries out, if any (recorded on the audit event). */
export interface AclApplyOptions {
  planId?: string | null;
  /**
   * Confirm with later batches (a plan's apply): Kafka's DescribeAcls and the snapshot update happen once in its
   * confirm().
   */
  confirmation?: AclWriteConfirmation;
}

/**
 * The caller's result and the audit outcome of a batch: ok with per-binding outcomes, or a failure when nothing was
 * changed.
 */
function finish(kind: AclApplyResult["kind"], results: BindingResult[]): MutationOutcome<AclApplyResult> {
  const outcome = outcomeOf(results);
  const message = summary(kind, results);
  const firstError = results.find((r) => r.error)?.error ?? null;
  const audit = {
    outcome,
    before:
      kind === "delete"
        ? {
            bindings: results
              .filter((r) => r.ok && (r.deleted ?? 0) > 0)
              .map(({ ok: _ok, deleted: _d, error: _e, ...b }) => b),
          }
        : undefined,
    after: { results },
    kafkaError: firstError?.code ?? null,
    message,
  };
  if (outcome === "denied" || outcome === "failure") {
    const messages = [...new Set(results.map((r) => r.error?.message ?? ""))];
    const text =
      messages.length === 1 ? `${messages[0]} Nothing was ${kind === "create" ? "created" : "deleted"}.` : message;
    return {
      result: { ok: false, code: firstError ? kafkaErrorCode(firstError.code) : "KAFKA_ERROR", message: text },
      audit,
    };
  }
  return { result: { ok: true, data: { kind, outcome, message, results } }, audit };
}

/**
 * One audited batch: the intent (every binding asked for) is recorded before Kafka is
 * called, the per-binding outcome after. A refusal thrown by Kafka for the whole batch
 * becomes a denied/failure outcome; anything else "unknown".
 */
function applyAudited(
  viewer: Viewer,
  kind: AclApplyResult["kind"],
  bindings: readonly AclBinding[],
  options: AclApplyOptions,
  call: (kafka: KafkaWriter) => Promise<BindingResult[]>,
): Promise<ActionResult<AclApplyResult>> {
  return auditedMutation(
    {
      viewer,
      action: `acl.${kind}`,
      category: "acl",
      target: auditTarget(bindings),
      request: { bindings },
      planId: options.planId ?? null,
    },
    async (kafka) => finish(kind, await call(kafka)),
  );
}

/** Creates exactly these bindings as the viewer (after Kafka's validation, all or nothing), audited. */
export async function createAclsAudited(
  viewer: Viewer,
  input: AclBinding[],
  options: AclApplyOptions = {},
): Promise<ActionResult<AclApplyResult>> {
  const bindings = distinctBindings(input);
  const invalid = validationFailure(bindings);
  if (invalid) return invalid;
  let propagating = false;
  const result = await applyAudited(viewer, "create", bindings, options, async (kafka) => {
    const created = await kafka.createAcls(viewer.credential, bindings, { confirmation: options.confirmation });
    propagating = created.some((r) => r.propagating);
    return created.map(({ binding, error, readBack }) => ({
      ...binding,
      ok: error === null,
      error: error ? { code: error.code, message: error.message } : null,
      ...(readBack ? { readBack } : {}),
    }));
  });
  return propagating ? withPropagatingNote(result) : result;
}

/**
 * Said after a write Kafka made but that not every broker showed when the console stopped
 * waiting: a list read at once may be served by a broker that has not applied it yet.
 */
export const PROPAGATING_NOTE =
  "Kafka made the change, but not every broker showed it yet when the console stopped waiting (it is still " +
  "propagating between the brokers): a list read at once may not show it yet.";

function withPropagatingNote(result: ActionResult<AclApplyResult>): ActionResult<AclApplyResult> {
  return result.ok
    ? { ...result, data: { ...result.data, message: `${result.data.message} ${PROPAGATING_NOTE}` } }
    : result;
}

/**
 * The API's one-call answer: a change of which Kafka confirmed nothing while some binding
 * could not be confirmed (its answer lost, the ACLs unreadable) is a 503 whose message
 * says so, not a 200 a script would take for done.
 */
export function unconfirmedAsFailure(result: ActionResult<AclApplyResult>): ActionResult<AclApplyResult> {
  if (!result.ok || result.data.outcome !== "unknown" || result.data.results.some((r) => r.ok)) return result;
  return { ok: false, code: "BROKER_UNAVAILABLE", message: result.data.message };
}

/** The exact filter for one binding: its own pattern type, principal, host, operation and permission. */
export function exactFilter(b: AclBinding): AclBindingFilter {
  return { ...b };
}

/** Deletes exactly these bindings as the viewer, audited. */
export async function deleteAclsAudited(
  viewer: Viewer,
  input: AclBinding[],
  options: AclApplyOptions = {},
): Promise<ActionResult<AclApplyResult>> {
  const bindings = distinctBindings(input);
  let propagating = false;
  const result = await applyAudited(viewer, "delete", bindings, options, async (kafka) => {
    const filters = bindings.map(exactFilter);
    const deleted = await kafka.deleteAcls(viewer.credential, filters, { confirmation: options.confirmation });
    propagating = deleted.some((r) => r.propagating);
    return deleted.map(({ deleted: removed, error, readBack }, i) => {
      const binding = bindings[i]!;
      const settled = readBack ? { readBack } : {};
      if (error)
        return { ...binding, ok: false, deleted: 0, error: { code: error.code, message: error.message }, ...settled };
      if (removed.length === 0)
        return {
          ...binding,
          ok: false,
          deleted: 0,
          error: { code: "NOT_FOUND", message: "Kafka holds no such ACL (already deleted?)" },
        };
      return { ...binding, ok: true, deleted: removed.length, error: null, ...settled };
    });
  });
  return propagating ? withPropagatingNote(result) : result;
}
