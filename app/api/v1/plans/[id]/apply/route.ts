import { apiRoute } from "@/lib/api/route";
import { applyPlan } from "@/lib/services/plans";
import { planIdOf } from "../plan-id";

export const dynamic = "force-dynamic";

/** Apply exactly the previewed plan (nothing else is read from the request). */
export const POST = apiRoute({}, ({ viewer, request }) => applyPlan(viewer, planIdOf(request, 1)));
