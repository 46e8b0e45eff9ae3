"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "@/components/link";
import { useActionState, useEffect } from "react";
import type { AclBinding } from "@/lib/policy";
import { AclPlanPreview } from "@/components/plans/acl-plan-view";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { AclBindingCells, AclBindingHeaders, bindingRowKey, type AclSortControl } from "@/components/acls/acl-row";
import { accessCheckHref, aclKeys, cloneHref } from "@/components/acls/acl-list-params";
import { deleteAclAction, type AclChangeState } from "./actions";

const FORM_ID = "acl-selection";

const describe = (a: AclBinding) => `${a.permissionType} ${a.principal} ${a.operation} on ${a.resourceType} ${a.resourceName} (${a.patternType}) from ${a.host}`;

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
      {acls.length === 0 && <div className="empty">No ACL matches these filters.</div>}
      <form key={state?.seq ?? 0} id={FORM_ID} action={formAction} aria-label="ACL selection" hidden={acls.length === 0}>
        <div className="table-scroll" role="region" aria-label="ACLs (scrolls sideways)" tabIndex={0}>
          <table className="data" aria-label="ACLs">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Select</span>
                </th>
                <AclBindingHeaders sort={sort} />
                <th className="sticky-actions">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {acls.map((a) => {
                const value = JSON.stringify(a);
                return (
                  <tr key={bindingRowKey(a)}>
                    <td>
                      <input type="checkbox" name="acl" value={value} defaultChecked={selected.has(value)} aria-label={`Select ${describe(a)}`} />
                    </td>
                    <AclBindingCells acl={a} linkPrincipal />
                    <td className="sticky-actions">
                      <div className="row-actions">
                        <button className="btn secondary small" type="submit" name="only" value={value} disabled={pending} aria-label={`Delete ${describe(a)}`}>
                          Delete…
                        </button>
                        <Link href={cloneHref(a)} aria-label={`Clone ${describe(a)}`}>
                          Clone
                        </Link>
                        <Link href={accessCheckHref(a)} aria-label={`Check access like ${describe(a)}`}>
                          Check
                        </Link>
                      </div>
                    </td>
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
