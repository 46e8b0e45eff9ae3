import { LIFETIME_UNITS } from "@/lib/schemas/tokens";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";

/**
 * Owner, renewers and max lifetime: the fields a token is described by, shared by
 * "Create token" and "Request a token" (both parse them with the same schema). Field ids
 * are `${idPrefix}-owner` etc.; their errors `${idPrefix}-owner-error`.
 */
export function TokenSpecFields({
  idPrefix,
  values,
  errors,
  ownerPlaceholder,
  renewersPlaceholder,
}: {
  idPrefix: string;
  values: Partial<Record<"owner" | "renewers" | "maxLifetime" | "maxLifetimeUnit", string>>;
  errors: Record<string, string[] | undefined>;
  ownerPlaceholder: string;
  renewersPlaceholder: string;
}) {
  return (
    <>
      <Field id={`${idPrefix}-owner`} label="Owner" errors={errors.owner}>
        <input name="owner" defaultValue={values.owner ?? ""} placeholder={ownerPlaceholder} />
      </Field>
      <Field id={`${idPrefix}-renewers`} label="Renewers" errors={errors.renewers}>
        <input name="renewers" defaultValue={values.renewers ?? ""} placeholder={renewersPlaceholder} />
      </Field>
      <Field id={`${idPrefix}-maxLifetime`} label="Max lifetime" errors={errors.maxLifetime}>
        <input name="maxLifetime" inputMode="decimal" defaultValue={values.maxLifetime ?? ""} placeholder="broker default (7 d)" />
      </Field>
      <Field id={`${idPrefix}-maxLifetimeUnit`} label="Unit" errors={errors.maxLifetimeUnit}>
        <Select name="maxLifetimeUnit" defaultValue={values.maxLifetimeUnit ?? "days"} options={LIFETIME_UNITS} />
      </Field>
    </>
  );
}
