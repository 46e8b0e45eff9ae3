import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import type { ReactNode } from "react";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatRelative } from "@/lib/services/token-view";
import type {
  BreakGlassPosture,
  DashboardCard,
  DriftPosture,
  GrantLine,
  RequestPosture,
} from "@/lib/schemas/dashboard";
import { DataCard, stat } from "./card";
import { auditHref, breakGlassHref, principalHref, REQUESTS_HREF, REQUESTS_TOKENS_HREF } from "./links";
import styles from "./dashboard.module.css";

/**
 * Requests waiting for a decision (for changes, and the token requests the viewer may approve), and
 * whether the cluster needs approvals (four-eyes).
 */
export function RequestsCard({ card }: { card: DashboardCard<RequestPosture> }) {
  return (
    <DataCard
      title="Requests"
      id="requests"
      card={card}
      footer={<Link href={REQUESTS_HREF}>All requests</Link>}
      stats={(r) => [
        stat("requests-waiting", "waiting for a decision", r.waiting, REQUESTS_HREF, "warn"),
        stat("requests-waiting-tokens", "of them delegation tokens you may approve", r.tokens, REQUESTS_TOKENS_HREF),
      ]}
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

/** Plans applied without approval on a four-eyes cluster: flagged until someone else reviews them, then shown so. */
export function BreakGlassCard({ card, now }: { card: DashboardCard<BreakGlassPosture>; now: number }) {
  const all = auditHref({ action: "plan.break-glass" });
  return (
    <DataCard
      title="Break-glass applies"
      id="break-glass"
      card={card}
      footer={<Link href={all}>In the audit trail</Link>}
      stats={(b) => [stat("break-glass-count", `not reviewed yet${b.more ? " (and more)" : ""}`, b.count, all, "bad")]}
    >
      {(b) => (
        <>
          {b.count === 0 ? (
            <p className="muted" data-testid="break-glass-none">
              No plan applied without approval waits for a review (that the audit trail shows you).
            </p>
          ) : (
            <ul className={styles.plainList} data-testid="break-glass-list">
              {b.events.map((e) => (
                <BreakGlassLine key={e.id} line={e} now={now} />
              ))}
            </ul>
          )}
          {b.reviewed.length > 0 && (
            <>
              <p className="muted">Reviewed after the fact, in the last {b.days} days:</p>
              <ul className={styles.plainList} data-testid="break-glass-reviewed">
                {b.reviewed.map((e) => (
                  <BreakGlassLine key={e.id} line={e} now={now} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </DataCard>
  );
}

/** One break-glass apply: who, which plan, when, why; its review, or a link to give it. */
function BreakGlassLine({ line: e, now }: { line: BreakGlassPosture["events"][number]; now: number }) {
  const reviewedAgo = e.review === null ? "" : formatRelative(Date.parse(e.review.at), now);
  return (
    <li data-plan-id={e.planId ?? ""}>
      {e.review === null ? <Badge tone="bad">break-glass</Badge> : <Badge tone="ok">reviewed</Badge>}{" "}
      <Link href={principalHref(e.principal)} className="mono">
        {e.principal}
      </Link>{" "}
      {e.planId ? <Link href={breakGlassHref(e.planId)}>{e.target}</Link> : e.target}{" "}
      <span className="muted">{formatRelative(Date.parse(e.at), now)}</span>
      {e.reason !== null && <div className="muted">Reason: {e.reason}</div>}
      {e.review !== null ? (
        <div className="muted" data-testid="break-glass-reviewed-by">
          Reviewed by <span className="mono">{e.review.reviewer}</span> {reviewedAgo}: {e.review.comment}
        </div>
      ) : (
        e.planId && (
          <div>
            <Link href={breakGlassHref(e.planId)} data-testid="break-glass-review-link">
              Review it after the fact
            </Link>
          </div>
        )
      )}
    </li>
  );
}

/** Drift (#20): outside changes neither kept nor reverted, and the newest few. */
export function DriftCard({ card }: { card: DashboardCard<DriftPosture> }) {
  return (
    <DataCard
      title="Outside changes"
      id="drift"
      card={card}
      footer={<Link href="/drift">Drift</Link>}
      stats={(d) => [
        stat(
          "drift-open",
          `neither kept nor reverted${d.more ? " (and more)" : ""}`,
          d.open,
          "/drift?status=open",
          "warn",
        ),
      ]}
    >
      {(d) =>
        d.newest.length === 0 ? (
          <p className="muted" data-testid="drift-none">
            {d.reading
              ? "No change made outside the console waits for a decision (that you may see)."
              : "The console does not read this cluster in the background: outside changes are not looked for."}
          </p>
        ) : (
          <ul className={styles.plainList} data-testid="drift-list">
            {d.newest.map((e) => (
              <li key={e.id} data-entry-id={e.id}>
                <Badge tone="warn">{e.what}</Badge> {e.summary} <span className="muted">{e.window}</span>
              </li>
            ))}
          </ul>
        )
      }
    </DataCard>
  );
}
