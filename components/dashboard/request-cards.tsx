import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { formatRelative } from "@/lib/services/token-view";
import type { BreakGlassPosture, DashboardCard, GrantLine, RequestPosture } from "@/lib/schemas/dashboard";
import { Card, Stat, Unavailable } from "./card";
import { auditHref, planHref, principalHref, REQUESTS_HREF } from "./links";
import styles from "./dashboard.module.css";

/** Requests for changes of this cluster waiting for a decision, and whether it needs approvals (four-eyes). */
export function RequestsCard({ card }: { card: DashboardCard<RequestPosture> }) {
  return (
    <Card title="Requests for changes" id="requests" footer={<Link href={REQUESTS_HREF}>All requests</Link>}>
      {!card.ok ? (
        <Unavailable card={card} testId="requests-unavailable" />
      ) : (
        <>
          <div className={styles.stats}>
            <Stat
              label="waiting for a decision"
              value={card.data.waiting}
              href={REQUESTS_HREF}
              testId="requests-waiting"
              tone="warn"
            />
          </div>
          <p className={`muted ${styles.note}`} data-testid="requests-approvals">
            {card.data.approvals === 0
              ? "This cluster needs no approvals: whoever Kafka lets apply a change may apply it."
              : `Four-eyes: every change needs ${card.data.approvals} ` +
                `${card.data.approvals === 1 ? "approval" : "approvals"} by someone other than its maker.`}
          </p>
        </>
      )}
    </Card>
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

const acls = (g: GrantLine) => `${g.acls} ${g.acls === 1 ? "ACL" : "ACLs"}`;

/** Grants with time left (soonest first), and overdue ones with why their removal failed. */
export function GrantsCard({ card, now }: { card: DashboardCard<RequestPosture>; now: number }) {
  return (
    <Card title="Grants that end by themselves" id="grants">
      {!card.ok ? (
        <Unavailable card={card} testId="grants-unavailable" />
      ) : (
        <>
          <div className={styles.stats}>
            <Stat label="live" value={card.data.live} href={REQUESTS_HREF} testId="grants-live" />
            <Stat label="overdue" value={card.data.overdue} href={REQUESTS_HREF} testId="grants-overdue" tone="bad" />
          </div>
          {card.data.overdue > 0 && (
            <Alert tone="warn" testId="grants-overdue-note" small>
              {card.data.overdue === 1 ? "One grant is" : `${card.data.overdue} grants are`} past the expiry with ACLs
              not yet removed: the removal is retried (e.g. the broker was down).
            </Alert>
          )}
          <DataTable
            label="Overdue grants"
            rows={card.data.overdueGrants}
            rowKey={(g) => g.id}
            rowProps={(g) => ({ "data-grant-id": g.id })}
            tableProps={{ "data-testid": "grants-overdue-list" }}
            empty={null}
            columns={[
              { key: "for", header: "For", cell: (g) => <Principals grant={g} /> },
              { key: "acls", header: "ACLs", cell: acls },
              { key: "due", header: "Due", cell: (g) => formatRelative(Date.parse(g.expiresAt), now) },
              {
                key: "error",
                header: "Last error",
                cell: (g) => `${g.lastError ?? "not tried yet"} (${g.attempts} tried)`,
              },
            ]}
          />
          <DataTable
            label="Live grants"
            rows={card.data.grants}
            rowKey={(g) => g.id}
            rowProps={(g) => ({ "data-grant-id": g.id })}
            tableProps={{ "data-testid": "grants-live-list" }}
            empty={<p className="muted">No live grants.</p>}
            columns={[
              { key: "for", header: "For", cell: (g) => <Principals grant={g} /> },
              { key: "acls", header: "ACLs", cell: acls },
              {
                key: "ends",
                header: "Ends",
                cell: (g) => (g.status === "REMOVING" ? "being removed" : formatRelative(Date.parse(g.expiresAt), now)),
              },
              { key: "approver", header: "Approved by", cell: (g) => g.approver, className: "mono" },
            ]}
          />
          {card.data.live > card.data.grants.length && (
            <p className="muted">
              The {card.data.grants.length} soonest of {card.data.live.toLocaleString("en")}.
            </p>
          )}
        </>
      )}
    </Card>
  );
}

/** Plans applied without approval on a four-eyes cluster: flagged, each with its reason. */
export function BreakGlassCard({ card, now }: { card: DashboardCard<BreakGlassPosture>; now: number }) {
  const all = auditHref({ action: "plan.break-glass" });
  return (
    <Card title="Break-glass applies" id="break-glass" footer={<Link href={all}>In the audit trail</Link>}>
      {!card.ok ? (
        <Unavailable card={card} testId="break-glass-unavailable" />
      ) : card.data.count === 0 ? (
        <p className="muted" data-testid="break-glass-none">
          None in the last {card.data.days} days.
        </p>
      ) : (
        <>
          <div className={styles.stats}>
            <Stat
              label={`in the last ${card.data.days} days${card.data.more ? " (and more)" : ""}`}
              value={card.data.count}
              href={all}
              testId="break-glass-count"
              tone="bad"
            />
          </div>
          <ul className={styles.plainList} data-testid="break-glass-list">
            {card.data.events.map((e) => (
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
        </>
      )}
    </Card>
  );
}
