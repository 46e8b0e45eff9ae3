import { useCallback, useSyncExternalStore, type RefObject } from "react";
import { RESOURCE_TYPES, type ResourceType } from "@/lib/policy";

const isResourceType = (v: unknown): v is ResourceType =>
  typeof v === "string" && (RESOURCE_TYPES as readonly string[]).includes(v);

/**
 * The resource type chosen in the same form as `ref`'s control (the form's control named
 * `typeField`), read live as it changes, and whether it is still the one the page came with
 * (its default). `type` is null on the server, without JavaScript, and while the form has
 * no such control: a field narrowed by it then offers everything.
 */
export function useChosenResourceType(
  ref: RefObject<HTMLInputElement | HTMLSelectElement | null>,
  typeField: string,
): { type: ResourceType | null; asLoaded: boolean } {
  const typeControl = useCallback(() => {
    const control = ref.current?.form?.elements.namedItem(typeField);
    return control instanceof HTMLSelectElement || control instanceof HTMLInputElement ? control : null;
  }, [ref, typeField]);
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
    [ref],
  );
  // "TYPE" or "TYPE*" when the type is still the one the page came with (its default).
  const snapshot = useSyncExternalStore(
    subscribe,
    () => {
      const control = typeControl();
      const v = control?.value;
      if (!isResourceType(v)) return null;
      const initial =
        control instanceof HTMLSelectElement
          ? Array.from(control.options).find((o) => o.defaultSelected)?.value
          : control?.defaultValue;
      return v === initial ? `${v}*` : v;
    },
    () => null,
  );
  return {
    type: snapshot === null ? null : (snapshot.replace(/\*$/, "") as ResourceType),
    asLoaded: snapshot?.endsWith("*") ?? false,
  };
}
