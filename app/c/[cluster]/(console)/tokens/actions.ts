"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm, type FormResult } from "@/lib/actions/form";
import { tokenCreateFormSchema, type TokenCreated, type TokenExpiryResult } from "@/lib/schemas/tokens";

export type TokenCreateState = (FormResult<TokenCreated> & { owner: string | null }) | null;
export type TokenExpiryState = FormResult<TokenExpiryResult> | null;

/** The HMAC is read from the form but never shown again. */
const withHmac = {
  omit: ["hmac"],
  raw: (values: Record<string, string>, formData: FormData) => ({ ...values, hmac: formData.get("hmac") ?? "" }),
};

export async function createTokenAction(_prev: TokenCreateState, formData: FormData): Promise<TokenCreateState> {
  const { viewer, values, input, result } = await changeFromForm("token.create", formData, {
    schema: tokenCreateFormSchema,
  });
  if (result.ok) revalidatePath("/tokens");
  const owner = input !== null && input.owner !== null && input.owner !== viewer.principal ? input.owner : null;
  return { ...result, values, owner };
}

export async function renewTokenAction(_prev: TokenExpiryState, formData: FormData): Promise<TokenExpiryState> {
  const { values, result } = await changeFromForm("token.renew", formData, withHmac);
  if (result.ok) revalidatePath("/tokens");
  return { ...result, values };
}

export async function expireTokenAction(_prev: TokenExpiryState, formData: FormData): Promise<TokenExpiryState> {
  const { values, result } = await changeFromForm("token.expire", formData, withHmac);
  // No revalidation: an expired-now token leaves the list, and its row must still show the outcome.
  return { ...result, values };
}
