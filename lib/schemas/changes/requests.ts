/**
 * Requests for changes and grants that end by themselves (#19): file a change instead of
 * applying it, review it (its plan, made as the reviewer), approve, deny, cancel; end a
 * grant early; a super user's break-glass apply on a four-eyes cluster.
 */
import { z } from "zod";
import {
  grantExtendBodySchema,
  grantViewSchema,
  requestApproveBodySchema,
  requestDenyBodySchema,
  requestFileBodySchema,
  requestFromPlanBodySchema,
  requestPasswordSchema,
  requestStepResultSchema,
  webhookSetBodySchema,
  webhookViewSchema,
} from "@/lib/schemas/requests";
import { planApplyResultSchema, planViewSchema } from "@/lib/schemas/plans";
import { breakGlassReviewBodySchema, breakGlassReviewResultSchema } from "@/lib/schemas/break-glass";
import { safeString } from "@/lib/schemas/safe-text";
import { defineChange, NO_INPUT } from "./definition";
import { EXAMPLE_BINDING, UNKNOWN_ID, uuidPathParam } from "./examples";
import { PLAN_ID } from "./plans";

export const REQUEST_PATH_ID = uuidPathParam("The request's id (from POST /api/v1/requests or GET /api/v1/requests)");
const GRANT_ID = uuidPathParam("The grant's id (from GET /api/v1/grants or a request's grantId)");
const NO_SUCH_REQUEST = "There is no request with this id on this cluster";
const WEBHOOK_STATUSES = { 403: "Only a super user of this cluster may change its webhook" } as const;
const NOT_PENDING = "The request is no longer pending (decided, being approved by someone else, or timed out)";

const FILED_LINKS = {
  show: { operationId: "getRequest", description: "The request", parameters: { id: "$response.body#/request/id" } },
  review: {
    operationId: "reviewRequest",
    description: "Its plan, made as the reviewer",
    parameters: { id: "$response.body#/request/id" },
  },
  cancel: {
    operationId: "cancelRequest",
    description: "Withdraw it (its requester)",
    parameters: { id: "$response.body#/request/id" },
  },
};

export const requestFile = defineChange({
  id: "request.file",
  summary: "Ask for a change instead of applying it",
  description:
    "Anyone signed in may file an ACL change (bindings, a template, an import) or a quota change, exactly as " +
    "POST /api/v1/plans takes it, with a reason. Nothing changes in Kafka: the request waits for a reviewer " +
    "(until the cluster's timeoutHours). With grantMinutes the ACLs it creates are removed by themselves that " +
    "long after they are applied (at most the cluster's maxGrantMinutes; needs the console's service principal).",
  input: requestFileBodySchema,
  output: requestStepResultSchema,
  audit: { actions: ["request.file"], target: "the request id and what it asks for" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/requests",
    operationId: "fileRequest",
    area: "Requests",
    bodyExamples: {
      grant: {
        summary: "Ask for READ on the example topic for 60 minutes",
        value: {
          change: { kind: "acl.create", bindings: [EXAMPLE_BINDING] },
          reason: "Example request: reading the example topic for an hour",
          grantMinutes: 60,
        },
      },
    },
    links: FILED_LINKS,
  },
});

export const requestFromPlan = defineChange({
  id: "request.from-plan",
  summary: "Ask for approval of a plan you previewed",
  description:
    "Files the change a plan of yours was made from as a request (the pages' Request approval), with a reason " +
    "and an optional grantMinutes, as POST /api/v1/requests does. The plan itself is not applied.",
  input: requestFromPlanBodySchema,
  output: requestStepResultSchema,
  audit: { actions: ["request.file"], target: "the request id and what it asks for" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/requests/from-plan",
    operationId: "fileRequestFromPlan",
    area: "Requests",
    bodyExamples: {
      unknown: {
        summary: "A plan id that names nothing (404)",
        value: { planId: UNKNOWN_ID, reason: "Example: a plan nobody made" },
      },
    },
    statuses: { 404: "No plan of yours with this id on this cluster", 409: "This plan cannot become a request" },
  },
});

export const requestReview = defineChange({
  id: "request.review",
  summary: "Review a request: its plan, made as you",
  description:
    "Makes the sealed plan of the request's change as the caller (needs what the plan needs: DESCRIBE on " +
    "CLUSTER for ACLs), exactly as POST /api/v1/plans would, tied to the request: the blast radius, the " +
    "bindings Kafka would refuse, the CLI equivalent. Approving applies exactly this plan. On a four-eyes " +
    "cluster the requester cannot review their own request.",
  input: NO_INPUT,
  output: planViewSchema,
  audit: { actions: [], target: "nothing: a review changes nothing" },
  plan: "previews",
  http: {
    method: "post",
    path: "/api/v1/requests/{id}/review",
    operationId: "reviewRequest",
    area: "Requests",
    pathParams: REQUEST_PATH_ID,
    statuses: { 404: NO_SUCH_REQUEST, 409: "Not pending, or the caller may not review it (see you.why)" },
    kafka: true,
  },
});

export const requestApprove = defineChange({
  id: "request.approve",
  summary: "Approve a request with the plan you reviewed",
  description:
    "Applies exactly the reviewed plan as the caller (Kafka decides whether the caller may make the change: " +
    "403 and the request stays pending). On a four-eyes cluster the requester cannot approve, and with " +
    "approvals above 1 each approval short of the count is recorded and the last one applies; one short of the " +
    "count reaches no Kafka, so the console checks the caller's right to make the change (ALTER on CLUSTER for " +
    "ACLs, ALTER_CONFIGS on CLUSTER for quotas; 403 with the rule that decided). 409 when the " +
    "ACLs (quotas) the plan depends on changed since the review (nothing is sent: review again), when someone " +
    "else is deciding it right now, or when it is no longer pending. A request with grantMinutes becomes a " +
    "grant: the ACLs its plan created are removed at the expiry.",
  input: requestApproveBodySchema,
  output: requestStepResultSchema,
  audit: {
    actions: ["request.approve", "request.apply", "acl.create", "acl.delete", "quota.alter"],
    target: "the request id, with the applied plan id",
  },
  plan: "applies",
  http: {
    method: "post",
    path: "/api/v1/requests/{id}/approve",
    operationId: "approveRequest",
    area: "Requests",
    pathParams: REQUEST_PATH_ID,
    bodyExamples: { reviewed: { summary: "The plan id from the review", value: { planId: UNKNOWN_ID } } },
    statuses: {
      403:
        "Kafka refused the change as the caller, the caller is the requester on a four-eyes cluster, or (an " +
        "approval short of the count) the caller may not make the change",
      404: NO_SUCH_REQUEST,
      409: `${NOT_PENDING}; or the plan is not the caller's review of it; or the state changed since the review`,
    },
    kafka: true,
  },
});

export const requestDeny = defineChange({
  id: "request.deny",
  summary: "Deny a request, with a comment",
  description:
    "A reviewer (someone who reviewed it, or a super user) denies a pending request with a comment the " +
    "requester sees. Nothing changes in Kafka, so the console checks that the caller may make the change " +
    "(ALTER on CLUSTER for ACLs, ALTER_CONFIGS on CLUSTER for quotas; the policy core over the cluster's ACLs " +
    "read as the caller, from a host no ACL names), and the owners rules.",
  input: requestDenyBodySchema,
  output: requestStepResultSchema,
  audit: { actions: ["request.deny"], target: "the request id" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/requests/{id}/deny",
    operationId: "denyRequest",
    area: "Requests",
    pathParams: REQUEST_PATH_ID,
    bodyExamples: { comment: { summary: "A comment the requester sees", value: { comment: "Not for production" } } },
    statuses: {
      403: "The caller filed it (cancel instead), has not reviewed it, or may not make the change",
      404: NO_SUCH_REQUEST,
      409: NOT_PENDING,
    },
  },
});

export const requestCancel = defineChange({
  id: "request.cancel",
  summary: "Cancel your own pending request",
  description: "The requester withdraws a pending request. Nothing changes in Kafka.",
  input: NO_INPUT,
  output: requestStepResultSchema,
  audit: { actions: ["request.cancel"], target: "the request id" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/requests/{id}/cancel",
    operationId: "cancelRequest",
    area: "Requests",
    pathParams: REQUEST_PATH_ID,
    statuses: { 403: "Only its requester may cancel it", 404: NO_SUCH_REQUEST, 409: NOT_PENDING },
  },
});

export const grantEnd = defineChange({
  id: "grant.end",
  summary: "End a grant now",
  description:
    "Its requester or its approver ends a live grant before its expiry: its ACLs are removed at once, as at " +
    "the expiry (as the console's service principal, through a plan, keeping what another live grant holds).",
  input: NO_INPUT,
  output: z.object({ grant: grantViewSchema, message: z.string() }),
  audit: { actions: ["grant.end", "grant.expire", "acl.delete"], target: "the grant id" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/grants/{id}/end",
    operationId: "endGrant",
    area: "Requests",
    pathParams: GRANT_ID,
    statuses: {
      403: "Only its requester or approver may end it",
      404: "There is no grant with this id on this cluster",
      409: "It has ended or is being removed",
    },
  },
});

export const grantExtend = defineChange({
  id: "grant.extend",
  summary: "Ask to extend a grant (a new request)",
  description:
    "Its requester or approver files a new request for the same ACLs with a reason and a duration, reviewed like " +
    "any request. Approved, it is a grant of its own that holds them too: the first grant's expiry keeps them " +
    "until the new one ends.",
  input: grantExtendBodySchema,
  output: requestStepResultSchema,
  audit: { actions: ["request.file"], target: "the new request, naming the grant" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/grants/{id}/extend",
    operationId: "extendGrant",
    area: "Requests",
    pathParams: GRANT_ID,
    bodyExamples: {
      hour: { summary: "One more hour", value: { reason: "The migration runs late", grantMinutes: 60 } },
    },
    statuses: {
      403: "Only its requester or approver may ask",
      404: "There is no grant with this id on this cluster",
      409: "It has ended",
    },
  },
});

export const planBreakGlass = defineChange({
  id: "plan.break-glass",
  summary: "Apply a plan without approval on a four-eyes cluster (super users, with a reason)",
  description:
    "On a cluster that needs approvals, a super user applies their own plan at once, with a mandatory reason. " +
    "It is flagged on the dashboard until someone else has reviewed it (POST /api/v1/plans/{id}/break-glass/review). " +
    "Everything else is as POST /api/v1/plans/{id}/apply.",
  input: z.object({
    reason: safeString().trim().min(1, "A reason is required").max(1000, "At most 1000 characters"),
  }),
  output: planApplyResultSchema,
  audit: { actions: ["plan.break-glass", "acl.create", "acl.delete", "quota.alter"], target: "the plan id" },
  plan: "applies",
  http: {
    method: "post",
    path: "/api/v1/plans/{id}/break-glass",
    operationId: "breakGlassApplyPlan",
    area: "Plans",
    pathParams: PLAN_ID,
    bodyExamples: {
      incident: { summary: "Why it could not wait", value: { reason: "Incident 1234: restore consumer" } },
    },
    statuses: {
      403: "Not a super user of this cluster, or Kafka refused the change",
      404: "There is no plan with this id",
      409: "Expired, applied, or the state changed since the preview",
    },
    kafka: true,
  },
});

export const planBreakGlassReview = defineChange({
  id: "plan.break-glass-review",
  summary: "Review a break-glass apply after the fact, with a comment",
  description:
    "Someone other than the super user who applied a plan by break-glass, entitled to make that change (Kafka's " +
    "rule: ALTER on CLUSTER for ACLs, ALTER_CONFIGS on CLUSTER for quotas, checked by the policy core over the " +
    "cluster's ACLs read as the caller; super users are), records that they reviewed it, with a comment. The " +
    "dashboard stops flagging it. One review per break-glass: a second one, even at the same moment, is a 409 " +
    "naming the first. Nothing changes in Kafka.",
  input: breakGlassReviewBodySchema,
  output: breakGlassReviewResultSchema,
  audit: { actions: ["plan.break-glass-review"], target: "the plan id, with the comment" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/plans/{id}/break-glass/review",
    operationId: "reviewBreakGlass",
    area: "Plans",
    pathParams: PLAN_ID,
    bodyExamples: {
      checked: {
        summary: "What the reviewer checked",
        value: { comment: "Checked with the on-call: incident 1234, the consumer needed it" },
      },
    },
    statuses: {
      403: "The caller applied it, or is not entitled to make the change (the answer says which rule decided)",
      404: "There is no break-glass apply of this plan on this cluster",
      409: "It has been reviewed already (the answer names by whom)",
    },
    kafka: true,
  },
});

export const webhookSet = defineChange({
  id: "webhook.set",
  summary: "Set this cluster's webhook for requests and grants",
  description:
    "Notifications (request filed, approved, applied, denied; grant expiring soon, expired) are posted to the URL " +
    "as Slack-compatible JSON signed with X-KSC-Signature-256: sha256=HMAC(secret, X-KSC-Timestamp + '.' + body). " +
    "The URL must be https (http only with WEBHOOK_ALLOW_HTTP) and resolve to public addresses only (not loopback, " +
    "private, link-local or metadata ones unless listed in WEBHOOK_ALLOWED_HOSTS); redirects are not followed. " +
    "The secret is kept encrypted and never shown again. Super users only.",
  input: webhookSetBodySchema,
  output: webhookViewSchema,
  audit: { actions: ["webhook.set"], target: "the webhook's origin (never the secret)" },
  plan: "none",
  http: {
    method: "put",
    path: "/api/v1/webhook",
    operationId: "setWebhook",
    area: "Requests",
    bodyExamples: {
      private: {
        summary: "A loopback target is refused (400)",
        value: { url: "https://127.0.0.1/hook", secret: "an-example-secret-0123" },
      },
    },
    statuses: WEBHOOK_STATUSES,
  },
});

export const webhookDelete = defineChange({
  id: "webhook.delete",
  summary: "Turn this cluster's notifications off",
  description: "Removes the webhook and its secret. Super users only.",
  input: NO_INPUT,
  output: webhookViewSchema,
  audit: { actions: ["webhook.delete"], target: "the webhook" },
  plan: "none",
  http: {
    method: "delete",
    path: "/api/v1/webhook",
    operationId: "deleteWebhook",
    area: "Requests",
    statuses: WEBHOOK_STATUSES,
  },
});

export const requestPassword = defineChange({
  id: "request.password",
  summary: "The requester's one retrieval of the password an approved SCRAM request generated",
  description:
    "An approved scram.change request that sets a password has the console generate it at approval; it is kept " +
    "encrypted for the requester only (never shown to the approver, audited or notified), until its one " +
    "retrieval here (erased in the same step; Cache-Control: no-store) or 24 hours after approval.",
  input: NO_INPUT,
  output: requestPasswordSchema,
  audit: { actions: ["request.retrieve"], target: "the request id (never the password)" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/requests/{id}/password",
    operationId: "retrieveRequestPassword",
    area: "Requests",
    pathParams: REQUEST_PATH_ID,
    statuses: {
      403: "Only the requester may retrieve it",
      404: NO_SUCH_REQUEST,
      409: "No password kept: not an approved SCRAM set, already retrieved, or past its deadline",
    },
  },
});
