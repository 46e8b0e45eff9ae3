"use client";

import { useActionState, useId } from "react";
import { Field, FormActions } from "@/components/ui/field";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import {
  acknowledgeDriftAction,
  revertDriftAction,
  type DriftAcknowledgeState,
  type DriftRevertState,
} from "./actions";

/** "Keep it": a mandatory comment, for one change or every change of one read. */
export function KeepForm({ entryIds, label }: { entryIds: readonly string[]; label: string }) {
  const [state, formAction] = useActionState<DriftAcknowledgeState, FormData>(acknowledgeDriftAction, null);
  const id = useId();
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <>
      <form action={formAction} aria-label={label} noValidate>
        {entryIds.map((e) => (
          <input key={e} type="hidden" name="entryId" value={e} />
        ))}
        <Field
          id={`${id}-comment`}
          label="Why keep it"
          hint="Mandatory; recorded in the audit trail"
          errors={errors.comment}
        >
          <input name="comment" defaultValue={state?.values.comment ?? ""} autoComplete="off" maxLength={1000} />
        </Field>
        <FormActions>
          <SubmitButton small pendingLabel="Keeping…">
            {label}
          </SubmitButton>
        </FormActions>
      </form>
      <ResultPanel
        result={state}
        testId="drift-keep"
        shownFields={["comment"]}
        success={(v) => `Kept: ${v.acknowledged} change${v.acknowledged === 1 ? "" : "s"} acknowledged.`}
      />
    </>
  );
}

/** "Revert it": makes the plan and opens it (preview, apply or request approval there). */
export function RevertForm({ entryIds, label }: { entryIds: readonly string[]; label: string }) {
  const [state, formAction] = useActionState<DriftRevertState, FormData>(revertDriftAction, null);
  return (
    <>
      <form action={formAction} aria-label={label}>
        {entryIds.map((e) => (
          <input key={e} type="hidden" name="entryId" value={e} />
        ))}
        <SubmitButton small variant="secondary" pendingLabel="Planning…">
          {label}
        </SubmitButton>
      </form>
      <ResultPanel result={state} testId="drift-revert" success={() => "Planned."} />
    </>
  );
}
