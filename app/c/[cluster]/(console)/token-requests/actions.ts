"use server";

import { revalidatePath } from "next/cache";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf, type ActionResult } from "@/lib/schemas/result";
import { tokenRequestDenySchema, tokenRequestFormSchema, type DecidableRequest, type TokenRequestView, type TokenRetrieved } from "@/lib/schemas/tokens";
import { approveRequest, denyRequest, retrieveRequestedToken, submitTokenRequest } from "@/lib/services/token-requests";

type Values = Record<string, string>;

export type SubmitState = (ActionResult<TokenRequestView> & { values: Values }) | null;
export type ApproveState = ActionResult<DecidableRequest> | null;
export type DenyState = (ActionResult<TokenRequestView> & { values: Values }) | null;
export type RetrieveState = ActionResult<TokenRetrieved> | null;

function valuesOf(formData: FormData): Values {
  const values: Values = {};
  for (const [k, v] of formData) if (typeof v === "string" && !k.startsWith("$")) values[k] = v;
  return values;
}

const idOf = (formData: FormData): string => String(formData.get("id") ?? "");

export async function submitTokenRequestAction(_prev: SubmitState, formData: FormData): Promise<SubmitState> {
  const viewer = await requireViewer();
  const values = valuesOf(formData);
  const parsed = tokenRequestFormSchema.safeParse(values);
  if (!parsed.success) return { ok: false, code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error.issues), values };
  const result = await submitTokenRequest(viewer, parsed.data);
  if (result.ok) revalidatePath("/token-requests");
  return { ...result, values: result.ok ? {} : values };
}

export async function approveTokenRequestAction(_prev: ApproveState, formData: FormData): Promise<ApproveState> {
  const viewer = await requireViewer();
  // No revalidation: the row keeps showing the outcome; the lists refresh on the next visit.
  return approveRequest(viewer, idOf(formData));
}

export async function denyTokenRequestAction(_prev: DenyState, formData: FormData): Promise<DenyState> {
  const viewer = await requireViewer();
  const values = valuesOf(formData);
  const parsed = tokenRequestDenySchema.safeParse(values);
  if (!parsed.success) return { ok: false, code: "VALIDATION", message: "Give the requester a reason.", fieldErrors: fieldErrorsOf(parsed.error.issues), values };
  return { ...(await denyRequest(viewer, idOf(formData), parsed.data.reason)), values };
}

/** The one retrieval: the HMAC goes back in this answer only (not a URL, cookie or log). */
export async function retrieveTokenAction(_prev: RetrieveState, formData: FormData): Promise<RetrieveState> {
  const viewer = await requireViewer();
  return retrieveRequestedToken(viewer, idOf(formData));
}
