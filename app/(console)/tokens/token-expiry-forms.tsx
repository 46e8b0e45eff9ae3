"use client";

import { useActionState } from "react";
import { expireTokenAction, renewTokenAction, type TokenExpiryState } from "./actions";
import { FieldErrors } from "@/components/tokens/hmac-once";

function Outcome({ state, testId }: { state: TokenExpiryState; testId: string }) {
  if (!state) return null;
  return state.ok ? (
    <div role="status" className="alert info small" data-testid={`${testId}-done`}>
      {state.data.message}
    </div>
  ) : (
    <div role="alert" className="alert error small" data-testid={`${testId}-error`}>
      {state.message}
    </div>
  );
}

function HmacField({ errors, id }: { errors: Record<string, string[]>; id: string }) {
  return (
    <label className="field">
      HMAC
      <input name="hmac" type="password" autoComplete="off" required aria-invalid={errors.hmac ? true : undefined} aria-describedby={`${id}-hmac-error`} />
      <FieldErrors id={`${id}-hmac-error`} messages={errors.hmac} />
    </label>
  );
}

/** Renew and expire one token. Kafka identifies the token by its HMAC, which the console does not keep. */
export function TokenExpiryForms({ tokenId }: { tokenId: string }) {
  const [renew, renewAction, renewing] = useActionState<TokenExpiryState, FormData>(renewTokenAction, null);
  const [expire, expireAction, expiring] = useActionState<TokenExpiryState, FormData>(expireTokenAction, null);
  const renewErrors = renew && !renew.ok ? (renew.fieldErrors ?? {}) : {};
  const expireErrors = expire && !expire.ok ? (expire.fieldErrors ?? {}) : {};
  return (
    <div className="token-actions">
      <form action={renewAction} className="inline" aria-label={`Renew ${tokenId}`} noValidate>
        <input type="hidden" name="tokenId" value={tokenId} />
        <HmacField errors={renewErrors} id={`r-${tokenId}`} />
        <label className="field">
          Period (hours)
          <input name="periodHours" inputMode="decimal" defaultValue={renew?.values.periodHours ?? "24"} aria-invalid={renewErrors.periodHours ? true : undefined} />
          <FieldErrors messages={renewErrors.periodHours} />
        </label>
        <button className="btn secondary small" type="submit" disabled={renewing}>
          Renew
        </button>
      </form>
      <Outcome state={renew} testId="token-renew" />
      <form action={expireAction} className="inline" aria-label={`Expire ${tokenId}`} noValidate>
        <input type="hidden" name="tokenId" value={tokenId} />
        <HmacField errors={expireErrors} id={`e-${tokenId}`} />
        <label className="field">
          When
          <select name="when" defaultValue={expire?.values.when ?? "now"}>
            <option value="now">now (remove it)</option>
            <option value="in">in N hours</option>
          </select>
        </label>
        <label className="field">
          Hours
          <input name="hours" inputMode="decimal" defaultValue={expire?.values.hours ?? ""} placeholder="with “in N hours”" aria-invalid={expireErrors.hours ? true : undefined} />
          <FieldErrors messages={expireErrors.hours} />
        </label>
        <button className="btn danger small" type="submit" disabled={expiring}>
          Expire
        </button>
      </form>
      <Outcome state={expire} testId="token-expire" />
    </div>
  );
}
