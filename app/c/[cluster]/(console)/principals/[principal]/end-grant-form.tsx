"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import { endGrantAction, type EndGrantState } from "../../grants/actions";

/** "End now": its requester or approver removes a grant's ACLs before the expiry (change grant.end). */
export function EndGrantForm({ grantId }: { grantId: string }) {
  const [state, formAction] = useActionState<EndGrantState, FormData>(endGrantAction, null);
  if (state?.result.ok)
    return (
      <Alert tone="success" testId="grant-ended" small>
        {state.result.data.message}
      </Alert>
    );
  return (
    <form action={formAction}>
      <input type="hidden" name="grantId" value={grantId} />
      <SubmitButton variant="danger" small pendingLabel="Ending…">
        End now
      </SubmitButton>
      {state && !state.result.ok && (
        <Alert tone="error" testId="end-grant-error" small>
          {state.result.message}
        </Alert>
      )}
    </form>
  );
}
