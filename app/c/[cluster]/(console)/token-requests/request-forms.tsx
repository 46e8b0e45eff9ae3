"use client";

import { useActionState, useRef } from "react";
import {
  approveTokenRequestAction,
  denyTokenRequestAction,
  retrieveTokenAction,
  submitTokenRequestAction,
  type ApproveState,
  type DenyState,
  type RetrieveState,
  type SubmitState,
} from "./actions";
import { HmacOnce } from "@/components/tokens/hmac-once";
import { TokenSpecFields } from "@/components/tokens/token-spec-fields";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { Alert, ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormDraft } from "@/components/ui/form-draft";

const REQUEST_FIELDS = ["owner", "renewers", "maxLifetime", "maxLifetimeUnit", "reason"];

/**
 * Ask for a token for an owner you cannot create for. Every field keeps its value through
 * errors (the action answers with the values) and through a sign-in when the session
 * ended before the answer (useFormDraft).
 */
export function TokenRequestForm({ principals = [] }: { principals?: readonly string[] }) {
  const [state, formAction] = useActionState<SubmitState, FormData>(submitTokenRequestAction, null);
  const formRef = useRef<HTMLFormElement>(null);
  const restored = useFormDraft(formRef, "token-request", state);
  const v = state?.values ?? {};
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form
      ref={formRef}
      action={formAction}
      className="card"
      aria-label="Request a token"
      noValidate
      key={state?.ok ? state.data.id : "form"}
    >
      <FormGrid>
        <TokenSpecFields
          idPrefix="tr"
          values={v}
          errors={errors}
          ownerPlaceholder="User:svc-orders"
          renewersPlaceholder="User:carol"
          principals={principals}
        />
        <Field id="tr-reason" label="Reason" errors={errors.reason} wide>
          <textarea name="reason" rows={2} defaultValue={v.reason ?? ""} placeholder="What the token is for" />
        </Field>
        <FormActions>
          <SubmitButton pendingLabel="Submitting…">Submit request</SubmitButton>
          {restored && (
            <Alert tone="info" testId="draft-restored">
              Your entries from before the sign-in are back: check them and submit again.
            </Alert>
          )}
          <ResultPanel
            result={state}
            testId="request"
            shownFields={REQUEST_FIELDS}
            success={(d) => (
              <span data-testid="request-submitted">
                Request submitted for {d.owner}: it is PENDING until someone entitled approves or denies it.
              </span>
            )}
          />
        </FormActions>
      </FormGrid>
    </form>
  );
}

/** The requester's single retrieval of an approved token's HMAC. */
export function RetrieveButton({ id, owner }: { id: string; owner: string }) {
  const [state, formAction] = useActionState<RetrieveState, FormData>(retrieveTokenAction, null);
  if (state?.ok) return <HmacOnce tokenId={state.data.tokenId} hmac={state.data.hmac} owner={owner} />;
  return (
    <form action={formAction} aria-label={`Retrieve ${id}`}>
      <input type="hidden" name="id" value={id} />
      <SubmitButton small>Retrieve token</SubmitButton>
      <ResultPanel result={state} testId="retrieve" small />
    </form>
  );
}

/**
 * Approve (the console creates the token as you; Kafka decides) or deny with a reason.
 * Approve is offered only when you appear entitled, never on your own request (someone
 * else must approve it; the service refuses anyway); your own request can be withdrawn.
 */
export function DecideForms({ id, canApprove, own }: { id: string; canApprove: boolean; own: boolean }) {
  const [approve, approveAction] = useActionState<ApproveState, FormData>(approveTokenRequestAction, null);
  const [deny, denyAction] = useActionState<DenyState, FormData>(denyTokenRequestAction, null);
  const denyRef = useRef<HTMLFormElement>(null);
  useFormDraft(denyRef, `deny-${id}`, deny);
  const denyErrors = deny && !deny.ok ? (deny.fieldErrors ?? {}) : {};
  const canDeny = canApprove || own;
  return (
    <div className="token-actions">
      {canApprove && (
        <form action={approveAction} className="inline" aria-label={`Approve ${id}`}>
          <input type="hidden" name="id" value={id} />
          <SubmitButton small pendingLabel="Approving…">
            Approve
          </SubmitButton>
        </form>
      )}
      <ResultPanel
        result={approve}
        testId="approve"
        small
        success={(d) => (
          <>
            Approved: token {d.tokenId} created for {d.owner}; {d.requester} can retrieve it once.
          </>
        )}
      />
      {canDeny && (
        <form
          ref={denyRef}
          action={denyAction}
          className="inline"
          aria-label={own ? `Withdraw ${id}` : `Deny ${id}`}
          noValidate
        >
          <input type="hidden" name="id" value={id} />
          <Field
            id={`deny-${id}-reason`}
            label={own ? "Reason for withdrawing" : "Reason for denying"}
            errors={denyErrors.reason}
          >
            <input name="reason" defaultValue={deny?.values.reason ?? ""} />
          </Field>
          <SubmitButton variant="danger" small>
            {own ? "Withdraw" : "Deny"}
          </SubmitButton>
        </form>
      )}
      <ResultPanel
        result={deny}
        testId="deny"
        small
        shownFields={["reason"]}
        success={(d) => (own ? "Withdrawn." : <>Denied. {d.requester} sees your reason.</>)}
      />
    </div>
  );
}
