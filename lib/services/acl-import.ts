/**
 * ACLs as code: the export of the ACLs the viewer may describe, and the import of a
 * desired-state file as a sealed plan of kind `acl.import`.
 *
 * Export: the shared ACL snapshot (getAclSnapshot: Kafka proves the viewer's DESCRIBE on
 * CLUSTER first), written by acl-io.ts as JSON, CSV or YAML.
 *
 * Import, two modes (computePlan's desired + mode + scope):
 * - add-only: create what the file has and Kafka lacks; never delete;
 * - sync within a scope (principals and/or a resource-name prefix; both given, both must
 *   hold): also delete the ACLs inside the scope that the file lacks.
 * Refused with a clear message, before any plan is made (nothing is ever deleted by them):
 * an empty file; sync without a scope; sync whose file holds no binding inside the scope
 * (it would delete every ACL there: delete those on the ACLs page, deliberately).
 *
 * The plan is an ACL plan like any other (acl-plans.ts: creates, deletes, invalid
 * bindings, blast radius, kafka-acls.sh commands, batches of ACL_APPLY_BATCH each audited
 * with the plan id), plus where it came from (format, file name, mode, scope). Its basis
 * is the ACL plan's basis and, for sync, a fingerprint of every current ACL inside the
 * scope: an ACL added or removed there after the preview would make the sync delete too
 * little or too much, so Apply refuses with 409.
 *
 * Progress: Apply runs batch after batch in one request; each batch is one audit event
 * carrying the plan id, written before Kafka is called and completed after. The progress
 * endpoint counts those events, so it is true on every console instance sharing the
 * database, and says nothing the trail does not.
 */
import "server-only";
import { createHash } from "node:crypto";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { getPlan } from "@/lib/db/change-plan";
import { getPrisma } from "@/lib/db/client";
import { inPlanScope, type AclBinding, type PlanInput, type PlanScope } from "@/lib/policy";
import type { AclImportBody, AclImportProgress, AclImportSource } from "@/lib/schemas/acl-io";
import type { AclImportPlanView, AclPlanApplyResult } from "@/lib/schemas/plans";
import { parseAclFile, serializeAcls, exportFileName, ACL_FILE_CONTENT_TYPES, type AclFileFormat } from "./acl-io";
import { getAclSnapshot, type AclSnapshot } from "./acl-snapshot";
import { ACL_APPLY_BATCH, defineAclPlanKind, prepareAclPlan } from "./acl-plans";
import { aclPlanBasis, aclStaleMessage, type AclPlanPayload } from "./acl-plan-basis";
import { clusterOf } from "@/lib/clusters";
import type { PlanHeader, PlanKind } from "./plan-kind";

type Failure = Extract<ActionResult<never>, { ok: false }>;
type AclImportPreview = Omit<AclImportPlanView, keyof PlanHeader>;

export const ACL_IMPORT_KIND = "acl.import";

// ---- export -------------------------------------------------------------------------------

export interface AclExport {
  body: string;
  contentType: string;
  fileName: string;
  count: number;
}

/** Every ACL the viewer may describe, as a file. */
export async function exportAcls(viewer: Viewer, format: AclFileFormat): Promise<ActionResult<AclExport>> {
  const read = await getAclSnapshot(viewer);
  if (!read.ok) return read;
  const acls = read.snapshot.all();
  const exportedAt = new Date(read.snapshot.takenAt).toISOString();
  return {
    ok: true,
    data: {
      body: serializeAcls(acls, format, { exportedAt }),
      contentType: ACL_FILE_CONTENT_TYPES[format],
      fileName: exportFileName(format, exportedAt),
      count: acls.length,
    },
  };
}

// ---- the import plan ------------------------------------------------------------------------

/** What an acl.import plan is made from: the parsed file and the mode. */
export interface AclImportInput {
  desired: AclBinding[];
  mode: AclImportBody["mode"];
  scope: AclImportBody["scope"];
  source: { format: AclFileFormat; fileName: string | null };
}

const validation = (message: string, field: string): Failure => ({
  ok: false,
  code: "VALIDATION",
  message,
  fieldErrors: { [field]: [message] },
});

/** The body's file parsed (its line-numbered problem as a field error on `content`). */
export function importInputFromBody(body: AclImportBody): ActionResult<AclImportInput> {
  const parsed = parseAclFile(body.content, body.format, body.fileName);
  if (!parsed.ok)
    return validation(`The ${parsed.format.toUpperCase()} file cannot be read. ${parsed.message}`, "content");
  return {
    ok: true,
    data: {
      desired: parsed.bindings,
      mode: body.mode,
      scope: body.scope,
      source: { format: parsed.format, fileName: body.fileName },
    },
  };
}

const EMPTY_FILE =
  "The file holds no ACL binding. An empty file never deletes anything, and there is nothing to create: " +
  "nothing to import.";
const SYNC_WITHOUT_SCOPE =
  "Sync deletes what the file lacks only inside a scope: give principals and/or a resource-name prefix. " +
  "Without a scope it would delete every other ACL of the cluster, so it is refused; nothing is deleted.";
const SYNC_NOTHING_IN_SCOPE =
  "The file holds no binding inside the scope, so sync would delete every ACL there. That is refused (nothing " +
  "is deleted): check the scope, or delete those ACLs on the ACLs page.";

function scopeOf(input: AclImportInput): PlanScope | undefined {
  if (input.mode !== "sync") return undefined;
  const scope: PlanScope = {};
  if (input.scope.principals.length > 0) scope.principals = input.scope.principals;
  if (input.scope.resourcePrefix !== "") scope.resourcePrefix = input.scope.resourcePrefix;
  return scope;
}

/** computePlan's request, or the refusals of the top of this file. */
export function importRequest(input: AclImportInput): ActionResult<Omit<PlanInput, "current">> {
  if (input.desired.length === 0) return validation(EMPTY_FILE, "content");
  const scope = scopeOf(input);
  if (input.mode === "sync") {
    if (scope?.principals === undefined && scope?.resourcePrefix === undefined)
      return validation(SYNC_WITHOUT_SCOPE, "scope");
    if (!input.desired.some((b) => inPlanScope(b, scope))) return validation(SYNC_NOTHING_IN_SCOPE, "scope");
  }
  return { ok: true, data: { desired: input.desired, mode: input.mode, ...(scope ? { scope } : {}) } };
}

/** The fingerprint of every current ACL inside a sync scope (its count first, for the 409 message). */
export function scopeBasis(acls: readonly AclBinding[], scope: PlanScope): string {
  const hash = createHash("sha256");
  let count = 0;
  for (const a of acls) {
    if (!inPlanScope(a, scope)) continue;
    count++;
    hash.update(
      `${a.resourceType}\u0000${a.resourceName}\u0000${a.patternType}\u0000${a.principal}\u0000${a.host}\u0000` +
        `${a.operation}\u0000${a.permissionType}\n`,
      "utf8",
    );
  }
  return `scope1:${count}:${hash.digest("hex").slice(0, 32)}`;
}

/** The import's basis: the ACL plan's basis, then `|` and the scope's (sync only). */
function splitBasis(basis: string): { acl: string; scope: string | null } {
  const at = basis.indexOf("|");
  return at < 0 ? { acl: basis, scope: null } : { acl: basis.slice(0, at), scope: basis.slice(at + 1) };
}

function withScope(aclBasis: string, snapshot: AclSnapshot, scope: PlanScope | undefined): string {
  return scope === undefined ? aclBasis : `${aclBasis}|${scopeBasis(snapshot.all(), scope)}`;
}

/** The scope kept with the plan (payload holds only the creates and deletes). */
interface ImportPayload extends AclPlanPayload {
  scope?: PlanScope;
}

function importStaleMessage(then: string, now: string): string {
  const a = splitBasis(then);
  const b = splitBasis(now);
  if (a.acl !== b.acl) return aclStaleMessage(a.acl, b.acl);
  const [, thenCount] = (a.scope ?? "").split(":");
  const [, nowCount] = (b.scope ?? "").split(":");
  const what = thenCount !== nowCount ? `${thenCount} ACLs then, ${nowCount} now` : "an ACL there was replaced";
  return `The ACLs inside the sync scope changed since this preview (${what}); nothing was changed. Preview again.`;
}

const base = defineAclPlanKind<AclImportInput>(ACL_IMPORT_KIND, importRequest);

export const aclImportPlanKind: PlanKind<
  AclImportBody,
  ImportPayload,
  AclImportPreview,
  Omit<AclPlanApplyResult, "plan">,
  unknown
> = {
  kind: ACL_IMPORT_KIND,
  area: "acl",

  async prepare(viewer, body) {
    const parsed = importInputFromBody(body);
    if (!parsed.ok) return parsed;
    const input = parsed.data;
    const scope = scopeOf(input);
    const request = importRequest(input);
    if (!request.ok) return request;
    // One fresh read for the plan and, for a sync, the scope's fingerprint: both describe
    // the same ACLs, however long the preview takes and whatever other reads refresh the
    // shared snapshot meanwhile (Apply compares contents, never the snapshot's time).
    const read = await getAclSnapshot(viewer, { forceRefresh: true });
    if (!read.ok) return read;
    const prepared = await prepareAclPlan(viewer, request.data, { snapshot: read.snapshot });
    if (!prepared.ok) return prepared;
    const view = prepared.data.preview;
    const source: AclImportSource = {
      format: input.source.format,
      fileName: input.source.fileName,
      bindings: input.desired.length,
      mode: input.mode,
      scope:
        scope === undefined
          ? null
          : { principals: [...(scope.principals ?? [])], resourcePrefix: scope.resourcePrefix ?? "" },
      inScope: scope === undefined ? null : read.snapshot.all().filter((a) => inPlanScope(a, scope)).length,
    };
    const payload: ImportPayload = { ...prepared.data.payload, ...(scope ? { scope } : {}) };
    return {
      ok: true,
      data: {
        ...prepared.data,
        payload,
        preview: { ...view, import: source },
        basis: withScope(prepared.data.basis, read.snapshot, scope),
      },
    };
  },

  async currentBasis(viewer, payload) {
    // Both parts from one DescribeAcls sent now, as the ACL kinds read theirs.
    const read = await getAclSnapshot(viewer, { forceRefresh: true });
    if (!read.ok) return read;
    const a = clusterOf(viewer.credential).authorizer;
    const change = { create: payload.create, delete: payload.delete };
    const aclPart = aclPlanBasis(read.snapshot.store.bindings(), change, {
      superUsers: a.superUsers,
      allowEveryoneIfNoAclFound: a.allowEveryoneIfNoAclFound,
    });
    return { ok: true, data: withScope(aclPart, read.snapshot, payload.scope) };
  },

  staleMessage: importStaleMessage,

  execute: (viewer, plan) =>
    base.execute(viewer, {
      ...plan,
      payload: { create: plan.payload.create, delete: plan.payload.delete },
      basis: splitBasis(plan.basis).acl,
    }),

  rows: (viewer, plan, page) =>
    base.rows!(
      viewer,
      {
        ...plan,
        payload: { create: plan.payload.create, delete: plan.payload.delete },
        basis: splitBasis(plan.basis).acl,
      },
      page,
    ),
};

// ---- progress -------------------------------------------------------------------------------

const batchesOf = (n: number) => Math.ceil(n / ACL_APPLY_BATCH);

/** How far Apply has come (see the top of this file). Only for the plan's own principal. */
export async function importProgress(viewer: Viewer, planId: string): Promise<ActionResult<AclImportProgress>> {
  const plan = await getPlan<ImportPayload>(planId);
  if (plan === null || plan.kind !== ACL_IMPORT_KIND)
    return { ok: false, code: "NOT_FOUND", message: "There is no import plan with this id." };
  if (plan.principal !== viewer.principal)
    return { ok: false, code: "DENIED", message: `This plan was made by ${plan.principal}; only they may follow it.` };
  const events = await getPrisma().auditEvent.findMany({
    where: { planId, action: { in: ["acl.create", "acl.delete"] } },
    select: { request: true, after: true, completedAt: true },
  });
  let sent = 0;
  let succeeded = 0;
  let done = 0;
  for (const e of events) {
    if (e.completedAt === null) continue;
    done++;
    const bindings = (e.request as { bindings?: unknown[] } | null)?.bindings?.length ?? 0;
    const results = (e.after as { results?: { ok?: boolean }[] } | null)?.results;
    sent += bindings;
    succeeded += results?.filter((r) => r.ok === true).length ?? 0;
  }
  const expired = plan.status === "OPEN" && plan.expiresAt.getTime() <= Date.now();
  return {
    ok: true,
    data: {
      planId,
      status: expired ? "EXPIRED" : plan.status,
      total: plan.payload.create.length + plan.payload.delete.length,
      batches: {
        total: batchesOf(plan.payload.delete.length) + batchesOf(plan.payload.create.length),
        done,
        inFlight: events.length - done,
      },
      sent,
      succeeded,
      failed: sent - succeeded,
    },
  };
}
