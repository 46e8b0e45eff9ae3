"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { BREAK_GLASS_COMMENT_MAX } from "@/lib/schemas/break-glass";
import { reviewBreakGlassAction, type BreakGlassReviewState } from "../../break-glass-actions";

/**
 * Someone else's after-the-fact review of a break-glass apply: a comment, required. `open`: it
 * may still be reviewed by the viewer. Mounted while the page shows the review after it, so its
 * answer stays on the page.
 */
export function BreakGlassReviewForm({ planId, open }: { planId: string; open: boolean }) {
  const [state, formAction] = useActionState<BreakGlassReviewState, FormData>(reviewBreakGlassAction, null);
  if (state?.ok)
    return (
      <Alert tone="success" testId="break-glass-review-done">
        {state.data.message}
      </Alert>
    );
  if (!open) return null;
  return (
    <form action={formAction} aria-label="Review after the fact" data-testid="break-glass-review-form">
      <input type="hidden" name="planId" value={planId} />
      <FormGrid>
        <Field
          id="break-glass-review-comment"
          label="Comment"
          hint="What you checked: the incident, that the change was needed and no more than needed"
          errors={state?.ok === false ? state.fieldErrors?.comment : undefined}
          wide
        >
          <textarea
            name="comment"
            required
            maxLength={BREAK_GLASS_COMMENT_MAX}
            rows={2}
            defaultValue={state?.values.comment ?? ""}
          />
        </Field>
        <FormActions>
          <SubmitButton pendingLabel="Recording…">Reviewed after the fact</SubmitButton>
        </FormActions>
      </FormGrid>
      {state?.ok === false && (
        <Alert tone="error" testId="break-glass-review-error">
          {state.message}
        </Alert>
      )}
    </form>
  );
}
