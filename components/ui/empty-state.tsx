import type { ReactNode } from "react";

/** Nothing to list: what that means, and what to do (a link or button). */
export function EmptyState({ children, action, testId }: { children: ReactNode; action?: ReactNode; testId?: string }) {
  return (
    <div className="empty" data-testid={testId}>
      <div>{children}</div>
      {action !== undefined && <div className="empty-action">{action}</div>}
    </div>
  );
}
