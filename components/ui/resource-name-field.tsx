import type { ReactNode } from "react";
import type { ResourceType } from "@/lib/policy";
import { Field, type FieldProps } from "./field";
import { ResourceNameCombobox } from "./resource-name-combobox";

/**
 * A labelled `ResourceNameCombobox`: the names the ACLs use (`aclSuggestions(viewer)`), narrowed to the resource type
 * chosen in the same form. Only `byType` and `resourceNames` of the suggestions reach the browser.
 */
export function ResourceNameField({
  id,
  label = "Resource name",
  hint,
  errors,
  name = "resourceName",
  defaultValue,
  placeholder,
  suggestions,
}: Pick<FieldProps, "id" | "errors"> & {
  label?: ReactNode;
  hint?: ReactNode;
  name?: string;
  defaultValue: string;
  placeholder: string;
  suggestions: { byType: Readonly<Record<ResourceType, readonly string[]>>; resourceNames: readonly string[] };
}) {
  return (
    <Field id={id} label={label} hint={hint} errors={errors}>
      <ResourceNameCombobox
        name={name}
        defaultValue={defaultValue}
        placeholder={placeholder}
        byType={suggestions.byType}
        all={suggestions.resourceNames}
      />
    </Field>
  );
}
