/**
 * "What changed in P's access between T1 and T2" (#20, docs/history.md): every decision the
 * principal gained or lost in the period, each with the change set that caused it, computed by
 * the policy core (principalChanges) from the history journal: the state at T1 (the nearest
 * checkpoint and the entries after it) and the entries whose window ended in (T1, T2].
 *
 * Cost grows with what bears on the principal, not with the cluster: with
 * allow.everyone.if.no.acl.found false throughout, only entries naming the principal or `User:*`
 * and the console's settings are read (the journal's principal column), and only those keys of
 * the checkpoint are kept. With it true, other principals' ACLs decide too (the first ACL on a
 * resource takes the default away) and the whole state is read.
 *
 * Who may ask: as for the Access check "as of" (the audit trail's rules: DESCRIBE on CLUSTER, or
 * a super user). What the journal cannot vouch for is said: a period starting before the journal
 * began is refused; gaps in reading inside it and a change whose window straddles T1 are named.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import {
  ACCESS_CHANGES_MAX_STEPS,
  type AccessChanges,
  type AccessChangesQuery,
  type AccessChangeStepView,
} from "@/lib/schemas/access-changes";
import { checkpointAtOrBefore, coverageOf, entriesUpTo, journalBegins, type StoredEntry } from "@/lib/db/journal";
import { clusterIdOf } from "@/lib/clusters";
import { WILDCARD_PRINCIPAL } from "@/lib/policy/types";
import type { DecisionAnswer } from "@/lib/policy/history";
import { bearsOn, needsWholeState, principalChanges, vouchFor, type Json } from "@/lib/policy/history";
import { auditRightsFor } from "./audit-view";
import { AS_OF_NOT_ALLOWED, notYetInJournal } from "./access-history";
import { describeRow } from "./drift-model";
import { csvCell } from "./acl-io";

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The rule that decided, in words. */
export function ruleWords(answer: DecisionAnswer): string {
  const r = answer.rule;
  switch (r.kind) {
    case "superUser":
      return "super.users";
    case "noAclMatched":
      return "no ACL matched";
    case "default":
      return "no ACLs on the resource: allow.everyone.if.no.acl.found=true";
    case "acl": {
      const a = r.acl;
      return (
        `${a.permissionType} ${a.principal} ${a.operation} on ${a.resourceType} ${a.patternType} ` +
        `${JSON.stringify(a.resourceName)} from host ${a.host}`
      );
    }
  }
}

interface Period {
  from: number;
  to: number;
}

/** The period's first state and its entries, from the checkpoint at or before its start. */
async function journalFor(
  clusterId: string,
  period: Period,
  principal: string,
): Promise<ActionResult<{ state: Map<string, Json>; window: StoredEntry[]; whole: boolean }>> {
  // First only the keys that bear on the principal (its ACLs, User:*'s, the settings).
  const keep = (key: string) => bearsOn(key, principal);
  const checkpoint = await checkpointAtOrBefore(clusterId, new Date(period.from), keep, [
    principal,
    WILDCARD_PRINCIPAL,
  ]);
  if (checkpoint === null)
    return notYetInJournal(clusterId, "from", "what changed before; start the period then or later");
  const load = async (principals: string[] | null) => {
    const { entries, complete } = await entriesUpTo(
      clusterId,
      checkpoint.bigLastEntryId,
      new Date(period.to),
      principals,
    );
    const whole = principals === null ? await checkpointAtOrBefore(clusterId, new Date(period.from)) : null;
    const state = new Map<string, Json>(whole?.state ?? checkpoint.state);
    const window: StoredEntry[] = [];
    for (const e of entries) {
      if (e.to <= period.from) {
        if (e.op === "appeared") state.set(e.key, e.value);
        else state.delete(e.key);
      } else window.push(e);
    }
    return { state, window, complete };
  };
  let part = await load([principal, WILDCARD_PRINCIPAL]);
  let whole = false;
  if (needsWholeState(part.state, part.window)) {
    part = await load(null);
    whole = true;
  }
  if (!part.complete)
    return {
      ok: false,
      code: "CONFLICT",
      message: "Too many changes between the nearest checkpoint and the end of the period to read in one request.",
    };
  return { ok: true, data: { state: part.state, window: part.window, whole } };
}

/**
 * The period's default start on the Access history page: a week before now, or when the
 * journal begins if that is later (a younger journal would refuse a week ago).
 */
export async function defaultPeriodStart(viewer: Viewer, now = Date.now()): Promise<number> {
  const aWeekAgo = now - 7 * 86_400_000;
  const begins = await journalBegins(clusterIdOf(viewer.credential));
  return begins === null ? aWeekAgo : Math.max(aWeekAgo, begins);
}

/** The answer (see the module comment). */
export async function accessChangesFor(
  viewer: Viewer,
  query: Pick<AccessChangesQuery, "principal" | "from" | "to">,
): Promise<ActionResult<AccessChanges>> {
  const rights = await auditRightsFor(viewer);
  if (!rights.superUser && !rights.acls) return { ok: false, code: "DENIED", message: AS_OF_NOT_ALLOWED };
  return accessChangesInJournal(clusterIdOf(viewer.credential), query);
}

/** The answer from the cluster's journal, for whoever may ask (accessChangesFor checks that; the bench calls it). */
export async function accessChangesInJournal(
  clusterId: string,
  query: Pick<AccessChangesQuery, "principal" | "from" | "to">,
): Promise<ActionResult<AccessChanges>> {
  const { principal, to } = query;
  let from = query.from;
  if (from === null) {
    // Empty: since the journal began (its oldest checkpoint), whenever that was.
    const begins = await journalBegins(clusterId);
    if (begins === null) return notYetInJournal(clusterId, "from", "what changed");
    if (begins >= to) {
      const message = `The history journal of this cluster begins at ${iso(begins)}, after the period's end.`;
      return { ok: false, code: "VALIDATION", message, fieldErrors: { to: [message] } };
    }
    from = begins;
  }
  const [loaded, coverage] = await Promise.all([journalFor(clusterId, { from, to }, principal), coverageOf(clusterId)]);
  if (!loaded.ok) return loaded;
  const { state, window, whole } = loaded.data;

  const steps = principalChanges({ principal, state, entries: window });
  if (steps.length > ACCESS_CHANGES_MAX_STEPS)
    return {
      ok: false,
      code: "CONFLICT",
      message:
        `More than ${ACCESS_CHANGES_MAX_STEPS} changes to ${principal}'s access in the period: ` +
        "ask for a shorter one.",
    };

  const notes: string[] = [];
  const vouchFrom = vouchFor(coverage, from);
  if (vouchFrom.kind === "before-journal") {
    const message = `The history journal of this cluster begins at ${
      vouchFrom.begins === null ? "its first read" : iso(vouchFrom.begins)
    }: the console cannot say what changed before. Start the period then or later.`;
    return { ok: false, code: "VALIDATION", message, fieldErrors: { from: [message] } };
  }
  const gaps = coverage
    .map((c, i) => ({ from: c.to, to: coverage[i + 1]?.from }))
    .filter((g): g is Period => g.to !== undefined && g.to > from && g.from < to);
  for (const g of gaps)
    notes.push(
      `The console could not read the cluster between ${iso(g.from)} and ${iso(g.to)}: changes made then are ` +
        "listed with that gap as their window, and one added and removed within it is not known.",
    );
  const vouchTo = vouchFor(coverage, to);
  if (vouchTo.kind === "after-last-read")
    notes.push(
      `The console's last read of the cluster was at ${iso(vouchTo.lastRead)}: a change made outside it since is ` +
        "not known yet.",
    );
  if (window.some((e) => e.from < from))
    notes.push(
      "A change whose window begins before the period's start may have happened just before it; it is listed " +
        "with its window.",
    );
  if (whole)
    notes.push(
      "allow.everyone.if.no.acl.found was true in the period: other principals' ACLs count too (the first ACL on " +
        "a resource takes the default away from everyone).",
    );
  notes.push(
    "An ACL added and removed between two reads of the cluster is not known to the journal (docs/history.md).",
  );

  const views: AccessChangeStepView[] = steps.map((s) => {
    const first = s.entries[0]!;
    const console = s.entries.find((e) => e.origin === "console");
    return {
      cause: {
        origin: first.origin,
        windowFrom: iso(first.from),
        windowTo: iso(Math.max(...s.entries.map((e) => e.to))),
        actor: console?.actor ?? null,
        planId: console?.planId ?? null,
        auditId: console?.auditId ?? null,
        changes: s.entries.map(
          (e) =>
            describeRow({
              id: String(e.id),
              key: e.key,
              kind: "",
              op: e.op,
              value: e.value,
              from: new Date(e.from),
              to: new Date(e.to),
              origin: "outside",
            }).summary,
        ),
      },
      superUser: s.superUser,
      decisions: s.decisions.map((d) => ({
        ...d,
        beforeVia: ruleWords(d.before),
        afterVia: ruleWords(d.after),
      })),
    };
  });
  return {
    ok: true,
    data: {
      principal,
      from: iso(from),
      to: iso(to),
      statement:
        `Every decision of ${principal} that changed between ${iso(from)} and ${iso(to)}, from the console's ` +
        "history journal, with the change that caused it.",
      notes,
      steps: views,
    },
  };
}

const CSV_HEADER = [
  "window_from",
  "window_to",
  "origin",
  "actor",
  "plan_id",
  "change",
  "resource_type",
  "pattern_type",
  "resource_name",
  "operation",
  "before",
  "after",
  "decided_before_by",
  "decided_after_by",
  "caused_by",
];

const cell = (v: string | null) => csvCell(v ?? "");

/** One row per decision gained or lost (a super user change: one row, resource empty). */
export function accessChangesCsv(answer: AccessChanges): string {
  const lines = [CSV_HEADER.join(",")];
  for (const s of answer.steps) {
    const c = s.cause;
    const head = [c.windowFrom, c.windowTo, c.origin, c.actor, c.planId];
    const caused = c.changes.join("; ");
    if (s.superUser !== null)
      lines.push(
        [...head, s.superUser, "", "", "", "(every operation)", "", "", "", "super.users", caused].map(cell).join(","),
      );
    for (const d of s.decisions)
      lines.push(
        [
          ...head,
          d.change,
          d.resourceType,
          d.patternType,
          d.resourceName,
          d.operation,
          d.before.decision,
          d.after.decision,
          d.beforeVia,
          d.afterVia,
          caused,
        ]
          .map(cell)
          .join(","),
      );
  }
  return lines.join("\r\n") + "\r\n";
}

export function accessChangesFileName(
  answer: Pick<AccessChanges, "principal" | "from" | "to">,
  format: string,
): string {
  const safe = answer.principal.replace(/[^A-Za-z0-9._-]+/g, "_");
  return `access-changes-${safe}-${answer.from.replace(/[:]/g, "")}-${answer.to.replace(/[:]/g, "")}.${format}`;
}
