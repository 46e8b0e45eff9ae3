import type { AclBinding } from "@/lib/policy";
import type { AclApplyResult, AclPreview } from "@/lib/schemas/acls";

const rowKey = (b: AclBinding) => [b.resourceType, b.patternType, b.resourceName, b.principal, b.host, b.operation, b.permissionType].join("|");

/** Bindings as table cells, with optional leading and trailing cells. */
export function BindingCells({ acl }: { acl: AclBinding }) {
  return (
    <>
      <td>
        <span className={`badge ${acl.permissionType}`}>{acl.permissionType}</span>
      </td>
      <td className="mono">{acl.principal}</td>
      <td className="mono">{acl.operation}</td>
      <td className="mono">{acl.resourceType}</td>
      <td className="mono">{acl.patternType}</td>
      <td className="mono">{acl.resourceName}</td>
      <td className="mono">{acl.host}</td>
    </>
  );
}

export function BindingHeaders() {
  return (
    <>
      <th>Permission</th>
      <th>Principal</th>
      <th>Operation</th>
      <th>Resource type</th>
      <th>Pattern</th>
      <th>Resource name</th>
      <th>Host</th>
    </>
  );
}

function BindingsTable({ label, bindings }: { label: string; bindings: readonly AclBinding[] }) {
  return (
    <table className="data" aria-label={label}>
      <thead>
        <tr>
          <BindingHeaders />
        </tr>
      </thead>
      <tbody>
        {bindings.map((b) => (
          <tr key={rowKey(b)}>
            <BindingCells acl={b} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The preview of a change: Kafka's refusals, no-ops, and the decisions that change. */
export function PreviewView({ preview }: { preview: AclPreview }) {
  const verb = preview.kind === "create" ? "create" : "delete";
  return (
    <section className="acl-preview" aria-label="Preview" data-testid="acl-preview">
      <h3>
        Preview: {verb} {preview.bindings.length} ACL{preview.bindings.length === 1 ? "" : "s"}
      </h3>
      <BindingsTable label="Bindings to change" bindings={preview.bindings} />
      {preview.problems.length > 0 && (
        <div role="alert" className="alert error" data-testid="acl-problems">
          Kafka would refuse {preview.problems.length === 1 ? "this ACL" : `${preview.problems.length} ACLs`}; nothing will be created until {preview.problems.length === 1 ? "it is" : "they are"} fixed:
          <ul>
            {preview.problems.map((p) => (
              <li key={p.index}>
                <span className="mono">
                  {p.binding.principal} {p.binding.operation} on {p.binding.resourceType} {p.binding.resourceName}
                </span>
                : {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {preview.noOps.length > 0 && (
        <div className="alert info" data-testid="acl-noops">
          {preview.kind === "create" ? "Already present (creating it again changes nothing)" : "Not present (nothing to delete)"}:{" "}
          {preview.noOps.map((b) => `${b.permissionType} ${b.principal} ${b.operation} on ${b.resourceType} ${b.resourceName} (${b.patternType})`).join("; ")}
        </div>
      )}
      <h4>Decisions that change</h4>
      {preview.changes.length === 0 ? (
        <p className="muted" data-testid="acl-no-change">
          No decision changes for the principals of these ACLs on their resources ({preview.checked} checked).
        </p>
      ) : (
        <table className="data" aria-label="Decisions that change">
          <thead>
            <tr>
              <th>Principal</th>
              <th>Host</th>
              <th>Resource</th>
              <th>Operation</th>
              <th>Before</th>
              <th>After</th>
            </tr>
          </thead>
          <tbody>
            {preview.changes.map((c) => (
              <tr key={`${c.principal}|${c.host}|${c.resourceLabel}|${c.operation}`}>
                <td className="mono">{c.principal}</td>
                <td className="mono">{c.host === "*" ? "any host" : c.host}</td>
                <td className="mono">{c.resourceLabel}</td>
                <td className="mono">{c.operation}</td>
                <td>
                  <span className={`badge ${c.before}`}>{c.before}</span>
                </td>
                <td>
                  <span className={`badge ${c.after}`}>{c.after}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted assumptions">
        Decided for each operation valid on the resource type, over the ACLs Kafka holds now and after the change, assuming{" "}
        <code>super.users = {preview.assumptions.superUsers.join(";") || "(none)"}</code> and{" "}
        <code>allow.everyone.if.no.acl.found = {String(preview.assumptions.allowEveryoneIfNoAclFound)}</code>.
      </p>
    </section>
  );
}

/** What Kafka did with each binding. */
export function ApplyResultView({ result }: { result: AclApplyResult }) {
  const tone = result.outcome === "success" ? "info" : result.outcome === "partial" ? "warn" : "error";
  return (
    <section aria-label="Result" data-testid="acl-result">
      <div role="status" className={`alert ${tone}`}>
        <span className={`badge ${result.outcome}`}>{result.outcome}</span> {result.message}
      </div>
      <table className="data" aria-label="Per-binding results">
        <thead>
          <tr>
            <th>Result</th>
            <BindingHeaders />
          </tr>
        </thead>
        <tbody>
          {result.results.map((r) => (
            <tr key={rowKey(r)}>
              <td>{r.ok ? <span className="badge success">{result.kind === "create" ? "created" : "deleted"}</span> : <span className="badge failure">{r.error?.message ?? "failed"}</span>}</td>
              <BindingCells acl={r} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
