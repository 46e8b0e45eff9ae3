import type { AclBinding } from "@/lib/policy";

/** One key per binding (all seven fields). */
export const bindingRowKey = (b: AclBinding) => [b.resourceType, b.patternType, b.resourceName, b.principal, b.host, b.operation, b.permissionType].join("|");

/** A binding as table cells. */
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

export function BindingsTable({ label, bindings }: { label: string; bindings: readonly AclBinding[] }) {
  return (
    <div className="table-scroll">
      <table className="data" aria-label={label}>
        <thead>
          <tr>
            <BindingHeaders />
          </tr>
        </thead>
        <tbody>
          {bindings.map((b) => (
            <tr key={bindingRowKey(b)}>
              <BindingCells acl={b} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
