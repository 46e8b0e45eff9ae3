/**
 * Drift's storage (#20, docs/drift.md): outside changes are the journal's entries of origin
 * outside or observed (lib/db/journal.ts); this module reads them as one viewer may see them
 * (newest first, paged by entry id, bounded) and keeps what was decided about them:
 * acknowledgements ("keep it") and the plans made to revert them.
 */
import { getPrisma } from "./client";
import { Prisma } from "../generated/prisma/client";
import type { Json } from "../policy/history";
import { checkpointBeforeEntry } from "./journal";

export interface DriftFilter {
  all: boolean;
  kinds: readonly string[];
  /** SCRAM keys of one user start with this (canonical JSON). */
  scramPrefix: string | null;
}

export interface DriftEntryRow {
  id: bigint;
  key: string;
  kind: string;
  op: "appeared" | "disappeared";
  value: Json;
  windowFrom: Date;
  windowTo: Date;
  origin: "outside" | "observed";
}

function visible(f: DriftFilter): Prisma.Sql {
  if (f.all) return Prisma.sql`TRUE`;
  const scram =
    f.scramPrefix === null
      ? Prisma.sql`FALSE`
      : Prisma.sql`(e.kind = 'scram' AND left(e.key, ${f.scramPrefix.length}::int) = ${f.scramPrefix})`;
  return Prisma.sql`(e.kind = ANY(${[...f.kinds]}::text[]) OR ${scram})`;
}

const OPEN = Prisma.sql`NOT EXISTS (SELECT 1 FROM drift_acknowledgement a WHERE a.entry_id = e.id)
  AND NOT EXISTS (SELECT 1 FROM drift_revert r JOIN change_plan p ON p.id = r.plan_id
                  WHERE r.entry_id = e.id AND p.status = 'APPLIED')`;

/** Outside changes the filter lets through, newest first, before `beforeId` (a page of `limit`). */
export async function listOutsideEntries(
  clusterId: string,
  filter: DriftFilter,
  options: { beforeId?: bigint; limit: number; openOnly?: boolean; ids?: readonly bigint[] },
): Promise<DriftEntryRow[]> {
  const before = options.beforeId === undefined ? Prisma.sql`TRUE` : Prisma.sql`e.id < ${options.beforeId}`;
  const open = options.openOnly ? OPEN : Prisma.sql`TRUE`;
  const ids = options.ids === undefined ? Prisma.sql`TRUE` : Prisma.sql`e.id = ANY(${[...options.ids]}::bigint[])`;
  return getPrisma().$queryRaw<DriftEntryRow[]>`
    SELECT e.id, e.key, e.kind, e.op, e.value, e.window_from AS "windowFrom", e.window_to AS "windowTo", e.origin
    FROM journal_entry e
    WHERE e.cluster_id = ${clusterId} AND e.origin IN ('outside', 'observed')
      AND ${visible(filter)} AND ${before} AND ${open} AND ${ids}
    ORDER BY e.id DESC
    LIMIT ${options.limit}`;
}

/** One thing's journal entries (any origin), as its timeline shows them. */
export interface TimelineRow extends Omit<DriftEntryRow, "origin"> {
  origin: "console" | "outside" | "observed";
  auditId: string | null;
  planId: string | null;
  actor: string | null;
}

/** What a timeline is of: one key, every key starting with a prefix, or every entry naming a principal. */
export type TimelineSubject = { key: string } | { keyPrefix: string } | { principal: string };

/** The subject's entries the filter lets through, newest first, before `beforeId` (a page of `limit`). */
export async function timelineEntries(
  clusterId: string,
  subject: TimelineSubject,
  filter: DriftFilter,
  options: { beforeId?: bigint; limit: number },
): Promise<TimelineRow[]> {
  const before = options.beforeId === undefined ? Prisma.sql`TRUE` : Prisma.sql`e.id < ${options.beforeId}`;
  const which =
    "key" in subject
      ? Prisma.sql`e.key = ${subject.key}`
      : "keyPrefix" in subject
        ? Prisma.sql`left(e.key, ${subject.keyPrefix.length}::int) = ${subject.keyPrefix}`
        : Prisma.sql`e.principal = ${subject.principal}`;
  return getPrisma().$queryRaw<TimelineRow[]>`
    SELECT e.id, e.key, e.kind, e.op, e.value, e.window_from AS "windowFrom", e.window_to AS "windowTo", e.origin,
           e.audit_id AS "auditId", e.plan_id AS "planId", e.actor
    FROM journal_entry e
    WHERE e.cluster_id = ${clusterId} AND ${which} AND ${visible(filter)} AND ${before}
    ORDER BY e.id DESC
    LIMIT ${options.limit}`;
}

/** How many outside changes the filter lets through are neither acknowledged nor reverted (stops at `cap`). */
export async function countOpenOutsideEntries(clusterId: string, filter: DriftFilter, cap: number): Promise<number> {
  const rows = await getPrisma().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM (
      SELECT 1 FROM journal_entry e
      WHERE e.cluster_id = ${clusterId} AND e.origin IN ('outside', 'observed') AND ${visible(filter)} AND ${OPEN}
      LIMIT ${cap}) t`;
  return Number(rows[0]?.n ?? 0);
}

export interface StoredAcknowledgement {
  entryId: bigint;
  actor: string;
  comment: string;
  createdAt: Date;
}

export async function acknowledgementsOf(ids: readonly bigint[]): Promise<Map<string, StoredAcknowledgement>> {
  if (ids.length === 0) return new Map();
  const rows = await getPrisma().driftAcknowledgement.findMany({ where: { entryId: { in: [...ids] } } });
  return new Map(rows.map((r) => [r.entryId.toString(), r]));
}

export interface StoredRevert {
  entryId: bigint;
  planId: string;
  actor: string;
  createdAt: Date;
  status: string;
  appliedAt: Date | null;
  expiresAt: Date | null;
}

/** The plans made to revert these entries, with their status (newest first per entry). */
export async function revertsOf(ids: readonly bigint[]): Promise<Map<string, StoredRevert[]>> {
  if (ids.length === 0) return new Map();
  const prisma = getPrisma();
  const rows = await prisma.driftRevert.findMany({
    where: { entryId: { in: [...ids] } },
    orderBy: { createdAt: "desc" },
  });
  const plans = await prisma.changePlan.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.planId))] } },
    select: { id: true, status: true, appliedAt: true, expiresAt: true },
  });
  const byId = new Map(plans.map((p) => [p.id, p]));
  const out = new Map<string, StoredRevert[]>();
  for (const r of rows) {
    const p = byId.get(r.planId);
    const list = out.get(r.entryId.toString()) ?? [];
    list.push({
      entryId: r.entryId,
      planId: r.planId,
      actor: r.actor,
      createdAt: r.createdAt,
      status: p?.status ?? "REMOVED",
      appliedAt: p?.appliedAt ?? null,
      expiresAt: p?.expiresAt ?? null,
    });
    out.set(r.entryId.toString(), list);
  }
  return out;
}

/** Records acknowledgements; those that exist stay as they were. Answers how many were new. */
export async function acknowledge(
  clusterId: string,
  entryIds: readonly bigint[],
  by: { actor: string; comment: string; auditId: string },
): Promise<number> {
  const made = await getPrisma().driftAcknowledgement.createMany({
    data: entryIds.map((entryId) => ({ entryId, clusterId, ...by })),
    skipDuplicates: true,
  });
  return made.count;
}

export async function recordRevertPlan(
  clusterId: string,
  entryIds: readonly bigint[],
  planId: string,
  actor: string,
): Promise<void> {
  await getPrisma().driftRevert.createMany({
    data: entryIds.map((entryId) => ({ entryId, planId, clusterId, actor })),
    skipDuplicates: true,
  });
}

/** The value of `key` just before entry `entryId` (undefined: the journal no longer knows). */
export async function valueBefore(clusterId: string, key: string, entryId: bigint): Promise<Json | undefined> {
  const prisma = getPrisma();
  const previous = await prisma.journalEntry.findFirst({
    where: { clusterId, key, id: { lt: entryId } },
    orderBy: { id: "desc" },
    select: { op: true, value: true },
  });
  if (previous) return previous.op === "appeared" ? ((previous.value ?? null) as Json) : null;
  // No earlier entry: the key's value in the newest checkpoint before the entry (the journal's beginning).
  const checkpoint = await checkpointBeforeEntry(clusterId, entryId);
  if (checkpoint === null) return undefined;
  return checkpoint.has(key) ? checkpoint.get(key)! : null;
}

/** When the journal of the cluster began (its first successful read still kept); null: not yet. */
export async function journalSince(clusterId: string): Promise<Date | null> {
  const row = await getPrisma().journalCoverage.findFirst({
    where: { clusterId },
    orderBy: { coveredFrom: "asc" },
    select: { coveredFrom: true },
  });
  return row?.coveredFrom ?? null;
}
