import type { AclPlanApplyResult } from "@/lib/schemas/plans";
import { BindingCells, BindingHeaders, bindingRowKey } from "./bindings";

/** What Kafka did with each binding of an applied plan. */
export function AclPlanResult({ result }: { result: AclPlanApplyResult }) {
  const tone = result.outcome === "success" ? "info" : result.outcome === "partial" || result.outcome === "unknown" ? "warn" : "error";
  return (
    <section aria-label="Result" data-testid="acl-result" data-plan-id={result.plan.id}>
      <div role="status" className={`alert ${tone}`}>
        <span className={`badge ${result.outcome === "unknown" ? "partial" : result.outcome}`}>{result.outcome}</span> {result.message}
      </div>
      <div className="table-scroll" role="region" tabIndex={0} aria-label="Per-binding results (scrolls sideways)">
        <table className="data" aria-label="Per-binding results">
          <thead>
            <tr>
              <th>Result</th>
              <BindingHeaders />
            </tr>
          </thead>
          <tbody>
            {result.results.map((r) => (
              <tr key={`${r.action}|${bindingRowKey(r)}`}>
                <td>
                  {r.ok ? (
                    <span className="badge success">
                      {r.action === "create" ? "created" : "deleted"}
                      {r.readBack === "applied" ? " (confirmed by reading back)" : ""}
                    </span>
                  ) : (
                    <span className={`badge ${r.readBack === "unknown" ? "partial" : "failure"}`}>{r.error?.message ?? "failed"}</span>
                  )}
                </td>
                <BindingCells acl={r} />
              </tr>
            ))}
            {result.notSent.map((r) => (
              <tr key={`not-sent|${r.action}|${bindingRowKey(r)}`}>
                <td>
                  <span className="badge">not sent</span>
                </td>
                <BindingCells acl={r} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
