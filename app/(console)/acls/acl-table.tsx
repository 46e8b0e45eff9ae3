"use client";

import { useActionState } from "react";
import type { AclBinding } from "@/lib/policy";
import { deleteAclAction, type AclChangeState } from "./actions";
import { ApplyResultView, BindingCells, BindingHeaders, PreviewView } from "./change-views";

/** The page of ACLs with a checkbox per row; selected rows go to "Preview deletion", then "Delete". */
export function AclTable({ acls }: { acls: AclBinding[] }) {
  const [state, formAction, pending] = useActionState<AclChangeState, FormData>(deleteAclAction, null);
  const preview = state?.step === "preview" && state.result.ok ? state.result.data : null;
  const deletable = preview !== null && preview.bindings.length > preview.noOps.length;
  return (
    <>
      {acls.length === 0 && <div className="empty">No ACL matches these filters.</div>}
      <form action={formAction} aria-label="ACL selection" hidden={acls.length === 0}>
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
                    <input type="checkbox" name="acl" value={value} aria-label={`Select ${a.permissionType} ${a.principal} ${a.operation} on ${a.resourceType} ${a.resourceName} (${a.patternType}) from ${a.host}`} />
                  </td>
                  <BindingCells acl={a} />
                </tr>
              );
            })}
          </tbody>
        </table>
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
      {preview && <PreviewView preview={preview} />}
      {preview && deletable && (
        <form action={formAction}>
          <input type="hidden" name="bindings" value={JSON.stringify(preview.bindings)} />
          <button className="btn danger" type="submit" name="intent" value="delete" disabled={pending}>
            Delete {preview.bindings.length} ACL{preview.bindings.length === 1 ? "" : "s"}
          </button>
        </form>
      )}
      {state?.step === "apply" && state.result.ok && <ApplyResultView result={state.result.data} />}
    </>
  );
}
