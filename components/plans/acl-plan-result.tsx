import type { AclPlanApplyResult } from "@/lib/schemas/plans";
import { Alert, type AlertTone } from "@/components/ui/alert";
import { Badge, type Tone } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { aclColumns, bindingRowKey } from "./bindings";

type Sent = AclPlanApplyResult["results"][number];
type NotSent = AclPlanApplyResult["notSent"][number];
type Row = { sent: true; r: Sent } | { sent: false; r: NotSent };

const OUTCOME_TONE: Record<AclPlanApplyResult["outcome"], Tone> = {
  success: "ok",
  partial: "warn",
  unknown: "warn",
  failure: "bad",
  denied: "bad",
};

function Outcome({ row }: { row: Row }) {
  if (!row.sent) return <Badge>not sent</Badge>;
  const r = row.r;
  if (!r.ok) return <Badge tone={r.readBack === "unknown" ? "warn" : "bad"}>{r.error?.message ?? "failed"}</Badge>;
  return (
    <Badge tone="ok">
      {r.action === "create" ? "created" : "deleted"}
      {r.readBack === "applied" ? " (confirmed by reading back)" : ""}
    </Badge>
  );
}

/** What Kafka did with each binding of an applied plan. */
export function AclPlanResult({ result }: { result: AclPlanApplyResult }) {
  const outcome = OUTCOME_TONE[result.outcome];
  const tone: AlertTone = outcome === "ok" ? "success" : outcome === "warn" ? "warn" : "error";
  const rows: Row[] = [
    ...result.results.map((r) => ({ sent: true as const, r })),
    ...result.notSent.map((r) => ({ sent: false as const, r })),
  ];
  return (
    <section aria-label="Result" data-testid="acl-result" data-plan-id={result.plan.id}>
      <Alert tone={tone} role="status">
        <Badge tone={outcome}>{result.outcome}</Badge> {result.message}
      </Alert>
      <DataTable
        label="Per-binding results"
        rows={rows}
        rowKey={({ sent, r }) => `${sent ? "" : "not-sent|"}${r.action}|${bindingRowKey(r)}`}
        columns={[
          { key: "result", header: "Result", cell: (row) => <Outcome row={row} /> },
          ...aclColumns((row: Row) => row.r),
        ]}
      />
    </section>
  );
}
