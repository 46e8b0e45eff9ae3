import { LIFETIME_UNITS } from "@/lib/schemas/tokens";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Combobox } from "@/components/ui/combobox";
import { ListCombobox } from "@/components/ui/list-combobox";

/** The owner (one principal) and the renewers (a comma-separated list), both typed with suggestions. */
const PRINCIPAL_FIELDS = [
  { name: "owner", label: "Owner", Input: Combobox },
  { name: "renewers", label: "Renewers", Input: ListCombobox },
] as const;

/**
 * Owner, renewers and max lifetime: the fields a token is described by, shared by
 * "Create token" and "Request a token" (both parse them with the same schema). Field ids
 * are `${idPrefix}-owner` etc.; their errors `${idPrefix}-owner-error`. `principals`: the
 * user principals the cluster's ACLs name, offered as the owner and renewers are typed.
 */
export function TokenSpecFields({
  idPrefix,
  values,
  errors,
  ownerPlaceholder,
  renewersPlaceholder,
  principals = [],
}: {
  idPrefix: string;
  values: Partial<Record<"owner" | "renewers" | "maxLifetime" | "maxLifetimeUnit", string>>;
  errors: Record<string, string[] | undefined>;
  ownerPlaceholder: string;
  renewersPlaceholder: string;
  principals?: readonly string[];
}) {
  return (
    <>
      {PRINCIPAL_FIELDS.map(({ name, label, Input }) => (
        <Field key={name} id={`${idPrefix}-${name}`} label={label} errors={errors[name]}>
          <Input
            name={name}
            defaultValue={values[name] ?? ""}
            placeholder={name === "owner" ? ownerPlaceholder : renewersPlaceholder}
            suggestions={principals}
          />
        </Field>
      ))}
      <Field id={`${idPrefix}-maxLifetime`} label="Max lifetime" errors={errors.maxLifetime}>
        <input
          name="maxLifetime"
          inputMode="decimal"
          defaultValue={values.maxLifetime ?? ""}
          placeholder="broker default (7 d)"
        />
      </Field>
      <Field id={`${idPrefix}-maxLifetimeUnit`} label="Unit" errors={errors.maxLifetimeUnit}>
        <Select name="maxLifetimeUnit" defaultValue={values.maxLifetimeUnit ?? "days"} options={LIFETIME_UNITS} />
      </Field>
    </>
  );
}
