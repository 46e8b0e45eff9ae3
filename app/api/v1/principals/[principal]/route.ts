import { apiRoute } from "@/lib/api/route";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { principalParamSchema, principalViewQuerySchema } from "@/lib/schemas/effective-permissions";
import { principalView } from "@/lib/services/effective-permissions-read";

export const dynamic = "force-dynamic";

/** The {principal} segment, URL-decoded (`alice` means `User:alice`). */
function principalOf(request: Request): string {
  const last = new URL(request.url).pathname.replace(/\/+$/, "").split("/").at(-1) ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Everything the caller may see about what one principal can do, its quotas and its tokens. */
export const GET = apiRoute({ query: principalViewQuerySchema }, async ({ viewer, request, query }) => {
  const principal = principalParamSchema.safeParse(principalOf(request));
  if (!principal.success) {
    return {
      ok: false,
      code: "VALIDATION",
      message: "The principal is not valid.",
      fieldErrors: { principal: Object.values(fieldErrorsOf(principal.error.issues)).flat() },
    };
  }
  return principalView(viewer, principal.data, query);
});
