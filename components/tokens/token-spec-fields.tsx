import { LIFETIME_UNITS } from "@/lib/schemas/tokens";
import { FieldErrors } from "@/components/tokens/hmac-once";

/**
 * Owner, renewers and max lifetime: the fields a token is described by, shared by
 * "Create token" and "Request a token" (both parse them with the same schema).
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
  const invalid = (f: string) => (errors[f] ? { "aria-invalid": true, "aria-describedby": `${idPrefix}-${f}-error` } : {});
  return (
    <>
      <label className="field">
        Owner
        <input name="owner" defaultValue={values.owner ?? ""} placeholder={ownerPlaceholder} {...invalid("owner")} />
        <FieldErrors id={`${idPrefix}-owner-error`} messages={errors.owner} />
      </label>
      <label className="field">
        Renewers
        <input name="renewers" defaultValue={values.renewers ?? ""} placeholder={renewersPlaceholder} {...invalid("renewers")} />
        <FieldErrors id={`${idPrefix}-renewers-error`} messages={errors.renewers} />
      </label>
      <label className="field">
        Max lifetime
        <input
          name="maxLifetime"
          inputMode="decimal"
          defaultValue={values.maxLifetime ?? ""}
          placeholder="broker default (7 d)"
          {...invalid("maxLifetime")}
        />
        <FieldErrors id={`${idPrefix}-maxLifetime-error`} messages={errors.maxLifetime} />
      </label>
      <label className="field">
        Unit
        {/*
          Keyed on the value it shows: React sets a select's default option only when it
          mounts, and resets the form to its defaults after every action, so without the
          key an error answer would put the unit back to the one of the first render.
        */}
        <select key={values.maxLifetimeUnit ?? "days"} name="maxLifetimeUnit" defaultValue={values.maxLifetimeUnit ?? "days"}>
          {LIFETIME_UNITS.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
