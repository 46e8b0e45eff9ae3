"use client";

import Link from "next/link";
import { useActionState } from "react";
import { createTokenAction, type TokenCreateState } from "./actions";
import { HmacOnce } from "@/components/tokens/hmac-once";
import { TokenSpecFields } from "@/components/tokens/token-spec-fields";

/** Create a token for yourself or (KIP-373) for another owner; the HMAC is shown once. */
export function CreateTokenForm({ viewer }: { viewer: string }) {
  const [state, formAction, pending] = useActionState<TokenCreateState, FormData>(createTokenAction, null);
  const v = state?.values ?? {};
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <>
      <form action={formAction} className="card token-form" aria-label="Create a token" noValidate>
        <TokenSpecFields idPrefix="t" values={v} errors={errors} ownerPlaceholder={`${viewer} (yourself)`} renewersPlaceholder="User:bob, User:carol" />
        <div className="actions">
          <button className="btn" type="submit" disabled={pending}>
            {pending ? "Creating…" : "Create token"}
          </button>
          <p className="hint">
            Leave the owner empty for yourself. Another owner needs CREATE_TOKENS on USER:&lt;owner&gt; (KIP-373). Renewers may renew and expire
            the token besides its owner. The broker caps the lifetime at delegation.token.max.lifetime.ms.
          </p>
        </div>
      </form>
      {state && !state.ok && (
        <div role="alert" className="alert error" data-testid="token-create-error">
          {state.message}
          {state.code === "DENIED" && state.owner !== null && (
            <div>
              Ask someone entitled: <Link href="/token-requests">submit a token request</Link> for {state.owner}.
            </div>
          )}
        </div>
      )}
      {state?.ok && <HmacOnce tokenId={state.data.token.tokenId} hmac={state.data.hmac} owner={state.data.token.owner} />}
    </>
  );
}
