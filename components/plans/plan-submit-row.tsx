import type { ReactNode } from "react";

/**
 * The row under a previewed plan that sends it on: the plan's id and the button of the form
 * `form` (its `intent`), with a hint of what it does. The plan id, not the fields, says what is
 * applied, so the hint reminds that the fields may have changed since the preview.
 */
export function PlanSubmitRow({
  form,
  planId,
  intent,
  danger = false,
  pending,
  hint,
  children,
}: {
  form: string;
  planId: string;
  intent: string;
  danger?: boolean;
  pending: boolean;
  hint: string;
  children: ReactNode;
}) {
  return (
    <div className="row table-actions">
      <input type="hidden" form={form} name="planId" value={planId} />
      <button
        className={danger ? "btn danger" : "btn"}
        type="submit"
        form={form}
        name="intent"
        value={intent}
        disabled={pending}
      >
        {children}
      </button>
      <span className="hint">{hint}</span>
    </div>
  );
}

/** "1 ACL", "3 ACLs". */
export const aclCount = (n: number) => `${n} ACL${n === 1 ? "" : "s"}`;
