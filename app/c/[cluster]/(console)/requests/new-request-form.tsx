"use client";

import { useActionState } from "react";
import { FiledAnswer } from "@/components/requests/filed-answer";
import { PATTERN_TYPES, PERMISSION_TYPES, RESOURCE_TYPES } from "@/lib/policy";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { Combobox } from "@/components/ui/combobox";
import { OperationSelect } from "@/components/ui/operation-select";
import { ResourceNameField } from "@/components/ui/resource-name-field";
import type { AclSuggestions } from "@/lib/services/acl-suggestions";
import { Select } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { fileRequestAction, type FileState } from "./actions";

const SHOWN_FIELDS =
  "principal host resourceType patternType resourceName operation permissionType reason grantMinutes".split(" ");

/**
 * Ask for one ACL binding without previewing it (you may not be able to: a preview reads the
 * cluster's ACLs, which needs DESCRIBE on CLUSTER). Change request.file; the reviewer sees its plan.
 * The principal is yours unless you change it; principals and names are suggested from the ACLs
 * when Kafka lets you read them (none otherwise: the form works the same).
 */
export function NewRequestForm({
  principal,
  suggestions,
}: {
  principal: string;
  suggestions: Pick<AclSuggestions, "principals" | "byType" | "resourceNames">;
}) {
  const [state, formAction] = useActionState<FileState, FormData>(fileRequestAction, null);
  const v = state?.values ?? {};
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const text = (name: string, label: string, placeholder: string, hint?: string) => (
    <Field id={`nr-${name}`} label={label} hint={hint} errors={errors[name]}>
      <input name={name} defaultValue={v[name] ?? ""} placeholder={placeholder} />
    </Field>
  );
  const select = (name: string, label: string, options: readonly string[], fallback: string) => (
    <Field id={`nr-${name}`} label={label} errors={errors[name]}>
      <Select name={name} options={options} defaultValue={v[name] ?? fallback} />
    </Field>
  );
  return (
    <>
      <form
        action={formAction}
        className="card"
        aria-label="New request"
        noValidate
        key={state?.ok ? state.data.request.id : "form"}
      >
        <FormGrid>
          <Field id="nr-principal" label="Principal" errors={errors.principal}>
            <Combobox
              name="principal"
              defaultValue={v.principal ?? principal}
              placeholder="User:alice"
              suggestions={
                suggestions.principals.includes(principal)
                  ? suggestions.principals
                  : [principal, ...suggestions.principals]
              }
            />
          </Field>
          {text("host", "Host", "* or an IP address")}
          {select("resourceType", "Resource type", RESOURCE_TYPES, "TOPIC")}
          {select("patternType", "Pattern type", PATTERN_TYPES, "LITERAL")}
          <ResourceNameField
            id="nr-resourceName"
            errors={errors.resourceName}
            defaultValue={v.resourceName ?? ""}
            placeholder="orders"
            suggestions={suggestions}
          />
          <Field id="nr-operation" label="Operation" errors={errors.operation}>
            <OperationSelect name="operation" defaultValue={v.operation ?? "READ"} />
          </Field>
          {select("permissionType", "Permission", PERMISSION_TYPES, "ALLOW")}
          {text(
            "grantMinutes",
            "Ends after (minutes)",
            "60",
            "Optional: the ACL is removed by itself this long after it is applied.",
          )}
          <Field id="nr-reason" label="Reason" errors={errors.reason} wide>
            <textarea name="reason" rows={2} defaultValue={v.reason ?? ""} placeholder="Why you need it" />
          </Field>
          <FormActions>
            <SubmitButton pendingLabel="Filing…">File request</SubmitButton>
            <p className="hint">Nothing changes in Kafka until a reviewer approves it.</p>
          </FormActions>
        </FormGrid>
      </form>
      <FiledAnswer state={state} testId="new-request" shownFields={SHOWN_FIELDS} />
    </>
  );
}
