import { describe, expect, it, vi } from "vitest";
import { protocolErrors, protocolErrorsCodesById } from "@platformatic/kafka";
import { KafkaOperationError } from "@/lib/kafka/errors";
import { AUTHORIZATION_ERROR_RESOURCE } from "@/lib/kafka/required-permissions";
import { toErrorResult } from "./error-result";
import { KAFKA_ERROR_STATUS, kafkaErrorCode } from "./error-status";
import { HTTP_STATUS, type ErrorCode } from "@/lib/schemas/result";

/** Codes the console makes itself, before or instead of a Kafka answer. */
const CONSOLE_CODES = ["BROKER_UNAVAILABLE", "UNKNOWN", "NOT_FOUND"];

describe("kafkaErrorCode", () => {
  it.each<[string, ErrorCode, number]>([
    // The two the old prefix/suffix rules got wrong.
    ["UNKNOWN_SERVER_ERROR", "KAFKA_ERROR", 502],
    ["DELEGATION_TOKEN_EXPIRED", "CONFLICT", 409],
    // Permissions.
    ["TOPIC_AUTHORIZATION_FAILED", "DENIED", 403],
    ["CLUSTER_AUTHORIZATION_FAILED", "DENIED", 403],
    ["DELEGATION_TOKEN_AUTHORIZATION_FAILED", "DENIED", 403],
    ["DELEGATION_TOKEN_OWNER_MISMATCH", "DENIED", 403],
    // Sign-in.
    ["SASL_AUTHENTICATION_FAILED", "INVALID_CREDENTIALS", 401],
    ["UNSUPPORTED_SASL_MECHANISM", "INVALID_CREDENTIALS", 401],
    // Not there.
    ["DELEGATION_TOKEN_NOT_FOUND", "NOT_FOUND", 404],
    ["RESOURCE_NOT_FOUND", "NOT_FOUND", 404],
    ["UNKNOWN_TOPIC_OR_PARTITION", "NOT_FOUND", 404],
    // The cluster, right now.
    ["REQUEST_TIMED_OUT", "BROKER_UNAVAILABLE", 503],
    ["NOT_CONTROLLER", "BROKER_UNAVAILABLE", 503],
    ["COORDINATOR_NOT_AVAILABLE", "BROKER_UNAVAILABLE", 503],
    ["NETWORK_EXCEPTION", "BROKER_UNAVAILABLE", 503],
    ["BROKER_UNAVAILABLE", "BROKER_UNAVAILABLE", 503],
    // The input.
    ["INVALID_REQUEST", "VALIDATION", 400],
    ["INVALID_CONFIG", "VALIDATION", 400],
    ["INVALID_PRINCIPAL_TYPE", "VALIDATION", 400],
    ["POLICY_VIOLATION", "VALIDATION", 400],
    ["DUPLICATE_RESOURCE", "VALIDATION", 400],
    ["UNACCEPTABLE_CREDENTIAL", "VALIDATION", 400],
    // Kafka's quota.
    ["THROTTLING_QUOTA_EXCEEDED", "THROTTLED", 429],
    // The state or the cluster's setup refuses it.
    ["TOPIC_ALREADY_EXISTS", "CONFLICT", 409],
    ["DELEGATION_TOKEN_AUTH_DISABLED", "CONFLICT", 409],
    ["DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", "CONFLICT", 409],
    ["SECURITY_DISABLED", "CONFLICT", 409],
    ["INVALID_TXN_STATE", "CONFLICT", 409],
    // Nobody using the console can fix these.
    ["UNSUPPORTED_VERSION", "KAFKA_ERROR", 502],
    ["UNKNOWN", "KAFKA_ERROR", 502],
    // A DeleteAcls filter that matched nothing (lib/services/acls.ts).
    ["NOT_FOUND", "NOT_FOUND", 404],
    // Names the table does not know: a newer Kafka, an unnamed numeric code.
    ["SOME_FUTURE_ERROR", "KAFKA_ERROR", 502],
    ["UNKNOWN_FUTURE_THING", "KAFKA_ERROR", 502],
    ["KAFKA_ERROR_999", "KAFKA_ERROR", 502],
    ["constructor", "KAFKA_ERROR", 502],
  ])("%s -> %s (%i)", (name, code, status) => {
    expect(kafkaErrorCode(name)).toBe(code);
    expect(HTTP_STATUS[kafkaErrorCode(name)]).toBe(status);
  });

  it("has a row for every error name the Kafka client knows", () => {
    const names = new Set([...Object.keys(protocolErrors), ...Object.values(protocolErrorsCodesById)]);
    expect(names.size).toBeGreaterThan(100);
    const missing = [...names].filter((name) => !Object.hasOwn(KAFKA_ERROR_STATUS, name));
    expect(missing).toEqual([]);
  });

  it("has no row for a name that is neither Kafka's nor the console's (a typo would never match)", () => {
    const known = new Set([...Object.keys(protocolErrors), ...CONSOLE_CODES]);
    expect(Object.keys(KAFKA_ERROR_STATUS).filter((name) => !known.has(name))).toEqual([]);
  });

  it("maps every authorization error the missing-permission table explains to DENIED", () => {
    for (const name of Object.keys(AUTHORIZATION_ERROR_RESOURCE)) expect(kafkaErrorCode(name), name).toBe("DENIED");
  });
});

describe("toErrorResult", () => {
  const failure = (code: string) =>
    new KafkaOperationError({
      code,
      api: "DescribeAcls",
      message: `Kafka refused DescribeAcls (${code}).`,
      kafkaMessage: null,
      missing: [],
    });

  it("keeps Kafka's message and takes the code from the table", () => {
    expect(toErrorResult(failure("UNKNOWN_SERVER_ERROR"), "list ACLs")).toEqual({
      ok: false,
      code: "KAFKA_ERROR",
      message: "Kafka refused DescribeAcls (UNKNOWN_SERVER_ERROR).",
    });
    expect(toErrorResult(failure("DELEGATION_TOKEN_EXPIRED"), "renew a token").code).toBe("CONFLICT");
  });

  it("hides anything that is not a Kafka refusal behind the generic message", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(toErrorResult(new Error("secret detail"), "list ACLs")).toMatchObject({ ok: false, code: "INTERNAL" });
      expect(JSON.stringify(toErrorResult(new Error("secret detail"), "list ACLs"))).not.toContain("secret detail");
    } finally {
      log.mockRestore();
    }
  });
});
