"use client";

import { useActionState } from "react";
import { signInAction, type SignInState } from "./actions";
import { MECHANISMS } from "@/lib/schemas/session";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";

export function SignInForm({ next }: { next: string }) {
  const [state, formAction] = useActionState<SignInState, FormData>(signInAction, null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form action={formAction} className="stack" aria-label="Sign in" noValidate>
      <ResultPanel result={state} shownFields={["username", "password", "mechanism"]} />
      <input type="hidden" name="next" value={next} />
      <Field id="signin-username" label="Username" errors={errors.username}>
        <input name="username" autoComplete="username" required autoFocus />
      </Field>
      <Field id="signin-password" label="Password" errors={errors.password}>
        <input name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Field id="signin-mechanism" label="Mechanism" errors={errors.mechanism}>
        <Select name="mechanism" defaultValue="SCRAM-SHA-512" options={MECHANISMS} />
      </Field>
      <SubmitButton pendingLabel="Signing in…">Sign in</SubmitButton>
    </form>
  );
}
