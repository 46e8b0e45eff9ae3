"use client";

import Link from "next/link";
import { useActionState } from "react";
import { createTokenAction, type TokenCreateState } from "./actions";
import { LIFETIME_UNITS } from "@/lib/schemas/tokens";
import { FieldErrors, HmacOnce } from "@/components/tokens/hmac-once";

/** Create a token for yourself or (KIP-373) for another owner; the HMAC is shown once. */
export function CreateTokenForm({ viewer }: { viewer: string }) {
  const [state, formAction, pending] = useActionState<TokenCreateState, FormData>(createTokenAction, null);
  const v = state?.values ?? {};
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const invalid = (f: string) => (errors[f] ? { "aria-invalid": true, "aria-describedby": `t-${f}-error` } : {});
  return (
    <>
      <form action={formAction} className="card token-form" aria-label="Create a token" noValidate>
        <label className="field">
          Owner
          <input name="owner" defaultValue={v.owner ?? ""} placeholder={`${viewer} (yourself)`} {...invalid("owner")} />
          <FieldErrors id="t-owner-error" messages={errors.owner} />
        </label>
        <label className="field">
          Renewers
          <input name="renewers" defaultValue={v.renewers ?? ""} placeholder="User:bob, User:carol" {...invalid("renewers")} />
          <FieldErrors id="t-renewers-error" messages={errors.renewers} />
        </label>
        <label className="field">
          Max lifetime
          <input name="maxLifetime" inputMode="decimal" defaultValue={v.maxLifetime ?? ""} placeholder="broker default (7 d)" {...invalid("maxLifetime")} />
          <FieldErrors id="t-maxLifetime-error" messages={errors.maxLifetime} />
        </label>
        <label className="field">
          Unit
          <select name="maxLifetimeUnit" defaultValue={v.maxLifetimeUnit ?? "days"}>
            {LIFETIME_UNITS.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </label>
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
