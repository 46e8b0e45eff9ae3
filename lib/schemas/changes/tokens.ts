/** Delegation token changes: create (for oneself or, KIP-373, another owner), renew, expire. */
import {
  tokenCreatedSchema,
  tokenCreateSchema,
  tokenExpireSchema,
  tokenExpiryResultSchema,
  tokenRenewSchema,
} from "@/lib/schemas/tokens";
import { defineChange } from "./definition";
import { UNKNOWN_HMAC } from "./examples";

const NO_SUCH_TOKEN = { 404: "Kafka knows no token with this HMAC (expired or never created)" } as const;

export const tokenCreate = defineChange({
  id: "token.create",
  summary: "Create a delegation token (the answer carries its HMAC, once)",
  description:
    "Create a delegation token as the caller, for the caller or (KIP-373) another owner (needs CREATE_TOKENS " +
    "on USER:<owner>), audited. " +
    "The answer carries the HMAC, the only time the console hands it out (it keeps none); it is sent with " +
    "Cache-Control: no-store.",
  input: tokenCreateSchema,
  output: tokenCreatedSchema,
  audit: { actions: ["token.create"], target: "the owner (never the HMAC)" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/tokens",
    operationId: "createToken",
    area: "Tokens",
    bodyExamples: {
      own: { summary: "A token for yourself that lives at most one hour", value: { maxLifetimeMs: 3600000 } },
    },
    links: {
      renew: {
        operationId: "renewToken",
        description: "Renew the new token with its HMAC",
        requestBody: { tokenId: "{$response.body#/token/tokenId}", hmac: "{$response.body#/hmac}", periodHours: 1 },
      },
      expire: {
        operationId: "expireToken",
        description: "Expire the new token at once",
        requestBody: { tokenId: "{$response.body#/token/tokenId}", hmac: "{$response.body#/hmac}", when: "now" },
      },
    },
    kafka: true,
  },
});

export const tokenRenew = defineChange({
  id: "token.renew",
  summary: "Renew a token identified by its HMAC",
  description: "Renew a token identified by its HMAC (only its owner and renewers may), audited without the HMAC.",
  input: tokenRenewSchema,
  output: tokenExpiryResultSchema,
  audit: { actions: ["token.renew"], target: "the token id (never the HMAC)" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/tokens/renew",
    operationId: "renewToken",
    area: "Tokens",
    bodyExamples: {
      unknown: {
        summary: "The shape of a renewal (this HMAC belongs to no token: Kafka answers 404)",
        value: { hmac: UNKNOWN_HMAC, periodHours: 24 },
      },
    },
    statuses: NO_SUCH_TOKEN,
    kafka: true,
  },
});

export const tokenExpire = defineChange({
  id: "token.expire",
  summary: "Expire a token identified by its HMAC, now or in N hours",
  description:
    "Expire a token identified by its HMAC, now or in N hours (only its owner and renewers may), audited " +
    "without the HMAC.",
  input: tokenExpireSchema,
  output: tokenExpiryResultSchema,
  audit: { actions: ["token.expire"], target: "the token id (never the HMAC)" },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/tokens/expire",
    operationId: "expireToken",
    area: "Tokens",
    bodyExamples: {
      now: {
        summary: "Expire at once (this HMAC belongs to no token: Kafka answers 404)",
        value: { hmac: UNKNOWN_HMAC, when: "now" },
      },
      later: {
        summary: "Expiry in 2 hours (this HMAC belongs to no token: Kafka answers 404)",
        value: { hmac: UNKNOWN_HMAC, when: "in", hours: 2 },
      },
    },
    statuses: NO_SUCH_TOKEN,
    kafka: true,
  },
});
