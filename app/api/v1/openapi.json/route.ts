import { apiRoute } from "@/lib/api/route";
import { buildOpenApiDocument } from "@/lib/api/openapi";

export const dynamic = "force-dynamic";

/** Built once per server: the document depends only on the code. */
let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/**
 * Authenticated like every route but the sign-in (proxy.ts is the console's first gate):
 * the document reveals nothing secret, but the console keeps one rule for anonymous requests.
 */
export const GET = apiRoute({}, async () => ({ ok: true, data: (document ??= buildOpenApiDocument()) }));
