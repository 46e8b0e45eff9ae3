import type { ComponentProps } from "react";
import { SUPPORTED_OPERATIONS, type AclOperation, type ResourceType } from "@/lib/policy";

export type Option = string | { value: string; label: string };

const valueOf = (o: Option) => (typeof o === "string" ? o : o.value);
const labelOf = (o: Option) => (typeof o === "string" ? o : o.label);

/**
 * A native select over a list of options. It is keyed on its `defaultValue`: React sets a
 * select's default option only when it mounts and resets a form to its defaults after each
 * server action, so without the key an answer that refills the form would show the first
 * render's option again.
 */
export function Select({
  options,
  defaultValue,
  ...props
}: { options: readonly Option[]; defaultValue?: string } & Omit<ComponentProps<"select">, "defaultValue">) {
  return (
    <select key={defaultValue ?? ""} defaultValue={defaultValue} {...props}>
      {options.map((o) => (
        <option key={valueOf(o)} value={valueOf(o)}>
          {labelOf(o)}
        </option>
      ))}
    </select>
  );
}

/**
 * The operations kafka-acls.sh accepts on a resource type (AclEntry.supportedOperations),
 * ALL first: the options of an operation select once the resource type is chosen. With no
 * type yet, every operation any type accepts.
 */
export function operationsFor(resourceType: ResourceType | null | undefined): AclOperation[] {
  if (resourceType) return ["ALL", ...SUPPORTED_OPERATIONS[resourceType]];
  const all = new Set<AclOperation>(["ALL"]);
  for (const ops of Object.values(SUPPORTED_OPERATIONS)) for (const op of ops) all.add(op);
  return [...all];
}

/** Keeps `value` when it is still one of `options`, else the first option (after the context changed). */
export function narrowedValue<T extends string>(
  options: readonly T[],
  value: string | null | undefined,
): T | undefined {
  return options.find((o) => o === value) ?? options[0];
}
