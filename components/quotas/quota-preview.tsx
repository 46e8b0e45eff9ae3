import type { AppliedKeyView, QuotaPreview } from "@/lib/schemas/quotas";

function Applied({ rows }: { rows: AppliedKeyView[] }) {
  const r = rows[0];
  if (!r) return <span className="muted">n/a</span>;
  return (
    <>
      <strong>{r.display}</strong>
      {r.value !== null && <span className="muted mono"> ({r.value})</span>}
      <div className="muted">{r.entityLabel === null ? "nothing configured" : `${r.levelLabel ?? ""} ${r.entityLabel}`}</div>
    </>
  );
}

/** Kafka's validation, the KIP-55 rule and the applied quota before/after, for one alteration. */
export function QuotaPreviewView({ preview, rule }: { preview: QuotaPreview; rule: string }) {
  return (
    <section className="card quota-preview" aria-label="Preview" data-testid="quota-preview">
      <p className="mono">
        {preview.entityLabel}: {preview.key} {preview.current ?? "(not set)"} → {preview.value === null ? "(removed)" : preview.value}
      </p>
      <dl className="checks">
        <dt>Kafka&apos;s validation</dt>
        <dd data-testid="kafka-check">
          {preview.kafka.ok ? <span className="badge success">accepted</span> : <span className="badge failure">refused</span>} {preview.kafka.message}
        </dd>
        <dt>KIP-55 budget ({rule})</dt>
        <dd data-testid="budget-check">
          {!preview.budget.ok ? (
            <span className="badge failure">rejected by the console</span>
          ) : preview.budget.repairs.length > 0 ? (
            <span className="badge partial">repair</span>
          ) : (
            <span className="badge success">within budget</span>
          )}
          <ul className="plain">
            {preview.budget.violations.map((v) => (
              <li key={`${v.user}|${v.key}`}>{v.message}</li>
            ))}
            {preview.budget.repairs.map((v) => (
              <li key={`r|${v.user}|${v.key}`}>Still over budget, but less than before (a repair): {v.message}</li>
            ))}
            {preview.budget.warnings.map((w) => (
              <li key={`w|${w.user}|${w.key}`} className="muted">
                {w.message}
              </li>
            ))}
          </ul>
          {!preview.budget.ok && preview.kafka.ok && (
            <p className="muted">This is the console&apos;s rule, not Kafka&apos;s: Kafka itself would accept this change.</p>
          )}
        </dd>
      </dl>
      <p className="muted">The quota Kafka applies to {preview.connection}:</p>
      <table className="data quota-rows" aria-label="Applied quota before and after">
        <thead>
          <tr>
            <th>Key</th>
            <th>Before</th>
            <th>After</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" className="mono">
              {preview.key}
            </th>
            <td data-testid="applied-before">
              <Applied rows={preview.before} />
            </td>
            <td data-testid="applied-after">
              <Applied rows={preview.after} />
            </td>
          </tr>
        </tbody>
      </table>
      <p className="summary" data-testid="preview-summary">
        {preview.summary}
      </p>
    </section>
  );
}
