"use client";

import { useRef, type ComponentProps } from "react";
import type { ResourceType } from "@/lib/policy";
import { Combobox } from "./combobox";
import { useChosenResourceType } from "./use-chosen-resource-type";

/**
 * A resource name field whose suggestions follow the resource type chosen in the same form
 * (its `typeField`, read live): topics for TOPIC, groups for GROUP, transactional ids for
 * TRANSACTIONAL_ID, `kafka-cluster` for CLUSTER... (`byType`, e.g. aclSuggestions(viewer).byType).
 * The server's HTML and a page without JavaScript offer `all` (a type changed without
 * JavaScript must not leave its names out). Use inside a `Field`, which sets `id`.
 */
export function ResourceNameCombobox({
  typeField = "resourceType",
  byType,
  all,
  ...input
}: { typeField?: string; byType: Readonly<Record<ResourceType, readonly string[]>>; all: readonly string[] } & Omit<
  ComponentProps<typeof Combobox>,
  "suggestions" | "ref"
>) {
  const ref = useRef<HTMLInputElement>(null);
  const { type } = useChosenResourceType(ref, typeField);
  return (
    <Combobox
      ref={ref}
      suggestions={type === null ? all : byType[type]}
      data-narrowed-to={type ?? undefined}
      {...input}
    />
  );
}
