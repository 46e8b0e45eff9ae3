import { apiRoute } from "@/lib/api/route";
import { buildOpenApiDocument } from "@/lib/api/openapi";

export const GET = apiRoute({}, async () => ({ ok: true, data: buildOpenApiDocument() }));
