import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { getWebhookView } from "@/lib/services/webhooks";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => getWebhookView(viewer));

export const PUT = changeRoute("webhook.set");

export const DELETE = changeRoute("webhook.delete");
