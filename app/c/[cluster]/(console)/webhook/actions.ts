"use server";

import { revalidatePath } from "next/cache";
import { changeFromForm, type FormResult } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import type { WebhookView } from "@/lib/services/webhooks";

export type WebhookState = FormResult<WebhookView> | null;
export type WebhookDeleteState = ActionResult<WebhookView> | null;

/** Sets the cluster's webhook; the secret is never sent back to the form. */
export async function setWebhookAction(_prev: WebhookState, formData: FormData): Promise<WebhookState> {
  const { values, result } = await changeFromForm("webhook.set", formData, {
    omit: ["secret"],
    raw: (v, fd) => ({ url: v.url ?? "", secret: fd.get("secret") ?? "" }),
  });
  if (result.ok) revalidatePath("/webhook");
  return { ...result, values };
}

export async function deleteWebhookAction(_prev: WebhookDeleteState, formData: FormData): Promise<WebhookDeleteState> {
  const { result } = await changeFromForm("webhook.delete", formData, { raw: () => undefined });
  if (result.ok) revalidatePath("/webhook");
  return result;
}
