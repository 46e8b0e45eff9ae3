"use server";

import { requireViewer } from "@/lib/auth/current";
import { parseFields } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import { findUnsafeText, hasErrors } from "@/lib/schemas/safe-text";
import { identityMapBodySchema, type IdentityInput, type IdentityMapResult } from "@/lib/schemas/identities";
import { mapIdentitiesFor } from "@/lib/services/identities";

export type IdentitiesState = (ActionResult<IdentityMapResult> & { values: Record<string, string> }) | null;

const TEXT_FIELDS = ["sslRules", "kerberosRules", "defaultRealm", "clients", "interpret"] as const;
const MAX_CERTIFICATE_BYTES = 64 * 1024;

/** One client per line: `as` forces DN or Kerberos; auto reads a line with `=` as a DN. */
function clientLines(text: string, as: string): IdentityInput[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map((line): IdentityInput => {
      const dn = as === "ssl" || (as !== "kerberos" && line.includes("="));
      return dn ? { type: "ssl", distinguishedName: line } : { type: "kerberos", principal: line };
    });
}

/**
 * Maps the pasted DNs / Kerberos principals and uploaded certificates with the rules in the form (nothing is changed).
 */
export async function mapIdentitiesAction(_prev: IdentitiesState, formData: FormData): Promise<IdentitiesState> {
  const viewer = await requireViewer();
  const values: Record<string, string> = {};
  for (const f of TEXT_FIELDS) {
    const v = formData.get(f);
    values[f] = typeof v === "string" ? v : "";
  }
  const unsafe = findUnsafeText(values);
  if (hasErrors(unsafe))
    return {
      ok: false,
      code: "VALIDATION",
      message: "Some fields contain characters the console does not accept.",
      fieldErrors: unsafe,
      values,
    };

  const inputs = clientLines(values.clients ?? "", values.interpret ?? "auto");
  const fileErrors: string[] = [];
  for (const entry of formData.getAll("certificates")) {
    if (typeof entry === "string" || entry.size === 0) continue;
    if (entry.size > MAX_CERTIFICATE_BYTES) {
      fileErrors.push(`${entry.name}: larger than ${MAX_CERTIFICATE_BYTES / 1024} KB; a certificate is a few KB.`);
      continue;
    }
    inputs.push({ type: "certificate", pem: await entry.text() });
  }
  if (fileErrors.length > 0)
    return {
      ok: false,
      code: "VALIDATION",
      message: "Check the certificates.",
      fieldErrors: { certificates: fileErrors },
      values,
    };

  const blankIsUnset = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : v);
  const parsed = parseFields(identityMapBodySchema, {
    sslRules: blankIsUnset(values.sslRules),
    kerberosRules: blankIsUnset(values.kerberosRules),
    defaultRealm: blankIsUnset(values.defaultRealm),
    inputs,
  });
  if (!parsed.ok) {
    const errors = parsed.fieldErrors ?? {};
    if (errors.inputs) errors.clients = errors.inputs;
    return { ...parsed, fieldErrors: errors, values };
  }
  return { ...(await mapIdentitiesFor(viewer, parsed.data)), values };
}
