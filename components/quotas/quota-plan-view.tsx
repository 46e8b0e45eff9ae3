import type { QuotaPlanView } from "@/lib/schemas/plans";
import type { QuotaAppliedLevelView, QuotaPairBudgetView } from "@/lib/schemas/quotas";
import { QuotaPreviewView } from "./quota-preview";
import styles from "./quota-plan.module.css";

/** Rows of the affected-pairs table shown on the page; the API answer carries them all. */
export const SHOWN_PAIRS = 50;

function expiry(iso: string): string {
  return new Date(iso).toISOString().replace("T", " ").replace(/:\d\d\.\d+Z$/, " UTC");
}

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
            {v.level !== null && <span className="badge partial">level {v.level}</span>} <span className="mono">{v.entityLabel}</span>
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
      {after.overBudget && <div className="badge failure">over budget</div>}
    </>
  );
}

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
        Plan {plan.id.slice(0, 8)}: Apply sends exactly <span className="mono">{plan.entityLabel}</span>: <span className="mono">{plan.key}</span> ={" "}
        <span className="mono">{plan.value === null ? "(removed)" : plan.value}</span>, kept on the server until {expiry(plan.expiresAt)}, and is refused if
        the quotas it depends on change first.
      </p>
      {impact.pairs.length > 0 && (
        <section aria-label="Affected clients" data-testid="quota-impact">
          <h4>
            Affected (user, client id) pairs: {impact.counts.changed} with a new quota, {impact.counts.affected} reached
          </h4>
          <div className="table-scroll" role="region" tabIndex={0} aria-label="Quota applied per client before and after (scrolls sideways)">
            <table className="data quota-rows" aria-label="Quota applied per client before and after">
              <thead>
                <tr>
                  <th>User</th>
                  <th>Client id</th>
                  <th>Applied before</th>
                  <th>Applied after</th>
                  <th>KIP-55 budget of the user (sum of sub-quotas of total)</th>
                </tr>
              </thead>
              <tbody>
                {pairs.map((p) => (
                  <tr key={`${p.userLabel}|${p.clientLabel}|${p.user === null}|${p.clientId === null}`} data-pair={`${p.userLabel}/${p.clientLabel}`} className={p.changed ? styles.changed : undefined}>
                    <td className={p.user === null ? "muted" : "mono"}>{p.userLabel}</td>
                    <td className={p.clientId === null ? "muted" : "mono"}>{p.clientLabel}</td>
                    <td>
                      <Level v={p.before} />
                    </td>
                    <td>
                      {p.changed ? <Level v={p.after} /> : <span className="muted">unchanged{p.before.level !== null ? " (a more specific quota decides)" : ""}</span>}
                    </td>
                    <td>
                      <Budget before={p.budgetBefore} after={p.budgetAfter} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {impact.pairs.length > pairs.length && (
            <p className="muted">
              The first {pairs.length} of {impact.pairs.length} pairs; GET /api/v1/plans/{plan.id} lists them all.
            </p>
          )}
          {impact.truncated && <p className="muted">Too many named users and client ids to pair them all: configured sub-quota pairs and the stand-ins are listed.</p>}
        </section>
      )}
      {impact.ips.length > 0 && (
        <table className="data quota-rows" aria-label="Connection rate per IP before and after" data-testid="quota-impact-ips">
          <thead>
            <tr>
              <th>IP</th>
              <th>Before</th>
              <th>After</th>
            </tr>
          </thead>
          <tbody>
            {impact.ips.map((r) => (
              <tr key={r.label} className={r.changed ? styles.changed : undefined}>
                <td className="mono">{r.label}</td>
                <td>
                  <Level v={r.before} />
                </td>
                <td>{r.changed ? <Level v={r.after} /> : <span className="muted">unchanged</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details open data-testid="quota-cli">
        <summary>The same change with kafka-configs.sh</summary>
        <pre className={styles.cli} aria-label="Equivalent kafka-configs.sh command">
          {plan.cli.map((c) => (c.warning ? `# ${c.warning}\n${c.command}` : c.command)).join("\n")}
        </pre>
        <p className="muted">
          Put the admin client&apos;s settings (security.protocol, sasl.mechanism, sasl.jaas.config) in the file given as <code>--command-config</code>.
        </p>
      </details>
    </div>
  );
}
