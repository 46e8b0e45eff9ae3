"use client";

import { useActionState } from "react";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import Link from "@/components/link";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { endGrantAction, extendGrantAction, type EndGrantState, type FileState } from "../actions";

/** A grant's requester or approver ends it before its expiry (change grant.end): its ACLs are removed now. */
export function EndGrantForm({ grantId }: { grantId: string }) {
  const [state, formAction] = useActionState<EndGrantState, FormData>(endGrantAction, null);
  return (
    <>
      {!state?.ok && (
        <form action={formAction} aria-label="End the grant" className="row">
          <input type="hidden" name="id" value={grantId} />
          <SubmitButton variant="secondary" pendingLabel="Ending…">
            End the grant now
          </SubmitButton>
          <span className="hint">Removes the ACLs it created now instead of at the expiry.</span>
        </form>
      )}
      <ResultPanel result={state} testId="end-grant" success={(d) => d.message} />
    </>
  );
}

/** Its requester or approver asks for more time: a new request for the same ACLs, reviewed like any other. */
export function ExtendGrantForm({ grantId }: { grantId: string }) {
  const [state, formAction] = useActionState<FileState, FormData>(extendGrantAction, null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <>
      <form action={formAction} aria-label="Ask to extend the grant" noValidate className="card">
        <input type="hidden" name="id" value={grantId} />
        <FormGrid>
          <Field id="extend-minutes" label="More minutes" errors={errors.grantMinutes}>
            <input name="grantMinutes" inputMode="numeric" defaultValue={state?.values.grantMinutes ?? "60"} />
          </Field>
          <Field id="extend-reason" label="Why" errors={errors.reason}>
            <input name="reason" defaultValue={state?.values.reason ?? ""} autoComplete="off" />
          </Field>
        </FormGrid>
        <FormActions>
          <SubmitButton variant="secondary" pendingLabel="Filing…">
            Ask to extend
          </SubmitButton>
        </FormActions>
      </form>
      <ResultPanel
        result={state}
        testId="extend-grant"
        shownFields={["grantMinutes", "reason"]}
        success={(d) => (
          <>
            {d.message} <Link href={`/requests/${d.request.id}`}>The new request</Link>
          </>
        )}
      />
    </>
  );
}
