import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import type { ReactNode } from "react";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatRelative } from "@/lib/services/token-view";
import type { BreakGlassPosture, DashboardCard, GrantLine, RequestPosture } from "@/lib/schemas/dashboard";
import { DataCard, stat } from "./card";
import { auditHref, planHref, principalHref, REQUESTS_HREF } from "./links";
import styles from "./dashboard.module.css";

/** Requests for changes of this cluster waiting for a decision, and whether it needs approvals (four-eyes). */
export function RequestsCard({ card }: { card: DashboardCard<RequestPosture> }) {
  return (
    <DataCard
      title="Requests for changes"
      id="requests"
      card={card}
      footer={<Link href={REQUESTS_HREF}>All requests</Link>}
      stats={(r) => [stat("requests-waiting", "waiting for a decision", r.waiting, REQUESTS_HREF, "warn")]}
    >
      {(r) => (
        <p className={`muted ${styles.note}`} data-testid="requests-approvals">
          {r.approvals === 0
            ? "This cluster needs no approvals: whoever Kafka lets apply a change may apply it."
            : `Four-eyes: every change needs ${r.approvals} ${r.approvals === 1 ? "approval" : "approvals"} by ` +
              `someone other than its maker.`}
        </p>
      )}
    </DataCard>
  );
}

/** Whom a grant's ACLs are for, each a link to what that principal can do. */
function Principals({ grant }: { grant: GrantLine }) {
  return (
    <>
      {grant.principals.map((p, i) => (
        <span key={p}>
          {i > 0 && ", "}
          <Link href={principalHref(p)} className="mono">
            {p}
          </Link>
        </span>
      ))}
    </>
  );
}

/** Grants as a table: whom each is for and how many ACLs, then `columns`. */
function GrantTable({
  label,
  rows,
  empty,
  columns,
}: {
  label: "Live grants" | "Overdue grants";
  rows: GrantLine[];
  empty: ReactNode;
  columns: Column<GrantLine>[];
}) {
  return (
    <DataTable
      label={label}
      rows={rows}
      rowKey={(g) => g.id}
      rowProps={(g) => ({ "data-grant-id": g.id })}
      tableProps={{ "data-testid": label === "Live grants" ? "grants-live-list" : "grants-overdue-list" }}
      empty={empty}
      columns={[
        { key: "for", header: "For", cell: (g) => <Principals grant={g} /> },
        { key: "acls", header: "ACLs", cell: (g) => `${g.acls} ${g.acls === 1 ? "ACL" : "ACLs"}` },
        ...columns,
      ]}
    />
  );
}

/** Grants with time left (soonest first), and overdue ones with why their removal failed. */
export function GrantsCard({ card, now }: { card: DashboardCard<RequestPosture>; now: number }) {
  return (
    <DataCard
      title="Grants that end by themselves"
      id="grants"
      card={card}
      stats={(r) => [
        stat("grants-live", "live", r.live, REQUESTS_HREF),
        stat("grants-overdue", "overdue", r.overdue, REQUESTS_HREF, "bad"),
      ]}
    >
      {(r) => (
        <>
          {r.overdue > 0 && (
            <Alert tone="warn" testId="grants-overdue-note" small>
              {r.overdue === 1 ? "One grant is" : `${r.overdue} grants are`} past the expiry with ACLs not yet removed:
              the removal is retried (e.g. the broker was down).
            </Alert>
          )}
          <GrantTable
            label="Overdue grants"
            rows={r.overdueGrants}
            empty={null}
            columns={[
              { key: "due", header: "Due", cell: (g) => formatRelative(Date.parse(g.expiresAt), now) },
              {
                key: "error",
                header: "Last error",
                cell: (g) => `${g.lastError ?? "not tried yet"} (${g.attempts} tried)`,
              },
            ]}
          />
          <GrantTable
            label="Live grants"
            rows={r.grants}
            empty={<p className="muted">No live grants.</p>}
            columns={[
              {
                key: "ends",
                header: "Ends",
                cell: (g) => (g.status === "REMOVING" ? "being removed" : formatRelative(Date.parse(g.expiresAt), now)),
              },
              { key: "approver", header: "Approved by", cell: (g) => g.approver, className: "mono" },
            ]}
          />
          {r.live > r.grants.length && (
            <p className="muted">
              The {r.grants.length} soonest of {r.live.toLocaleString("en")}.
            </p>
          )}
        </>
      )}
    </DataCard>
  );
}

/** Plans applied without approval on a four-eyes cluster: flagged, each with its reason. */
export function BreakGlassCard({ card, now }: { card: DashboardCard<BreakGlassPosture>; now: number }) {
  const all = auditHref({ action: "plan.break-glass" });
  return (
    <DataCard
      title="Break-glass applies"
      id="break-glass"
      card={card}
      footer={<Link href={all}>In the audit trail</Link>}
      stats={(b) => [
        stat("break-glass-count", `in the last ${b.days} days${b.more ? " (and more)" : ""}`, b.count, all, "bad"),
      ]}
    >
      {(b) =>
        b.count === 0 ? (
          <p className="muted" data-testid="break-glass-none">
            No plan applied without approval in the last {b.days} days that the audit trail shows you.
          </p>
        ) : (
          <ul className={styles.plainList} data-testid="break-glass-list">
            {b.events.map((e) => (
              <li key={e.id} data-plan-id={e.planId ?? ""}>
                <Badge tone="bad">break-glass</Badge>{" "}
                <Link href={principalHref(e.principal)} className="mono">
                  {e.principal}
                </Link>{" "}
                {e.planId ? <Link href={planHref(e.planId)}>{e.target}</Link> : e.target}{" "}
                <span className="muted">{formatRelative(Date.parse(e.at), now)}</span>
                {e.reason !== null && <div className="muted">Reason: {e.reason}</div>}
              </li>
            ))}
          </ul>
        )
      }
    </DataCard>
  );
}
