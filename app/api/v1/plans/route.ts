import { apiRoute } from "@/lib/api/route";
import { planCreateBodySchema } from "@/lib/schemas/plans";
import { createPlan } from "@/lib/services/plans";

export const dynamic = "force-dynamic";

/** Preview a change and keep it as a sealed plan: `{ kind, ...input }`. */
export const POST = apiRoute({ body: planCreateBodySchema }, ({ viewer, body }) => {
  const { kind, ...input } = body;
  return createPlan(viewer, kind, input);
});
