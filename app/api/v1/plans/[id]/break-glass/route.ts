import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { getBreakGlass } from "@/lib/services/break-glass";

export const dynamic = "force-dynamic";

/** The break-glass apply of the plan, its after-the-fact review, and whether the caller may review it. */
export const GET = apiRoute({}, ({ viewer, params }) => getBreakGlass(viewer, params.id ?? ""));

export const POST = changeRoute("plan.break-glass");
