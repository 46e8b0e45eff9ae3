import type { ReactNode } from "react";

/**
 * The note a form shows when `useFormDraft` brought its entries back after a sign-in
 * (`shown`): the children say what to do next ("preview again"). Test id `draft-restored`.
 */
export function DraftRestored({ shown, children }: { shown: boolean; children: ReactNode }) {
  if (!shown) return null;
  return (
    <p className="hint" data-testid="draft-restored">
      {children}
    </p>
  );
}
