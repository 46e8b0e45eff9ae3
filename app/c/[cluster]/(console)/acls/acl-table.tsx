"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "@/components/link";
import { useActionState, useEffect } from "react";
import type { AclBinding } from "@/lib/policy";
import { AclPlanPreview } from "@/components/plans/acl-plan-view";
import { FourEyesHint, RequestApprovalForm } from "../requests/request-approval-form";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { aclCount, PlanSubmitRow } from "@/components/plans/plan-submit-row";
import { aclColumns, bindingRowKey, type AclSortControl } from "@/components/acls/acl-row";
import { Alert } from "@/components/ui/alert";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { accessCheckHref, aclKeys, cloneHref } from "@/components/acls/acl-list-params";
import { deleteAclAction, type AclChangeState } from "./actions";

const FORM_ID = "acl-selection";

const describe = (a: AclBinding) =>
  `${a.permissionType} ${a.principal} ${a.operation} on ${a.resourceType} ${a.resourceName} (${a.patternType}) ` +
  `from ${a.host}`;

/**
 * The page of ACLs with a checkbox per row: "Preview deletion" makes a sealed plan
 * deleting the selected rows (a row's own "Delete…" previews just that row), "Delete"
 * applies that plan by its id. The selection is kept through the preview and its errors.
 * Each row also clones into the create form, opens the access check for its fields, and
 * links its principal.
 */
export function AclTable({ acls, sort }: { acls: AclBinding[]; sort?: AclSortControl }) {
  const [state, formAction, pending] = useActionState<AclChangeState, FormData>(deleteAclAction, null);
  const queryClient = useQueryClient();
  const plan = state?.step === "preview" && state.result.ok ? state.result.data : null;
  const selected = new Set(state?.selected ?? []);
  const applied = state?.step === "apply" && state.result.ok ? state.seq : null;
  // After a deletion the list is read again (the snapshot already holds the change).
  useEffect(() => {
    if (applied !== null) void queryClient.invalidateQueries({ queryKey: aclKeys.all });
  }, [applied, queryClient]);
  return (
    <>
      {acls.length === 0 && <EmptyState>No ACL matches these filters.</EmptyState>}
      <form
        key={state?.seq ?? 0}
        id={FORM_ID}
        action={formAction}
        aria-label="ACL selection"
        hidden={acls.length === 0}
      >
        <DataTable
          label="ACLs"
          rows={acls}
          rowKey={bindingRowKey}
          columns={[
            {
              key: "select",
              header: <span className="sr-only">Select</span>,
              cell: (a) => <SelectBox acl={a} selected={selected} />,
            },
            ...aclColumns((a: AclBinding) => a, { linkPrincipal: true, sort }),
            {
              key: "actions",
              header: <span className="sr-only">Actions</span>,
              sticky: true,
              cell: (a) => <RowActions acl={a} pending={pending} />,
            },
          ]}
        />
        <div className="row table-actions">
          <button
            className="btn secondary"
            type="submit"
            name="intent"
            value="preview"
            disabled={pending || acls.length === 0}
          >
            Preview deletion
          </button>
        </div>
      </form>
      {state && !state.result.ok && (
        <Alert tone="error" testId="delete-error">
          {state.result.message}
          <FourEyesHint message={state.result.message} below={false} />
        </Alert>
      )}
      {plan && <AclPlanPreview plan={plan} />}
      {plan && plan.applicable && (
        <PlanSubmitRow
          form={FORM_ID}
          planId={plan.id}
          intent="delete"
          danger
          pending={pending}
          hint="Deletes exactly the previewed ACLs, whatever is selected now."
        >
          Delete {aclCount(plan.delete.length)}
        </PlanSubmitRow>
      )}
      {plan && <RequestApprovalForm key={plan.id} planId={plan.id} canEnd={false} />}
      {state?.step === "apply" && state.result.ok && <AclPlanResult result={state.result.data} />}
    </>
  );
}

/** A row's checkbox: its value is the binding, kept checked through a preview. */
function SelectBox({ acl, selected }: { acl: AclBinding; selected: ReadonlySet<string> }) {
  const value = JSON.stringify(acl);
  const label = `Select ${describe(acl)}`;
  return <input type="checkbox" name="acl" value={value} defaultChecked={selected.has(value)} aria-label={label} />;
}

/** The binding's own timeline in the history journal. */
const timelineHref = (acl: AclBinding) =>
  `/timeline?${new URLSearchParams({
    resourceType: acl.resourceType,
    resourceName: acl.resourceName,
    patternType: acl.patternType,
    principal: acl.principal,
    host: acl.host,
    operation: acl.operation,
    permissionType: acl.permissionType,
  })}`;

/**
 * A row's own actions: delete it (through a preview), clone it into the create form, check access like it, its
 * history.
 */
function RowActions({ acl, pending }: { acl: AclBinding; pending: boolean }) {
  const value = JSON.stringify(acl);
  return (
    <div className="row-actions">
      <button
        className="btn secondary small"
        type="submit"
        name="only"
        value={value}
        disabled={pending}
        aria-label={`Delete ${describe(acl)}`}
      >
        Delete…
      </button>
      <Link href={cloneHref(acl)} aria-label={`Clone ${describe(acl)}`}>
        Clone
      </Link>
      <Link href={accessCheckHref(acl)} aria-label={`Check access like ${describe(acl)}`}>
        Check
      </Link>
      <Link href={timelineHref(acl)} aria-label={`History of ${describe(acl)}`} data-testid="acl-timeline-link">
        History
      </Link>
    </div>
  );
}
