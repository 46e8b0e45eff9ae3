/**
 * The sealed plan of a SCRAM change (kind `scram.change`, #19): what makes a SCRAM change
 * requestable and approvable on a four-eyes cluster, like ACL and quota changes.
 *
 * - payload: exactly the change ({ user, action, mechanism, iterations }); never a password.
 * - preview: the user's credentials now and after, the kafka-configs.sh command (password masked).
 * - basis: the user's credentials as read for the preview (mechanisms and iterations). Apply
 *   reads them again, and the change compares them once more under the (cluster, user)
 *   credential lock right before sending (scram-users.ts): a change made in between is a 409.
 * - execute: `set` generates the password (scram-users.ts), answered once to whoever applies;
 *   when the plan is a request's final approval, requests.ts keeps it encrypted for the
 *   requester instead, and the approver never sees it.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ScramChangeResult, ScramChangePlanBody, ScramPlanPreview } from "@/lib/schemas/scram-users";
import type { PlanKind } from "./plan-kind";
import { credentialsBasis, deleteScramUser, describeCredentials, scramCommand, upsertScramUser } from "./scram-users";
import { kafkaConfigOf } from "@/lib/kafka";

export const SCRAM_PLAN_KIND = "scram.change";

type Payload = Omit<ScramChangePlanBody, "kind">;
type Credentials = ScramPlanPreview["after"];

/** What the change does to `before`, and the credentials after it. */
export function scramOutcome(
  payload: Payload,
  before: Credentials | null,
): { change: ScramChangeResult["change"]; after: Credentials; nothing: string | null } {
  const current = before ?? [];
  if (payload.action === "delete") {
    const gone = payload.mechanism ? [payload.mechanism] : current.map((c) => c.mechanism);
    const has = before === null || current.some((c) => gone.includes(c.mechanism));
    return {
      change: "deleted",
      after: current.filter((c) => !gone.includes(c.mechanism)),
      nothing: has ? null : `${payload.user} has no ${payload.mechanism ?? "SCRAM"} credential: nothing to delete.`,
    };
  }
  const mechanism = payload.mechanism ?? "SCRAM-SHA-512";
  const change =
    before === null
      ? "set"
      : current.length === 0
        ? "created"
        : current.some((c) => c.mechanism === mechanism)
          ? "rotated"
          : "added";
  return {
    change,
    after: [...current.filter((c) => c.mechanism !== mechanism), { mechanism, iterations: payload.iterations }],
    nothing: null,
  };
}

const CHANGE_WORDS: Record<ScramChangeResult["change"], string> = {
  created: "Create the SCRAM user",
  added: "Add a credential to",
  rotated: "Give a new generated password to",
  set: "Set a generated password for",
  deleted: "Delete the SCRAM credentials of",
};

export const scramChangePlanKind: PlanKind<ScramChangePlanBody, Payload, ScramPlanPreview, ScramChangeResult> = {
  kind: SCRAM_PLAN_KIND,
  area: "scram",

  async prepare(viewer: Viewer, input: ScramChangePlanBody) {
    const payload: Payload = {
      user: input.user,
      action: input.action,
      iterations: input.iterations,
      ...(input.action === "set"
        ? { mechanism: input.mechanism ?? "SCRAM-SHA-512" }
        : input.mechanism
          ? { mechanism: input.mechanism }
          : {}),
    };
    const read = await describeCredentials(viewer, payload.user);
    if (!read.ok) return read;
    const before = read.data;
    const { change, after, nothing } = scramOutcome(payload, before);
    const servers = kafkaConfigOf(viewer.credential).bootstrapServers.join(",");
    const mechanisms = payload.mechanism ? [payload.mechanism] : (before ?? []).map((c) => c.mechanism);
    const cli = [
      payload.action === "set"
        ? scramCommand(
            payload.user,
            { add: { mechanism: payload.mechanism!, iterations: payload.iterations } },
            servers,
          )
        : scramCommand(payload.user, { delete: mechanisms }, servers),
    ];
    const what = payload.mechanism ?? "every mechanism";
    const iterations = payload.action === "set" ? `, ${payload.iterations} iterations` : "";
    const preview: ScramPlanPreview = {
      summary: `${CHANGE_WORDS[change]} ${payload.user} (${what}${iterations}).`,
      user: payload.user,
      principal: `User:${payload.user}`,
      change,
      before,
      after,
      cli,
    };
    return { ok: true, data: { payload, preview, basis: credentialsBasis(before), notApplicable: nothing } } as const;
  },

  async currentBasis(viewer, payload) {
    const read = await describeCredentials(viewer, payload.user);
    return read.ok ? { ok: true, data: credentialsBasis(read.data) } : read;
  },

  staleMessage: () => "The SCRAM credentials changed since this preview; nothing was sent. Preview (review) again.",

  async execute(viewer, plan) {
    const p = plan.payload;
    const expected = plan.view.before ?? null;
    const options = { planId: plan.id, expected };
    const result =
      p.action === "set"
        ? await upsertScramUser(
            viewer,
            { user: p.user, mechanism: p.mechanism ?? "SCRAM-SHA-512", iterations: p.iterations, password: null },
            options,
          )
        : await deleteScramUser(viewer, { user: p.user, ...(p.mechanism ? { mechanism: p.mechanism } : {}) }, options);
    return { result, changed: result.ok };
  },
};
