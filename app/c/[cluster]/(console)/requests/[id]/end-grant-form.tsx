"use client";

import { useActionState } from "react";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import { endGrantAction, type EndGrantState } from "../actions";

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
