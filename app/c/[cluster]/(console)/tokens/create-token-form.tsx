"use client";

import Link from "@/components/link";
import { useActionState, useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { tokenKeys } from "@/components/tokens/token-queries";
import { createTokenAction, type TokenCreateState } from "./actions";
import { HmacOnce } from "@/components/tokens/hmac-once";
import { TokenSpecFields } from "@/components/tokens/token-spec-fields";
import { FormActions, FormGrid } from "@/components/ui/field";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormDraft } from "@/components/ui/form-draft";
import { DraftRestored } from "@/components/ui/draft-restored";
import { useHmacMemory } from "@/components/tokens/hmac-memory";

const SPEC_FIELDS = ["owner", "renewers", "maxLifetime", "maxLifetimeUnit"];

/** Create a token for yourself or (KIP-373) for another owner; the HMAC is shown once. */
export function CreateTokenForm({ viewer, principals }: { viewer: string; principals: readonly string[] }) {
  const [state, formAction] = useActionState<TokenCreateState, FormData>(createTokenAction, null);
  const formRef = useRef<HTMLFormElement>(null);
  const restored = useFormDraft(formRef, "create-token", state);
  const queryClient = useQueryClient();
  const created = state?.ok ? state.data.token.tokenId : null;
  const hmac = state?.ok ? state.data.hmac : null;
  const { remember } = useHmacMemory();
  useEffect(() => {
    if (created) void queryClient.invalidateQueries({ queryKey: tokenKeys.list() });
  }, [created, queryClient]);
  // Renew and expire of this token use the HMAC on screen (the page's memory only).
  useEffect(() => {
    if (created && hmac) remember(created, hmac);
  }, [created, hmac, remember]);
  const v = state?.values ?? {};
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <>
      <form ref={formRef} action={formAction} className="card" aria-label="Create a token" noValidate>
        <FormGrid>
          <TokenSpecFields
            idPrefix="t"
            values={v}
            errors={errors}
            ownerPlaceholder={`${viewer} (yourself)`}
            renewersPlaceholder="User:bob, User:carol"
            principals={principals}
          />
          <FormActions>
            <SubmitButton pendingLabel="Creating…">Create token</SubmitButton>
            <p className="hint">
              Empty owner = yourself. Another owner needs CREATE_TOKENS on USER:&lt;owner&gt; (KIP-373). Renewers may
              renew and expire it too; the broker caps the lifetime at delegation.token.max.lifetime.ms.
            </p>
          </FormActions>
        </FormGrid>
        <DraftRestored shown={restored}>Your entries from before the sign-in are back: submit again.</DraftRestored>
      </form>
      {state && (
        <ResultPanel result={state.ok ? null : state} testId="token-create" shownFields={SPEC_FIELDS}>
          {!state.ok && state.code === "DENIED" && state.owner !== null && (
            <div>
              Ask someone entitled: <Link href="/token-requests">submit a token request</Link> for {state.owner}.
            </div>
          )}
        </ResultPanel>
      )}
      {state?.ok && (
        <HmacOnce tokenId={state.data.token.tokenId} hmac={state.data.hmac} owner={state.data.token.owner} />
      )}
    </>
  );
}
