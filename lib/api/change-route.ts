/**
 * The /api/v1 handler of a declared change (lib/schemas/changes): `apiRoute` with the
 * change's own schemas (body, query), its auth (only the sign-in is public), then
 * `runChange`. A route file is one line per change:
 *
 *   export const POST = changeRoute("token.create");
 *
 * `respond` turns a success into a response of the route's own (the session cookie).
 * lib/api/openapi.test.ts checks that the file a change is exported from is the path the
 * definition declares, with the method it declares.
 */
import type { Viewer } from "@/lib/auth/sign-in";
import { CHANGES, NO_INPUT, type ChangeDefinition, type ChangeId, type ChangeInput } from "@/lib/schemas/changes";
import { runChange } from "@/lib/services/changes";
import { apiRoute } from "./route";

interface RouteHooks<K extends ChangeId> {
  respond?: (data: unknown, ctx: { viewer: Viewer; input: ChangeInput<K> }) => Response | Promise<Response>;
}

export function changeRoute<K extends ChangeId>(id: K, hooks: RouteHooks<K> = {}) {
  const change: ChangeDefinition = CHANGES[id];
  const body = change.input === NO_INPUT ? undefined : change.input;
  return apiRoute(
    { auth: change.public !== true, body, query: change.http.query },
    async ({ viewer, body: input, query, params }) => {
      const ctx = { viewer, input: input as ChangeInput<K>, query, params };
      const result = await runChange(id, ctx);
      if (!result.ok || !hooks.respond) return result;
      return hooks.respond(result.data, ctx);
    },
  );
}
