"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { NoteForm } from "@/components/ui/note-form";
import { BREAK_GLASS_COMMENT_MAX } from "@/lib/schemas/break-glass";
import { reviewBreakGlassAction, type BreakGlassReviewState } from "../../break-glass-actions";

const COMMENT = {
  name: "comment",
  label: "Comment",
  hint: "What you checked: the incident, that the change was needed and no more than needed",
  maxLength: BREAK_GLASS_COMMENT_MAX,
};

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
    <NoteForm
      action={formAction}
      label="Review after the fact"
      state={state}
      id="break-glass-review"
      hidden={{ planId }}
      field={COMMENT}
      submit={{ text: "Reviewed after the fact", pending: "Recording…" }}
    />
  );
}
