"use server";

import type { z } from "zod";
import { revalidatePath } from "next/cache";
import { changeFromForm, type FormResult, type FormRun } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import type { planApplyResultSchema, planViewSchema } from "@/lib/schemas/plans";
import {
  requestAclFormSchema,
  requestFromPlanFormSchema,
  type requestPasswordSchema,
  type GrantView,
  type RequestStepResult,
} from "@/lib/schemas/requests";

/**
 * Requests for changes (#19), each step one declared change (lib/schemas/changes/requests.ts):
 * file (the Requests page's ACL form, or a previewed plan's "Request approval"), review,
 * approve, deny, cancel; end a grant early; a super user's break-glass apply.
 */

export type FileState = FormResult<RequestStepResult> | null;
export type ReviewState = ActionResult<z.infer<typeof planViewSchema>> | null;
export type StepState = FormResult<RequestStepResult> | null;
type StepChange = "request.approve" | "request.deny" | "request.cancel";
export type EndGrantState = ActionResult<{ grant: GrantView; message: string }> | null;
export type BreakGlassState = FormResult<z.infer<typeof planApplyResultSchema>> | null;

/** The request (or grant, or plan) the form is about (its hidden `id` field): the API's `{id}`. */
const onThing = (formData: FormData) => ({ omit: ["id"], params: { id: String(formData.get("id") ?? "") } });

function refresh(id?: string) {
  revalidatePath("/requests");
  if (id) revalidatePath(`/requests/${id}`);
}

/** The Requests page's "New request": one ACL binding, a reason, optional minutes (change request.file). */
export async function fileRequestAction(_prev: FileState, formData: FormData): Promise<FileState> {
  const { values, result } = await changeFromForm("request.file", formData, { schema: requestAclFormSchema });
  if (result.ok) refresh();
  return { ...result, values: result.ok ? {} : values };
}

/** "Request approval" of a plan the viewer previewed (change request.from-plan). */
export async function fileRequestFromPlanAction(_prev: FileState, formData: FormData): Promise<FileState> {
  const { values, result } = await changeFromForm("request.from-plan", formData, {
    schema: requestFromPlanFormSchema,
  });
  if (result.ok) refresh();
  return { ...result, values };
}

/** Review: the request's change as a plan made as the viewer (change request.review). */
export async function reviewRequestAction(_prev: ReviewState, formData: FormData): Promise<ReviewState> {
  return (await changeFromForm("request.review", formData, { ...onThing(formData), raw: () => undefined })).result;
}

/**
 * The answer of a step on one request (its hidden `id`), after which the request's pages are
 * shown again (on success, or `always`: an approval that failed may have met someone else's decision).
 */
function answered(formData: FormData, run: FormRun<StepChange>, always = false): StepState {
  if (run.result.ok || always) refresh(String(formData.get("id") ?? ""));
  return { ...run.result, values: run.values };
}

/** Approve with the reviewed plan (its id in the form; change request.approve). */
export async function approveRequestAction(_prev: StepState, formData: FormData): Promise<StepState> {
  return answered(formData, await changeFromForm("request.approve", formData, onThing(formData)), true);
}

/** Deny, with a comment the requester reads (change request.deny). */
export async function denyRequestAction(_prev: StepState, formData: FormData): Promise<StepState> {
  const form = { ...onThing(formData), message: "Tell the requester why." };
  return answered(formData, await changeFromForm("request.deny", formData, form));
}

/** The requester withdraws it (change request.cancel). */
export async function cancelRequestAction(_prev: StepState, formData: FormData): Promise<StepState> {
  const form = { ...onThing(formData), raw: () => undefined };
  return answered(formData, await changeFromForm("request.cancel", formData, form));
}

/** End a live grant now (change grant.end): its requester or approver. */
export async function endGrantAction(_prev: EndGrantState, formData: FormData): Promise<EndGrantState> {
  // No revalidation: the form keeps showing the outcome; the pages show the ended grant on the next visit.
  return (await changeFromForm("grant.end", formData, { ...onThing(formData), raw: () => undefined })).result;
}

/** Ask to extend a live grant: a new request for its ACLs, a reason and minutes (change grant.extend). */
export async function extendGrantAction(_prev: FileState, formData: FormData): Promise<FileState> {
  const { values, result } = await changeFromForm("grant.extend", formData, {
    ...onThing(formData),
    raw: (v) => ({ reason: v.reason ?? "", grantMinutes: v.grantMinutes?.trim() ? Number(v.grantMinutes) : undefined }),
  });
  if (result.ok) refresh();
  return { ...result, values };
}

/** A super user's apply of their own plan without approval on a four-eyes cluster (change plan.break-glass). */
export async function breakGlassAction(_prev: BreakGlassState, formData: FormData): Promise<BreakGlassState> {
  const form = onThing(formData);
  const { values, result } = await changeFromForm("plan.break-glass", formData, form);
  if (result.ok) revalidatePath(`/plans/${form.params.id}`);
  return { ...result, values };
}

export type PasswordState = ActionResult<z.infer<typeof requestPasswordSchema>> | null;

/** The requester's one look at the password their approved SCRAM request generated (change request.password). */
export async function retrievePasswordAction(_prev: PasswordState, formData: FormData): Promise<PasswordState> {
  const form = { ...onThing(formData), raw: () => undefined };
  return (await changeFromForm("request.password", formData, form)).result;
}
