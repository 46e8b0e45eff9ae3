"use client";

import { useActionState, useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { tokenKeys } from "@/components/tokens/token-queries";
import { expireTokenAction, renewTokenAction, type TokenExpiryState } from "./actions";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import { useHmacMemory } from "@/components/tokens/hmac-memory";
import { useFormDraft } from "@/components/ui/form-draft";

const errorsOf = (state: TokenExpiryState) => (state && !state.ok ? (state.fieldErrors ?? {}) : {});

/**
 * Renew and expire one token. Kafka identifies the token by its HMAC, which the console
 * does not keep: it is typed, or for a token created on this page filled in from the
 * page's memory (HmacMemoryProvider). `onExpired` tells the list a token was expired now
 * (Kafka removes it).
 */
export function TokenExpiryForms({ tokenId, onExpired }: { tokenId: string; onExpired?: () => void }) {
  const [renew, renewAction] = useActionState<TokenExpiryState, FormData>(renewTokenAction, null);
  const [expire, expireAction] = useActionState<TokenExpiryState, FormData>(expireTokenAction, null);
  // Kept across a sign-in when the session ended (never the HMAC: a password field).
  const renewRef = useRef<HTMLFormElement>(null);
  const expireRef = useRef<HTMLFormElement>(null);
  useFormDraft(renewRef, `renew-${tokenId}`, renew);
  useFormDraft(expireRef, `expire-${tokenId}`, expire);
  const renewErrors = errorsOf(renew);
  const expireErrors = errorsOf(expire);
  const removed = expire?.ok === true && expire.data.expiryTimestamp === null;
  const queryClient = useQueryClient();
  const known = useHmacMemory().hmacOf(tokenId);
  useEffect(() => {
    if (removed) onExpired?.();
  }, [removed, onExpired]);
  // A renewal (or an expiry in N hours) changed the row: fetch the list again.
  const changed = (renew?.ok ? renew : null) ?? (expire?.ok && !removed ? expire : null);
  useEffect(() => {
    if (changed) void queryClient.invalidateQueries({ queryKey: tokenKeys.list() });
  }, [changed, queryClient]);
  return (
    <div className="token-actions">
      <form ref={renewRef} action={renewAction} className="inline" aria-label={`Renew ${tokenId}`} noValidate>
        <input type="hidden" name="tokenId" value={tokenId} />
        <HmacField id={`r-${tokenId}-hmac`} known={known} errors={renewErrors.hmac} />
        <Field id={`r-${tokenId}-period`} label="Period (hours)" errors={renewErrors.periodHours}>
          <input name="periodHours" inputMode="decimal" defaultValue={renew?.values.periodHours ?? "24"} />
        </Field>
        <SubmitButton variant="secondary" small>
          Renew
        </SubmitButton>
      </form>
      <ResultPanel
        result={renew}
        testId="token-renew"
        small
        shownFields={["hmac", "periodHours"]}
        success={(d) => d.message}
      />
      <form ref={expireRef} action={expireAction} className="inline" aria-label={`Expire ${tokenId}`} noValidate>
        <input type="hidden" name="tokenId" value={tokenId} />
        <HmacField id={`e-${tokenId}-hmac`} known={known} errors={expireErrors.hmac} />
        <Field id={`e-${tokenId}-when`} label="When">
          <Select
            name="when"
            defaultValue={expire?.values.when ?? "now"}
            options={[
              { value: "now", label: "now (remove it)" },
              { value: "in", label: "in N hours" },
            ]}
          />
        </Field>
        <Field id={`e-${tokenId}-hours`} label="Hours" errors={expireErrors.hours}>
          <input
            name="hours"
            inputMode="decimal"
            defaultValue={expire?.values.hours ?? ""}
            placeholder="with “in N hours”"
          />
        </Field>
        <SubmitButton variant="danger" small>
          Expire
        </SubmitButton>
      </form>
      <ResultPanel
        result={expire}
        testId="token-expire"
        small
        shownFields={["hmac", "hours", "when"]}
        success={(d) => d.message}
      />
    </div>
  );
}

/** The token's HMAC: typed, or filled in from the page's memory (`known`) with a hint saying so. */
function HmacField({ id, known, errors }: { id: string; known: string | undefined; errors: string[] | undefined }) {
  return (
    <Field
      id={id}
      label="HMAC"
      hint={known === undefined ? undefined : "the HMAC shown above (on this page only)"}
      errors={errors}
    >
      <input
        key={known === undefined ? "typed" : "remembered"}
        name="hmac"
        type="password"
        autoComplete="off"
        defaultValue={known}
        required
      />
    </Field>
  );
}
