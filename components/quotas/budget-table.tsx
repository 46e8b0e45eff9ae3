import type { UserBudgetView } from "@/lib/schemas/quotas";
import { TableScroll } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";

/** The KIP-55 budget of one user: per key the total and its source, the sub-quotas, what is left, a bar. */
export function BudgetTable({ budget, rule }: { budget: UserBudgetView; rule: string }) {
  const who = budget.user === null ? "<default>" : budget.user;
  if (budget.lines.length === 0) {
    return <EmptyState>No quota applies to user {who}: nothing to budget.</EmptyState>;
  }
  return (
    <TableScroll label={`KIP-55 budget of ${who}`}>
    <table className="data quota-budget quota-rows" aria-label={`KIP-55 budget of ${who}`}>
      <thead>
        <tr>
          <th>Key</th>
          <th>Total</th>
          <th>Client sub-quotas</th>
          <th>Sum</th>
          <th>Left for other clients</th>
          <th>Budget</th>
        </tr>
      </thead>
      <tbody>
        {budget.lines.map((l) => (
          <tr key={l.key} data-key={l.key} className={l.overBudget ? "over-budget" : undefined}>
            <th scope="row" className="mono">
              {l.key}
            </th>
            <td>
              {l.totalDisplay}
              {l.total !== null && <div className="muted mono">{l.total}</div>}
              <div className="muted">
                {l.totalSource === "user" ? `own {user:${who}}` : l.totalSource === "default" ? "from the <default> user" : "no user quota"}
              </div>
            </td>
            <td>
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
                <div className="alert warn small">
                  {`{user:${who}, client-id:<default>}`} = {l.defaultClientQuota}: each client without a sub-quota gets its own full quota (not counted).
                </div>
              )}
            </td>
            <td>
              {l.sumDisplay} <span className="muted mono">({l.sum})</span>
            </td>
            <td>{l.remainingDisplay}</td>
            <td className="budget-cell">
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
                <div className="badge failure" title={rule}>
                  over budget ({rule})
                </div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
    </TableScroll>
  );
}
