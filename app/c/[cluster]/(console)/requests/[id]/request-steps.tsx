"use client";

import { useActionState } from "react";
import { AclPlanPreview } from "@/components/plans/acl-plan-view";
import { QuotaPlanPreview } from "@/components/quotas/quota-plan-view";
import { ScramPlanPreview } from "@/components/scram/scram-plan-view";
import { Alert, ResultPanel } from "@/components/ui/alert";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import type { AclPlanView, QuotaPlanView, ScramPlanView } from "@/lib/schemas/plans";
import type { RequestView } from "@/lib/schemas/requests";
import {
  approveRequestAction,
  cancelRequestAction,
  denyRequestAction,
  reviewRequestAction,
  type ReviewState,
  type StepState,
} from "../actions";

type Reviewed = Extract<NonNullable<ReviewState>, { ok: true }>["data"];

/** The reviewed plan with the console's plan views: quota and SCRAM plans by kind, the rest as ACL plans. */
function ReviewedPlan({ plan, quotaRule }: { plan: Reviewed; quotaRule: string }) {
  if (plan.kind === "quota.alter") return <QuotaPlanPreview plan={plan as QuotaPlanView} rule={quotaRule} />;
  if (plan.kind === "scram.change") return <ScramPlanPreview plan={plan as ScramPlanView} />;
  return <AclPlanPreview plan={plan as AclPlanView} />;
}

/**
 * What the viewer may do with the request: its requester cancels it; a reviewer reviews it
 * (its plan, made as them), then approves exactly that plan or denies it with a comment. If
 * the state changed since the review, Approve says so and the reviewer reviews again.
 */
export function RequestSteps({ request, quotaRule }: { request: RequestView; quotaRule: string }) {
  const [review, reviewAction] = useActionState<ReviewState, FormData>(reviewRequestAction, null);
  const [approved, approveAction] = useActionState<StepState, FormData>(approveRequestAction, null);
  const [denied, denyAction] = useActionState<StepState, FormData>(denyRequestAction, null);
  const [cancelled, cancelAction] = useActionState<StepState, FormData>(cancelRequestAction, null);
  const plan = review?.ok ? review.data : null;
  const pending = request.status === "PENDING";
  // An approval for an older review is not shown against a new one.
  const approvedThis = approved && (approved.values.planId === plan?.id || approved.ok) ? approved : null;
  const denyErrors = denied && !denied.ok ? (denied.fieldErrors ?? {}) : {};
  return (
    <section aria-label="Decide" data-testid="request-steps">
      {request.you.why && (
        <Alert tone="info" testId="request-why">
          You cannot review this request: {request.you.why}
        </Alert>
      )}
      {request.you.mayCancel && (
        <form action={cancelAction} aria-label="Cancel the request" className="row">
          <input type="hidden" name="id" value={request.id} />
          <SubmitButton variant="secondary" pendingLabel="Cancelling…">
            Cancel request
          </SubmitButton>
        </form>
      )}
      <ResultPanel result={cancelled} testId="cancel" success={(d) => d.message} />
      {request.you.mayReview && (
        <form action={reviewAction} aria-label="Review the request" className="row">
          <input type="hidden" name="id" value={request.id} />
          <SubmitButton variant={plan ? "secondary" : "primary"} pendingLabel="Reviewing…">
            {plan ? "Review again" : "Review"}
          </SubmitButton>
          <span className="hint">Makes its plan as you: what it changes, and whether Kafka lets you.</span>
        </form>
      )}
      <ResultPanel result={review} testId="review" />
      {plan && pending && request.you.mayReview && (
        <div data-testid="request-review" key={plan.id}>
          <ReviewedPlan plan={plan} quotaRule={quotaRule} />
          <form action={approveAction} aria-label="Approve the request" className="row">
            <input type="hidden" name="id" value={request.id} />
            <input type="hidden" name="planId" value={plan.id} />
            <SubmitButton pendingLabel="Applying…" disabled={!plan.applicable}>
              Approve
            </SubmitButton>
            <span className="hint">
              {plan.applicable
                ? "Applies exactly this plan as you."
                : `This plan cannot be applied: ${plan.notApplicable ?? "see above"}.`}
            </span>
          </form>
          <form action={denyAction} aria-label="Deny the request" noValidate>
            <input type="hidden" name="id" value={request.id} />
            <FormGrid>
              <Field id="deny-comment" label="Comment for the requester" errors={denyErrors.comment} wide>
                <textarea name="comment" rows={2} defaultValue={denied?.values.comment ?? ""} />
              </Field>
              <FormActions>
                <SubmitButton variant="danger" pendingLabel="Denying…">
                  Deny
                </SubmitButton>
              </FormActions>
            </FormGrid>
          </form>
        </div>
      )}
      <ResultPanel result={approvedThis} testId="approve" success={(d) => d.message}>
        {approvedThis && !approvedThis.ok && approvedThis.code === "CONFLICT" && (
          <div>Review it again to see the current state, then decide.</div>
        )}
      </ResultPanel>
      <ResultPanel result={denied} testId="deny" success={(d) => d.message} shownFields={["comment"]} />
    </section>
  );
}
