import { utcText } from "@/lib/utc-text";
import type { QuotaPlanView } from "@/lib/schemas/plans";
import type { QuotaAppliedLevelView, QuotaPairBudgetView } from "@/lib/schemas/quotas";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CliCommands } from "@/components/plans/cli-commands";
import { QuotaPreviewView } from "./quota-preview";
import styles from "./quota-plan.module.css";

/** Rows of the affected-pairs table shown on the page; the API answer carries them all. */
export const SHOWN_PAIRS = 50;

function Level({ v }: { v: QuotaAppliedLevelView }) {
  return (
    <>
      <strong>{v.display}</strong>
      {v.value !== null && <span className="muted mono"> ({v.value})</span>}
      <div className="muted">
        {v.entityLabel === null ? (
          "nothing configured"
        ) : (
          <>
            {v.level !== null && <Badge tone="warn">level {v.level}</Badge>}{" "}
            <span className="mono">{v.entityLabel}</span>
          </>
        )}
      </div>
    </>
  );
}

function Budget({ before, after }: { before: QuotaPairBudgetView; after: QuotaPairBudgetView }) {
  const who = before.user === null ? "<default>" : before.user;
  const same = before.total === after.total && before.sum === after.sum;
  const line = (b: QuotaPairBudgetView) => `${b.sumDisplay} of ${b.totalDisplay}, ${b.remainingDisplay} left`;
  return (
    <>
      <div className="muted mono">{who}</div>
      {same ? (
        <span>{line(before)} (unchanged)</span>
      ) : (
        <>
          {line(before)}
          <span className={styles.arrow}>→</span>
          <strong>{line(after)}</strong>
        </>
      )}
      {after.overBudget && <Badge tone="bad">over budget</Badge>}
    </>
  );
}

type Pair = QuotaPlanView["impact"]["pairs"][number];
type IpRow = QuotaPlanView["impact"]["ips"][number];

const PAIR_COLUMNS: Column<Pair>[] = [
  {
    key: "user",
    header: "User",
    cellProps: (p) => ({ className: p.user === null ? "muted" : "mono" }),
    cell: (p) => p.userLabel,
  },
  {
    key: "client",
    header: "Client id",
    cellProps: (p) => ({ className: p.clientId === null ? "muted" : "mono" }),
    cell: (p) => p.clientLabel,
  },
  { key: "before", header: "Applied before", cell: (p) => <Level v={p.before} /> },
  {
    key: "after",
    header: "Applied after",
    cell: (p) =>
      p.changed ? (
        <Level v={p.after} />
      ) : (
        <span className="muted">unchanged{p.before.level !== null ? " (a more specific quota decides)" : ""}</span>
      ),
  },
  {
    key: "budget",
    header: "KIP-55 budget of the user (sum of sub-quotas of total)",
    cell: (p) => <Budget before={p.budgetBefore} after={p.budgetAfter} />,
  },
];

const IP_COLUMNS: Column<IpRow>[] = [
  { key: "ip", header: "IP", className: "mono", cell: (r) => r.label },
  { key: "before", header: "Before", cell: (r) => <Level v={r.before} /> },
  {
    key: "after",
    header: "After",
    cell: (r) => (r.changed ? <Level v={r.after} /> : <span className="muted">unchanged</span>),
  },
];

/**
 * A sealed quota plan as previewed: Kafka's validation and the KIP-55 check (QuotaPreviewView),
 * every affected (user, client-id) pair with the quota Kafka applies and the user's KIP-55
 * budget before and after, and the kafka-configs.sh command.
 */
export function QuotaPlanPreview({ plan, rule }: { plan: QuotaPlanView; rule: string }) {
  const impact = plan.impact;
  const pairs = impact.pairs.slice(0, SHOWN_PAIRS);
  return (
    <div data-testid="quota-plan" data-plan-id={plan.id}>
      <QuotaPreviewView preview={plan} rule={rule} />
      <p className="muted" data-testid="quota-plan-meta">
        Plan {plan.id.slice(0, 8)}: Apply sends exactly <span className="mono">{plan.entityLabel}</span>:{" "}
        <span className="mono">{plan.key}</span> ={" "}
        <span className="mono">{plan.value === null ? "(removed)" : plan.value}</span>, kept on the server until{" "}
        {utcText(plan.expiresAt, "minutes")}, and is refused if the quotas it depends on change first.
      </p>
      {impact.pairs.length > 0 && (
        <section aria-label="Affected clients" data-testid="quota-impact">
          <h4>
            Affected (user, client id) pairs: {impact.counts.changed} with a new quota, {impact.counts.affected} reached
          </h4>
          <DataTable
            label="Quota applied per client before and after"
            className="quota-rows"
            rows={pairs}
            rowKey={(p) => `${p.userLabel}|${p.clientLabel}|${p.user === null}|${p.clientId === null}`}
            rowProps={(p) => ({
              "data-pair": `${p.userLabel}/${p.clientLabel}`,
              className: p.changed ? styles.changed : undefined,
            })}
            columns={PAIR_COLUMNS}
          />
          {impact.pairs.length > pairs.length && (
            <p className="muted">
              The first {pairs.length} of {impact.pairs.length} pairs; GET /api/v1/plans/{plan.id} lists them all.
            </p>
          )}
          {impact.truncated && (
            <p className="muted">
              Too many named users and client ids to pair them all: configured sub-quota pairs and the stand-ins are
              listed.
            </p>
          )}
        </section>
      )}
      {impact.ips.length > 0 && (
        <DataTable
          label="Connection rate per IP before and after"
          className="quota-rows"
          scroll={false}
          tableProps={{ "data-testid": "quota-impact-ips" }}
          rows={impact.ips}
          rowKey={(r) => r.label}
          rowProps={(r) => ({ className: r.changed ? styles.changed : undefined })}
          columns={IP_COLUMNS}
        />
      )}
      <details open data-testid="quota-cli">
        <summary>The same change with kafka-configs.sh</summary>
        <CliCommands commands={plan.cli} label="Equivalent kafka-configs.sh command" />
      </details>
    </div>
  );
}
