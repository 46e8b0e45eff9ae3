import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { Card, Stat, Unavailable } from "./card";
import { BreakGlassCard, GrantsCard, RequestsCard } from "./request-cards";
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

function AclPostureCard({ card, lintHref }: { card: Dashboard["acls"]; lintHref: string }) {
  if (!card.ok) {
    return (
      <Card title="ACL posture" id="acls">
        <Unavailable card={card} testId="acl-posture-unavailable" />
      </Card>
    );
  }
  const p: AclPosture = card.data;
  return (
    <Card
      title="ACL posture"
      id="acls"
      footer={
        <span className="muted">
          From the ACL snapshot of {p.snapshot.takenAt.replace("T", " ").slice(0, 19)} UTC (shared by everyone Kafka
          lets describe ACLs).
        </span>
      }
    >
      <div className={styles.stats}>
        <Stat label="ACLs" value={p.total} href={aclsHref()} testId="posture-total" />
        <Stat
          label="DENY"
          value={p.byPermission.DENY}
          href={aclsHref({ permissionType: "DENY" })}
          testId="posture-deny"
        />
        <Stat
          label={
            <>
              for <code>User:*</code>
            </>
          }
          value={p.wildcardPrincipal.allow + p.wildcardPrincipal.deny}
          href={aclsHref({ principal: "User:*" })}
          testId="posture-wildcard-principal"
          tone="warn"
        />
        <Stat
          label={
            <>
              on <code>*</code> resources
            </>
          }
          value={p.wildcardResource}
          href={aclsHref({ resourceName: "*", patternType: "LITERAL" })}
          testId="posture-wildcard-resource"
          tone="warn"
        />
        <Stat
          label="PREFIXED"
          value={p.prefixed}
          href={aclsHref({ patternType: "PREFIXED" })}
          testId="posture-prefixed"
        />
      </div>
      <AclChart byType={p.byType} />
      <LintLine lint={p.lint} lintHref={lintHref} />
    </Card>
  );
}

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

function DecisionsCard({ card, now }: { card: DashboardCard<DecisionPosture>; now: number }) {
  return (
    <Card title="Waiting for your decision" id="decisions">
      {!card.ok ? (
        <Unavailable card={card} testId="decisions-unavailable" />
      ) : (
        <>
          <div className={styles.stats}>
            <Stat
              label="token requests you may approve"
              value={card.data.pending}
              href="/token-requests#decide"
              testId="decisions-pending"
              tone="warn"
            />
            <Stat
              label="of yours still open"
              value={card.data.myOpen}
              href="/token-requests#mine"
              testId="decisions-mine"
            />
          </div>
          {card.data.requests.length > 0 && (
            <ul className={styles.plainList} data-testid="decisions-list">
              {card.data.requests.map((r) => (
                <li key={r.id} data-request-id={r.id}>
                  <Link href="/token-requests#decide">
                    <span className="mono">{r.requester}</span> asks for a token of{" "}
                    <span className="mono">{r.owner}</span>
                  </Link>{" "}
                  <span className="muted">{formatRelative(Date.parse(r.createdAt), now)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}

function TokensCard({ card }: { card: DashboardCard<TokenPosture> }) {
  return (
    <Card title="Your tokens" id="tokens">
      {!card.ok ? (
        <Unavailable card={card} testId="tokens-unavailable" />
      ) : (
        <>
          <div className={styles.stats}>
            <Stat label="you own" value={card.data.owned} href={tokensHref({ role: "owner" })} testId="tokens-owned" />
            <Stat
              label="you renew"
              value={card.data.renewable}
              href={tokensHref({ role: "renewer" })}
              testId="tokens-renewable"
            />
            <Stat
              label="expire within 24 h"
              value={card.data.expiring24h}
              href={tokensHref({ expiring: "24h" })}
              testId="tokens-24h"
              tone="bad"
            />
            <Stat
              label="within 7 days"
              value={card.data.expiring7d}
              href={tokensHref({ expiring: "7d" })}
              testId="tokens-7d"
              tone="warn"
            />
          </div>
          {card.data.tokens.length > 0 ? (
            <TokenTimeline posture={card.data} />
          ) : (
            <p className="muted">No tokens you own or renew.</p>
          )}
        </>
      )}
    </Card>
  );
}

function QuotasCard({ card }: { card: DashboardCard<QuotaPosture> }) {
  return (
    <Card title="KIP-55 budgets" id="quotas">
      {!card.ok ? (
        <Unavailable card={card} testId="quotas-unavailable" />
      ) : (
        <>
          <div className={styles.stats}>
            <Stat
              label="budgets exceeded"
              value={card.data.violations.length}
              href="/quotas#kip55"
              testId="quotas-violations"
              tone="bad"
            />
          </div>
          {card.data.budgets.length > 0 ? (
            <BudgetBars bars={card.data.budgets} />
          ) : (
            <p className="muted">No user has client sub-quotas.</p>
          )}
          <p className={`muted ${styles.note}`}>A {card.data.rule}.</p>
        </>
      )}
    </Card>
  );
}

function RecentCard({ card, now }: { card: DashboardCard<{ events: RecentChange[] }>; now: number }) {
  return (
    <Card title="Recent changes you may see" id="recent" footer={<Link href={auditHref()}>The whole audit trail</Link>}>
      {!card.ok ? (
        <Unavailable card={card} testId="recent-unavailable" />
      ) : card.data.events.length === 0 ? (
        <p className="muted">No changes you may see yet.</p>
      ) : (
        <ul className={styles.changes} data-testid="recent-changes">
          {card.data.events.map((e) => (
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
      )}
    </Card>
  );
}

function ClusterCard({ card }: { card: Dashboard["cluster"] }) {
  return (
    <Card title="Cluster" id="cluster">
      {!card.ok ? (
        <Unavailable card={card} testId="cluster-unavailable" />
      ) : (
        <>
          <dl className={styles.facts}>
            <div>
              <dt>Cluster id</dt>
              <dd data-testid="cluster-id" className="mono">
                {card.data.clusterId ?? "unknown"}
              </dd>
            </div>
            <div>
              {/* KRaft clusters name a broker here, not the active controller (which clients never reach):
                  it forwards the admin requests sent to it. */}
              <dt>Admin requests via</dt>
              <dd data-testid="controller-id">
                {card.data.controllerId === null ? "unknown" : `broker ${card.data.controllerId}`}
              </dd>
            </div>
            <div>
              <dt>Brokers</dt>
              <dd>{card.data.brokers.length}</dd>
            </div>
          </dl>
          {card.data.unreachable.map((b) => (
            <Alert key={b.server} tone="warn" testId="broker-unreachable" small>
              {b.message}
            </Alert>
          ))}
          <DataTable
            label="Brokers"
            rows={card.data.brokers}
            rowKey={(b) => String(b.id)}
            columns={[
              { key: "id", header: "Id", cell: (b) => b.id },
              { key: "host", header: "Host", cell: (b) => `${b.host}:${b.port}`, className: "mono" },
              { key: "rack", header: "Rack", cell: (b) => b.rack ?? "—" },
              {
                key: "role",
                header: "Role",
                cell: (b) => (b.id === card.data.controllerId ? "broker, takes admin requests" : "broker"),
              },
            ]}
          />
        </>
      )}
    </Card>
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
      <QuotasCard card={data.quotas} />
      <RecentCard card={data.recent} now={now} />
      <SuperUsersCard superUsers={data.superUsers} />
      <ClusterCard card={data.cluster} />
    </div>
  );
}
