/**
 * The history of one thing (#20, docs/history.md): an ACL binding's resource, a principal, a quota
 * entity or a SCRAM user, from the history journal, newest first. Who sees what follows the audit
 * trail's rules, as on the Drift page (drift-model.ts driftVisibility): an entry the viewer may not
 * see today is left out, and the answer says what the viewer sees.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { clusterIdOf } from "@/lib/clusters";
import { journalSince, timelineEntries, type TimelineSubject } from "@/lib/db/drift";
import { aclKey, canonicalEntity } from "@/lib/policy/history";
import { formatEntity } from "@/lib/policy";
import {
  TIMELINE_PAGE_SIZE,
  type Timeline,
  type TimelineQuery,
  type TimelineSubjectQuery,
} from "@/lib/schemas/timeline";
import { describeDriftVisibility, describeRow, scramKeyPrefix } from "./drift-model";
import { rightsOf, rowOf } from "./drift";

/** The journal's selection for the subject, and its name in words. */
export function subjectOf(q: TimelineSubjectQuery): { subject: TimelineSubject; words: string } {
  const prefix = (parts: unknown[]) => `${JSON.stringify(parts).slice(0, -1)},`;
  switch (q.kind) {
    case "principal":
      return { subject: { principal: q.principal }, words: `${q.principal}: its ACLs, SCRAM credentials and quotas` };
    case "resource":
      return {
        subject: { keyPrefix: prefix(["acl", q.resourceType, q.patternType, q.resourceName]) },
        words: `The ACLs of ${q.resourceType} ${q.patternType} ${JSON.stringify(q.resourceName)}`,
      };
    case "binding": {
      const b = q.binding;
      return {
        subject: { key: aclKey(b) },
        words:
          `The ACL ${b.permissionType} ${b.operation} on ${b.resourceType} ${b.patternType} ` +
          `${JSON.stringify(b.resourceName)} for ${b.principal} from ${b.host}`,
      };
    }
    case "scram":
      return { subject: { keyPrefix: scramKeyPrefix(q.user) }, words: `The SCRAM credentials of ${q.user}` };
    case "quota": {
      const entity = canonicalEntity(q.entity);
      return { subject: { keyPrefix: prefix(["quota", entity]) }, words: `The quotas of ${formatEntity(entity)}` };
    }
  }
}

export async function timelineFor(viewer: Viewer, query: TimelineQuery): Promise<ActionResult<Timeline>> {
  try {
    const clusterId = clusterIdOf(viewer.credential);
    const { rights, visibility, filter } = await rightsOf(viewer);
    const { subject, words } = subjectOf(query.subject);
    const [rows, since] = await Promise.all([
      timelineEntries(clusterId, subject, filter, {
        beforeId: query.cursor === undefined ? undefined : BigInt(query.cursor),
        limit: TIMELINE_PAGE_SIZE + 1,
      }),
      journalSince(clusterId),
    ]);
    const page = rows.slice(0, TIMELINE_PAGE_SIZE);
    return {
      ok: true,
      data: {
        subject: words,
        entries: page.map((r) => ({
          id: r.id.toString(),
          kind: r.kind as Timeline["entries"][number]["kind"],
          op: r.op,
          summary: describeRow(rowOf(r)).summary,
          origin: r.origin,
          windowFrom: r.windowFrom.toISOString(),
          windowTo: r.windowTo.toISOString(),
          actor: r.actor,
          planId: r.planId,
        })),
        nextCursor: rows.length > TIMELINE_PAGE_SIZE ? page[page.length - 1]!.id.toString() : null,
        since: since?.toISOString() ?? null,
        visibility: describeDriftVisibility(rights, visibility),
      },
    };
  } catch (error) {
    return toErrorResult(error, "read the history journal");
  }
}
