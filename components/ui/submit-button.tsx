"use client";

import type { ButtonHTMLAttributes, ReactNode } from "react";
import { useFormStatus } from "react-dom";

/**
 * A submit button that shows its form is on its way: disabled, `aria-busy` and the
 * `pendingLabel` while the form's action runs (a server action, or the client-side
 * navigation of a GET `<Form>`). Without JavaScript it is a plain submit button.
 */
export function SubmitButton({
  children,
  pendingLabel,
  variant = "primary",
  small,
  className,
  ...rest
}: {
  children: ReactNode;
  pendingLabel?: ReactNode;
  variant?: "primary" | "secondary" | "danger";
  small?: boolean;
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  const { pending } = useFormStatus();
  const classes = ["btn", variant === "primary" ? "" : variant, small ? "small" : "", className ?? ""]
    .filter(Boolean)
    .join(" ");
  return (
    <button
      type="submit"
      className={classes}
      disabled={pending || rest.disabled}
      aria-busy={pending || undefined}
      {...rest}
    >
      {pending && <span className="spinner" aria-hidden="true" />}
      {pending && pendingLabel !== undefined ? pendingLabel : children}
    </button>
  );
}
