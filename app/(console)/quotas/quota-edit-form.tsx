"use client";

import { useActionState, useState } from "react";
import { quotaAlterAction, type QuotaEditState } from "./actions";
import { QUOTA_ENTITY_KINDS } from "@/lib/schemas/quotas";
import { QUOTA_KEYS } from "@/lib/policy/types";
import { QuotaPlanPreview } from "@/components/quotas/quota-plan-view";

const KIND_LABEL: Record<(typeof QUOTA_ENTITY_KINDS)[number], string> = {
  user: "user",
  "user+client-id": "user + client id (sub-quota)",
  "client-id": "client id",
  ip: "ip",
};

function Errors({ messages, id }: { messages: string[] | undefined; id: string }) {
  if (!messages?.length) return null;
  return (
    <span id={id} className="field-error">
      {messages.join(" ")}
    </span>
  );
}

/**
 * Set or remove one key on one entity. Preview makes a sealed plan (Kafka's rules, KIP-55,
 * every affected client before and after, the CLI); Apply sends only the plan's id, so what
 * is applied is exactly what was previewed. Every field keeps its value through previews,
 * errors and applies: the selects are keyed on their value because React sets a select's
 * default option only when it mounts, and resets a form to its defaults after each action.
 */
export function QuotaEditForm({ rule, initial = {} }: { rule: string; initial?: Record<string, string> }) {
  const [state, formAction, pending] = useActionState<QuotaEditState, FormData>(quotaAlterAction, null);
  // The answer after which a field was edited: Apply would no longer match the form, so it is hidden.
  const [editedAfter, setEditedAfter] = useState<number | null>(null);
  const v = state?.values ?? initial;
  const errors = state?.error?.fieldErrors ?? {};
  const plan = state?.plan ?? null;
  const edited = state !== null && editedAfter === state.seq;
  const canApply = plan !== null && plan.applicable && state?.applied === null && !edited;
  const invalid = (f: string) => (errors[f] ? { "aria-invalid": true, "aria-describedby": `q-${f}-error` } : {});
  const kind = v.kind ?? "user+client-id";
  const key = v.key ?? "producer_byte_rate";
  return (
    <form
      action={formAction}
      className="card quota-edit"
      aria-label="Change a quota"
      noValidate
      onChange={() => {
        if (state !== null) setEditedAfter(state.seq);
      }}
    >
      <label className="field">
        Entity
        <select key={`kind-${kind}`} name="kind" defaultValue={kind} {...invalid("kind")}>
          {QUOTA_ENTITY_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABEL[k]}
            </option>
          ))}
        </select>
        <Errors id="q-kind-error" messages={errors.kind} />
      </label>
      <label className="field">
        User
        <input name="user" defaultValue={v.user ?? ""} placeholder="svc-orders" {...invalid("user")} />
        <Errors id="q-user-error" messages={errors.user} />
      </label>
      <label className="check">
        <input type="checkbox" name="userDefault" defaultChecked={!!v.userDefault} /> user &lt;default&gt;
      </label>
      <label className="field">
        Client id
        <input name="clientId" defaultValue={v.clientId ?? ""} placeholder="orders-api" {...invalid("clientId")} />
        <Errors id="q-clientId-error" messages={errors.clientId} />
      </label>
      <label className="check">
        <input type="checkbox" name="clientIdDefault" defaultChecked={!!v.clientIdDefault} /> client id &lt;default&gt;
      </label>
      <label className="field">
        IP
        <input name="ip" defaultValue={v.ip ?? ""} placeholder="203.0.113.10" {...invalid("ip")} />
        <Errors id="q-ip-error" messages={errors.ip} />
      </label>
      <label className="check">
        <input type="checkbox" name="ipDefault" defaultChecked={!!v.ipDefault} /> ip &lt;default&gt;
      </label>
      <label className="field">
        Key
        <select key={`key-${key}`} name="key" defaultValue={key} {...invalid("key")}>
          {QUOTA_KEYS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <Errors id="q-key-error" messages={errors.key} />
      </label>
      <label className="field">
        Value
        <input name="value" inputMode="decimal" defaultValue={v.value ?? ""} placeholder="1048576" {...invalid("value")} />
        <Errors id="q-value-error" messages={errors.value} />
      </label>
      <label className="check">
        <input type="checkbox" name="remove" defaultChecked={!!v.remove} /> remove the key
      </label>
      <div className="actions">
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
        <p className="hint">Byte rates in bytes/s (1048576 = 1 MiB/s). The entity fields used are those of the chosen kind.</p>
      </div>
      <div className="result">
        {state?.error && (
          <div role="alert" className="alert error" data-testid="quota-error">
            {state.error.message}
          </div>
        )}
        {state?.applied && (
          <div role="status" className="alert info" data-testid="quota-applied">
            {state.applied.message}
          </div>
        )}
        {plan && <QuotaPlanPreview plan={plan} rule={rule} />}
      </div>
    </form>
  );
}
