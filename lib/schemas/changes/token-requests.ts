/** Self-service token requests: file one, approve or deny it, and the requester's one retrieval. */
import {
  decidableRequestSchema,
  tokenRequestCreateSchema,
  tokenRequestDenySchema,
  tokenRequestViewSchema,
  tokenRetrievedSchema,
} from "@/lib/schemas/tokens";
import { defineChange, NO_INPUT } from "./definition";
import { uuidPathParam } from "./examples";

const REQUEST_ID = uuidPathParam(
  "The token request's id (from POST /api/v1/token-requests or the lists of GET /api/v1/token-requests)",
);
const NO_SUCH_REQUEST = "There is no token request with this id";

export const tokenRequestSubmit = defineChange({
  id: "token-request.submit",
  summary: "Ask for a token for another owner",
  description: "Ask for a token for an owner the caller cannot create for (PENDING until approved or denied), audited.",
  input: tokenRequestCreateSchema,
  output: tokenRequestViewSchema,
  audit: { actions: ["token.request.create"], target: "the requested owner" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/token-requests",
    operationId: "submitTokenRequest",
    area: "Token requests",
    bodyExamples: {
      service: {
        summary: "A one-day token for svc-orders",
        value: {
          owner: "User:svc-orders",
          renewers: [],
          maxLifetimeMs: 86400000,
          reason: "Example request: the orders service's nightly export needs a token",
        },
      },
    },
    links: {
      approve: {
        operationId: "approveTokenRequest",
        description: "Approve this request",
        parameters: { id: "$response.body#/id" },
      },
      deny: {
        operationId: "denyTokenRequest",
        description: "Deny (or, as its requester, withdraw) this request",
        parameters: { id: "$response.body#/id" },
      },
      retrieve: {
        operationId: "retrieveRequestedToken",
        description: "Retrieve the token once it is approved",
        parameters: { id: "$response.body#/id" },
      },
    },
  },
});

export const tokenRequestApprove = defineChange({
  id: "token-request.approve",
  summary: "Approve a pending request: the console creates the token as the caller",
  description:
    "The console creates the token as the caller with the requested owner, renewers and lifetime (Kafka " +
    "decides: 403 with its reason, " +
    "the request stays PENDING); a requester cannot approve their own request. 409 when already decided (a " +
    "token created by a losing " +
    "approver is expired at once).",
  input: NO_INPUT,
  output: decidableRequestSchema,
  audit: { actions: ["token.request.approve", "token.create"], target: "the request id" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/token-requests/{id}/approve",
    operationId: "approveTokenRequest",
    area: "Token requests",
    pathParams: REQUEST_ID,
    statuses: {
      403: "Kafka refused to create the token as the caller, or the caller is the requester",
      404: NO_SUCH_REQUEST,
      409: "The request is no longer PENDING",
    },
    kafka: true,
  },
});

export const tokenRequestDeny = defineChange({
  id: "token-request.deny",
  summary: "Deny a pending request with a reason",
  description:
    "Deny a pending request with a reason the requester sees (the requester may withdraw; others must appear " +
    "entitled to approve).",
  input: tokenRequestDenySchema,
  output: tokenRequestViewSchema,
  audit: { actions: ["token.request.deny"], target: "the request id" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/token-requests/{id}/deny",
    operationId: "denyTokenRequest",
    area: "Token requests",
    pathParams: REQUEST_ID,
    bodyExamples: { withdraw: { summary: "A reason the requester sees", value: { reason: "Not needed any more" } } },
    statuses: {
      403: "The caller does not appear entitled to approve this request",
      404: NO_SUCH_REQUEST,
      409: "The request is no longer PENDING",
    },
    kafka: true,
  },
});

export const tokenRequestRetrieve = defineChange({
  id: "token-request.retrieve",
  summary: "The requester's one retrieval of an approved token's HMAC",
  description:
    "The requester's single retrieval of an approved token's HMAC (erased from the console in the same step; " +
    "sent with Cache-Control: " +
    "no-store). 409 once retrieved, before approval or after its deadline.",
  input: NO_INPUT,
  output: tokenRetrievedSchema,
  audit: { actions: ["token.request.retrieve"], target: "the request id (never the HMAC)" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/token-requests/{id}/retrieve",
    operationId: "retrieveRequestedToken",
    area: "Token requests",
    pathParams: REQUEST_ID,
    statuses: {
      403: "Only the requester may retrieve the token",
      404: NO_SUCH_REQUEST,
      409: "Not approved, already retrieved, or past the retrieval deadline",
    },
  },
});
