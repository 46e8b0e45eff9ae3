import { Badge, type Tone } from "@/components/ui/badge";
import type { ReactNode } from "react";
import { DataTable, type Column } from "@/components/ui/data-table";
import { aclsHref, planHref, principalHref, quotaUserHref, resourceHref } from "@/components/dashboard/links";
import { PrincipalLink } from "@/components/principals/decision-cell";
import { foldSignInNoise, requestedBindings, type AuditEventView, type SignInGroup } from "./audit-change";
import { ChangeView } from "./change-view";
import styles from "./audit.module.css";

const OUTCOME_TONE: Record<AuditEventView["outcome"], Tone> = {
  success: "ok",
  failure: "bad",
  denied: "bad",
  partial: "warn",
  pending: "warn",
  unknown: "warn",
};

const time = (d: Date | string) => new Date(d).toISOString().replace("T", " ").slice(0, 19);

/** Where the event's target lives: the resource, the quota, the token lists, the principal. */
export function targetHref(e: AuditEventView): string | null {
  if (e.action.startsWith("acl.")) {
    const b = requestedBindings(e)[0];
    if (!b) return null;
    return b.patternType === "LITERAL"
      ? resourceHref(b.resourceType, b.resourceName)
      : aclsHref({ resourceType: b.resourceType, resourceName: b.resourceName, patternType: b.patternType });
  }
  if (e.action === "quota.alter") {
    const entity =
      typeof e.request === "object" && e.request !== null
        ? (e.request as { entity?: { user?: unknown } }).entity
        : undefined;
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

function Actor({ e }: { e: AuditEventView }) {
  const others = e.subjects.filter((s) => s !== e.principal);
  return (
    <>
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
    </>
  );
}

function Action({ e }: { e: AuditEventView }) {
  return (
    <>
      <span className="mono">{e.action}</span>
      {e.planId && (
        <div>
          <a href={planHref(e.planId)} data-testid="audit-plan-link">
            plan {e.planId.slice(0, 8)}
          </a>
        </div>
      )}
    </>
  );
}

function Target({ e }: { e: AuditEventView }) {
  const href = targetHref(e);
  return href ? (
    <a href={href} className={`mono ${styles.truncate}`} title={e.target}>
      {e.target}
    </a>
  ) : (
    <span className={`mono ${styles.truncate}`} title={e.target}>
      {e.target}
    </span>
  );
}

function Change({ e }: { e: AuditEventView }) {
  return (
    <>
      <ChangeView event={e} />
      {(e.kafkaError || e.message) && (
        <div className={styles.message}>
          {e.kafkaError && <span className="mono">{e.kafkaError}: </span>}
          {e.message}
        </div>
      )}
    </>
  );
}

function SignInFailures({ group }: { group: SignInGroup }) {
  const hour = group.hour.slice(11, 13);
  const next = String((Number(hour) + 1) % 24).padStart(2, "0");
  return (
    <details>
      <summary>
        {group.attempts} failed sign-in{group.attempts === 1 ? "" : "s"} from{" "}
        <span className="mono">{group.client}</span> between {hour}:00 and {next}:00 UTC (
        {group.usernames.length === 1 ? "user" : "users"} {group.usernames.join(", ")})
      </summary>
      <ul className={styles.noiseList}>
        {group.events.map((e) => (
          <li key={e.id}>
            <span className="mono">{time(e.at)}</span> <Principal p={e.principal} /> ×{e.repeatCount}{" "}
            <Badge tone="bad">{e.outcome}</Badge> {e.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

type AuditRow = ReturnType<typeof foldSignInNoise>[number];

/** An event's cell, or nothing in the row of folded sign-in failures (its second cell spans the rest). */
const eventCell =
  (render: (e: AuditEventView) => ReactNode) =>
  (r: AuditRow): ReactNode =>
    r.kind === "event" ? render(r.event) : null;

const AUDIT_COLUMNS: Column<AuditRow>[] = [
  {
    key: "time",
    header: "Time (UTC)",
    className: "mono",
    colClassName: styles.colTime,
    cell: (r) => (r.kind === "event" ? time(r.event.at) : time(r.group.events[0]!.lastAt ?? r.group.events[0]!.at)),
  },
  {
    key: "actor",
    header: "Actor",
    colClassName: styles.colActor,
    cellProps: (r) => (r.kind === "event" ? {} : { colSpan: 5 }),
    cell: (r) => (r.kind === "event" ? <Actor e={r.event} /> : <SignInFailures group={r.group} />),
  },
  { key: "action", header: "Action", colClassName: styles.colAction, cell: eventCell((e) => <Action e={e} />) },
  { key: "target", header: "Target", colClassName: styles.colTarget, cell: eventCell((e) => <Target e={e} />) },
  {
    key: "outcome",
    header: "Outcome",
    colClassName: styles.colOutcome,
    cell: eventCell((e) => (
      <>
        <Badge tone={OUTCOME_TONE[e.outcome]}>{e.outcome}</Badge>
        {e.repeatCount > 1 && <div className="muted">×{e.repeatCount}</div>}
      </>
    )),
  },
  { key: "change", header: "Change", cell: eventCell((e) => <Change e={e} />) },
];

/** The audit events of one page; failed sign-ins folded per client and hour unless `foldSignIns` is off. */
export function AuditTable({ events, foldSignIns }: { events: readonly AuditEventView[]; foldSignIns: boolean }) {
  const rows: AuditRow[] = foldSignIns
    ? foldSignInNoise(events)
    : events.map((event) => ({ kind: "event" as const, event }));
  return (
    <DataTable
      label="Audit events"
      className={styles.table}
      rows={rows}
      rowKey={(r) => (r.kind === "event" ? r.event.id : r.group.key)}
      rowProps={(r) =>
        r.kind === "event"
          ? { id: `event-${r.event.id}`, "data-event-id": r.event.id, "data-action": r.event.action }
          : { className: styles.noise, "data-testid": "sign-in-noise" }
      }
      columns={AUDIT_COLUMNS}
    />
  );
}
