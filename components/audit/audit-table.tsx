import { Badge, type Tone } from "@/components/ui/badge";
import { TableScroll } from "@/components/ui/data-table";
import { aclsHref, planHref, principalHref, quotaUserHref, resourceHref } from "@/components/dashboard/links";
import { PrincipalLink } from "@/components/principals/decision-cell";
import { foldSignInNoise, requestedBindings, type AuditEventView, type SignInGroup } from "./audit-change";
import { ChangeView } from "./change-view";
import styles from "./audit.module.css";

const OUTCOME_TONE: Record<AuditEventView["outcome"], Tone> = { success: "ok", failure: "bad", denied: "bad", partial: "warn", pending: "warn", unknown: "warn" };

const time = (d: Date | string) => new Date(d).toISOString().replace("T", " ").slice(0, 19);

/** Where the event's target lives: the resource, the quota, the token lists, the principal. */
export function targetHref(e: AuditEventView): string | null {
  if (e.action.startsWith("acl.")) {
    const b = requestedBindings(e)[0];
    if (!b) return null;
    return b.patternType === "LITERAL" ? resourceHref(b.resourceType, b.resourceName) : aclsHref({ resourceType: b.resourceType, resourceName: b.resourceName, patternType: b.patternType });
  }
  if (e.action === "quota.alter") {
    const entity = typeof e.request === "object" && e.request !== null ? (e.request as { entity?: { user?: unknown } }).entity : undefined;
    return typeof entity?.user === "string" ? quotaUserHref(entity.user) : "/quotas";
  }
  if (e.action.startsWith("token.request.")) return "/token-requests";
  if (e.action.startsWith("token.")) return "/tokens";
  if (e.action.startsWith("session.") && /^[A-Za-z]+:/.test(e.target)) return principalHref(e.target);
  return null;
}

function Principal({ p }: { p: string }) {
  return <PrincipalLink principal={p} />;
}

function EventRow({ e }: { e: AuditEventView }) {
  const href = targetHref(e);
  const others = e.subjects.filter((s) => s !== e.principal);
  return (
    <tr id={`event-${e.id}`} data-event-id={e.id} data-action={e.action}>
      <td className="mono">{time(e.at)}</td>
      <td>
        <Principal p={e.principal} />
        {others.length > 0 && (
          <div className={styles.subjects}>
            about{" "}
            {others.map((s, i) => (
              <span key={s}>
                {i > 0 && ", "}
                <Principal p={s} />
              </span>
            ))}
          </div>
        )}
      </td>
      <td>
        <span className="mono">{e.action}</span>
        {e.planId && (
          <div>
            <a href={planHref(e.planId)} data-testid="audit-plan-link">
              plan {e.planId.slice(0, 8)}
            </a>
          </div>
        )}
      </td>
      <td>
        {href ? (
          <a href={href} className={`mono ${styles.truncate}`} title={e.target}>
            {e.target}
          </a>
        ) : (
          <span className={`mono ${styles.truncate}`} title={e.target}>
            {e.target}
          </span>
        )}
      </td>
      <td>
        <Badge tone={OUTCOME_TONE[e.outcome]}>{e.outcome}</Badge>
        {e.repeatCount > 1 && <div className="muted">×{e.repeatCount}</div>}
      </td>
      <td>
        <ChangeView event={e} />
        {(e.kafkaError || e.message) && (
          <div className={styles.message}>
            {e.kafkaError && <span className="mono">{e.kafkaError}: </span>}
            {e.message}
          </div>
        )}
      </td>
    </tr>
  );
}

function SignInFailures({ group }: { group: SignInGroup }) {
  const hour = group.hour.slice(11, 13);
  const last = group.events[0]!;
  return (
    <tr className={styles.noise} data-testid="sign-in-noise">
      <td className="mono">{time(last.lastAt ?? last.at)}</td>
      <td colSpan={5}>
        <details>
          <summary>
            {group.attempts} failed sign-in{group.attempts === 1 ? "" : "s"} from <span className="mono">{group.client}</span> between {hour}:00 and{" "}
            {String((Number(hour) + 1) % 24).padStart(2, "0")}:00 UTC ({group.usernames.length === 1 ? "user" : "users"} {group.usernames.join(", ")})
          </summary>
          <ul className={styles.noiseList}>
            {group.events.map((e) => (
              <li key={e.id}>
                <span className="mono">{time(e.at)}</span> <Principal p={e.principal} /> ×{e.repeatCount} <Badge tone="bad">{e.outcome}</Badge> {e.message}
              </li>
            ))}
          </ul>
        </details>
      </td>
    </tr>
  );
}

/** The audit events of one page; failed sign-ins folded per client and hour unless `foldSignIns` is off. */
export function AuditTable({ events, foldSignIns }: { events: readonly AuditEventView[]; foldSignIns: boolean }) {
  const rows = foldSignIns ? foldSignInNoise(events) : events.map((event) => ({ kind: "event" as const, event }));
  return (
    <TableScroll label="Audit events">
      <table className={`data ${styles.table}`} aria-label="Audit events">
        <colgroup>
          <col className={styles.colTime} />
          <col className={styles.colActor} />
          <col className={styles.colAction} />
          <col className={styles.colTarget} />
          <col className={styles.colOutcome} />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Outcome</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (r.kind === "event" ? <EventRow key={r.event.id} e={r.event} /> : <SignInFailures key={r.group.key} group={r.group} />))}
        </tbody>
      </table>
    </TableScroll>
  );
}
