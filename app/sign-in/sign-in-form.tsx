"use client";

import { useActionState } from "react";
import { signInAction, type SignInState } from "./actions";
import { MECHANISMS } from "@/lib/schemas/session";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";

export interface SignInCluster {
  id: string;
  displayName: string;
  mechanisms: readonly string[];
}

/** With more than one cluster, the user picks the one to sign in to (credentials differ per cluster). */
export function SignInForm({
  next,
  clusters = [],
  cluster,
}: {
  next: string;
  clusters?: readonly SignInCluster[];
  cluster?: string;
}) {
  const [state, formAction] = useActionState<SignInState, FormData>(signInAction, null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form action={formAction} className="stack" aria-label="Sign in" noValidate>
      <ResultPanel result={state} shownFields={["cluster", "username", "password", "mechanism"]} />
      <input type="hidden" name="next" value={next} />
      {clusters.length > 1 && (
        <Field id="signin-cluster" label="Cluster" errors={errors.cluster}>
          <Select
            name="cluster"
            defaultValue={cluster ?? clusters[0]?.id}
            options={clusters.map((c) => ({ value: c.id, label: `${c.displayName} (${c.id})` }))}
          />
        </Field>
      )}
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
