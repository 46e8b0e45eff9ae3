import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { Card, DataCard, stat, type StatProps } from "./card";
import { BreakGlassCard, DriftCard, GrantsCard, RequestsCard } from "./request-cards";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { formatRelative } from "@/lib/services/token-view";
import type {
  AclPosture,
  Dashboard,
  DashboardCard,
  DecisionPosture,
  QuotaPosture,
  RecentChange,
  TokenPosture,
} from "@/lib/schemas/dashboard";
import { AclChart } from "./acl-chart";
import { BudgetBars } from "./budget-bars";
import { TokenTimeline } from "./token-timeline";
import { aclsHref, auditHref, planHref, principalHref, tokensHref } from "./links";
import styles from "./dashboard.module.css";

function LintLine({ lint, lintHref }: { lint: AclPosture["lint"]; lintHref: string }) {
  if (lint.state === "onRequest") {
    return (
      <p className={styles.lint} data-testid="posture-lint">
        Lint runs on request above {lint.limit.toLocaleString("en")} ACLs.{" "}
        <Link href={lintHref}>Lint every ACL now</Link>
      </p>
    );
  }
  const total = lint.errors + lint.warnings + lint.info;
  return (
    <div className={styles.lint} data-testid="posture-lint">
      <Link href={aclsHref({ lint: "1" })}>
        Lint: {total === 0 ? "no findings" : `${lint.errors} errors, ${lint.warnings} warnings, ${lint.info} info`}
      </Link>
      {lint.byCode.length > 0 && (
        <ul className={styles.codes}>
          {lint.byCode.map((c) => (
            <li key={c.code} data-code={c.code}>
              <Link
                href={aclsHref({ lintCode: c.code })}
                title={
                  `${c.count} ${c.count === 1 ? "finding" : "findings"} ` +
                  `about ${c.acls} ${c.acls === 1 ? "ACL" : "ACLs"}`
                }
              >
                <Badge tone={c.severity === "error" ? "bad" : c.severity === "warning" ? "warn" : "info"}>
                  {c.acls}
                </Badge>
                <span className="sr-only"> {c.acls === 1 ? "ACL" : "ACLs"} with</span> <code>{c.code}</code>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function aclStats(p: AclPosture): StatProps[] {
  return [
    stat("posture-total", "ACLs", p.total, aclsHref()),
    stat("posture-deny", "DENY", p.byPermission.DENY, aclsHref({ permissionType: "DENY" })),
    stat(
      "posture-wildcard-principal",
      <>
        for <code>User:*</code>
      </>,
      p.wildcardPrincipal.allow + p.wildcardPrincipal.deny,
      aclsHref({ principal: "User:*" }),
      "warn",
    ),
    stat(
      "posture-wildcard-resource",
      <>
        on <code>*</code> resources
      </>,
      p.wildcardResource,
      aclsHref({ resourceName: "*", patternType: "LITERAL" }),
      "warn",
    ),
    stat("posture-prefixed", "PREFIXED", p.prefixed, aclsHref({ patternType: "PREFIXED" })),
  ];
}

function AclPostureCard({ card, lintHref }: { card: Dashboard["acls"]; lintHref: string }) {
  return (
    <DataCard
      title="ACL posture"
      id="acls"
      card={card}
      unavailableTestId="acl-posture-unavailable"
      footer={
        card.ok ? (
          <span className="muted">
            From the ACL snapshot of {card.data.snapshot.takenAt.replace("T", " ").slice(0, 19)} UTC (shared by everyone
            Kafka lets describe ACLs).
          </span>
        ) : undefined
      }
      stats={aclStats}
    >
      {(p: AclPosture) => (
        <>
          <AclChart byType={p.byType} />
          <LintLine lint={p.lint} lintHref={lintHref} />
        </>
      )}
    </DataCard>
  );
}

function SuperUsersCard({ superUsers }: { superUsers: Dashboard["superUsers"] }) {
  return (
    <Card
      title="Super users"
      id="super-users"
      footer={
        <span className="muted">As configured: {superUsers.source}. Kafka lets every one of them do everything.</span>
      }
    >
      {superUsers.principals.length === 0 ? (
        <p className="muted">None configured.</p>
      ) : (
        <ul className={styles.plainList} data-testid="super-users">
          {superUsers.principals.map((p) => (
            <li key={p}>
              <Link href={principalHref(p)} className="mono">
                {p}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {superUsers.you && <p className="muted">That includes you.</p>}
    </Card>
  );
}

function decisionStats(d: DecisionPosture): StatProps[] {
  return [
    stat("decisions-pending", "token requests you may approve", d.pending, "/token-requests#decide", "warn"),
    stat("decisions-mine", "of yours still open", d.myOpen, "/token-requests#mine"),
  ];
}

function DecisionsCard({ card, now }: { card: DashboardCard<DecisionPosture>; now: number }) {
  return (
    <DataCard title="Waiting for your decision" id="decisions" card={card} stats={decisionStats}>
      {(d) =>
        d.requests.length > 0 && (
          <ul className={styles.plainList} data-testid="decisions-list">
            {d.requests.map((r) => (
              <li key={r.id} data-request-id={r.id}>
                <Link href="/token-requests#decide">
                  <span className="mono">{r.requester}</span> asks for a token of{" "}
                  <span className="mono">{r.owner}</span>
                </Link>{" "}
                <span className="muted">{formatRelative(Date.parse(r.createdAt), now)}</span>
              </li>
            ))}
          </ul>
        )
      }
    </DataCard>
  );
}

function tokenStats(t: TokenPosture): StatProps[] {
  return [
    stat("tokens-owned", "you own", t.owned, tokensHref({ role: "owner" })),
    stat("tokens-renewable", "you renew", t.renewable, tokensHref({ role: "renewer" })),
    stat("tokens-24h", "expire within 24 h", t.expiring24h, tokensHref({ expiring: "24h" }), "bad"),
    stat("tokens-7d", "within 7 days", t.expiring7d, tokensHref({ expiring: "7d" }), "warn"),
  ];
}

function TokensCard({ card }: { card: DashboardCard<TokenPosture> }) {
  return (
    <DataCard title="Your tokens" id="tokens" card={card} stats={tokenStats}>
      {(t) =>
        t.tokens.length > 0 ? <TokenTimeline posture={t} /> : <p className="muted">No tokens you own or renew.</p>
      }
    </DataCard>
  );
}

function quotaStats(q: QuotaPosture): StatProps[] {
  return [stat("quotas-violations", "budgets exceeded", q.violations.length, "/quotas#kip55", "bad")];
}

function QuotasCard({ card }: { card: DashboardCard<QuotaPosture> }) {
  return (
    <DataCard title="KIP-55 budgets" id="quotas" card={card} stats={quotaStats}>
      {(q) => (
        <>
          {q.budgets.length > 0 ? (
            <BudgetBars bars={q.budgets} />
          ) : (
            <p className="muted">No user has client sub-quotas.</p>
          )}
          <p className={`muted ${styles.note}`}>A {q.rule}.</p>
        </>
      )}
    </DataCard>
  );
}

function RecentCard({ card, now }: { card: DashboardCard<{ events: RecentChange[] }>; now: number }) {
  return (
    <DataCard
      title="Recent changes you may see"
      id="recent"
      card={card}
      footer={<Link href={auditHref()}>The whole audit trail</Link>}
    >
      {({ events }) =>
        events.length === 0 ? (
          <p className="muted">No changes you may see yet.</p>
        ) : (
          <ul className={styles.changes} data-testid="recent-changes">
            {events.map((e) => (
              <li key={e.id}>
                <Link href={auditHref({ action: e.action, principal: e.principal })} className="mono">
                  {e.action}
                </Link>{" "}
                <Badge
                  tone={
                    e.outcome === "success" ? "ok" : e.outcome === "partial" || e.outcome === "pending" ? "warn" : "bad"
                  }
                >
                  {e.outcome}
                </Badge>{" "}
                <span className={styles.target} title={e.target}>
                  {e.target}
                </span>
                <div className="muted">
                  by{" "}
                  <Link href={principalHref(e.principal)} className="mono">
                    {e.principal}
                  </Link>{" "}
                  {formatRelative(Date.parse(e.at), now)}
                  {e.planId && (
                    <>
                      {" "}
                      · <Link href={planHref(e.planId)}>plan</Link>
                    </>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </DataCard>
  );
}

function ClusterCard({ card }: { card: Dashboard["cluster"] }) {
  return (
    <DataCard title="Cluster" id="cluster" card={card}>
      {(cluster) => (
        <>
          <dl className={styles.facts}>
            <div>
              <dt>Cluster id</dt>
              <dd data-testid="cluster-id" className="mono">
                {cluster.clusterId ?? "unknown"}
              </dd>
            </div>
            <div>
              {/* KRaft clusters name a broker here, not the active controller (which clients never reach):
                  it forwards the admin requests sent to it. */}
              <dt>Admin requests via</dt>
              <dd data-testid="controller-id">
                {cluster.controllerId === null ? "unknown" : `broker ${cluster.controllerId}`}
              </dd>
            </div>
            <div>
              <dt>Brokers</dt>
              <dd>{cluster.brokers.length}</dd>
            </div>
          </dl>
          {cluster.unreachable.map((b) => (
            <Alert key={b.server} tone="warn" testId="broker-unreachable" small>
              {b.message}
            </Alert>
          ))}
          <DataTable
            label="Brokers"
            rows={cluster.brokers}
            rowKey={(b) => String(b.id)}
            columns={[
              { key: "id", header: "Id", cell: (b) => b.id },
              { key: "host", header: "Host", cell: (b) => `${b.host}:${b.port}`, className: "mono" },
              { key: "rack", header: "Rack", cell: (b) => b.rack ?? "—" },
              {
                key: "role",
                header: "Role",
                cell: (b) => (b.id === cluster.controllerId ? "broker, takes admin requests" : "broker"),
              },
            ]}
          />
        </>
      )}
    </DataCard>
  );
}

/** Every card of one viewer's dashboard (rendered on the server first, then kept fresh in the browser). */
export function DashboardCards({ data, lintHref }: { data: Dashboard; lintHref: string }) {
  const now = Date.parse(data.generatedAt);
  return (
    <div className={styles.grid}>
      <AclPostureCard card={data.acls} lintHref={lintHref} />
      <div className={styles.column}>
        <DecisionsCard card={data.decisions} now={now} />
        <RequestsCard card={data.requests} />
        <TokensCard card={data.tokens} />
      </div>
      <GrantsCard card={data.requests} now={now} />
      <BreakGlassCard card={data.breakGlass} now={now} />
      <DriftCard card={data.drift} />
      <QuotasCard card={data.quotas} />
      <RecentCard card={data.recent} now={now} />
      <SuperUsersCard superUsers={data.superUsers} />
      <ClusterCard card={data.cluster} />
    </div>
  );
}
