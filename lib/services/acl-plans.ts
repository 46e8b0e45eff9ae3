/**
 * ACL changes as sealed plans (the kinds acl.create, acl.delete, acl.change; acl.import
 * plugs in through defineAclPlanKind).
 *
 * prepare: the shared ACL snapshot (the viewer's right proven by Kafka) -> computePlan
 * (exact creates and deletes, invalid bindings, no-ops) -> the blast radius over the
 * console's universe (lib/policy/acl/plan-universe.ts: every principal the console knows, every
 * host named in an ACL plus "any other host", every existing resource, every operation
 * kafka-acls.sh allows) -> counts, rules in words, groups, the first rows and the
 * kafka-acls.sh commands.
 *
 * The basis: a hash of the ACLs that can apply to any resource the change can touch
 * (those whose pattern and the change's patterns match a common name), plus the
 * authorizer assumptions. Those ACLs are exactly what the change's effect depends on:
 * an ACL on an unrelated resource changes no decision the plan shows, so a busy cluster
 * does not make every plan stale, while any change to the ACLs deciding the touched
 * resources (or to the bindings themselves) does. Apply reads them again from Kafka.
 *
 * execute: deletes first, then creates, in batches of ACL_APPLY_BATCH, each batch one
 * audited request carrying the plan id; after a batch that did not fully succeed nothing
 * more is sent. The Kafka adapter updates the shared snapshot with what Kafka confirmed.
 *
 * Rows: the blast radius is kept in memory per plan (a few plans per process) for paging;
 * elsewhere it is computed again from the current snapshot when the basis is unchanged
 * (same ACLs deciding the same resources, over the universe stored with the plan).
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { getPrisma } from "@/lib/db/client";
import {
  AclWriteConfirmation,
  describeScramUsers,
  kafkaConfigOf,
  listConsumerGroupsPerBroker,
  listTopics,
  listTransactionalIdsPerBroker,
  unreachableNote,
  type PerBrokerListing,
} from "@/lib/kafka";
import {
  PolicyInputError,
  blastRadius,
  computePlan,
  consoleUniverse,
  type AclBinding,
  type AclPlan,
  type BlastRadius,
  type PlanInput,
  type PlanUniverse,
} from "@/lib/policy";
import { aclTemplateFormSchema } from "@/lib/schemas/acls";
import type { AclDecisionRow, AclPlanApplyResult, AclPlanPreview, AclTemplateBody } from "@/lib/schemas/plans";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { bindingLine } from "./acl-preview";
import { getAclSnapshot, type AclSnapshot } from "./acl-snapshot";
import { createAclsAudited, deleteAclsAudited } from "./acls";
import { lostAnswerLine } from "./acls-outcome";
import { expandTemplate } from "./acls-templates";
import { toAuthorizerConfig } from "@/lib/authorizer-config";
import { clusterOf } from "@/lib/clusters";
import { AUDIT_UNAVAILABLE_MESSAGE } from "./audited-mutation";
import { aclPlanBasis, aclStaleMessage, type AclPlanPayload } from "./acl-plan-basis";
import { aclPlanCommands } from "./cli-equivalent";
import type { PlanContext, PlanKind, PlanRowsPage, PreparedPlan } from "./plan-kind";

type Failure = Extract<ActionResult<never>, { ok: false }>;

/** Bindings per audited Kafka request when a plan is applied. */
export const ACL_APPLY_BATCH = 200;
/**
 * Batches whose changes are confirmed together (one DescribeAcls, then the shared snapshot
 * shows them): Kafka walks every ACL for each DescribeAcls, so confirming each batch made
 * applying slower with every ACL already there. Also confirmed: the last batch, and before
 * Apply answers whatever happened.
 */
export const ACL_CONFIRM_BATCHES = 25;
/** Rows and groups the preview carries; the rest is paged through GET /api/v1/plans/{id}. */
export const FIRST_ROWS = 50;
export const FIRST_GROUPS = 50;

export { aclPlanBasis, aclStaleMessage, relevanceTest, type AclPlanPayload } from "./acl-plan-basis";

interface AclPlanDetail {
  universe: PlanUniverse;
}

// ---- the universe ------------------------------------------------------------------------------

/** Principals of console sessions that have not expired. */
async function sessionPrincipals(now = new Date()): Promise<string[]> {
  const rows = await getPrisma().session.findMany({
    where: { expiresAt: { gt: now } },
    distinct: ["principal"],
    select: { principal: true },
  });
  return rows.map((r) => r.principal);
}

interface UniverseSources {
  topics?: string[];
  groups?: string[];
  transactionalIds?: string[];
  scramUsers?: string[];
  sessionPrincipals?: string[];
  notes: string[];
}

/** Everything the console can list as the viewer; what it cannot is left out with a note. */
async function universeSources(viewer: Viewer): Promise<UniverseSources> {
  const notes: string[] = [];
  const attempt = async <T>(what: string, read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (error) {
      notes.push(
        `${what} could not be listed ` +
          `(${toErrorResult(error, `list ${what.toLowerCase()}`).message.replace(/\.$/, "")}); they are covered ` +
          `only where an ACL names them.`,
      );
      return undefined;
    }
  };
  // A broker that is down leaves out the groups and transactional ids it coordinates: said in the notes.
  const partly = <T>(listing: PerBrokerListing<T>, what: string): T[] => {
    const note = unreachableNote(listing.unreachable, what);
    if (note) notes.push(`${note} They are covered only where an ACL names them.`);
    return listing.items;
  };
  const [topics, groups, transactionalIds, scramUsers, sessions] = await Promise.all([
    attempt("Topics", () => listTopics(viewer.credential)),
    attempt("Consumer groups", async () =>
      partly(await listConsumerGroupsPerBroker(viewer.credential), "groups").map((g) => g.groupId),
    ),
    attempt("Transactional ids", async () =>
      partly(await listTransactionalIdsPerBroker(viewer.credential), "transactional ids").map((t) => t.transactionalId),
    ),
    attempt("SCRAM users", async () =>
      (await describeScramUsers(viewer.credential, null)).filter((u) => u.error === null).map((u) => u.user),
    ),
    attempt("Console sessions", () => sessionPrincipals()),
  ]);
  return { topics, groups, transactionalIds, scramUsers, sessionPrincipals: sessions, notes };
}

// ---- the preview -------------------------------------------------------------------------------

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

function summaryLine(plan: AclPlan, blast: BlastRadius): string {
  const what: string[] = [];
  if (plan.delete.length > 0) what.push(`delete ${plural(plan.delete.length, "ACL")}`);
  if (plan.create.length > 0) what.push(`create ${plural(plan.create.length, "ACL")}`);
  const head = what.length === 0 ? "Nothing to change" : what.join(", then ").replace(/^./, (c) => c.toUpperCase());
  const s = blast.summary();
  const effect =
    s.changes === 0
      ? `no decision changes (${plural(blast.checked, "decision")} compared)`
      : `${plural(s.changes, "decision")} change (${s.gained.toLocaleString("en")} ` +
        `gained, ${s.lost.toLocaleString("en")} lost) for ${plural(s.principals, "principal")} ` +
        `on ${plural(s.resources, "resource")}`;
  const rules =
    blast.rules.length > 0
      ? `, and ${plural(blast.rules.length, "rule")} for principals or resources not yet seen`
      : "";
  return `${head}: ${effect}${rules}.`;
}

function notApplicableReason(plan: AclPlan): string | null {
  if (plan.invalid.length > 0) {
    const lines = plan.invalid.map((i) => i.message.replace(/\.$/, ""));
    return (
      `Kafka would refuse ${plan.invalid.length === 1 ? "one binding" : `${plan.invalid.length} bindings`} ` +
      `(${[...new Set(lines)].join("; ")}); fix ${plan.invalid.length === 1 ? "it" : "them"} and preview again.`
    );
  }
  if (plan.refused) return plan.refused.message;
  if (plan.create.length + plan.delete.length === 0) {
    return plan.noOps.length > 0
      ? "Nothing to change: Kafka already holds every binding to create and none of those to delete."
      : "Nothing to change.";
  }
  return null;
}

function bootstrap(viewer: Viewer): string {
  return kafkaConfigOf(viewer.credential).bootstrapServers.join(",");
}

function firstGroups<T extends { gained: number; lost: number }>(groups: readonly T[], key: (g: T) => string): T[] {
  return [...groups]
    .sort((a, b) => b.gained + b.lost - (a.gained + a.lost) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    .slice(0, FIRST_GROUPS);
}

// Blast radii of recent plans, for paging (insertion order = least recently used first).
const BLAST_CACHE_SIZE = 16;
/**
 * Bindings (creates + deletes) the kept plans may hold together; the most recent plan is
 * kept whatever its size. A blast radius grows with its change (measured: ~30 MB for an
 * import of 5,000 ACLs at 54,000), so sixteen import plans of 10,000 kept the server's RSS
 * near 800 MB after a 100,000-ACL import; a plan no longer kept pages by recomputing.
 */
export const BLAST_CACHE_BINDINGS = 10_000;
const blastCache = new Map<string, { blast: BlastRadius; bindings: number }>();

function remember(id: string, blast: BlastRadius, bindings: number): void {
  blastCache.delete(id);
  blastCache.set(id, { blast, bindings });
  let held = 0;
  for (const e of blastCache.values()) held += e.bindings;
  while (blastCache.size > 1 && (blastCache.size > BLAST_CACHE_SIZE || held > BLAST_CACHE_BINDINGS)) {
    const oldest = blastCache.keys().next().value!;
    held -= blastCache.get(oldest)!.bindings;
    blastCache.delete(oldest);
  }
}

/** Forget every kept blast radius (tests: paging then recomputes from the snapshot). */
export function forgetKeptBlastRadii(): void {
  blastCache.clear();
}

function cached(id: string): BlastRadius | null {
  const kept = blastCache.get(id);
  if (kept === undefined) return null;
  remember(id, kept.blast, kept.bindings);
  return kept.blast;
}

/** The whole preview of a change request against the snapshot. */
export async function prepareAclPlan(
  viewer: Viewer,
  request: Omit<PlanInput, "current">,
  options: {
    notApplicable?: (plan: AclPlan) => string | null;
    /**
     * The snapshot to compute on (a caller that fingerprints more of it, e.g. a sync's scope); default: a fresh read.
     */
    snapshot?: AclSnapshot;
  } = {},
): Promise<ActionResult<PreparedPlan<AclPlanPayload, AclPlanPreview>>> {
  // A fresh read, as Apply's basis check makes one: a plan computed on a snapshot up to
  // ACL_SNAPSHOT_MAX_AGE_MS old would otherwise be refused as stale for a change Kafka had
  // already made before the preview (e.g. by the CLI a moment earlier).
  let snapshot = options.snapshot;
  if (snapshot === undefined) {
    const read = await getAclSnapshot(viewer, { forceRefresh: true });
    if (!read.ok) return read;
    snapshot = read.snapshot;
  }
  // The ACL list, not snapshot.index(): the snapshot is shared by every route bundle of the
  // process (globalThis), and the policy core tells an AclIndex by `instanceof`, which fails
  // for an index built by another bundle's copy of the class. From a list, computePlan and
  // blastRadius index only the ACLs of the names and resources the change touches.
  const current = snapshot.store.bindings();
  let plan: AclPlan;
  try {
    plan = computePlan({ ...request, current });
  } catch (error) {
    if (error instanceof PolicyInputError) return { ok: false, code: "VALIDATION", message: error.message };
    throw error;
  }
  const assumptions = clusterOf(viewer.credential).authorizer;
  const config = toAuthorizerConfig(assumptions);
  const sources = await universeSources(viewer);
  const { universe, otherHost } = consoleUniverse({
    acls: [current, plan.create],
    superUsers: assumptions.superUsers,
    scramUsers: sources.scramUsers,
    sessionPrincipals: sources.sessionPrincipals,
    topics: sources.topics,
    groups: sources.groups,
    transactionalIds: sources.transactionalIds,
  });
  const blast = blastRadius({
    before: current,
    change: { create: plan.create, delete: plan.delete },
    universe,
    config,
  });
  const s = blast.summary();
  const payload: AclPlanPayload = { create: plan.create, delete: plan.delete };
  const shownAssumptions = {
    superUsers: assumptions.superUsers,
    allowEveryoneIfNoAclFound: assumptions.allowEveryoneIfNoAclFound,
  };
  const preview: AclPlanPreview = {
    summary: summaryLine(plan, blast),
    create: plan.create,
    delete: plan.delete,
    invalid: plan.invalid.map((i) => ({ binding: i.binding, message: i.message, from: i.from, index: i.index })),
    noOps: plan.noOps,
    refused: plan.refused ?? null,
    counts: {
      changes: s.changes,
      gained: s.gained,
      lost: s.lost,
      principals: s.principals,
      resources: s.resources,
      checked: blast.checked,
      universe: {
        principals: universe.principals.length,
        hosts: universe.hosts.length,
        resources: universe.resources.length,
        requests: blast.universeRequests,
      },
    },
    rules: blast.rules.map((r) => ({ kind: r.kind, change: r.change, binding: r.binding, text: r.text })),
    byPrincipal: firstGroups(s.byPrincipal, (g) => g.principal),
    byResource: firstGroups(s.byResource, (g) => `${g.resourceType}\u0000${g.resourceName}`),
    firstChanges: blast.page(0, FIRST_ROWS),
    cli: aclPlanCommands(payload, bootstrap(viewer)),
    assumptions: shownAssumptions,
    universeNotes: sources.notes,
    otherHost,
    aclSnapshot: { takenAt: new Date(snapshot.takenAt).toISOString(), size: snapshot.size },
  };
  return {
    ok: true,
    data: {
      payload,
      preview,
      basis: aclPlanBasis(current, payload, shownAssumptions),
      notApplicable: (options.notApplicable ?? notApplicableReason)(plan),
      detail: { universe } satisfies AclPlanDetail,
      onSaved: (id) => remember(id, blast, payload.create.length + payload.delete.length),
    },
  };
}

// ---- apply -------------------------------------------------------------------------------------

type Outcome = AclPlanApplyResult["results"][number];
type ApplyData = Omit<AclPlanApplyResult, "plan">;

/** Whether a failed batch may have changed something in Kafka (its outcome unknown). */
function mayHaveChanged(failure: Failure): boolean {
  if (failure.code === "VALIDATION" || failure.code === "DENIED") return false;
  if (failure.message === AUDIT_UNAVAILABLE_MESSAGE) return false;
  return failure.code === "INTERNAL";
}

/**
 * Carry out exactly the payload: deletes, then creates, in audited batches; stop after a batch that did not fully
 * succeed.
 */
export async function executeAclPlan(
  viewer: Viewer,
  id: string,
  payload: AclPlanPayload,
): Promise<{ result: ActionResult<ApplyData>; changed: boolean }> {
  const results: Outcome[] = [];
  const notSent: ApplyData["notSent"] = [];
  let batches = 0;
  let changed = false;
  let stopped = false;
  let firstFailure: Failure | null = null;
  const steps = [
    ["delete", payload.delete, deleteAclsAudited],
    ["create", payload.create, createAclsAudited],
  ] as const;
  const confirmation = new AclWriteConfirmation();
  try {
    for (const [action, list, apply] of steps) {
      for (let i = 0; i < list.length; i += ACL_APPLY_BATCH) {
        const batch = list.slice(i, i + ACL_APPLY_BATCH);
        if (stopped) {
          notSent.push(...batch.map((b) => ({ ...b, action })));
          continue;
        }
        batches++;
        const r = await apply(viewer, batch, { planId: id, confirmation });
        if (batches % ACL_CONFIRM_BATCHES === 0) await confirmation.confirm(viewer.credential);
        if (!r.ok) {
          firstFailure ??= r;
          if (mayHaveChanged(r)) changed = true;
          results.push(
            ...batch.map((b): Outcome => ({ ...b, action, ok: false, error: { code: r.code, message: r.message } })),
          );
          stopped = true;
          continue;
        }
        for (const x of r.data.results) results.push({ ...x, action });
        if (r.data.results.some((x) => x.ok || x.readBack === "unknown")) changed = true;
        if (r.data.outcome !== "success") stopped = true;
      }
    }
  } finally {
    await confirmation.confirm(viewer.credential);
  }
  const ok = results.filter((r) => r.ok);
  if (ok.length === 0 && firstFailure !== null && notSent.length + results.length > 0) {
    const suffix =
      notSent.length > 0
        ? ` ${plural(notSent.length, "more binding")} ${notSent.length === 1 ? "was" : "were"} not sent.`
        : "";
    return { result: { ...firstFailure, message: `${firstFailure.message}${suffix}` }, changed };
  }
  const unconfirmed = results.filter((r) => r.readBack === "unknown");
  const outcome: ApplyData["outcome"] =
    unconfirmed.length > 0
      ? "unknown"
      : ok.length === results.length && notSent.length === 0
        ? "success"
        : ok.length > 0
          ? "partial"
          : results.every((r) => r.error?.code === "DENIED")
            ? "denied"
            : "failure";
  const deleted = results.filter((r) => r.action === "delete");
  const created = results.filter((r) => r.action === "create");
  const parts: string[] = [];
  if (deleted.length > 0) parts.push(`Deleted ${deleted.filter((r) => r.ok).length} of ${deleted.length}`);
  if (created.length > 0) parts.push(`created ${created.filter((r) => r.ok).length} of ${created.length}`);
  const failed = results.filter((r) => !r.ok && r.readBack !== "unknown");
  const lost = [lostAnswerLine("delete", deleted), lostAnswerLine("create", created)].filter((line) => line !== null);
  let message =
    `${lost.length > 0 ? `${lost.join(" ")} ` : ""}` +
    `${parts.join(", ").replace(/^./, (c) => c.toUpperCase())} ACL${results.length === 1 ? "" : "s"} of ` +
    `the plan.`;
  if (unconfirmed.length > 0)
    message += ` Not confirmed: ${unconfirmed.map((r) => `${r.action} ${bindingLine(r)}`).join("; ")}.`;
  if (failed.length > 0)
    message += ` Failed: ${failed
      .map((r) => `${bindingLine(r)}: ` + `${(r.error?.message ?? "failed").replace(/\.$/, "")}`)
      .join("; ")}.`;
  if (notSent.length > 0) message += ` Not sent after that failure: ${plural(notSent.length, "binding")}.`;
  return { result: { ok: true, data: { outcome, message, batches, results, notSent } }, changed };
}

// ---- rows ------------------------------------------------------------------------------------

async function aclPlanRows(
  viewer: Viewer,
  plan: PlanContext<AclPlanPayload, AclPlanPreview>,
  at: { page: number; pageSize: number },
): Promise<ActionResult<PlanRowsPage<AclDecisionRow>>> {
  const total = plan.view.counts.changes;
  const pages = Math.max(1, Math.ceil(total / at.pageSize));
  let blast = cached(plan.id);
  if (blast === null) {
    const read = await getAclSnapshot(viewer);
    if (!read.ok) return read;
    blast = recompute(read.snapshot, plan);
    if (blast !== null) remember(plan.id, blast, plan.payload.create.length + plan.payload.delete.length);
  }
  if (blast === null) {
    return {
      ok: true,
      data: {
        page: at.page,
        pageSize: at.pageSize,
        total,
        pages,
        rows: at.page === 1 ? plan.view.firstChanges.slice(0, at.pageSize) : [],
        complete: false,
        note:
          "The ACLs this plan depends on changed since the preview, so only its first rows are still known. " +
          "Preview again for the full list.",
      },
    };
  }
  return {
    ok: true,
    data: {
      page: at.page,
      pageSize: at.pageSize,
      total: blast.total,
      pages: Math.max(1, Math.ceil(blast.total / at.pageSize)),
      rows: blast.page((at.page - 1) * at.pageSize, at.pageSize),
      complete: true,
    },
  };
}

/** The plan's blast radius again, when the ACLs it depends on are still the same. */
function recompute(snapshot: AclSnapshot, plan: PlanContext<AclPlanPayload, AclPlanPreview>): BlastRadius | null {
  const detail = plan.detail as AclPlanDetail | null;
  if (detail?.universe === undefined) return null;
  if (aclPlanBasis(snapshot.store.bindings(), plan.payload, plan.view.assumptions) !== plan.basis) return null;
  return blastRadius({
    before: snapshot.store.bindings(),
    change: plan.payload,
    universe: detail.universe,
    config: toAuthorizerConfig({ ...plan.view.assumptions, source: "", warnings: [] }),
  });
}

// ---- the kinds --------------------------------------------------------------------------------

/**
 * An ACL plan kind from a conversion of its input into computePlan's request (create /
 * delete lists, or desired + mode + scope). acl.import uses this too.
 */
export function defineAclPlanKind<I>(
  kind: string,
  toRequest: (input: I) => ActionResult<Omit<PlanInput, "current">>,
  options: { notApplicable?: (plan: AclPlan) => string | null } = {},
): PlanKind<I, AclPlanPayload, AclPlanPreview, ApplyData, AclDecisionRow> {
  return {
    kind,
    area: "acl",
    async prepare(viewer, input) {
      const request = toRequest(input);
      if (!request.ok) return request;
      return prepareAclPlan(viewer, request.data, options);
    },
    async currentBasis(viewer, payload) {
      const read = await getAclSnapshot(viewer, { forceRefresh: true });
      if (!read.ok) return read;
      const a = clusterOf(viewer.credential).authorizer;
      return {
        ok: true,
        data: aclPlanBasis(read.snapshot.store.bindings(), payload, {
          superUsers: a.superUsers,
          allowEveryoneIfNoAclFound: a.allowEveryoneIfNoAclFound,
        }),
      };
    },
    staleMessage: aclStaleMessage,
    execute: (viewer, plan) => executeAclPlan(viewer, plan.id, plan.payload),
    rows: aclPlanRows,
  };
}

/** The template's JSON body as the template form's fields, validated by the same rules as the page. */
export function expandTemplateBody(body: AclTemplateBody): ActionResult<AclBinding[]> {
  const parsed = aclTemplateFormSchema.safeParse({
    ...body,
    topics: body.topics.join(", "),
    inputTopics: body.inputTopics.join(", "),
    outputTopics: body.outputTopics.join(", "),
  });
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(
      Object.entries(fieldErrorsOf(parsed.error.issues)).map(([k, v]) => [`template.${k}`, v]),
    );
    return { ok: false, code: "VALIDATION", message: "The template has invalid fields.", fieldErrors };
  }
  return { ok: true, data: expandTemplate(parsed.data) };
}

export interface AclCreatePlanInput {
  bindings?: AclBinding[];
  template?: AclTemplateBody;
}

export const aclCreatePlanKind = defineAclPlanKind<AclCreatePlanInput>("acl.create", (input) => {
  if (input.template !== undefined) {
    const expanded = expandTemplateBody(input.template);
    return expanded.ok ? { ok: true, data: { create: expanded.data } } : expanded;
  }
  return { ok: true, data: { create: input.bindings ?? [] } };
});

export const aclDeletePlanKind = defineAclPlanKind<{ bindings: AclBinding[] }>("acl.delete", (input) => ({
  ok: true,
  data: { delete: input.bindings },
}));

export const aclChangePlanKind = defineAclPlanKind<{ create?: AclBinding[]; delete?: AclBinding[] }>(
  "acl.change",
  (input) => ({
    ok: true,
    data: { create: input.create ?? [], delete: input.delete ?? [] },
  }),
);

export const ACL_PLAN_KINDS = [aclCreatePlanKind, aclDeletePlanKind, aclChangePlanKind] as const;
