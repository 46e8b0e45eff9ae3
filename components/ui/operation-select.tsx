"use client";

import { useCallback, useRef, useSyncExternalStore, type SelectHTMLAttributes } from "react";
import { RESOURCE_TYPES, type AclOperation, type ResourceType } from "@/lib/policy";
import { Select, operationsFor } from "./select";

const isResourceType = (v: unknown): v is ResourceType => typeof v === "string" && (RESOURCE_TYPES as readonly string[]).includes(v);

/**
 * The operations a resource type accepts, for the resource type chosen in the same form
 * (the form's control named `typeField`, read live as it changes). The server's HTML and
 * a page without JavaScript list every operation (a type changed without JavaScript must
 * not leave its operations out; the server's validation still names an invalid pair).
 * `withAll`: offer ALL (an ACL may grant it; a request never needs it). A value that is
 * not valid for the type the page came with (a link or an answer that refills the form)
 * stays listed until the type is changed, so the field's error is about what it shows.
 */
export function OperationSelect({
  typeField = "resourceType",
  withAll = true,
  defaultValue,
  ...props
}: { typeField?: string; withAll?: boolean; defaultValue?: string } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "defaultValue">) {
  const ref = useRef<HTMLSelectElement>(null);
  const typeControl = useCallback(() => {
    const control = ref.current?.form?.elements.namedItem(typeField);
    return control instanceof HTMLSelectElement || control instanceof HTMLInputElement ? control : null;
  }, [typeField]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      const form = ref.current?.form;
      form?.addEventListener("change", onChange);
      form?.addEventListener("reset", onChange);
      return () => {
        form?.removeEventListener("change", onChange);
        form?.removeEventListener("reset", onChange);
      };
    },
    [],
  );
  // "TYPE" or "TYPE*" when the type is still the one the page came with (its default).
  const snapshot = useSyncExternalStore(
    subscribe,
    () => {
      const control = typeControl();
      const v = control?.value;
      if (!isResourceType(v)) return null;
      const initial = control instanceof HTMLSelectElement ? Array.from(control.options).find((o) => o.defaultSelected)?.value : control?.defaultValue;
      return v === initial ? `${v}*` : v;
    },
    () => null,
  );
  const type = snapshot === null ? null : (snapshot.replace(/\*$/, "") as ResourceType);
  const typeAsLoaded = snapshot?.endsWith("*") ?? false;
  // ALL last: when the type changes and the chosen operation is not among its operations, the browser picks the first one; it should not be ALL.
  const valid: AclOperation[] = [...operationsFor(type).filter((op) => op !== "ALL"), ...(withAll ? (["ALL"] as const) : [])];
  const options: string[] = defaultValue && typeAsLoaded && !valid.includes(defaultValue as AclOperation) ? [...valid, defaultValue] : valid;
  return <Select ref={ref} options={options} defaultValue={defaultValue} data-narrowed-to={type ?? undefined} {...props} />;
}
