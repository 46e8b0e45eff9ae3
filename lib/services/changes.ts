/**
 * The server half of every change declared in lib/schemas/changes: the function that runs
 * it, keyed by the same id. The type requires exactly one run per declared id, so a change
 * cannot be declared without what runs it, nor run without being declared (and so without
 * its route, OpenAPI entry and audit description). Routes (lib/api/change-route.ts) and
 * server actions (lib/actions/form.ts) call `runChange`, never the service functions.
 */
import "server-only";
import { clientAddress } from "@/lib/auth/current";
import { clusterIdOf } from "@/lib/clusters";
import { recordAudit } from "@/lib/db/audit";
import { formatEntity } from "@/lib/policy";
import { auditTarget } from "./acls";
import type { Viewer } from "@/lib/auth/sign-in";
import { CHANGES, type ChangeId, type ChangeInput, type ChangeOutput } from "@/lib/schemas/changes";
import type { AclPlanApplyResult, QuotaPlanView } from "@/lib/schemas/plans";
import type { QuotaAlterResult } from "@/lib/schemas/quotas";
import type { ActionResult } from "@/lib/schemas/result";
import { approveRequest, denyRequest, retrieveRequestedToken, submitTokenRequest } from "./token-requests";
import {
  applyPlan,
  createPlan,
  fourEyesRefusal,
  makeAndApplyPlan,
  planHeaderOf,
  type PlanApplyView,
  type PlanView,
} from "./plans";
import { deleteScramUser, upsertScramUser } from "./scram-users";
import { endGrant } from "./grants";
import { deleteWebhook, setWebhook } from "./webhooks";
import { reviewBreakGlass } from "./break-glass";
import {
  approveChangeRequest,
  breakGlassApply,
  cancelChangeRequest,
  denyChangeRequest,
  extendGrant,
  fileRequest,
  fileRequestFromPlan,
  retrieveRequestPassword,
  reviewRequest,
} from "./requests";
import { acknowledgeDrift, revertDrift } from "./drift";
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

/**
 * A one-call change Kafka refused while its plan was made (the caller may not read what the plan
 * depends on): nothing was sent, and the attempt is recorded as denied, as an attempt Kafka refuses
 * at apply is. Best effort: the answer does not wait on a database that is down.
 */
async function auditRefusal<T>(
  viewer: Viewer,
  spec: { action: "acl.create" | "acl.delete" | "quota.alter"; category: "acl" | "quota"; target: string },
  request: unknown,
  result: ActionResult<T>,
): Promise<ActionResult<T>> {
  if (result.ok || result.code !== "DENIED") return result;
  await recordAudit({
    ...spec,
    principal: viewer.principal,
    request,
    outcome: "denied",
    message: result.message,
    clusterId: clusterIdOf(viewer.credential),
  }).catch((error: unknown) => {
    console.error(
      `[console] recording a refused ${spec.action}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  return result;
}

/** Preview (dryRun, ?preview=1) or the one-call apply of an ACL plan for these bindings. */
function aclChange(kind: "acl.create" | "acl.delete") {
  return async ({ viewer, input, query }: ChangeContext<typeof kind>) => {
    if (wantsPreview(query, input)) return createPlan(viewer, kind, { bindings: input.bindings });
    const result = await makeAndApplyPlan<AclApply>(viewer, kind, { bindings: input.bindings }, aclRefused);
    const target = { action: kind, category: "acl" as const, target: auditTarget(input.bindings) };
    return auditRefusal(viewer, target, { bindings: input.bindings }, result);
  };
}

/**
 * SCRAM credentials on a four-eyes cluster: no direct change (no path applies a change without the
 * approvals); they are requested as a scram.change plan, whose password the console generates at
 * approval and keeps for the requester.
 */
function scramFourEyes(viewer: Viewer) {
  const refusal = fourEyesRefusal(viewer, undefined);
  return refusal === null
    ? null
    : {
        ...refusal,
        message:
          "This cluster needs approvals by someone other than the change's maker (four-eyes): request the SCRAM " +
          'change instead (the Users page\'s "Request…", or POST /api/v1/requests with a scram.change). Its ' +
          "password is generated at approval and shown once to you. Nothing was changed.",
      };
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
    const result = makeAndApplyPlan<QuotaAlterResult>(viewer, "quota.alter", { entity, key, value }, (plan, why) => ({
      ok: false,
      code: (plan as PlanView<Partial<QuotaPlanView>>).kafka?.ok === false ? "VALIDATION" : "CONFLICT",
      message: `${why} Nothing was changed (plan ${plan.id}).`,
    }));
    const target = { action: "quota.alter" as const, category: "quota" as const, target: formatEntity(entity) };
    return result.then((r) => auditRefusal(viewer, target, { entity, key, value }, r));
  },
  "token.create": ({ viewer, input }) => createToken(viewer, input),
  "token.renew": ({ viewer, input }) => renewToken(viewer, input),
  "token.expire": ({ viewer, input }) => expireToken(viewer, input),
  "token-request.submit": ({ viewer, input }) => submitTokenRequest(viewer, input),
  "token-request.approve": ({ viewer, params }) => approveRequest(viewer, params?.id ?? ""),
  "token-request.deny": ({ viewer, params, input }) => denyRequest(viewer, params?.id ?? "", input.reason),
  "token-request.retrieve": ({ viewer, params }) => retrieveRequestedToken(viewer, params?.id ?? ""),
  "scram.upsert": async ({ viewer, input }) => scramFourEyes(viewer) ?? upsertScramUser(viewer, input),
  "scram.delete": async ({ viewer, input }) => scramFourEyes(viewer) ?? deleteScramUser(viewer, input),
  "plan.create": ({ viewer, input }) => {
    const { kind, ...rest } = input;
    return createPlan(viewer, kind, rest);
  },
  "plan.apply": ({ viewer, params }) => applyPlan(viewer, params?.id ?? ""),
  "plan.break-glass": ({ viewer, params, input }) => breakGlassApply(viewer, params?.id ?? "", input.reason),
  "plan.break-glass-review": ({ viewer, params, input }) => reviewBreakGlass(viewer, params?.id ?? "", input.comment),
  "request.file": ({ viewer, input }) => fileRequest(viewer, input),
  "request.from-plan": ({ viewer, input }) => fileRequestFromPlan(viewer, input),
  "request.review": ({ viewer, params }) => reviewRequest(viewer, params?.id ?? ""),
  "request.approve": ({ viewer, params, input }) => approveChangeRequest(viewer, params?.id ?? "", input.planId),
  "request.deny": ({ viewer, params, input }) => denyChangeRequest(viewer, params?.id ?? "", input.comment),
  "request.cancel": ({ viewer, params }) => cancelChangeRequest(viewer, params?.id ?? ""),
  "request.password": ({ viewer, params }) => retrieveRequestPassword(viewer, params?.id ?? ""),
  "grant.end": ({ viewer, params }) => endGrant(viewer, params?.id ?? ""),
  "grant.extend": ({ viewer, params, input }) => extendGrant(viewer, params?.id ?? "", input),
  "webhook.set": ({ viewer, input }) => setWebhook(viewer, input),
  "webhook.delete": ({ viewer }) => deleteWebhook(viewer),
  "drift.acknowledge": ({ viewer, input }) => acknowledgeDrift(viewer, input),
  "drift.revert": ({ viewer, input }) => revertDrift(viewer, input),
};

/** Runs the change `id` (its input already parsed with the declared schema); the answer is the declared output. */
export function runChange<K extends ChangeId>(id: K, ctx: ChangeContext<K>): Promise<ActionResult<ChangeOutput<K>>> {
  return (RUNS[id] as (ctx: ChangeContext<K>) => Promise<ActionResult<ChangeOutput<K>>>)(ctx);
}

/** Every declared change has a run (the type says so; this is for the test that lists them). */
export const RUN_IDS = Object.keys(RUNS) as ChangeId[];
export { CHANGES };
