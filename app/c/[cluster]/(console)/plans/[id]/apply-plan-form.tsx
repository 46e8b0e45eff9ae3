"use client";

import { useActionState } from "react";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { Alert } from "@/components/ui/alert";
import { FourEyesHint, RequestApprovalForm } from "../../requests/request-approval-form";
import { applyPlanAction, type ApplyPlanState } from "../actions";

export function ApplyPlanForm({ planId, label, canEnd }: { planId: string; label: string; canEnd: boolean }) {
  const [state, formAction, pending] = useActionState<ApplyPlanState, FormData>(applyPlanAction, null);
  return (
    <>
      {!state?.result.ok && (
        <form action={formAction} className="row">
          <input type="hidden" name="planId" value={planId} />
          <button className="btn" type="submit" disabled={pending}>
            {pending ? "Working…" : label}
          </button>
        </form>
      )}
      {state && !state.result.ok && (
        <Alert tone="error" testId="apply-error">
          {state.result.message}
          <FourEyesHint message={state.result.message} />
        </Alert>
      )}
      {state?.result.ok && <AclPlanResult result={state.result.data} />}
      {!state?.result.ok && <RequestApprovalForm planId={planId} canEnd={canEnd} />}
    </>
  );
}
