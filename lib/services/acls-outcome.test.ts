import { describe, expect, it } from "vitest";
import { bindingKey } from "@/lib/policy/acl";
import { exactBinding, isAnswerLost, settleLostWrite } from "@/lib/kafka/acl-read-back";
import { outcomeOf, summary, type BindingResult } from "./acls-outcome";

const base = {
  resourceType: "TOPIC",
  patternType: "LITERAL",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  principal: "User:x",
} as const;
const ok = (name: string): BindingResult => ({ ...base, resourceName: name, ok: true, error: null });
const failed = (name: string, code: string, message: string): BindingResult => ({
  ...base,
  resourceName: name,
  ok: false,
  error: { code, message },
});
const DENIED = failed(
  "b",
  "CLUSTER_AUTHORIZATION_FAILED",
  "Kafka refused CreateAcls: User:alice needs ALTER on CLUSTER kafka-cluster.",
);

describe("outcomeOf", () => {
  it("is success, partial, denied or failure", () => {
    expect(outcomeOf([ok("a")])).toBe("success");
    expect(outcomeOf([ok("a"), DENIED])).toBe("partial");
    expect(outcomeOf([DENIED, DENIED])).toBe("denied");
    expect(outcomeOf([DENIED, failed("c", "INVALID_REQUEST", "bad")])).toBe("failure");
  });
});

describe("summary", () => {
  it("says exactly which bindings were changed and which were not, with Kafka's reason", () => {
    expect(summary("create", [ok("a"), DENIED])).toBe(
      "Created 1 of 2: ALLOW User:x READ on TOPIC a (LITERAL) from any host. " +
        "Not created (1 of 2): ALLOW User:x READ on TOPIC b (LITERAL) from any host: Kafka refused CreateAcls: " +
        "User:alice needs ALTER on CLUSTER kafka-cluster.",
    );
    expect(summary("delete", [ok("a")])).toBe("Deleted 1 of 1: ALLOW User:x READ on TOPIC a (LITERAL) from any host.");
  });
});

describe("a write whose answer was lost, settled by reading back", () => {
  const lost = {
    code: "BROKER_UNAVAILABLE",
    api: "CreateAcls",
    message: "Kafka is unreachable.",
    kafkaMessage: null,
    missing: [],
  };
  const bindingOf = (name: string) => ({ ...base, resourceName: name });
  const settled = (
    kind: "create" | "delete",
    shown: string[],
    readable: boolean,
    names = ["a", "b"],
  ): BindingResult[] =>
    settleLostWrite(
      kind,
      names.map(bindingOf),
      lost,
      new Set(shown.map((n) => bindingKey(bindingOf(n)))),
      readable,
    ).map(({ binding, readBack, error }) => ({
      ...binding,
      ok: error === null,
      error: error ? { code: error.code, message: error.message } : null,
      readBack,
    }));

  it("classifies a lost answer (connection closed, timed out) apart from Kafka's refusals", () => {
    for (const code of ["BROKER_UNAVAILABLE", "NETWORK_EXCEPTION", "REQUEST_TIMED_OUT"])
      expect(isAnswerLost(code)).toBe(true);
    for (const code of ["CLUSTER_AUTHORIZATION_FAILED", "INVALID_REQUEST", "SASL_AUTHENTICATION_FAILED"])
      expect(isAnswerLost(code)).toBe(false);
  });

  it("is success when reading back shows every binding written, and says it was confirmed by reading back", () => {
    const results = settled("create", ["a", "b"], true);
    expect(outcomeOf(results)).toBe("success");
    expect(summary("create", results)).toMatch(
      /^Kafka's answer was lost; reading back confirms 2 of 2 created\. Created 2 of 2: /,
    );
  });

  it("is failure when the ACLs could be read and never showed the write, partial when some did", () => {
    const none = settled("delete", [], true);
    expect(outcomeOf(none)).toBe("failure");
    expect(summary("delete", none)).toMatch(
      /^Kafka's answer was lost; reading back confirms 0 of 2 deleted\. Not deleted \(2 of 2\): .*shows it was not deleted/,
    );
    const some = settled("create", ["a"], true);
    expect(outcomeOf(some)).toBe("partial");
    expect(summary("create", some)).toMatch(
      /^Kafka's answer was lost; reading back confirms 1 of 2 created\. Created 1 of 2: .* Not created \(1 of 2\): /,
    );
  });

  it("is unknown when the ACLs could not be read back, and says so instead of 'failed'", () => {
    const results = settled("create", [], false);
    expect(results.map((r) => r.readBack)).toEqual(["unknown", "unknown"]);
    expect(outcomeOf(results)).toBe("unknown");
    const text = summary("create", results);
    expect(text).toMatch(
      /^Kafka's answer was lost and the ACLs could not be read back: whether 2 ACLs were created could not be confirmed; check the ACL list before retrying\. /,
    );
    expect(text).toContain("Not confirmed created (2 of 2)");
    expect(text).not.toContain("Not created");
  });

  it("settles only bindings an exact filter names", () => {
    expect(exactBinding({ ...bindingOf("a") })).toEqual(bindingOf("a"));
    expect(exactBinding({ ...bindingOf("a"), operation: "ANY" })).toBeNull();
    expect(exactBinding({ ...bindingOf("a"), principal: null })).toBeNull();
    expect(exactBinding({ ...bindingOf("a"), patternType: "MATCH" })).toBeNull();
  });
});
