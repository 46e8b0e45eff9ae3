import type { ReactNode } from "react";
import { Field, FormActions, FormGrid } from "./field";
import { SubmitButton } from "./submit-button";

/**
 * A form of one required text (a reason, a comment) about one thing: the thing's id as a hidden
 * field, the text in a `Field` (its errors beside it), and the submit button. The server action
 * and its answer are the caller's.
 */
export function NoteForm({
  action,
  hidden,
  field,
  submit,
  label,
  testId,
}: {
  action: (formData: FormData) => void;
  hidden: Record<string, string>;
  field: {
    id: string;
    name: string;
    label: string;
    hint: string;
    maxLength: number;
    defaultValue: string;
    errors: string[] | undefined;
  };
  submit: { text: ReactNode; pending: string; variant?: "danger" };
  label?: string;
  testId?: string;
}) {
  return (
    <form action={action} aria-label={label} data-testid={testId}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormGrid>
        <Field id={field.id} label={field.label} hint={field.hint} errors={field.errors} wide>
          <textarea name={field.name} required maxLength={field.maxLength} rows={2} defaultValue={field.defaultValue} />
        </Field>
        <FormActions>
          <SubmitButton variant={submit.variant} pendingLabel={submit.pending}>
            {submit.text}
          </SubmitButton>
        </FormActions>
      </FormGrid>
    </form>
  );
}
