/**
 * The server half of every change declared in lib/schemas/changes: the function that runs
 * it, keyed by the same id. The type requires exactly one run per declared id, so a change
 * cannot be declared without what runs it, nor run without being declared (and so without
 * its route, OpenAPI entry and audit description). Routes (lib/api/change-route.ts) and
 * server actions (lib/actions/form.ts) call `runChange`, never the service functions.
 */
import "server-only";
import { clientAddress } from "@/lib/auth/current";
import type { Viewer } from "@/lib/auth/sign-in";
import { CHANGES, type ChangeId, type ChangeInput, type ChangeOutput } from "@/lib/schemas/changes";
import type { AclPlanApplyResult, QuotaPlanView } from "@/lib/schemas/plans";
import type { QuotaAlterResult } from "@/lib/schemas/quotas";
import type { ActionResult } from "@/lib/schemas/result";
import { approveRequest, denyRequest, retrieveRequestedToken, submitTokenRequest } from "./token-requests";
import { applyPlan, createPlan, makeAndApplyPlan, planHeaderOf, type PlanApplyView, type PlanView } from "./plans";
import { deleteScramUser, upsertScramUser } from "./scram-users";
import { signInAudited, signOutAudited } from "./session";
import { createToken, expireToken, renewToken } from "./tokens";

/** What one run gets: the caller (none for the public sign-in), the parsed input and query, and the path's `{id}`. */
export interface ChangeContext<K extends ChangeId> {
  viewer: Viewer;
  input: ChangeInput<K>;
  query?: unknown;
  params?: Readonly<Record<string, string>>;
}

type Runs = { [K in ChangeId]: (ctx: ChangeContext<K>) => Promise<ActionResult<unknown>> };

type AclApply = Omit<AclPlanApplyResult, "plan">;

const wantsPreview = (query: unknown, body: { dryRun: boolean }) => {
  const preview = (query as { preview?: string } | undefined)?.preview;
  return body.dryRun || preview === "1" || preview === "true";
};

/**
 * An ACL plan with nothing to change is a success for a script (creating what Kafka holds,
 * or deleting what it lacks, is what Kafka's own API answers without error); one Kafka
 * would refuse is a 400 naming why. Either way nothing was sent.
 */
function aclRefused(plan: PlanView, why: string): ActionResult<PlanApplyView<AclApply>> {
  if (!why.startsWith("Nothing to change"))
    return { ok: false, code: "VALIDATION", message: `${why} Nothing was changed (plan ${plan.id}).` };
  return {
    ok: true,
    data: { plan: planHeaderOf(plan), outcome: "success", message: why, batches: 0, results: [], notSent: [] },
  };
}

/** Preview (dryRun, ?preview=1) or the one-call apply of an ACL plan for these bindings. */
function aclChange(kind: "acl.create" | "acl.delete") {
  return ({ viewer, input, query }: ChangeContext<typeof kind>) =>
    wantsPreview(query, input)
      ? createPlan(viewer, kind, { bindings: input.bindings })
      : makeAndApplyPlan<AclApply>(viewer, kind, { bindings: input.bindings }, aclRefused);
}

const RUNS: Runs = {
  "session.sign-in": async ({ input }) => {
    const result = await signInAudited(input, await clientAddress());
    return result;
  },
  "session.sign-out": async ({ viewer }) => {
    if (viewer.sessionId) await signOutAudited(viewer.sessionId, viewer.principal);
    return { ok: true, data: { signedOut: true as const } };
  },
  "acl.create": aclChange("acl.create"),
  "acl.delete": aclChange("acl.delete"),
  "quota.alter": ({ viewer, input }) => {
    const { entity, key, value } = input;
    if (input.dryRun) return createPlan(viewer, "quota.alter", { entity, key, value });
    // Kafka's validation refusing the plan is a 400 (change the request); the console's KIP-55 budget a 409 (change the
    // other quotas first). Nothing was sent either way.
    return makeAndApplyPlan<QuotaAlterResult>(viewer, "quota.alter", { entity, key, value }, (plan, why) => ({
      ok: false,
      code: (plan as PlanView<Partial<QuotaPlanView>>).kafka?.ok === false ? "VALIDATION" : "CONFLICT",
      message: `${why} Nothing was changed (plan ${plan.id}).`,
    }));
  },
  "token.create": ({ viewer, input }) => createToken(viewer, input),
  "token.renew": ({ viewer, input }) => renewToken(viewer, input),
  "token.expire": ({ viewer, input }) => expireToken(viewer, input),
  "token-request.submit": ({ viewer, input }) => submitTokenRequest(viewer, input),
  "token-request.approve": ({ viewer, params }) => approveRequest(viewer, params?.id ?? ""),
  "token-request.deny": ({ viewer, params, input }) => denyRequest(viewer, params?.id ?? "", input.reason),
  "token-request.retrieve": ({ viewer, params }) => retrieveRequestedToken(viewer, params?.id ?? ""),
  "scram.upsert": ({ viewer, input }) => upsertScramUser(viewer, input),
  "scram.delete": ({ viewer, input }) => deleteScramUser(viewer, input),
  "plan.create": ({ viewer, input }) => {
    const { kind, ...rest } = input;
    return createPlan(viewer, kind, rest);
  },
  "plan.apply": ({ viewer, params }) => applyPlan(viewer, params?.id ?? ""),
};

/** Runs the change `id` (its input already parsed with the declared schema); the answer is the declared output. */
export function runChange<K extends ChangeId>(id: K, ctx: ChangeContext<K>): Promise<ActionResult<ChangeOutput<K>>> {
  return (RUNS[id] as (ctx: ChangeContext<K>) => Promise<ActionResult<ChangeOutput<K>>>)(ctx);
}

/** Every declared change has a run (the type says so; this is for the test that lists them). */
export const RUN_IDS = Object.keys(RUNS) as ChangeId[];
export { CHANGES };
