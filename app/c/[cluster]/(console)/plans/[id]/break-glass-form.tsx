"use client";

import { useActionState } from "react";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { NoteForm } from "@/components/ui/note-form";
import { breakGlassAction, type BreakGlassState } from "../break-glass-actions";

const REASON = {
  name: "reason",
  label: "Reason",
  hint: "Why it cannot wait for an approval (an incident number)",
  maxLength: 1000,
};

/**
 * On a cluster that needs approvals, a super user may apply their own plan at once with a
 * reason (break-glass): recorded before the apply and flagged on the dashboard. `open`: the
 * plan may still be applied.
 */
export function BreakGlassForm({ planId, approvals, open }: { planId: string; approvals: number; open: boolean }) {
  const [state, formAction] = useActionState<BreakGlassState, FormData>(breakGlassAction, null);
  // Mounted while the page shows the plan as applied after it, so its answer stays on the page.
  if (state?.ok) return <AclPlanResult result={state.data} />;
  if (!open) return null;
  return (
    <section className="card" aria-labelledby="break-glass-title" data-testid="break-glass">
      <h2 id="break-glass-title">Break-glass apply</h2>
      <p className="muted">
        This cluster needs {approvals} {approvals === 1 ? "approval" : "approvals"} by someone else before a change is
        applied. As a super user you may apply this plan now without them: say why. The reason is recorded in the audit
        trail and the apply is flagged on the dashboard.
      </p>
      <NoteForm
        action={formAction}
        state={state}
        id="break-glass"
        hidden={{ planId }}
        field={REASON}
        submit={{ text: "Break-glass apply", pending: "Applying…", variant: "danger" }}
      />
    </section>
  );
}
