import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";

/**
 * One labelled control: the label, an optional hint and the field's errors, wired to the
 * control with `id`, `aria-describedby` and `aria-invalid`. The control is the single child
 * (an input, select, textarea, `Select` or `Combobox`); Field sets its `id` and ARIA props.
 *
 *   <Field id="tr-owner" label="Owner" hint="User:<name>" errors={errors.owner}>
 *     <input name="owner" />
 *   </Field>
 *
 * Ids: the control `id`, the hint `${id}-hint`, the errors `${id}-error` (stable, so tests
 * and other forms can point at them).
 */
export interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: readonly string[] | string | undefined;
  /** Spans the whole row of a FormGrid. */
  wide?: boolean;
  className?: string;
  children: ReactElement;
}

export function errorList(errors: FieldProps["errors"]): string[] {
  if (errors === undefined) return [];
  return (typeof errors === "string" ? [errors] : [...errors]).filter((m) => m.trim() !== "");
}

/** The ARIA props Field gives its control: described by the hint and the errors that are shown. */
export function controlAria(
  id: string,
  hasHint: boolean,
  errorCount: number,
): { id: string; "aria-describedby"?: string; "aria-invalid"?: true } {
  const describedBy = [hasHint ? `${id}-hint` : null, errorCount > 0 ? `${id}-error` : null].filter(
    (s): s is string => s !== null,
  );
  return {
    id,
    ...(describedBy.length ? { "aria-describedby": describedBy.join(" ") } : {}),
    ...(errorCount > 0 ? { "aria-invalid": true as const } : {}),
  };
}

export function Field({ id, label, hint, errors, wide, className, children }: FieldProps) {
  const messages = errorList(errors);
  const control = Children.only(children);
  const aria = controlAria(id, hint !== undefined, messages.length);
  return (
    <div className={["field", wide ? "wide" : "", className ?? ""].filter(Boolean).join(" ")}>
      <label htmlFor={id}>{label}</label>
      {isValidElement(control) ? cloneElement(control as ReactElement<Record<string, unknown>>, aria) : control}
      {hint !== undefined && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {messages.length > 0 && (
        <span id={`${id}-error`} className="field-error">
          {messages.join(" ")}
        </span>
      )}
    </div>
  );
}

/** A checkbox with its label after it (Field's layout is for text controls). */
export function Check({ label, ...input }: { label: ReactNode } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="check">
      <input type="checkbox" {...input} /> {label}
    </label>
  );
}

/** Fields laid out in a responsive grid; `FormActions` spans the whole row. */
export function FormGrid({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={["form-grid", className ?? ""].filter(Boolean).join(" ")}>{children}</div>;
}

export function FormActions({ children }: { children: ReactNode }) {
  return <div className="form-actions">{children}</div>;
}
