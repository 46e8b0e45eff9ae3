import type { ReactNode } from "react";
import Link from "@/components/link";
import type { ActionResult } from "@/lib/schemas/result";

export type AlertTone = "error" | "warn" | "info" | "success";

/**
 * A message box. Errors are `role="alert"` (read out at once); the others `role="status"`,
 * unless `role` says otherwise (a warning that must interrupt: copy the HMAC now).
 * `small` fits inside a table row.
 */
export function Alert({
  tone,
  title,
  children,
  testId,
  small,
  role,
}: {
  tone: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  testId?: string;
  small?: boolean;
  role?: "alert" | "status";
}) {
  return (
    <div
      role={role ?? (tone === "error" ? "alert" : "status")}
      className={["alert", tone === "success" ? "info" : tone, small ? "small" : ""].filter(Boolean).join(" ")}
      data-testid={testId}
    >
      {title !== undefined && <strong>{title} </strong>}
      {children}
    </div>
  );
}

type Failure = Extract<ActionResult<unknown>, { ok: false }>;

/** Field errors not shown next to a field of the form (`shownFields`), as "field: message". */
export function unshownFieldErrors(failure: Failure, shownFields: readonly string[] = []): string[] {
  return Object.entries(failure.fieldErrors ?? {})
    .filter(([field]) => !shownFields.includes(field))
    .map(([field, messages]) => (field === "_" ? messages.join(" ") : `${field}: ${messages.join(" ")}`));
}

/**
 * The one renderer of an ActionResult (a server action's or an API answer): the error's
 * message (never a stack trace; the server already wrote the message for a person), the
 * field errors the form does not show beside a field, a sign-in link when the session
 * ended, or `success(data)`. `null` (nothing submitted yet) renders nothing.
 */
export function ResultPanel<T>({
  result,
  success,
  testId,
  small,
  shownFields,
  children,
}: {
  result: ActionResult<T> | null | undefined;
  success?: (data: T) => ReactNode;
  /** `${testId}-error` on a failure, `${testId}-done` on a success. */
  testId?: string;
  small?: boolean;
  /** Fields whose errors the form shows beside them. */
  shownFields?: readonly string[];
  /** Extra content under an error (what to do next). */
  children?: ReactNode;
}) {
  if (!result) return null;
  if (result.ok) {
    if (!success) return null;
    return (
      <Alert tone="success" small={small} testId={testId ? `${testId}-done` : undefined}>
        {success(result.data)}
      </Alert>
    );
  }
  const extra = unshownFieldErrors(result, shownFields);
  return (
    <Alert tone="error" small={small} testId={testId ? `${testId}-error` : undefined}>
      {result.message}
      {extra.length > 0 && (
        <ul className="plain">
          {extra.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {result.code === "UNAUTHENTICATED" && (
        <div>
          <Link href="/sign-in">Sign in again</Link>
        </div>
      )}
      {children}
    </Alert>
  );
}
