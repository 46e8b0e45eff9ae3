import type { ReactNode } from "react";
import { Field } from "./field";

/**
 * "As of" an instant (#20, docs/history.md): the `at` field of a GET form whose answer the
 * history journal can give for a past instant (the Access check, the principal page). Empty: now.
 */
export function AsOfField({
  id,
  hint,
  errors,
  value,
}: {
  id: string;
  hint: ReactNode;
  errors?: string[];
  value?: string;
}) {
  return (
    <Field id={id} label="As of" hint={hint} errors={errors}>
      <input name="at" defaultValue={value ?? ""} placeholder="now" />
    </Field>
  );
}
