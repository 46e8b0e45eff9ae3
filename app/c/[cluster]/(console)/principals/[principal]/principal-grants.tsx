import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import type { GrantView } from "@/lib/schemas/requests";
import type { ActionResult } from "@/lib/schemas/result";
import { formatRelative } from "@/lib/services/token-view";
import { EndGrantForm } from "./end-grant-form";

const aclText = (b: GrantView["bindings"][number]) =>
  `${b.permissionType} ${b.operation} on ${b.resourceType} ${b.resourceName}` +
  `${b.patternType === "PREFIXED" ? " (prefix)" : ""} for ${b.principal}` +
  `${b.host === "*" ? "" : ` from ${b.host}`}`;

/**
 * The principal's grants that end by themselves (it asked for them, or their ACLs are for
 * it), with the time left; their requester or approver may end one now.
 */
export function PrincipalGrants({
  grants,
  viewer,
}: {
  grants: ActionResult<{ grants: GrantView[]; now: number }>;
  viewer: string;
}) {
  if (grants.ok && grants.data.grants.length === 0) return null;
  return (
    <section aria-labelledby="grants-title" data-testid="principal-grants">
      <h2 id="grants-title">Grants that end by themselves</h2>
      {!grants.ok ? (
        <Alert tone="error">{grants.message}</Alert>
      ) : (
        <DataTable
          label="Live grants"
          rows={grants.data.grants}
          rowKey={(g) => g.id}
          rowProps={(g) => ({ "data-grant-id": g.id })}
          columns={[
            {
              key: "acls",
              header: "ACLs",
              cell: (g) => (
                <ul className="plain">
                  {g.bindings.map((b) => (
                    <li key={JSON.stringify(b)} className="mono">
                      {aclText(b)}
                    </li>
                  ))}
                </ul>
              ),
            },
            {
              key: "ends",
              header: "Time left",
              cell: (g) =>
                g.overdue ? (
                  <Badge tone="bad" title={g.lastError ?? undefined}>
                    overdue: removal retried
                  </Badge>
                ) : g.status === "REMOVING" ? (
                  "being removed"
                ) : (
                  `ends ${formatRelative(Date.parse(g.expiresAt), grants.data.now)}`
                ),
            },
            { key: "by", header: "Requested / approved by", cell: (g) => `${g.requester} / ${g.approver}` },
            {
              key: "end",
              header: <span className="sr-only">End it</span>,
              cell: (g) =>
                g.status === "LIVE" && (viewer === g.requester || viewer === g.approver) ? (
                  <EndGrantForm grantId={g.id} />
                ) : null,
            },
          ]}
        />
      )}
    </section>
  );
}
