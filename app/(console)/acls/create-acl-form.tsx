"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { OPERATIONS, PATTERN_TYPES, PERMISSION_TYPES, RESOURCE_TYPES } from "@/lib/policy";
import { TEMPLATE_KINDS } from "@/lib/schemas/acls";
import { AclPlanPreview } from "@/components/plans/acl-plan-view";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { createAclAction, type AclChangeState } from "./actions";

const FORM_ID = "create-acl-form";
const MODES = ["raw", ...TEMPLATE_KINDS] as const;
const MODE_LABEL: Record<(typeof MODES)[number], string> = {
  raw: "One ACL binding",
  producer: "Producer template",
  consumer: "Consumer template",
  transactional: "Transactional producer template",
  streams: "Kafka Streams template",
};

function Errors({ messages }: { messages: string[] | undefined }) {
  return messages?.map((m) => (
    <span key={m} className="field-error">
      {m}
    </span>
  ));
}

/**
 * Preview makes a sealed plan on the server and shows it; Apply (a button of the same
 * form) sends the plan's id, and the server applies that plan, never the fields as they
 * stand. Every answer carries the submitted values and a new `seq`: the form is mounted
 * again with them as defaults, so nothing falls back to its default value. `initial`
 * fills the fields before the first answer (a cloned ACL).
 */
export function CreateAclForm({ initial = {} }: { initial?: Record<string, string> }) {
  const [state, formAction, pending] = useActionState<AclChangeState, FormData>(createAclAction, null);
  const values = state?.values ?? initial;
  const [mode, setMode] = useState<string>(values.mode ?? "raw");
  const errors = state?.step === "preview" && !state.result.ok ? (state.result.fieldErrors ?? {}) : {};
  const v = (name: string, fallback = "") => values[name] ?? fallback;
  const text = (name: string, label: string, placeholder: string, fallback = "") => (
    <label className="field">
      {label}
      <input name={name} defaultValue={v(name, fallback)} placeholder={placeholder} aria-invalid={!!errors[name]} />
      <Errors messages={errors[name]} />
    </label>
  );
  const select = (name: string, label: string, options: readonly string[], fallback: string) => (
    <label className="field">
      {label}
      <select name={name} defaultValue={v(name, fallback)} aria-invalid={!!errors[name]}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <Errors messages={errors[name]} />
    </label>
  );
  const check = (name: string, label: string) => (
    <label className="check">
      <input type="checkbox" name={name} defaultChecked={v(name) === "on"} /> {label}
    </label>
  );
  const plan = state?.step === "preview" && state.result.ok ? state.result.data : null;
  const changes = plan ? plan.create.length + plan.delete.length : 0;

  return (
    <section className="card" aria-label="Create ACLs">
      <h2>Create</h2>
      <form key={state?.seq ?? 0} id={FORM_ID} action={formAction} className="acl-form" aria-label="New ACLs" noValidate>
        <label className="field">
          What to create
          <select name="mode" value={mode} onChange={(e) => setMode(e.target.value)}>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_LABEL[m]}
              </option>
            ))}
          </select>
        </label>
        {text("principal", "Principal", "User:svc-orders")}
        {text("host", "Host", "* or an IP address", "*")}
        {mode === "raw" ? (
          <>
            {select("resourceType", "Resource type", RESOURCE_TYPES, "TOPIC")}
            {select("patternType", "Pattern type", PATTERN_TYPES, "LITERAL")}
            {text("resourceName", "Resource name", "orders, a prefix, or * (CLUSTER: kafka-cluster)")}
            {select("operation", "Operation", OPERATIONS, "READ")}
            {select("permissionType", "Permission", PERMISSION_TYPES, "ALLOW")}
          </>
        ) : mode === "streams" ? (
          <>
            {text("applicationId", "application.id", "orders-streams")}
            {text("inputTopics", "Input topics", "orders, payments")}
            {text("outputTopics", "Output topics", "orders-enriched")}
            {check("exactlyOnce", "exactly-once (transactional ids)")}
            {check("prefixed", "Topic names are prefixes (PREFIXED)")}
          </>
        ) : (
          <>
            {text("topics", "Topics", "orders, orders-dlq")}
            {mode === "consumer" && text("group", "Consumer group", "orders-service")}
            {mode === "transactional" && text("transactionalId", "transactional.id", "orders-tx-")}
            {mode === "transactional" && text("group", "Group (consume-transform-produce, optional)", "orders-service")}
            {mode === "producer" && check("idempotent", "Idempotent (IDEMPOTENT_WRITE on the cluster)")}
            {check("prefixed", "Names are prefixes (PREFIXED)")}
          </>
        )}
        <div className="actions">
          <button className="btn secondary" type="submit" name="intent" value="preview" disabled={pending}>
            {pending ? "Working…" : "Preview"}
          </button>
          <p className="hint">Nothing changes until you apply the previewed plan.</p>
        </div>
      </form>

      {state && !state.result.ok && (
        <div role="alert" className="alert error" data-testid="create-error">
          {state.result.message}
        </div>
      )}
      {plan && <AclPlanPreview plan={plan} />}
      {plan && plan.applicable && (
        <div className="row">
          <input type="hidden" form={FORM_ID} name="planId" value={plan.id} />
          <button className="btn" type="submit" form={FORM_ID} name="intent" value="apply" disabled={pending}>
            Apply: {plan.delete.length > 0 ? `change ${changes} ACL${changes === 1 ? "" : "s"}` : `create ${plan.create.length} ACL${plan.create.length === 1 ? "" : "s"}`}
          </button>
          <span className="hint">Applies exactly this plan, whatever the fields above say now.</span>
        </div>
      )}
      {state?.step === "apply" && state.result.ok && (
        <>
          <AclPlanResult result={state.result.data} />
          {values.principal && (
            <p>
              <Link href={`/acls?${new URLSearchParams({ principal: values.principal })}`}>The ACLs of {values.principal}</Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
