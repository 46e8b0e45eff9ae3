"use client";

import { useActionState } from "react";
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
import { FieldErrors, HmacOnce } from "@/components/tokens/hmac-once";
import { TokenSpecFields } from "@/components/tokens/token-spec-fields";

/** Ask for a token for an owner you cannot create for. */
export function TokenRequestForm() {
  const [state, formAction, pending] = useActionState<SubmitState, FormData>(submitTokenRequestAction, null);
  const v = state?.values ?? {};
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const invalid = (f: string) => (errors[f] ? { "aria-invalid": true, "aria-describedby": `tr-${f}-error` } : {});
  return (
    <form action={formAction} className="card token-form" aria-label="Request a token" noValidate key={state?.ok ? state.data.id : "form"}>
      <TokenSpecFields idPrefix="tr" values={v} errors={errors} ownerPlaceholder="User:svc-orders" renewersPlaceholder="User:carol" />
      <label className="field wide">
        Reason
        <textarea name="reason" rows={2} defaultValue={v.reason ?? ""} placeholder="What the token is for" {...invalid("reason")} />
        <FieldErrors id="tr-reason-error" messages={errors.reason} />
      </label>
      <div className="actions">
        <button className="btn" type="submit" disabled={pending}>
          {pending ? "Submitting…" : "Submit request"}
        </button>
        {state && !state.ok && (
          <div role="alert" className="alert error" data-testid="request-error">
            {state.message}
          </div>
        )}
        {state?.ok && (
          <div role="status" className="alert info" data-testid="request-submitted">
            Request submitted for {state.data.owner}: it is PENDING until someone entitled approves or denies it.
          </div>
        )}
      </div>
    </form>
  );
}

/** The requester's single retrieval of an approved token's HMAC. */
export function RetrieveButton({ id, owner }: { id: string; owner: string }) {
  const [state, formAction, pending] = useActionState<RetrieveState, FormData>(retrieveTokenAction, null);
  if (state?.ok) return <HmacOnce tokenId={state.data.tokenId} hmac={state.data.hmac} owner={owner} />;
  return (
    <form action={formAction} aria-label={`Retrieve ${id}`}>
      <input type="hidden" name="id" value={id} />
      <button className="btn small" type="submit" disabled={pending}>
        Retrieve token
      </button>
      {state && !state.ok && (
        <div role="alert" className="alert error small" data-testid="retrieve-error">
          {state.message}
        </div>
      )}
    </form>
  );
}

/** Approve (the console creates the token as you; Kafka decides) or deny with a reason. */
export function DecideForms({ id, canDeny }: { id: string; canDeny: boolean }) {
  const [approve, approveAction, approving] = useActionState<ApproveState, FormData>(approveTokenRequestAction, null);
  const [deny, denyAction, denying] = useActionState<DenyState, FormData>(denyTokenRequestAction, null);
  const denyErrors = deny && !deny.ok ? (deny.fieldErrors ?? {}) : {};
  return (
    <div className="token-actions">
      <form action={approveAction} className="inline" aria-label={`Approve ${id}`}>
        <input type="hidden" name="id" value={id} />
        <button className="btn small" type="submit" disabled={approving}>
          {approving ? "Approving…" : "Approve"}
        </button>
      </form>
      {approve && !approve.ok && (
        <div role="alert" className="alert error small" data-testid="approve-error">
          {approve.message}
        </div>
      )}
      {approve?.ok && (
        <div role="status" className="alert info small" data-testid="approve-done">
          Approved: token {approve.data.tokenId} created for {approve.data.owner}; {approve.data.requester} can retrieve it once.
        </div>
      )}
      {canDeny && (
        <form action={denyAction} className="inline" aria-label={`Deny ${id}`} noValidate>
          <input type="hidden" name="id" value={id} />
          <label className="field">
            Reason for denying
            <input name="reason" defaultValue={deny?.values.reason ?? ""} aria-invalid={denyErrors.reason ? true : undefined} />
            <FieldErrors messages={denyErrors.reason} />
          </label>
          <button className="btn danger small" type="submit" disabled={denying}>
            Deny
          </button>
        </form>
      )}
      {deny?.ok && (
        <div role="status" className="alert info small" data-testid="deny-done">
          Denied. {deny.data.requester} sees your reason.
        </div>
      )}
      {deny && !deny.ok && !deny.fieldErrors && (
        <div role="alert" className="alert error small" data-testid="deny-error">
          {deny.message}
        </div>
      )}
    </div>
  );
}
