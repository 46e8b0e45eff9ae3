import { changeRoute } from "@/lib/api/change-route";

export const dynamic = "force-dynamic";

/** Preview a change and keep it as a sealed plan: `{ kind, ...input }`. */
export const POST = changeRoute("plan.create");
