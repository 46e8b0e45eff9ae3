import { describe, expect, it } from "vitest";
import { AuthenticationError, MultipleErrors, NetworkError, ResponseError } from "@platformatic/kafka";
import { errorInfoFor, KafkaOperationError, transportFailureMessage, toKafkaOperationError } from "./errors";
import { missingPermissions, REQUIRED_PERMISSIONS } from "./required-permissions";

const ctx = { api: "CreateAcls", principal: "User:alice" };

describe("errorInfoFor", () => {
  it("turns an authorization failure into the missing permission from the table", () => {
    expect(errorInfoFor("CLUSTER_AUTHORIZATION_FAILED", null, ctx)).toEqual({
      code: "CLUSTER_AUTHORIZATION_FAILED",
      api: "CreateAcls",
      message: "Kafka refused CreateAcls: User:alice needs ALTER on CLUSTER kafka-cluster.",
      kafkaMessage: null,
      missing: [{ operation: "ALTER", resourceType: "CLUSTER", resourceName: "kafka-cluster" }],
    });
  });

  it("names the resource the request was about, and offers the cluster-wide alternative", () => {
    const info = errorInfoFor("TOPIC_AUTHORIZATION_FAILED", null, {
      api: "CreateTopics",
      principal: "User:bob",
      resources: { TOPIC: "orders" },
    });
    expect(info.message).toBe(
      "Kafka refused CreateTopics: User:bob needs CREATE on TOPIC orders or CREATE on CLUSTER kafka-cluster.",
    );
  });

  it("says which USER resource a KIP-373 token creation needs", () => {
    const info = errorInfoFor("DELEGATION_TOKEN_AUTHORIZATION_FAILED", null, {
      api: "CreateDelegationToken",
      principal: "User:bob",
      resources: { USER: "User:svc-orders" },
    });
    expect(info.message).toBe(
      "Kafka refused CreateDelegationToken: User:bob needs CREATE_TOKENS on USER User:svc-orders.",
    );
  });

  it("strips the broker's request dump from its message", () => {
    const dump =
      "Request Request(processor=0, connectionId=127.0.0.1:9092-127.0.0.1:1-0-1, envelope=None) needs ALTER " +
      "permission.";
    expect(errorInfoFor("CLUSTER_AUTHORIZATION_FAILED", dump, ctx).kafkaMessage).toBe(
      "The request needs ALTER permission.",
    );
  });

  it("prefers the broker's own words for other errors", () => {
    expect(errorInfoFor("INVALID_REQUEST", "Invalid empty resource name", ctx).message).toBe(
      "Kafka refused CreateAcls (INVALID_REQUEST): Invalid empty resource name.",
    );
    expect(
      errorInfoFor("DELEGATION_TOKEN_NOT_FOUND", null, { api: "RenewDelegationToken", principal: "User:a" }).message,
    ).toBe(
      "Kafka refused RenewDelegationToken (DELEGATION_TOKEN_NOT_FOUND): no delegation token has this HMAC (it " +
        "may have expired and been removed).",
    );
  });
});

describe("toKafkaOperationError", () => {
  it("reads the Kafka error out of the client's nested errors", () => {
    const response = new ResponseError(29, 3, { "": [31, null] }, { errorCode: 31 });
    const error = toKafkaOperationError(new AggregateError([response], "Describing ACLs failed."), {
      api: "DescribeAcls",
      principal: "User:carol",
    });
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect(error.code).toBe("CLUSTER_AUTHORIZATION_FAILED");
    expect(error.isAuthorizationFailure).toBe(true);
    expect(error.message).toBe("Kafka refused DescribeAcls: User:carol needs DESCRIBE on CLUSTER kafka-cluster.");
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      code: "CLUSTER_AUTHORIZATION_FAILED",
      api: "DescribeAcls",
    });
  });

  it("keeps an unexpected failure distinct from Kafka refusals", () => {
    const error = toKafkaOperationError(new TypeError("boom"), { api: "DescribeAcls", principal: "User:carol" });
    expect(error.code).toBe("UNKNOWN");
  });
});

describe("TLS failures (the error trees @platformatic/kafka builds, as seen against the dev broker)", () => {
  const failed = (server: string, cause: Error) =>
    new MultipleErrors("Cannot connect to any broker.", [
      new NetworkError(`Connection to ${server} failed.`, { cause }),
    ]);
  const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });

  it("names an untrusted certificate and the setting to check, as BROKER_UNAVAILABLE", () => {
    const error = toKafkaOperationError(
      failed("127.0.0.1:9094", nodeError("SELF_SIGNED_CERT_IN_CHAIN", "self-signed certificate in certificate chain")),
      ctx,
    );
    expect(error.code).toBe("BROKER_UNAVAILABLE");
    expect(error.message).toBe(
      "The broker's TLS certificate is not trusted: self-signed certificate in certificate chain (check " +
        "KAFKA_TLS_CA_FILE: it must hold the CA that signed the brokers' certificates).",
    );
  });

  it(
    "a hang-up at the SASL handshake is no verdict on the credential: plaintext sent to a TLS listener is " + "named",
    () => {
      const hangUp = () =>
        failed(
          "127.0.0.1:9094",
          new AuthenticationError("Cannot find a suitable SASL mechanism.", {
            cause: new NetworkError("Connection closed"),
          }),
        );
      const plaintext = toKafkaOperationError(hangUp(), { ...ctx, tls: false });
      expect(plaintext.code).toBe("BROKER_UNAVAILABLE");
      expect(plaintext.message).toMatch(
        /^127\.0\.0\.1:9094 hung up as soon as the console spoke plaintext Kafka to it: it is probably a TLS listener/,
      );
      expect(toKafkaOperationError(hangUp(), ctx).code).toBe("BROKER_UNAVAILABLE");
      expect(transportFailureMessage(hangUp(), { tls: true })).toBe(
        "127.0.0.1:9094 hung up at the start of the SASL handshake, before any credential was checked.",
      );
    },
  );

  it("leaves other failures alone", () => {
    expect(
      transportFailureMessage(failed("127.0.0.1:1", nodeError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:1"))),
    ).toBeNull();
    expect(transportFailureMessage(new AuthenticationError("SASL authentication failed."))).toBeNull();
  });
});

describe("REQUIRED_PERMISSIONS", () => {
  it("holds the documented admin-API rows", () => {
    expect(REQUIRED_PERMISSIONS.DescribeAcls.checks).toEqual([{ operation: "DESCRIBE", resourceType: "CLUSTER" }]);
    expect(REQUIRED_PERMISSIONS.DescribeClientQuotas.checks).toEqual([
      { operation: "DESCRIBE_CONFIGS", resourceType: "CLUSTER" },
    ]);
    expect(REQUIRED_PERMISSIONS.AlterClientQuotas.checks).toEqual([
      { operation: "ALTER_CONFIGS", resourceType: "CLUSTER" },
    ]);
    expect(REQUIRED_PERMISSIONS.AlterUserScramCredentials.checks).toEqual([
      { operation: "ALTER", resourceType: "CLUSTER" },
    ]);
    expect(REQUIRED_PERMISSIONS.DescribeDelegationToken.checks.map((c) => `${c.operation}:${c.resourceType}`)).toEqual([
      "DESCRIBE:DELEGATION_TOKEN",
      "DESCRIBE_TOKENS:USER",
    ]);
  });

  it("has unique API keys", () => {
    const keys = Object.values(REQUIRED_PERMISSIONS).map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("picks the check the error code reports", () => {
    expect(missingPermissions("TxnOffsetCommit", "GROUP_AUTHORIZATION_FAILED", { GROUP: "billing" })).toEqual([
      { operation: "READ", resourceType: "GROUP", resourceName: "billing" },
    ]);
    expect(missingPermissions("NoSuchApi", "CLUSTER_AUTHORIZATION_FAILED")).toEqual([]);
    expect(missingPermissions("CreateAcls", "INVALID_REQUEST")).toEqual([]);
  });
});
