"use server";

import { changeFromForm } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import type { GrantView } from "@/lib/schemas/requests";

export type EndGrantState = { result: ActionResult<{ grant: GrantView; message: string }> } | null;

/** End the grant whose id the form carries now (change grant.end): its ACLs are removed at once. */
export async function endGrantAction(_prev: EndGrantState, formData: FormData): Promise<EndGrantState> {
  const grantId = formData.get("grantId");
  if (typeof grantId !== "string" || grantId === "")
    return { result: { ok: false, code: "VALIDATION", message: "No grant to end." } };
  const { result } = await changeFromForm("grant.end", formData, { raw: () => undefined, params: { id: grantId } });
  // No revalidation: the page keeps the row, which now says what ending it did.
  return { result };
}
