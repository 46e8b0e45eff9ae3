"use client";

import Link from "@/components/link";
import { useActionState, useRef, useState } from "react";
import { PATTERN_TYPES, PERMISSION_TYPES, RESOURCE_TYPES } from "@/lib/policy";
import { TEMPLATE_KINDS } from "@/lib/schemas/acls";
import { Check, Field, FormActions, FormGrid } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { OperationSelect } from "@/components/ui/operation-select";
import { Combobox } from "@/components/ui/combobox";
import { ResourceNameField } from "@/components/ui/resource-name-field";
import { ResultPanel } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormDraft } from "@/components/ui/form-draft";
import { DraftRestored } from "@/components/ui/draft-restored";
import type { AclSuggestions } from "@/lib/services/acl-suggestions";
import { AclPlanPreview } from "@/components/plans/acl-plan-view";
import { FourEyesHint, RequestApprovalForm } from "../requests/request-approval-form";
import { canEndPlan } from "@/lib/schemas/requests";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { aclCount, PlanSubmitRow } from "@/components/plans/plan-submit-row";
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

/** What each text field expects, under it (the control's description). */
const HINTS: Record<string, string> = {
  principal: "Type:name, e.g. User:svc-orders (User:* = everyone)",
  host: "* for any host, or one IP address exactly as Kafka prints it",
  resourceName: "a name, a prefix (PREFIXED), or *; CLUSTER: kafka-cluster",
  topics: "comma-separated",
  inputTopics: "comma-separated",
  outputTopics: "comma-separated",
};

/** The fields this form shows errors beside; any other field error goes into the result panel. */
const SHOWN_FIELDS = [
  "principal",
  "host",
  "resourceType",
  "patternType",
  "resourceName",
  "operation",
  "permissionType",
  "applicationId",
  "inputTopics",
  "outputTopics",
  "topics",
  "group",
  "transactionalId",
];

/**
 * Preview makes a sealed plan on the server and shows it; Apply (a button of the same
 * form) sends the plan's id, and the server applies that plan, never the fields as they
 * stand. Every answer carries the submitted values and a new `seq`: the form is mounted
 * again with them as defaults, so nothing falls back to its default value. `initial`
 * fills the fields before the first answer (a cloned ACL). `suggestions`: principals and
 * names the cluster's ACLs use, offered as you type. A preview sent after the session
 * ended comes back from the sign-in with its fields (useFormDraft).
 */
export function CreateAclForm({
  initial = {},
  suggestions,
}: {
  initial?: Record<string, string>;
  suggestions: AclSuggestions;
}) {
  const [state, formAction, pending] = useActionState<AclChangeState, FormData>(createAclAction, null);
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  const [mode, setMode] = useState<string>((state?.values ?? initial).mode ?? "raw");
  const restored = useFormDraft(formRef, "create-acl", state, [], (d) => {
    setDraft(d);
    setMode(d.mode ?? "raw");
  });
  const values = state?.values ?? draft ?? initial;
  const errors = state?.step === "preview" && !state.result.ok ? (state.result.fieldErrors ?? {}) : {};
  const v = (name: string, fallback = "") => values[name] ?? fallback;
  const text = (
    name: string,
    label: string,
    placeholder: string,
    options: { fallback?: string; suggest?: readonly string[] } = {},
  ) => (
    <Field id={`acl-${name}`} label={label} hint={HINTS[name]} errors={errors[name]}>
      {options.suggest ? (
        <Combobox
          name={name}
          defaultValue={v(name, options.fallback)}
          placeholder={placeholder}
          suggestions={options.suggest}
        />
      ) : (
        <input name={name} defaultValue={v(name, options.fallback)} placeholder={placeholder} />
      )}
    </Field>
  );
  const select = (name: string, label: string, options: readonly string[], fallback: string) => (
    <Field id={`acl-${name}`} label={label} errors={errors[name]}>
      <Select name={name} options={options} defaultValue={v(name, fallback)} />
    </Field>
  );
  const check = (name: string, label: string) => <Check name={name} label={label} defaultChecked={v(name) === "on"} />;
  const plan = state?.step === "preview" && state.result.ok ? state.result.data : null;
  const changes = plan ? plan.create.length + plan.delete.length : 0;

  return (
    <section className="card" aria-label="Create ACLs">
      <h2>Create</h2>
      <form
        key={state?.seq ?? (draft ? "draft" : 0)}
        ref={formRef}
        id={FORM_ID}
        action={formAction}
        aria-label="New ACLs"
        noValidate
      >
        <FormGrid>
          <Field id="acl-mode" label="What to create">
            <select name="mode" value={mode} onChange={(e) => setMode(e.target.value)}>
              {MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABEL[m]}
                </option>
              ))}
            </select>
          </Field>
          {text("principal", "Principal", "User:svc-orders", { suggest: suggestions.principals })}
          {text("host", "Host", "* or an IP address", { fallback: "*" })}
          {mode === "raw" ? (
            <>
              {select("resourceType", "Resource type", RESOURCE_TYPES, "TOPIC")}
              {select("patternType", "Pattern type", PATTERN_TYPES, "LITERAL")}
              <ResourceNameField
                id="acl-resourceName"
                hint={HINTS.resourceName}
                errors={errors.resourceName}
                defaultValue={v("resourceName")}
                placeholder="orders"
                suggestions={suggestions}
              />
              <Field
                id="acl-operation"
                label="Operation"
                hint="the operations Kafka accepts on the resource type"
                errors={errors.operation}
              >
                <OperationSelect name="operation" defaultValue={v("operation", "READ")} />
              </Field>
              {select("permissionType", "Permission", PERMISSION_TYPES, "ALLOW")}
            </>
          ) : mode === "streams" ? (
            <>
              {text("applicationId", "application.id", "orders-streams")}
              {text("inputTopics", "Input topics", "orders, payments", { suggest: suggestions.topics })}
              {text("outputTopics", "Output topics", "orders-enriched", { suggest: suggestions.topics })}
              {check("exactlyOnce", "exactly-once (transactional ids)")}
              {check("prefixed", "Topic names are prefixes (PREFIXED)")}
            </>
          ) : (
            <>
              {text("topics", "Topics", "orders, orders-dlq", { suggest: suggestions.topics })}
              {mode === "consumer" &&
                text("group", "Consumer group", "orders-service", { suggest: suggestions.groups })}
              {mode === "transactional" &&
                text("transactionalId", "transactional.id", "orders-tx-", { suggest: suggestions.transactionalIds })}
              {mode === "transactional" &&
                text("group", "Group (consume-transform-produce, optional)", "orders-service", {
                  suggest: suggestions.groups,
                })}
              {mode === "producer" && check("idempotent", "Idempotent (IDEMPOTENT_WRITE on the cluster)")}
              {check("prefixed", "Names are prefixes (PREFIXED)")}
            </>
          )}
          <FormActions>
            <SubmitButton variant="secondary" name="intent" value="preview" disabled={pending} pendingLabel="Working…">
              Preview
            </SubmitButton>
            <p className="hint">Nothing changes until you apply the previewed plan.</p>
          </FormActions>
        </FormGrid>
        <DraftRestored shown={restored && state === null}>
          Your entries from before the sign-in are back: preview again.
        </DraftRestored>
      </form>

      {state && !state.result.ok && (
        <ResultPanel result={state.result} testId="create" shownFields={state.step === "preview" ? SHOWN_FIELDS : []}>
          <FourEyesHint message={state.result.message} below={false} />
        </ResultPanel>
      )}
      {plan && <AclPlanPreview plan={plan} />}
      {plan && plan.applicable && (
        <PlanSubmitRow
          form={FORM_ID}
          planId={plan.id}
          intent="apply"
          pending={pending}
          hint="Applies exactly this plan, whatever the fields above say now."
        >
          Apply: {plan.delete.length > 0 ? `change ${aclCount(changes)}` : `create ${aclCount(plan.create.length)}`}
        </PlanSubmitRow>
      )}
      {plan && <RequestApprovalForm key={plan.id} planId={plan.id} canEnd={canEndPlan(plan)} />}
      {state?.step === "apply" && state.result.ok && (
        <>
          <AclPlanResult result={state.result.data} />
          {values.principal && (
            <p>
              <Link href={`/acls?${new URLSearchParams({ principal: values.principal })}`}>
                The ACLs of {values.principal}
              </Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
