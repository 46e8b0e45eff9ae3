"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf, type ActionResult } from "@/lib/schemas/result";
import { tokenCreateFormSchema, tokenExpireSchema, tokenRenewSchema, type TokenCreated, type TokenExpiryResult } from "@/lib/schemas/tokens";
import { createToken, expireToken, renewToken } from "@/lib/services/tokens";
import { findUnsafeFormData, hasErrors } from "@/lib/schemas/safe-text";

/** The form fields as submitted (never the HMAC), to refill the form. */
type Values = Record<string, string>;

export type TokenCreateState = (ActionResult<TokenCreated> & { values: Values; owner: string | null }) | null;
export type TokenExpiryState = (ActionResult<TokenExpiryResult> & { values: Values }) | null;

const CHECK_FIELDS = "Check the highlighted fields.";

/**
 * NUL, control characters or lone surrogates in any field (owner, renewers, HMAC, …):
 * refused before Kafka or the audit trail sees them. The messages never echo the value.
 */
function unsafeFields(formData: FormData): { ok: false; code: "VALIDATION"; message: string; fieldErrors: Record<string, string[]> } | null {
  const fieldErrors = findUnsafeFormData(formData.entries());
  return hasErrors(fieldErrors) ? { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors } : null;
}

function valuesOf(formData: FormData, secret: readonly string[] = []): Values {
  const values: Values = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$") && !secret.includes(k)) values[k] = v;
  return values;
}

export async function createTokenAction(_prev: TokenCreateState, formData: FormData): Promise<TokenCreateState> {
  const viewer = await requireViewer();
  const values = valuesOf(formData);
  const unsafe = unsafeFields(formData);
  if (unsafe) return { ...unsafe, values, owner: null };
  const parsed = tokenCreateFormSchema.safeParse(values);
  if (!parsed.success) {
    return { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: fieldErrorsOf(parsed.error.issues), values, owner: null };
  }
  const result = await createToken(viewer, parsed.data);
  if (result.ok) revalidatePath("/tokens");
  const owner = parsed.data.owner !== null && parsed.data.owner !== viewer.principal ? parsed.data.owner : null;
  return { ...result, values, owner };
}

export async function renewTokenAction(_prev: TokenExpiryState, formData: FormData): Promise<TokenExpiryState> {
  const viewer = await requireViewer();
  const values = valuesOf(formData, ["hmac"]);
  const unsafe = unsafeFields(formData);
  if (unsafe) return { ...unsafe, values };
  const parsed = tokenRenewSchema.safeParse({ ...values, hmac: formData.get("hmac") ?? "" });
  if (!parsed.success) return { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: fieldErrorsOf(parsed.error.issues), values };
  const result = await renewToken(viewer, parsed.data);
  if (result.ok) revalidatePath("/tokens");
  return { ...result, values };
}

export async function expireTokenAction(_prev: TokenExpiryState, formData: FormData): Promise<TokenExpiryState> {
  const viewer = await requireViewer();
  const values = valuesOf(formData, ["hmac"]);
  const unsafe = unsafeFields(formData);
  if (unsafe) return { ...unsafe, values };
  const parsed = tokenExpireSchema.safeParse({ ...values, hmac: formData.get("hmac") ?? "" });
  if (!parsed.success) return { ok: false, code: "VALIDATION", message: CHECK_FIELDS, fieldErrors: fieldErrorsOf(parsed.error.issues), values };
  // No revalidation: an expired-now token leaves the list, and its row must still show the outcome.
  return { ...(await expireToken(viewer, parsed.data)), values };
}
