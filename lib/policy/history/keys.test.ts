import { describe, expect, it } from "vitest";
import { aclKey, canonicalJson, parseKey, quotaKey, scramKey, settingKey, HistoryKeyError } from "./keys";
import { diffStates, changesOf, stateOf } from "./state";

const binding = {
  resourceType: "TOPIC",
  resourceName: 'a,b"\u0000c',
  patternType: "PREFIXED",
  principal: "User:CN=x,O=y",
  host: "*",
  operation: "READ",
  permissionType: "DENY",
} as const;

describe("history keys", () => {
  it("round-trip every kind, whatever the names contain", () => {
    expect(parseKey(aclKey(binding))).toEqual({ kind: "acl", binding });
    expect(parseKey(quotaKey({ "client-id": null, user: "a" }, "producer_byte_rate"))).toEqual({
      kind: "quota",
      entity: { user: "a", "client-id": null },
      quotaKey: "producer_byte_rate",
    });
    expect(parseKey(scramKey("bob", "SCRAM-SHA-256"))).toEqual({
      kind: "scram",
      user: "bob",
      mechanism: "SCRAM-SHA-256",
    });
    expect(parseKey(settingKey("superUsers"))).toEqual({ kind: "setting", name: "superUsers" });
  });

  it("give one key per quota entity whatever the order of its parts", () => {
    expect(quotaKey({ user: "a", "client-id": "c" }, "request_percentage")).toBe(
      quotaKey({ "client-id": "c", user: "a" }, "request_percentage"),
    );
    expect(quotaKey({ user: null }, "request_percentage")).not.toBe(quotaKey({}, "request_percentage"));
  });

  it("refuse what they did not make", () => {
    for (const bad of ["", "{}", '["acl","TOPIC"]', '["scram","u","MD5"]', '["setting","x"]', '["quota",{"x":1},"k"]'])
      expect(() => parseKey(bad)).toThrow(HistoryKeyError);
  });

  it("compare values canonically and never keep a SCRAM secret", () => {
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
    const s = stateOf({
      acls: [],
      quotas: [{ entity: { user: "a" }, values: { producer_byte_rate: 5 } }],
      scram: [{ user: "a", credentials: [{ mechanism: "SCRAM-SHA-512", iterations: 4096 }] }],
      settings: {
        superUsers: ["User:b", "User:a", "User:a"],
        allowEveryoneIfNoAclFound: false,
        principalMapping: { sslRules: null, kerberosRules: null, kerberosDefaultRealm: null },
      },
    });
    expect(s.get(scramKey("a", "SCRAM-SHA-512"))).toBe(4096);
    expect(s.get(settingKey("superUsers"))).toEqual(["User:a", "User:b"]);
    const next = new Map(s);
    next.set(quotaKey({ user: "a" }, "producer_byte_rate"), 6);
    next.delete(scramKey("a", "SCRAM-SHA-512"));
    expect(changesOf(diffStates(s, next))).toEqual([
      { key: scramKey("a", "SCRAM-SHA-512"), op: "disappeared", value: null },
      { key: quotaKey({ user: "a" }, "producer_byte_rate"), op: "appeared", value: 6 },
    ]);
  });
});
