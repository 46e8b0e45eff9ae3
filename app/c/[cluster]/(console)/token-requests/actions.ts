"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm, type FormResult } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import {
  tokenRequestFormSchema,
  type DecidableRequest,
  type TokenRequestView,
  type TokenRetrieved,
} from "@/lib/schemas/tokens";

export type SubmitState = FormResult<TokenRequestView> | null;
export type ApproveState = ActionResult<DecidableRequest> | null;
export type DenyState = FormResult<TokenRequestView> | null;
export type RetrieveState = ActionResult<TokenRetrieved> | null;

/** The request the row's form is about (its hidden `id` field): the API's `{id}`. */
const onRequest = (formData: FormData) => ({ omit: ["id"], params: { id: String(formData.get("id") ?? "") } });

export async function submitTokenRequestAction(_prev: SubmitState, formData: FormData): Promise<SubmitState> {
  const { values, result } = await changeFromForm("token-request.submit", formData, { schema: tokenRequestFormSchema });
  if (result.ok) revalidatePath("/token-requests");
  return { ...result, values: result.ok ? {} : values };
}

export async function approveTokenRequestAction(_prev: ApproveState, formData: FormData): Promise<ApproveState> {
  // No revalidation: the row keeps showing the outcome; the lists refresh on the next visit.
  return (await changeFromForm("token-request.approve", formData, { ...onRequest(formData), raw: () => undefined }))
    .result;
}

export async function denyTokenRequestAction(_prev: DenyState, formData: FormData): Promise<DenyState> {
  const { values, result } = await changeFromForm("token-request.deny", formData, {
    ...onRequest(formData),
    message: "Give the requester a reason.",
  });
  return { ...result, values };
}

/** The one retrieval: the HMAC goes back in this answer only (not a URL, cookie or log). */
export async function retrieveTokenAction(_prev: RetrieveState, formData: FormData): Promise<RetrieveState> {
  return (await changeFromForm("token-request.retrieve", formData, { ...onRequest(formData), raw: () => undefined }))
    .result;
}
