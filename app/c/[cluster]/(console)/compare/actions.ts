"use server";

import { redirect } from "next/navigation";
import { clusterHref, clusterHrefOn, getViewerOn, requireViewer } from "@/lib/auth/current";
import { findCluster } from "@/lib/clusters";
import { compareQuerySchema } from "@/lib/schemas/cluster-compare";
import { compareClusters } from "@/lib/services/cluster-compare";
import { runChange } from "@/lib/services/changes";
import type { ChangeInput } from "@/lib/schemas/changes";

/**
 * "Preview the plan on <other>": compares again (the page's figures are not trusted from the
 * form) and makes the plan on the other cluster as the browser's session there; its page
 * (on that cluster's addresses) shows every decision it changes and applies it.
 */
export async function previewComparePlanAction(formData: FormData): Promise<void> {
  const here = await requireViewer();
  const fields = {
    other: formData.get("other") ?? "",
    principal: formData.get("principal") ?? "",
    prefix: formData.get("prefix") ?? "",
  };
  const back = async (error: string) => {
    const params = new URLSearchParams({
      other: String(fields.other),
      principal: String(fields.principal),
      prefix: String(fields.prefix),
      planError: error,
    });
    redirect(await clusterHref(`/compare?${params}`));
  };
  const query = compareQuerySchema.safeParse(fields);
  if (!query.success) return back(query.error.issues[0]?.message ?? "Check the fields.");
  if (!findCluster(query.data.other)) return back(`No cluster is named "${query.data.other}".`);
  const there = await getViewerOn(query.data.other);
  if (!there) return back("Sign in to the other cluster first.");
  const compared = await compareClusters(here, there, query.data);
  if (!compared.ok) return back(compared.message);
  const plan = compared.data.aclPlan;
  if (plan === null) return back("The ACLs already agree: there is nothing to change.");
  const made = await runChange("plan.create", {
    viewer: there,
    input: { kind: plan.kind, ...plan.input } as ChangeInput<"plan.create">,
  });
  if (!made.ok) return back(made.message);
  redirect(clusterHrefOn(query.data.other, `/plans/${encodeURIComponent(made.data.id)}`));
}
