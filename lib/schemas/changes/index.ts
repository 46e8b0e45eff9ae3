/**
 * Every change the console makes, by id (see definition.ts). A new change is one
 * definition in this folder, listed here, its run in lib/services/changes.ts, plus its
 * page; its route, OpenAPI entry and server action come from the definition.
 */
import type { z } from "zod";
import { aclCreate, aclDelete } from "./acls";
import { driftAcknowledge, driftRevert } from "./drift";
import { planApply, planCreate } from "./plans";
import { quotaAlter } from "./quotas";
import {
  grantEnd,
  grantExtend,
  planBreakGlass,
  planBreakGlassReview,
  requestApprove,
  requestCancel,
  requestPassword,
  requestDeny,
  requestFile,
  requestFromPlan,
  requestReview,
  webhookDelete,
  webhookSet,
} from "./requests";
import { scramDelete, scramUpsert } from "./scram-users";
import { signIn, signOut } from "./session";
import { tokenRequestApprove, tokenRequestDeny, tokenRequestRetrieve, tokenRequestSubmit } from "./token-requests";
import { tokenCreate, tokenExpire, tokenRenew } from "./tokens";

export const CHANGES = {
  "session.sign-in": signIn,
  "session.sign-out": signOut,
  "acl.create": aclCreate,
  "acl.delete": aclDelete,
  "quota.alter": quotaAlter,
  "token.create": tokenCreate,
  "token.renew": tokenRenew,
  "token.expire": tokenExpire,
  "token-request.submit": tokenRequestSubmit,
  "token-request.approve": tokenRequestApprove,
  "token-request.deny": tokenRequestDeny,
  "token-request.retrieve": tokenRequestRetrieve,
  "scram.upsert": scramUpsert,
  "scram.delete": scramDelete,
  "plan.create": planCreate,
  "plan.apply": planApply,
  "plan.break-glass": planBreakGlass,
  "plan.break-glass-review": planBreakGlassReview,
  "request.file": requestFile,
  "request.from-plan": requestFromPlan,
  "request.review": requestReview,
  "request.approve": requestApprove,
  "request.deny": requestDeny,
  "request.cancel": requestCancel,
  "request.password": requestPassword,
  "grant.end": grantEnd,
  "grant.extend": grantExtend,
  "webhook.set": webhookSet,
  "webhook.delete": webhookDelete,
  "drift.acknowledge": driftAcknowledge,
  "drift.revert": driftRevert,
} as const;

export type ChangeId = keyof typeof CHANGES;
export type { ChangeDefinition, PlanUse } from "./definition";

/** The declared input and answer of a change. */
export type ChangeInput<K extends ChangeId> = z.output<(typeof CHANGES)[K]["input"]>;
export type ChangeOutput<K extends ChangeId> = z.output<(typeof CHANGES)[K]["output"]>;
export { NO_INPUT } from "./definition";
