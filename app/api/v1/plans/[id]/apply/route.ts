import { changeRoute } from "@/lib/api/change-route";

export const dynamic = "force-dynamic";

/** Apply exactly the previewed plan (nothing else is read from the request). */
export const POST = changeRoute("plan.apply");
