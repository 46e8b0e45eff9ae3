/**
 * The Access check "as of" an instant (#20, docs/history.md): the decision, the deciding ACL
 * and the explanation as they were then, from the policy core run on the state the history
 * journal rebuilds for that instant (the newest checkpoint at or before it plus the entries
 * after), with the super users and allow.everyone.if.no.acl.found of that time.
 *
 * Who may ask: whoever may see the ACLs' history, as the audit trail decides (Kafka lets them
 * describe the cluster's ACLs today, or a super user). What the journal cannot vouch for is
 * said, never guessed: an instant before the journal began is refused with when it began; an
 * instant in a reading gap or after the last read is answered from what was known, saying so;
 * ACLs of the resource whose change window contains the instant are listed as uncertain.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { AccessCheckResult } from "@/lib/schemas/access-check";
import type { ActionResult } from "@/lib/schemas/result";
import { checkpointAtOrBefore, coverageOf, entriesBearingOn, journalBegins } from "@/lib/db/journal";
import { clusterIdOf } from "@/lib/clusters";
import { filterAcls } from "@/lib/policy/acl/filter";
import { aclsOf, authorizerConfigOf, parseKey, rebuildAt, type StateAt, type Vouch } from "@/lib/policy/history";
import type { AclBinding } from "@/lib/policy/types";
import { auditRightsFor } from "./audit-view";
import { applicableAclsFilter, explainAccessDecision, type AccessQuestion } from "./access-check-explain";

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

export const AS_OF_NOT_ALLOWED =
  "The history of ACLs follows the audit trail: you see it where Kafka lets you describe the cluster's ACLs " +
  "today (DESCRIBE on CLUSTER), and it does not.";

export function vouchStatement(vouch: Exclude<Vouch, { kind: "before-journal" }>, at: number): string {
  switch (vouch.kind) {
    case "covered":
      return `As of ${iso(at)}: the ACLs and settings the console's history journal holds for then.`;
    case "gap":
      return (
        `As of ${iso(at)}: the console could not read the cluster between ${iso(vouch.from)} and ${iso(vouch.to)}; ` +
        `this is the state it knew before the gap, and a change made in it is not known.`
      );
    case "after-last-read":
      return (
        `As of ${iso(at)}: later than the console's last read of the cluster (${iso(vouch.lastRead)}); ` +
        `a change made outside the console since then is not known yet.`
      );
  }
}

/** The refusal of an instant before the journal's first checkpoint, on `field`: when it began, or that it has not. */
export async function notYetInJournal(
  clusterId: string,
  field: string,
  what: string,
): Promise<Extract<ActionResult<never>, { ok: false }>> {
  const begins = await journalBegins(clusterId);
  const message =
    begins === null
      ? "The history journal of this cluster has not begun: it starts at the console's first read of the " +
        "cluster as its service principal (docs/history.md)."
      : `The history journal of this cluster begins at ${iso(begins)}: the console cannot say ${what}.`;
  return { ok: false, code: "VALIDATION", message, fieldErrors: { [field]: [message] } };
}

/**
 * The journal's state at `at` (ms) for the cluster, with what it can vouch for; refused (on the
 * `at` field) before the journal began, and when too many changes follow the nearest checkpoint.
 */
export async function journalStateAt(
  clusterId: string,
  at: number,
): Promise<ActionResult<StateAt & { vouch: Exclude<Vouch, { kind: "before-journal" }> }>> {
  const [checkpoint, coverage] = await Promise.all([
    checkpointAtOrBefore(clusterId, new Date(at)),
    coverageOf(clusterId),
  ]);
  if (checkpoint === null) return notYetInJournal(clusterId, "at", "what held before");
  const { entries, complete } = await entriesBearingOn(clusterId, checkpoint.bigLastEntryId, new Date(at));
  if (!complete)
    return {
      ok: false,
      code: "CONFLICT",
      message: "Too many changes between the nearest checkpoint and that instant to rebuild it in one request.",
    };
  const rebuilt = rebuildAt(checkpoint, entries, at, coverage);
  const vouch = rebuilt.vouch;
  if (vouch.kind === "before-journal") {
    const message = `The history journal of this cluster begins at ${
      vouch.begins === null ? "its first read" : iso(vouch.begins)
    }: the console cannot say what held before.`;
    return { ok: false, code: "VALIDATION", message, fieldErrors: { at: [message] } };
  }
  return { ok: true, data: { ...rebuilt, vouch } };
}

/** The Access check's answer for `question` as of `at` (ms), from the history journal. */
export async function explainAccessAsOf(
  viewer: Viewer,
  question: AccessQuestion,
  at: number,
): Promise<ActionResult<AccessCheckResult>> {
  const rights = await auditRightsFor(viewer);
  if (!rights.superUser && !rights.acls) return { ok: false, code: "DENIED", message: AS_OF_NOT_ALLOWED };
  const state = await journalStateAt(clusterIdOf(viewer.credential), at);
  if (!state.ok) return state;
  const rebuilt = state.data;
  const vouch = rebuilt.vouch;

  const settings = authorizerConfigOf(rebuilt.state);
  const filter = applicableAclsFilter(question);
  const applicable = filterAcls(aclsOf(rebuilt.state), filter);
  const uncertain: AclBinding[] = [];
  for (const key of rebuilt.uncertain) {
    const parsed = parseKey(key);
    if (parsed.kind === "acl" && filterAcls([parsed.binding], filter).length === 1) uncertain.push(parsed.binding);
  }
  const answer = explainAccessDecision(question, applicable, {
    superUsers: [...(settings.superUsers ?? [])],
    allowEveryoneIfNoAclFound: settings.allowEveryoneIfNoAclFound === true,
    source: `the console's settings as the history journal holds them at ${iso(at)}`,
    warnings: [],
  });
  return {
    ok: true,
    data: {
      ...answer,
      asOf: { at: iso(at), vouch: vouch.kind, statement: vouchStatement(vouch, at), uncertain },
    },
  };
}
