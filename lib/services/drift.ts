/**
 * Drift (#20, docs/drift.md): the changes of ACLs, quotas and SCRAM users the journal's
 * background read found made outside the console, per cluster, newest first, grouped by the
 * read (window) that found them; and what is decided about each:
 *
 *   - "keep it": acknowledgeDrift records the decision with a mandatory comment, audited
 *     (drift.acknowledge); cluster admins only (the people who could revert it);
 *   - "revert it": revertDrift makes the sealed plan that restores the state before (an ACL
 *     that appeared is deleted, one that disappeared created again; a quota entry set back),
 *     as the viewer, through the normal plan flow (preview, apply, or the cluster's approvals),
 *     and links it to the changes: they count as reverted once the plan is applied.
 *
 * Who sees what follows the audit trail (lib/services/audit-view.ts, the same rights from Kafka):
 * drift-model.ts#driftVisibility.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { clusterIdOf, clusterOf } from "@/lib/clusters";
import { completeAudit, recordIntent } from "@/lib/db/audit";
import {
  acknowledge,
  acknowledgementsOf,
  countOpenOutsideEntries,
  journalSince,
  listOutsideEntries,
  recordRevertPlan,
  revertsOf,
  valueBefore,
  type DriftEntryRow,
  type DriftFilter,
} from "@/lib/db/drift";
import type { Json } from "@/lib/policy/history";
import {
  DRIFT_BLIND_SPOTS,
  DRIFT_PAGE_SIZE,
  type DriftAcknowledgeBody,
  type DriftAcknowledgeResult,
  type DriftEntry,
  type DriftListQuery,
  type DriftPage,
  type DriftRevertBody,
} from "@/lib/schemas/drift";
import { auditRightsFor } from "./audit-view";
import {
  describeDriftVisibility,
  describeRow,
  driftVisibility,
  groupByRead,
  revertPlanOf,
  scramKeyPrefix,
  toGroup,
  type DriftRow,
  type DriftVisibility,
} from "./drift-model";
import { createPlan, type PlanView } from "./plans";

/** The open count stops here (the dashboard says "1000+"). */
export const OPEN_COUNT_CAP = 1000;

export function filterOf(v: DriftVisibility): DriftFilter {
  return { all: v.all, kinds: v.kinds, scramPrefix: v.scramUser === null ? null : scramKeyPrefix(v.scramUser) };
}

/** A journal row as drift describes it (a console change, from a timeline, is described the same way). */
export function rowOf(r: Omit<DriftEntryRow, "origin"> & { origin: string }): DriftRow {
  return {
    id: r.id.toString(),
    key: r.key,
    kind: r.kind,
    op: r.op,
    value: r.value,
    from: r.windowFrom,
    to: r.windowTo,
    origin: r.origin === "observed" ? "observed" : "outside",
  };
}

async function entriesOf(rows: readonly DriftEntryRow[]): Promise<(DriftEntry & { from: Date; to: Date })[]> {
  const ids = rows.map((r) => r.id);
  const [acks, reverts] = await Promise.all([acknowledgementsOf(ids), revertsOf(ids)]);
  return rows.map((r) => {
    const row = rowOf(r);
    const d = describeRow(row);
    const ack = acks.get(row.id);
    const plans = reverts.get(row.id) ?? [];
    const revert = plans.find((p) => p.status === "APPLIED") ?? plans[0] ?? null;
    const { notRevertable, ...described } = d;
    return {
      id: row.id,
      op: row.op,
      origin: row.origin,
      from: row.from,
      to: row.to,
      ...described,
      acknowledged: ack ? { by: ack.actor, at: ack.createdAt.toISOString(), comment: ack.comment } : null,
      revert: revert
        ? {
            planId: revert.planId,
            status:
              revert.status === "OPEN" && revert.expiresAt !== null && revert.expiresAt.getTime() <= Date.now()
                ? "EXPIRED"
                : revert.status,
            by: revert.actor,
            appliedAt: revert.appliedAt?.toISOString() ?? null,
          }
        : null,
      notRevertable,
    };
  });
}

export async function rightsOf(viewer: Viewer) {
  const rights = await auditRightsFor(viewer);
  const visibility = driftVisibility(rights);
  return { rights, visibility, filter: filterOf(visibility) };
}

/** One page of the outside changes the viewer may see, newest first, grouped by read. */
export async function listDriftFor(viewer: Viewer, query: DriftListQuery = {}): Promise<ActionResult<DriftPage>> {
  try {
    const cluster = clusterOf(viewer.credential);
    const clusterId = clusterIdOf(viewer.credential);
    const { rights, visibility, filter } = await rightsOf(viewer);
    const limit = query.limit ?? DRIFT_PAGE_SIZE;
    const [rows, open, since] = await Promise.all([
      listOutsideEntries(clusterId, filter, {
        beforeId: query.cursor === undefined ? undefined : BigInt(query.cursor),
        limit: limit + 1,
        openOnly: query.status === "open",
      }),
      countOpenOutsideEntries(clusterId, filter, OPEN_COUNT_CAP + 1),
      journalSince(clusterId),
    ]);
    const page = rows.slice(0, limit);
    const entries = await entriesOf(page);
    const groups = groupByRead(entries).map((g) =>
      toGroup({ ...g, entries: g.entries.map(({ from: _f, to: _t, ...e }) => e) }),
    );
    return {
      ok: true,
      data: {
        groups,
        nextCursor: rows.length > limit ? page[page.length - 1]!.id.toString() : null,
        open: Math.min(open, OPEN_COUNT_CAP),
        openMore: open > OPEN_COUNT_CAP,
        visibility: describeDriftVisibility(rights, visibility),
        problems: rights.problems,
        blindSpots: [...DRIFT_BLIND_SPOTS],
        reading: {
          intervalSeconds: cluster.history.intervalSeconds,
          servicePrincipal: cluster.servicePrincipal !== undefined && cluster.servicePrincipal !== null,
          since: since?.toISOString() ?? null,
        },
        mayDecide: rights.superUser || rights.clusterAdmin,
      },
    };
  } catch (error) {
    return toErrorResult(error, "list the changes made outside the console");
  }
}

/** The named entries, if the viewer may see every one of them on this cluster. */
async function namedEntries(
  viewer: Viewer,
  ids: readonly string[],
  filter: DriftFilter,
): Promise<ActionResult<DriftEntryRow[]>> {
  const wanted = [...new Set(ids)].map((id) => BigInt(id));
  const rows = await listOutsideEntries(clusterIdOf(viewer.credential), filter, {
    ids: wanted,
    limit: wanted.length,
  });
  const found = new Set(rows.map((r) => r.id.toString()));
  const missing = wanted.map(String).filter((id) => !found.has(id));
  if (missing.length > 0)
    return {
      ok: false,
      code: "NOT_FOUND",
      message:
        `No outside change you may see on this cluster has the id ${missing.slice(0, 5).join(", ")}` +
        `${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ""}. Nothing was recorded.`,
      fieldErrors: { entryIds: ["Unknown or not visible to you"] },
    };
  return { ok: true, data: rows };
}

/** "Keep it": acknowledge outside changes with a comment, audited. Cluster admins only. */
export async function acknowledgeDrift(
  viewer: Viewer,
  body: DriftAcknowledgeBody,
): Promise<ActionResult<DriftAcknowledgeResult>> {
  try {
    const { rights, filter } = await rightsOf(viewer);
    if (!rights.superUser && !rights.clusterAdmin)
      return {
        ok: false,
        code: "DENIED",
        message:
          "Only cluster admins (ALTER on CLUSTER, or a super user) may keep an outside change: they are the ones " +
          "who could revert it. Nothing was recorded.",
      };
    const named = await namedEntries(viewer, body.entryIds, filter);
    if (!named.ok) return named;
    const rows = named.data;
    const described = rows.map((r) => describeRow(rowOf(r)));
    const kinds = new Set(described.map((d) => d.kind));
    const category = kinds.size === 1 && (kinds.has("acl") || kinds.has("quota")) ? [...kinds][0]! : "other";
    const clusterId = clusterIdOf(viewer.credential);
    const audit = await recordIntent({
      principal: viewer.principal,
      action: "drift.acknowledge",
      category: category as "acl" | "quota" | "other",
      target:
        rows.length === 1
          ? `outside change ${rows[0]!.id}: ${described[0]!.summary}`
          : `${rows.length} outside changes (${rows.map((r) => r.id.toString()).join(", ")})`.slice(0, 500),
      request: { entryIds: rows.map((r) => r.id.toString()), comment: body.comment },
      subjects: [...new Set(described.flatMap((d) => d.principals))].slice(0, 50),
      clusterId,
    });
    const made = await acknowledge(
      clusterId,
      rows.map((r) => r.id),
      { actor: viewer.principal, comment: body.comment, auditId: audit.id },
    );
    const already = rows.length - made;
    await completeAudit(audit.id, {
      outcome: "success",
      message:
        `Kept ${made} outside change${made === 1 ? "" : "s"}` +
        `${already > 0 ? ` (${already} acknowledged before, left as they were)` : ""}.`,
    });
    return { ok: true, data: { acknowledged: made, already, auditId: audit.id } };
  } catch (error) {
    return toErrorResult(error, "acknowledge the outside changes");
  }
}

/**
 * "Revert it": the sealed plan that restores the state before the named outside changes, made as
 * the viewer (what the plan page previews, applies or sends for approval), linked to them.
 */
export async function revertDrift(viewer: Viewer, body: DriftRevertBody): Promise<ActionResult<PlanView>> {
  try {
    const { filter } = await rightsOf(viewer);
    const named = await namedEntries(viewer, body.entryIds, filter);
    if (!named.ok) return named;
    const rows = named.data;
    const reverts = await revertsOf(rows.map((r) => r.id));
    const done = rows.find((r) => (reverts.get(r.id.toString()) ?? []).some((p) => p.status === "APPLIED"));
    if (done) {
      const plan = reverts.get(done.id.toString())!.find((p) => p.status === "APPLIED")!;
      return {
        ok: false,
        code: "CONFLICT",
        message: `The outside change ${done.id} was already reverted (plan ${plan.planId}). Nothing was planned.`,
      };
    }
    const clusterId = clusterIdOf(viewer.credential);
    const before = new Map<string, Json | undefined>();
    for (const r of rows)
      if (r.kind === "quota") before.set(r.id.toString(), await valueBefore(clusterId, r.key, r.id));
    const plan = revertPlanOf(rows.map(rowOf), (row) => before.get(row.id));
    if (!plan.ok) return { ok: false, code: "VALIDATION", message: plan.message };
    const made = await createPlan(viewer, plan.kind, plan.input);
    if (!made.ok) return made;
    await recordRevertPlan(
      clusterId,
      rows.map((r) => r.id),
      made.data.id,
      viewer.principal,
    );
    return made;
  } catch (error) {
    return toErrorResult(error, "plan the revert of the outside changes");
  }
}
