"use client";

import { utcText } from "@/lib/utc-text";
import { useActionState } from "react";
import { Alert, ResultPanel } from "@/components/ui/alert";
import { CopyField } from "@/components/ui/copy-button";
import { SubmitButton } from "@/components/ui/submit-button";
import type { RequestView } from "@/lib/schemas/requests";
import { retrievePasswordAction, type PasswordState } from "../actions";

/**
 * The password an approved SCRAM request generated: its requester sees it once (erased from the
 * console as it is shown); everyone else sees only whether it is still waiting.
 */
export function RequestPassword({ request }: { request: RequestView }) {
  const [state, action] = useActionState<PasswordState, FormData>(retrievePasswordAction, null);
  const p = request.password;
  if (p === null) return null;
  if (state?.ok)
    return (
      <Alert tone="success" testId="request-password-done">
        <p>
          The {state.data.mechanism} password of <span className="mono">{state.data.user}</span>. {state.data.message}
        </p>
        <CopyField
          id="request-password"
          label="Password"
          value={state.data.password}
          testId="request-password-value"
          copyLabel="Copy password"
        />
      </Alert>
    );
  if (p.available && p.mayRetrieve)
    return (
      <section className="card" aria-label="The new password">
        <p>
          The console generated the new password when the request was approved. It is kept, encrypted, for you to see
          once, until {utcText(p.until)}.
        </p>
        <form action={action}>
          <input type="hidden" name="id" value={request.id} />
          <SubmitButton pendingLabel="Fetching…">Show the password once</SubmitButton>
        </form>
        <ResultPanel result={state} testId="request-password" />
      </section>
    );
  return (
    <p className="muted" data-testid="request-password-status">
      {p.retrievedAt !== null
        ? `The generated password was shown to ${request.requester} at ${utcText(p.retrievedAt)}; ` +
          "the console no longer keeps it."
        : p.available
          ? `The generated password waits for ${request.requester} to see it once, until ${utcText(p.until)}.`
          : `The generated password was not retrieved by ${utcText(p.until)} and was erased.`}
    </p>
  );
}
