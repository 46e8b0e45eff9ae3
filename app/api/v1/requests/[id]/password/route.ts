import { changeRoute } from "@/lib/api/change-route";

export const dynamic = "force-dynamic";

export const POST = changeRoute("request.password");
