"use client";

import { useActionState } from "react";
import { signInAction, type SignInState } from "./actions";
import { MECHANISMS } from "@/lib/schemas/session";

export function SignInForm({ next }: { next: string }) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signInAction, null);
  const errors = state && !state.ok ? state.fieldErrors ?? {} : {};
  return (
    <form action={formAction} className="stack" noValidate>
      {state && !state.ok && (
        <div role="alert" className="alert error">
          {state.message}
        </div>
      )}
      <input type="hidden" name="next" value={next} />
      <label className="field">
        Username
        <input name="username" autoComplete="username" required autoFocus aria-invalid={!!errors.username} />
        {errors.username?.map((m) => <span key={m} className="field-error">{m}</span>)}
      </label>
      <label className="field">
        Password
        <input name="password" type="password" autoComplete="current-password" required aria-invalid={!!errors.password} />
        {errors.password?.map((m) => <span key={m} className="field-error">{m}</span>)}
      </label>
      <label className="field">
        Mechanism
        <select name="mechanism" defaultValue="SCRAM-SHA-512">
          {MECHANISMS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <button className="btn" type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
