import type { UserBudgetView } from "@/lib/schemas/quotas";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";

/** The KIP-55 budget of one user: per key the total and its source, the sub-quotas, what is left, a bar. */
export function BudgetTable({ budget, rule }: { budget: UserBudgetView; rule: string }) {
  const who = budget.user === null ? "<default>" : budget.user;
  if (budget.lines.length === 0) {
    return <EmptyState>No quota applies to user {who}: nothing to budget.</EmptyState>;
  }
  return (
    <DataTable
      label={`KIP-55 budget of ${who}`}
      className="quota-budget quota-rows"
      rows={budget.lines}
      rowKey={(l) => l.key}
      rowProps={(l) => ({ "data-key": l.key, className: l.overBudget ? "over-budget" : undefined })}
      columns={[
        { key: "key", header: "Key", rowHeader: true, className: "mono", cell: (l) => l.key },
        { key: "total", header: "Total", cell: (l) => <Total line={l} who={who} /> },
        { key: "clients", header: "Client sub-quotas", cell: (l) => <SubQuotas line={l} who={who} /> },
        {
          key: "sum",
          header: "Sum",
          cell: (l) => (
            <>
              {l.sumDisplay} <span className="muted mono">({l.sum})</span>
            </>
          ),
        },
        { key: "left", header: "Left for other clients", cell: (l) => l.remainingDisplay },
        { key: "budget", header: "Budget", className: "budget-cell", cell: (l) => <Bar line={l} rule={rule} /> },
      ]}
    />
  );
}

type Line = UserBudgetView["lines"][number];

function Total({ line: l, who }: { line: Line; who: string }) {
  const source =
    { user: `own {user:${who}}`, default: "from the <default> user" }[l.totalSource as string] ?? "no user quota";
  return (
    <>
      {l.totalDisplay}
      {l.total !== null && <div className="muted mono">{l.total}</div>}
      <div className="muted">{source}</div>
    </>
  );
}

function SubQuotas({ line: l, who }: { line: Line; who: string }) {
  return (
    <>
      {l.clients.length === 0 ? (
        <span className="muted">none</span>
      ) : (
        <ul className="plain">
          {l.clients.map((c) => (
            <li key={c.clientId}>
              <span className="mono">{c.clientId}</span>: {c.display} <span className="muted mono">({c.value})</span>
            </li>
          ))}
        </ul>
      )}
      {l.defaultClientQuota !== null && (
        <Alert tone="warn" small>
          {`{user:${who}, client-id:<default>}`} = {l.defaultClientQuota}: each client without a sub-quota gets its own
          full quota (not counted).
        </Alert>
      )}
    </>
  );
}

function Bar({ line: l, rule }: { line: Line; rule: string }) {
  return (
    <>
      {l.usedPercent !== null ? (
        <div
          className={`budget-bar${l.overBudget ? " over" : ""}`}
          role="meter"
          aria-label={`${l.key} sub-quotas used`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.min(100, Math.round(l.usedPercent))}
          aria-valuetext={`${Math.round(l.usedPercent)}% used`}
        >
          <span style={{ width: `${Math.min(100, l.usedPercent)}%` }} />
        </div>
      ) : (
        <span className="muted">unlimited</span>
      )}
      {l.usedPercent !== null && <div className="muted">{Math.round(l.usedPercent)}% used</div>}
      {l.overBudget && (
        <Badge tone="bad" title={rule}>
          over budget ({rule})
        </Badge>
      )}
    </>
  );
}
