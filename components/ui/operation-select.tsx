"use client";

import { useRef, type SelectHTMLAttributes } from "react";
import type { AclOperation } from "@/lib/policy";
import { Select, operationsFor } from "./select";
import { useChosenResourceType } from "./use-chosen-resource-type";

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
}: { typeField?: string; withAll?: boolean; defaultValue?: string } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "defaultValue"
>) {
  const ref = useRef<HTMLSelectElement>(null);
  const { type, asLoaded: typeAsLoaded } = useChosenResourceType(ref, typeField);
  // ALL last: when the type changes and the chosen operation is not among its operations, the browser picks the first
  // one; it should not be ALL.
  const valid: AclOperation[] = [
    ...operationsFor(type).filter((op) => op !== "ALL"),
    ...(withAll ? (["ALL"] as const) : []),
  ];
  const options: string[] =
    defaultValue && typeAsLoaded && !valid.includes(defaultValue as AclOperation) ? [...valid, defaultValue] : valid;
  return (
    <Select ref={ref} options={options} defaultValue={defaultValue} data-narrowed-to={type ?? undefined} {...props} />
  );
}
