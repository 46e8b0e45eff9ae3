import type { AppliedKeyView, QuotaPreview } from "@/lib/schemas/quotas";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";

function Applied({ rows }: { rows: AppliedKeyView[] }) {
  const r = rows[0];
  if (!r) return <span className="muted">n/a</span>;
  return (
    <>
      <strong>{r.display}</strong>
      {r.value !== null && <span className="muted mono"> ({r.value})</span>}
      <div className="muted">
        {r.entityLabel === null ? "nothing configured" : `${r.levelLabel ?? ""} ${r.entityLabel}`}
      </div>
    </>
  );
}

const APPLIED_COLUMNS: Column<QuotaPreview>[] = [
  { key: "key", header: "Key", rowHeader: true, className: "mono", cell: (p) => p.key },
  ...(["before", "after"] as const).map((side): Column<QuotaPreview> => ({
    key: side,
    header: side === "before" ? "Before" : "After",
    cellProps: () => ({ "data-testid": `applied-${side}` }),
    cell: (p) => <Applied rows={p[side]} />,
  })),
];

/** Kafka's validation, the KIP-55 rule and the applied quota before/after, for one alteration. */
export function QuotaPreviewView({ preview, rule }: { preview: QuotaPreview; rule: string }) {
  return (
    <section className="card quota-preview" aria-label="Preview" data-testid="quota-preview">
      <p className="mono">
        {preview.entityLabel}: {preview.key} {preview.current ?? "(not set)"} →{" "}
        {preview.value === null ? "(removed)" : preview.value}
      </p>
      <dl className="checks">
        <dt>Kafka&apos;s validation</dt>
        <dd data-testid="kafka-check">
          {preview.kafka.ok ? <Badge tone="ok">accepted</Badge> : <Badge tone="bad">refused</Badge>}{" "}
          {preview.kafka.message}
        </dd>
        <dt>KIP-55 budget ({rule})</dt>
        <dd data-testid="budget-check">
          {!preview.budget.ok ? (
            <Badge tone="bad">rejected by the console</Badge>
          ) : preview.budget.repairs.length > 0 ? (
            <Badge tone="warn">repair</Badge>
          ) : (
            <Badge tone="ok">within budget</Badge>
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
            <p className="muted">
              This is the console&apos;s rule, not Kafka&apos;s: Kafka itself would accept this change.
            </p>
          )}
        </dd>
      </dl>
      <p className="muted">The quota Kafka applies to {preview.connection}:</p>
      <DataTable
        label="Applied quota before and after"
        className="quota-rows"
        scroll={false}
        rows={[preview]}
        rowKey={(p) => p.key}
        columns={APPLIED_COLUMNS}
      />
      <p className="summary" data-testid="preview-summary">
        {preview.summary}
      </p>
    </section>
  );
}
