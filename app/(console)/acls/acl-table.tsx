"use client";

import { useActionState } from "react";
import type { AclBinding } from "@/lib/policy";
import { AclPlanPreview } from "@/components/plans/acl-plan-view";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { deleteAclAction, type AclChangeState } from "./actions";
import { BindingCells, BindingHeaders } from "./change-views";

const FORM_ID = "acl-selection";

/**
 * The page of ACLs with a checkbox per row: "Preview deletion" makes a sealed plan
 * deleting the selected rows, "Delete" applies that plan by its id. The selection is
 * kept through the preview and its errors.
 */
export function AclTable({ acls }: { acls: AclBinding[] }) {
  const [state, formAction, pending] = useActionState<AclChangeState, FormData>(deleteAclAction, null);
  const plan = state?.step === "preview" && state.result.ok ? state.result.data : null;
  const selected = new Set(state?.selected ?? []);
  return (
    <>
      {acls.length === 0 && <div className="empty">No ACL matches these filters.</div>}
      <form key={state?.seq ?? 0} id={FORM_ID} action={formAction} aria-label="ACL selection" hidden={acls.length === 0}>
        <div className="table-scroll">
          <table className="data" aria-label="ACLs">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Select</span>
                </th>
                <BindingHeaders />
              </tr>
            </thead>
            <tbody>
              {acls.map((a) => {
                const value = JSON.stringify(a);
                return (
                  <tr key={value}>
                    <td>
                      <input
                        type="checkbox"
                        name="acl"
                        value={value}
                        defaultChecked={selected.has(value)}
                        aria-label={`Select ${a.permissionType} ${a.principal} ${a.operation} on ${a.resourceType} ${a.resourceName} (${a.patternType}) from ${a.host}`}
                      />
                    </td>
                    <BindingCells acl={a} />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <div className="row table-actions">
          <button className="btn secondary" type="submit" name="intent" value="preview" disabled={pending || acls.length === 0}>
            Preview deletion
          </button>
        </div>
      </form>
      {state && !state.result.ok && (
        <div role="alert" className="alert error" data-testid="delete-error">
          {state.result.message}
        </div>
      )}
      {plan && <AclPlanPreview plan={plan} />}
      {plan && plan.applicable && (
        <div className="row table-actions">
          <input type="hidden" form={FORM_ID} name="planId" value={plan.id} />
          <button className="btn danger" type="submit" form={FORM_ID} name="intent" value="delete" disabled={pending}>
            Delete {plan.delete.length} ACL{plan.delete.length === 1 ? "" : "s"}
          </button>
          <span className="hint">Deletes exactly the previewed ACLs, whatever is selected now.</span>
        </div>
      )}
      {state?.step === "apply" && state.result.ok && <AclPlanResult result={state.result.data} />}
    </>
  );
}
