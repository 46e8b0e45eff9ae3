import type { ReactNode } from "react";
import type { FormResult } from "@/lib/actions/form";
import { Alert } from "./alert";
import { Field, FormActions, FormGrid } from "./field";
import { SubmitButton } from "./submit-button";

/**
 * A form of one required text (a reason, a comment) about one thing: the thing's id as a hidden
 * field, the text in a `Field` (its errors beside it), the submit button, and the refusal of the
 * last try (`state`, the form's answer: the text is shown again with it). The server action and
 * what a success shows are the caller's.
 */
export function NoteForm({
  action,
  state,
  id,
  hidden,
  field,
  submit,
  label,
}: {
  action: (formData: FormData) => void;
  state: FormResult<unknown> | null;
  /** Names the form (`<id>-form`), its text field (`<id>-<field name>`) and its refusal (`<id>-error`). */
  id: string;
  hidden: Record<string, string>;
  field: {
    name: string;
    label: string;
    hint: string;
    maxLength: number;
  };
  submit: { text: ReactNode; pending: string; variant?: "danger" };
  label?: string;
}) {
  const refused = state?.ok === false ? state : null;
  return (
    <>
      <form action={action} aria-label={label} data-testid={`${id}-form`}>
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <FormGrid>
          <Field
            id={`${id}-${field.name}`}
            label={field.label}
            hint={field.hint}
            errors={refused?.fieldErrors?.[field.name]}
            wide
          >
            <textarea
              name={field.name}
              required
              maxLength={field.maxLength}
              rows={2}
              defaultValue={state?.values[field.name] ?? ""}
            />
          </Field>
          <FormActions>
            <SubmitButton variant={submit.variant} pendingLabel={submit.pending}>
              {submit.text}
            </SubmitButton>
          </FormActions>
        </FormGrid>
      </form>
      {refused && (
        <Alert tone="error" testId={`${id}-error`}>
          {refused.message}
        </Alert>
      )}
    </>
  );
}
