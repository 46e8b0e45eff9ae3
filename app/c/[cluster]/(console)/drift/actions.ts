"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { clusterHref } from "@/lib/auth/current";
import { changeFromForm } from "@/lib/actions/form";
import type { ActionResult } from "@/lib/schemas/result";
import type { DriftAcknowledgeResult } from "@/lib/schemas/drift";

export type DriftAcknowledgeState = (ActionResult<DriftAcknowledgeResult> & { values: Record<string, string> }) | null;
export type DriftRevertState = ActionResult<unknown> | null;

const ids = (fd: FormData) => fd.getAll("entryId").filter((v): v is string => typeof v === "string");

/** "Keep it": acknowledge the change(s) the form names, with its comment (change drift.acknowledge). */
export async function acknowledgeDriftAction(
  _prev: DriftAcknowledgeState,
  formData: FormData,
): Promise<DriftAcknowledgeState> {
  const { values, result } = await changeFromForm("drift.acknowledge", formData, {
    omit: ["entryId"],
    raw: (v, fd) => ({ entryIds: ids(fd), comment: v.comment ?? "" }),
  });
  if (result.ok) revalidatePath("/drift");
  return { ...result, values };
}

/** "Revert it": make the plan restoring the state before, then show it (change drift.revert). */
export async function revertDriftAction(_prev: DriftRevertState, formData: FormData): Promise<DriftRevertState> {
  const { result } = await changeFromForm("drift.revert", formData, {
    omit: ["entryId"],
    raw: (_v, fd) => ({ entryIds: ids(fd) }),
  });
  if (!result.ok) return result;
  redirect(await clusterHref(`/plans/${encodeURIComponent(result.data.id)}`));
}
