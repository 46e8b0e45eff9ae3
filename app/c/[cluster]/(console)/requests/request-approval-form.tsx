"use client";

import { useActionState } from "react";
import Link from "@/components/link";
import { Alert, ResultPanel } from "@/components/ui/alert";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { fileRequestFromPlanAction, type FileState } from "./actions";

/** Whether an Apply was refused because the cluster needs someone else's approval first. */
export function isFourEyesRefusal(message: string | undefined): boolean {
  return message !== undefined && /four-eyes/i.test(message);
}

/**
 * Under an Apply refused for four-eyes: where to go instead (the Request approval form below,
 * or, where the preview is gone, a new preview).
 */
export function FourEyesHint({ message, below = true }: { message: string | undefined; below?: boolean }) {
  if (!isFourEyesRefusal(message)) return null;
  return (
    <p className="hint" data-testid="four-eyes-hint">
      {below ? (
        <>
          Ask for approval instead: <a href="#request-approval">Request approval</a> below files this change for a
          reviewer.
        </>
      ) : (
        "Ask for approval instead: preview the change again and choose Request approval."
      )}
    </p>
  );
}

/**
 * "Request approval" beside Apply: files the change of the previewed plan as a request with a
 * reason (change request.from-plan); for a change that creates ACLs, "Ends after" makes them a
 * grant that is removed by itself.
 */
export function RequestApprovalForm({ planId, canEnd }: { planId: string; canEnd: boolean }) {
  const [state, formAction] = useActionState<FileState, FormData>(fileRequestFromPlanAction, null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const v = state?.values ?? {};
  if (state?.ok) {
    const request = state.data.request;
    return (
      <Alert tone="success" testId="request-filed">
        {state.data.message}{" "}
        <Link href={`/requests/${request.id}`} data-testid="request-link">
          Open the request
        </Link>
      </Alert>
    );
  }
  return (
    <section id="request-approval" aria-label="Request approval" data-testid="request-approval">
      <h4>Or request approval</h4>
      <form action={formAction} aria-label="Request approval" noValidate>
        <input type="hidden" name="planId" value={planId} />
        <FormGrid>
          <Field id={`ra-reason-${planId}`} label="Reason" errors={errors.reason} wide>
            <textarea name="reason" rows={2} defaultValue={v.reason ?? ""} placeholder="Why this change is needed" />
          </Field>
          {canEnd && (
            <Field
              id={`ra-minutes-${planId}`}
              label="Ends after (minutes)"
              hint="Optional: the ACLs it creates are removed by themselves this long after they are applied."
              errors={errors.grantMinutes}
            >
              <input name="grantMinutes" inputMode="numeric" defaultValue={v.grantMinutes ?? ""} placeholder="60" />
            </Field>
          )}
          <FormActions>
            <SubmitButton variant="secondary" pendingLabel="Filing…">
              Request approval
            </SubmitButton>
            <p className="hint">Nothing changes until a reviewer approves it.</p>
          </FormActions>
        </FormGrid>
      </form>
      <ResultPanel result={state} testId="request-approval" shownFields={["reason", "grantMinutes"]} />
    </section>
  );
}
