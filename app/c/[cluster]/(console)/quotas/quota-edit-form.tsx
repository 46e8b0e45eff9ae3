"use client";

import { useActionState, useRef, useState } from "react";
import { quotaAlterAction, type QuotaEditState } from "./actions";
import { QUOTA_ENTITY_KINDS } from "@/lib/schemas/quotas";
import { QUOTA_KEYS } from "@/lib/policy/types";
import { QuotaPlanPreview } from "@/components/quotas/quota-plan-view";
import { Check, Field, FormActions, FormGrid } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { QuotaEntityField, type QuotaEntityNames } from "./entity-field";
import { Alert } from "@/components/ui/alert";
import { useFormDraft } from "@/components/ui/form-draft";
import { DraftRestored } from "@/components/ui/draft-restored";

const KIND_LABEL: Record<(typeof QUOTA_ENTITY_KINDS)[number], string> = {
  user: "user",
  "user+client-id": "user + client id (sub-quota)",
  "client-id": "client id",
  ip: "ip",
};

/**
 * Set or remove one key on one entity. Preview makes a sealed plan (Kafka's rules, KIP-55,
 * every affected client before and after, the CLI); Apply sends only the plan's id, so what
 * is applied is exactly what was previewed. Every field keeps its value through previews,
 * errors and applies: the selects are keyed on their value because React sets a select's
 * default option only when it mounts, and resets a form to its defaults after each action.
 */
export function QuotaEditForm({
  rule,
  initial = {},
  suggestions = { users: [], clientIds: [], ips: [] },
}: {
  rule: string;
  initial?: Record<string, string>;
  /** Names from the configured quotas, offered as the user types. */
  suggestions?: QuotaEntityNames;
}) {
  const [state, formAction, pending] = useActionState<QuotaEditState, FormData>(quotaAlterAction, null);
  // The answer after which a field was edited: Apply would no longer match the form, so it is hidden.
  const [editedAfter, setEditedAfter] = useState<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const restored = useFormDraft(formRef, "quota-edit", state);
  const v = state?.values ?? initial;
  const errors = state?.error?.fieldErrors ?? {};
  const plan = state?.plan ?? null;
  const edited = state !== null && editedAfter === state.seq;
  const canApply = plan !== null && plan.applicable && state?.applied === null && !edited;
  const kind = v.kind ?? "user+client-id";
  const key = v.key ?? "producer_byte_rate";
  return (
    <form
      ref={formRef}
      action={formAction}
      className="card"
      aria-label="Change a quota"
      noValidate
      onChange={() => {
        if (state !== null) setEditedAfter(state.seq);
      }}
    >
      <FormGrid>
        <Field id="q-kind" label="Entity" errors={errors.kind}>
          <Select
            name="kind"
            defaultValue={kind}
            options={QUOTA_ENTITY_KINDS.map((k) => ({ value: k, label: KIND_LABEL[k] }))}
          />
        </Field>
        <QuotaEntityField entity="user" idPrefix="q" values={v} errors={errors} names={suggestions} />
        <Check name="userDefault" defaultChecked={!!v.userDefault} label="user <default>" />
        <QuotaEntityField entity="clientId" idPrefix="q" values={v} errors={errors} names={suggestions} />
        <Check name="clientIdDefault" defaultChecked={!!v.clientIdDefault} label="client id <default>" />
        <QuotaEntityField entity="ip" idPrefix="q" values={v} errors={errors} names={suggestions} />
        <Check name="ipDefault" defaultChecked={!!v.ipDefault} label="ip <default>" />
        <Field id="q-key" label="Key" errors={errors.key}>
          <Select name="key" defaultValue={key} options={QUOTA_KEYS} />
        </Field>
        <Field id="q-value" label="Value" errors={errors.value} hint="Byte rates in bytes/s (1048576 = 1 MiB/s).">
          <input name="value" inputMode="decimal" defaultValue={v.value ?? ""} placeholder="1048576" />
        </Field>
        <Check name="remove" defaultChecked={!!v.remove} label="remove the key" />
        <FormActions>
          <button className="btn secondary" type="submit" name="intent" value="preview" disabled={pending}>
            Preview
          </button>
          {canApply && (
            <>
              <input type="hidden" name="planId" value={plan.id} />
              <button className="btn" type="submit" name="intent" value="apply" disabled={pending}>
                Apply
              </button>
            </>
          )}
          {plan !== null && plan.applicable && state?.applied === null && edited && (
            <p className="hint" data-testid="quota-edited">
              You changed the form since this preview: Preview again to apply the new values.
            </p>
          )}
          <p className="hint">The entity fields used are those of the chosen kind.</p>
        </FormActions>
      </FormGrid>
      <DraftRestored shown={restored && state === null}>
        Your entries from before the sign-in are back: preview again.
      </DraftRestored>
      <div className="result">
        {state?.error && (
          <Alert tone="error" testId="quota-error">
            {state.error.message}
          </Alert>
        )}
        {state?.applied && (
          <Alert tone="success" testId="quota-applied">
            {state.applied.message}
          </Alert>
        )}
        {plan && <QuotaPlanPreview plan={plan} rule={rule} />}
      </div>
    </form>
  );
}
