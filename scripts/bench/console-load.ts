/**
 * The console bench's data: the topics its ACLs name, and the ACLs imported through the
 * console itself (acl.import plans: preview, then apply).
 */
import type { AclBinding } from "../../lib/policy/types";
import type { ConsoleUser } from "./console-http";
import { ADMIN, TOPICS } from "./console-options";
import { log } from "./console-server";

// ---- the data -------------------------------------------------------------------------------

/** Topics named like the ACLs' LITERAL topics, so the resources index lists real resources. */
export async function createTopics(acls: readonly AclBinding[]): Promise<number> {
  const names = [
    ...new Set(
      acls
        .filter((a) => a.resourceType === "TOPIC" && a.patternType === "LITERAL" && a.resourceName !== "*")
        .map((a) => a.resourceName),
    ),
  ].slice(0, TOPICS);
  const { withAdmin } = await import("../../lib/kafka/client");
  const cred = { ...ADMIN, mechanism: "SCRAM-SHA-512" as const };
  for (let i = 0; i < names.length; i += 50) {
    await withAdmin(cred, "CreateTopics", (admin) =>
      admin.createTopics({ topics: names.slice(i, i + 50), partitions: 1, replicas: 1 }),
    );
  }
  return names.length;
}

interface PlanAnswer {
  id: string;
  create?: unknown[];
  counts?: unknown;
}
interface ApplyAnswer {
  outcome: string;
  batches: number;
  results: { ok: boolean; error?: { message: string } | null }[];
}

interface LoadStep {
  acls: number;
  previewMs: number;
  applyMs: number;
  batches: number;
}

/** Imports `acls` through acl.import plans of `chunk` ACLs (JSON, add-only): preview, then apply. */
export async function importAcls(
  user: ConsoleUser,
  acls: readonly AclBinding[],
  chunk: number,
): Promise<{ seconds: number; steps: LoadStep[] }> {
  const t0 = performance.now();
  const steps: LoadStep[] = [];
  for (let i = 0; i < acls.length; i += chunk) {
    const part = acls.slice(i, i + chunk);
    const content = JSON.stringify({ acls: part });
    const plan = await user.request<PlanAnswer>("POST", "/api/v1/plans", {
      kind: "acl.import",
      content,
      format: "json",
      fileName: `bench-${i}.json`,
      mode: "add-only",
    });
    const apply = await user.request<ApplyAnswer>("POST", `/api/v1/plans/${plan.body.id}/apply`, {});
    const failed = apply.body.results.filter((r) => !r.ok);
    if (apply.body.outcome !== "success" || failed.length > 0) {
      throw new Error(
        `import of ACLs ${i}..${i + part.length} ended ${apply.body.outcome}: ${failed.length} failed, ` +
          `e.g. ${failed[0]?.error?.message ?? "?"}`,
      );
    }
    steps.push({
      acls: part.length,
      previewMs: Math.round(plan.ms),
      applyMs: Math.round(apply.ms),
      batches: apply.body.batches,
    });
    log(
      `  imported ${i + part.length} of ${acls.length}: preview ${Math.round(plan.ms)} ms, ` +
        `apply ${Math.round(apply.ms)} ms (${apply.body.batches} batches)`,
    );
  }
  return { seconds: Math.round(performance.now() - t0) / 1000, steps };
}
