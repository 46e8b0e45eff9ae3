/**
 * Drift's pure part (#20, docs/drift.md): what an outside change is in words, which the viewer
 * may see (the audit trail's rules), how a page groups them by the read that found them, and the
 * sealed plan that reverts them. No I/O: lib/services/drift.ts reads and writes.
 */
import { formatEntity, type AclBinding, type QuotaEntity, type QuotaKey } from "@/lib/policy";
import { HISTORY_KINDS, parseKey, type HistoryKind, type Json } from "@/lib/policy/history";
import type { DriftEntry, DriftGroup } from "@/lib/schemas/drift";

/** Which outside changes a viewer sees (lib/services/audit-view.ts's rights, the same rules). */
export interface DriftVisibility {
  /** Super users and cluster admins: every change. */
  all: boolean;
  /** Kinds seen whole: acl (DESCRIBE on CLUSTER), quota (DESCRIBE_CONFIGS on CLUSTER). */
  kinds: HistoryKind[];
  /** SCRAM changes of this user only (one's own credentials), as the audit trail shows them. */
  scramUser: string | null;
}

export interface DriftRights {
  principal: string;
  superUser: boolean;
  acls: boolean;
  quotas: boolean;
  clusterAdmin: boolean;
}

export function userName(principal: string): string {
  const colon = principal.indexOf(":");
  return colon >= 0 ? principal.slice(colon + 1) : principal;
}

/**
 * As the audit trail decides (docs/audit.md): ACL changes for whoever may describe ACLs, quota
 * changes for whoever may describe client quotas, SCRAM changes for cluster admins and the user
 * whose credential it is, console settings for cluster admins; super users and cluster admins all.
 */
export function driftVisibility(rights: DriftRights): DriftVisibility {
  if (rights.superUser || rights.clusterAdmin) return { all: true, kinds: [...HISTORY_KINDS], scramUser: null };
  const kinds: HistoryKind[] = [];
  if (rights.acls) kinds.push("acl");
  if (rights.quotas) kinds.push("quota");
  return { all: false, kinds, scramUser: userName(rights.principal) };
}

/** The prefix every SCRAM key of `user` starts with (keys are canonical JSON: no other key shares it). */
export function scramKeyPrefix(user: string): string {
  return `${JSON.stringify(["scram", user]).slice(0, -1)},`;
}

export function entryVisible(v: DriftVisibility, entry: { kind: string; key: string }): boolean {
  if (v.all || (v.kinds as string[]).includes(entry.kind)) return true;
  return entry.kind === "scram" && v.scramUser !== null && entry.key.startsWith(scramKeyPrefix(v.scramUser));
}

/** In words, for the page and the API answer. */
export function describeDriftVisibility(rights: DriftRights, v: DriftVisibility): string[] {
  if (rights.superUser) return ["Every outside change: you are a super user."];
  if (v.all) return ["Every outside change: you are a cluster admin (ALTER on CLUSTER)."];
  return [
    v.kinds.includes("acl")
      ? "ACL changes: Kafka lets you describe ACLs (DESCRIBE on CLUSTER)."
      : "No ACL changes: Kafka does not let you describe ACLs (DESCRIBE on CLUSTER).",
    v.kinds.includes("quota")
      ? "Quota changes: Kafka lets you describe client quotas (DESCRIBE_CONFIGS on CLUSTER)."
      : "No quota changes: Kafka does not let you describe client quotas (DESCRIBE_CONFIGS on CLUSTER).",
    "Changes to your own SCRAM credentials; those of others and console settings are for cluster admins.",
  ];
}

/** A journal entry as drift needs it. */
export interface DriftRow {
  id: string;
  key: string;
  kind: string;
  op: "appeared" | "disappeared";
  value: Json;
  from: Date;
  to: Date;
  origin: "outside" | "observed";
}

const BINDING_WORDS = (b: AclBinding) =>
  `${b.permissionType} ${b.principal} ${b.operation} on ${b.resourceType} ${JSON.stringify(b.resourceName)}` +
  `${b.patternType === "LITERAL" ? "" : ` (${b.patternType})`} from host ${b.host}`;

function resourceOf(b: AclBinding): string {
  return `${b.resourceType}:${b.resourceName}${b.patternType === "LITERAL" ? "" : ` (${b.patternType})`}`;
}

const valueText = (v: Json) => (typeof v === "string" ? v : JSON.stringify(v));

/** What the change is, in words, and what it touches. */
export function describeRow(row: DriftRow): Pick<
  DriftEntry,
  "kind" | "what" | "summary" | "binding" | "resources" | "principals"
> & {
  notRevertable: string | null;
} {
  const p = parseKey(row.key);
  const went = row.op === "appeared" ? "appeared" : "disappeared";
  switch (p.kind) {
    case "acl":
      return {
        kind: "acl",
        what: "ACL binding",
        summary: `${row.op === "appeared" ? "Added" : "Removed"}: ${BINDING_WORDS(p.binding)}`,
        binding: p.binding,
        resources: [resourceOf(p.binding)],
        principals: [p.binding.principal],
        notRevertable: null,
      };
    case "quota":
      return {
        kind: "quota",
        what: "quota entry",
        summary:
          row.op === "appeared"
            ? `Set: ${p.quotaKey} = ${valueText(row.value)} for ${formatEntity(p.entity)}`
            : `Removed: ${p.quotaKey} for ${formatEntity(p.entity)}`,
        binding: null,
        resources: [formatEntity(p.entity)],
        principals: p.entity.user ? [`User:${p.entity.user}`] : [],
        notRevertable: null,
      };
    case "scram":
      return {
        kind: "scram",
        what: "SCRAM credential",
        summary:
          row.op === "appeared"
            ? `${p.mechanism} credential of ${p.user} ${went} (${valueText(row.value)} iterations)`
            : `${p.mechanism} credential of ${p.user} ${went}`,
        binding: null,
        resources: [],
        principals: [`User:${p.user}`],
        notRevertable:
          "A SCRAM credential cannot be restored: the journal never holds a password, salt or hash. Set or delete " +
          "it on the SCRAM users page.",
      };
    case "setting":
      return {
        kind: "setting",
        what: "console setting",
        summary: `The console's ${p.name} ${row.op === "appeared" ? `became ${valueText(row.value)}` : "was removed"}`,
        binding: null,
        resources: [`console setting ${p.name}`],
        principals: [],
        notRevertable: "A console setting: change it in the console's configuration.",
      };
  }
}

const time = (d: Date) => d.toISOString().slice(11, 19);
const day = (d: Date) => d.toISOString().slice(0, 10);

/** "between 14:02:10 and 14:02:40 UTC on 2026-12-06" (dates on both ends when they differ). */
export function windowWords(from: Date, to: Date): string {
  if (day(from) === day(to)) return `between ${time(from)} and ${time(to)} UTC on ${day(from)}`;
  return `between ${day(from)} ${time(from)} and ${day(to)} ${time(to)} UTC`;
}

/** Entries (newest first) grouped by the read that found them: same window, same origin, in order. */
export function groupByRead<E extends { from: Date; to: Date; origin: "outside" | "observed" }>(
  entries: readonly E[],
): { from: Date; to: Date; origin: "outside" | "observed"; entries: E[] }[] {
  const groups: { from: Date; to: Date; origin: "outside" | "observed"; entries: E[] }[] = [];
  for (const e of entries) {
    const last = groups[groups.length - 1];
    if (
      last &&
      last.origin === e.origin &&
      last.from.getTime() === e.from.getTime() &&
      last.to.getTime() === e.to.getTime()
    )
      last.entries.push(e);
    else groups.push({ from: e.from, to: e.to, origin: e.origin, entries: [e] });
  }
  return groups;
}

export function toGroup(g: {
  from: Date;
  to: Date;
  origin: "outside" | "observed";
  entries: DriftEntry[];
}): DriftGroup {
  return {
    from: g.from.toISOString(),
    to: g.to.toISOString(),
    window: windowWords(g.from, g.to),
    origin: g.origin,
    entries: g.entries,
  };
}

/** The plan input that restores the state before the changes; or why there is none. */
export type RevertPlan =
  | { ok: true; kind: "acl.create"; input: { bindings: AclBinding[] } }
  | { ok: true; kind: "acl.delete"; input: { bindings: AclBinding[] } }
  | { ok: true; kind: "acl.change"; input: { delete: AclBinding[]; create: AclBinding[] } }
  | { ok: true; kind: "quota.alter"; input: { entity: QuotaEntity; key: QuotaKey; value: number | null } }
  | { ok: false; message: string };

/**
 * An ACL that appeared outside is deleted, one that disappeared is created again; a quota entry
 * goes back to the value it had before (`before`: the value before the change, null: none), one
 * at a time (a quota plan changes one key of one entity). SCRAM credentials and settings cannot.
 */
export function revertPlanOf(rows: readonly DriftRow[], before: (row: DriftRow) => Json | undefined): RevertPlan {
  if (rows.length === 0) return { ok: false, message: "Name at least one outside change to revert." };
  const kinds = new Set(rows.map((r) => parseKey(r.key).kind));
  for (const r of rows) {
    const why = describeRow(r).notRevertable;
    if (why) return { ok: false, message: why };
  }
  if (kinds.has("quota")) {
    if (rows.length > 1)
      return {
        ok: false,
        message: "Quota changes are reverted one at a time (a quota plan changes one key of one entity).",
      };
    const row = rows[0]!;
    const p = parseKey(row.key);
    if (p.kind !== "quota") return { ok: false, message: "Not a quota change." };
    const was = before(row);
    if (was === undefined)
      return {
        ok: false,
        message: "The value before this change is no longer in the journal (retention): it cannot be restored.",
      };
    if (was !== null && typeof was !== "number")
      return { ok: false, message: "The value before this change is not a number; it cannot be restored." };
    return { ok: true, kind: "quota.alter", input: { entity: p.entity, key: p.quotaKey, value: was } };
  }
  // Newest first: the last change of a binding decides what "before the changes" was, so each
  // binding is restored to its state before the oldest change named.
  const oldestFirst = [...rows].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const seen = new Map<string, { binding: AclBinding; op: DriftRow["op"] }>();
  for (const r of oldestFirst) {
    const p = parseKey(r.key);
    if (p.kind === "acl" && !seen.has(r.key)) seen.set(r.key, { binding: p.binding, op: r.op });
  }
  const del = [...seen.values()].filter((s) => s.op === "appeared").map((s) => s.binding);
  const create = [...seen.values()].filter((s) => s.op === "disappeared").map((s) => s.binding);
  if (create.length === 0) return { ok: true, kind: "acl.delete", input: { bindings: del } };
  if (del.length === 0) return { ok: true, kind: "acl.create", input: { bindings: create } };
  return { ok: true, kind: "acl.change", input: { delete: del, create } };
}

/** At most this many changes are described in one drift.found notification (the rest are counted). */
export const DRIFT_NOTIFY_LISTED = 20;

/**
 * The drift.found notification of one read: the window, how many changes of each kind, and the
 * first DRIFT_NOTIFY_LISTED in words (principals and resources, never a secret: SCRAM changes say
 * mechanism and iterations only).
 */
export function driftNotification(
  rows: readonly Pick<DriftRow, "key" | "kind" | "op" | "value">[],
  window: { from: Date; to: Date; origin: "outside" | "observed" },
): { fields: Record<string, unknown>; text: string } {
  const kinds: Record<string, number> = {};
  for (const r of rows) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
  const described = rows
    .slice(0, DRIFT_NOTIFY_LISTED)
    .map((r) => describeRow({ ...r, id: "", from: window.from, to: window.to, origin: window.origin }).summary);
  const when =
    window.origin === "observed"
      ? `after a gap in reading, ${windowWords(window.from, window.to)}`
      : windowWords(window.from, window.to);
  return {
    fields: {
      drift: {
        changes: rows.length,
        kinds,
        windowFrom: window.from.toISOString(),
        windowTo: window.to.toISOString(),
        origin: window.origin,
        listed: described,
      },
    },
    text:
      `${rows.length} change${rows.length === 1 ? "" : "s"} made outside the console ${when}: ` +
      `${described.slice(0, 3).join("; ")}${rows.length > 3 ? "; …" : ""} (see the Drift page)`,
  };
}
