"use client";

import { useActionState } from "react";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import { deleteWebhookAction, setWebhookAction, type WebhookDeleteState, type WebhookState } from "./actions";

/** The webhook's URL and signing secret (typed each time: it is never shown again). */
export function WebhookForm() {
  const [state, formAction] = useActionState<WebhookState, FormData>(setWebhookAction, null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <>
      <form action={formAction} aria-label="Set the webhook" noValidate className="card">
        <FormGrid>
          <Field id="webhook-url" label="URL" hint="https, a public address" errors={errors.url}>
            <input
              name="url"
              defaultValue={state?.values.url ?? ""}
              placeholder="https://hooks.example.com/kafka"
              autoComplete="off"
            />
          </Field>
          <Field id="webhook-secret" label="Signing secret" hint="16 characters or more" errors={errors.secret}>
            <input name="secret" type="password" autoComplete="new-password" />
          </Field>
        </FormGrid>
        <FormActions>
          <SubmitButton pendingLabel="Checking…">Save</SubmitButton>
        </FormActions>
      </form>
      <ResultPanel
        result={state}
        testId="webhook-set"
        shownFields={["url", "secret"]}
        success={(v) => `Notifications go to ${v.target ?? "nowhere"}.`}
      />
    </>
  );
}

export function DeleteWebhookButton() {
  const [state, formAction] = useActionState<WebhookDeleteState, FormData>(deleteWebhookAction, null);
  return (
    <>
      <form action={formAction} aria-label="Turn notifications off">
        <SubmitButton variant="danger" small pendingLabel="Removing…">
          Turn notifications off
        </SubmitButton>
      </form>
      <ResultPanel result={state} testId="webhook-delete" success={() => "Notifications are off."} />
    </>
  );
}
