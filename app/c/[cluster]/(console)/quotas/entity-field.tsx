import { Field } from "@/components/ui/field";
import { Combobox } from "@/components/ui/combobox";

/** The names of the configured quotas, per entity field, offered as the user types. */
export interface QuotaEntityNames {
  users: readonly string[];
  clientIds: readonly string[];
  ips: readonly string[];
}

const ENTITY = {
  user: { label: "User", placeholder: "svc-orders", names: "users" },
  clientId: { label: "Client id", placeholder: "orders-api", names: "clientIds" },
  ip: { label: "IP", placeholder: "203.0.113.10", names: "ips" },
} as const satisfies Record<string, { label: string; placeholder: string; names: keyof QuotaEntityNames }>;

/**
 * One entity field of a quota form (user, client id or IP), id `${idPrefix}-${entity}`, its value from `values`,
 * its errors from `errors`.
 */
export function QuotaEntityField({
  entity,
  idPrefix,
  label = ENTITY[entity].label,
  values,
  errors,
  names,
}: {
  entity: keyof typeof ENTITY;
  idPrefix: string;
  label?: string;
  values: Partial<Record<string, string>>;
  errors: Partial<Record<string, string[]>>;
  names: QuotaEntityNames;
}) {
  const { placeholder } = ENTITY[entity];
  return (
    <Field id={`${idPrefix}-${entity}`} label={label} errors={errors[entity]}>
      <Combobox
        name={entity}
        defaultValue={values[entity] ?? ""}
        placeholder={placeholder}
        suggestions={names[ENTITY[entity].names]}
      />
    </Field>
  );
}
