import { describe, expect, it } from "vitest";
import { validateQuotaAlteration, type QuotaAlterOp } from "./alter";
import { javaHashMapOrder, javaStringHash } from "./java-hash-map";
import { canonicalIp } from "./ip";

const ok = { ok: true };
const invalid = (message: string) => ({ ok: false, error: "INVALID_REQUEST", message });
const ops = (...pairs: [string | null, number | null][]): QuotaAlterOp[] =>
  pairs.map(([key, value]) => ({ key, value }));
const P = "producer_byte_rate";

describe("validateQuotaAlteration — ClientQuotaControlManagerTest.testInvalidEntityTypes", () => {
  it.each([
    ["unknown type foo", { foo: "bar" }, "Unhandled client quota entity type: foo"],
    ["valid + unknown", { user: "user-1", foo: "bar" }, "Unhandled client quota entity type: foo"],
    ["unknown + ip", { foo: "bar", ip: "1.2.3.4" }, "Unhandled client quota entity type: foo"],
    [
      "user + ip",
      { user: "user-1", ip: "1.2.3.4" },
      "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId",
    ],
    [
      "client-id + ip",
      { "client-id": "user-1", ip: "1.2.3.4" },
      "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId",
    ],
    ["empty", {}, "Invalid empty client quota entity"],
  ] as const)("%s", (_name, entity, message) => {
    expect(validateQuotaAlteration(entity, ops([P, 10000]))).toEqual(invalid(message));
  });
});

describe(
  "validateQuotaAlteration — ClientQuotaControlManagerTest.testInvalidQuotaKeys / " + "testValidateQuotaKeyValue*",
  () => {
    const user = { user: "user-1" };
    it.each([
      [
        "invalid + valid keys",
        ops(["not.a.quota.key", 0], ["request_percentage", 99.9]),
        "Invalid configuration key not.a.quota.key",
      ],
      [
        "valid + invalid keys",
        ops(["request_percentage", 99.9], ["not.a.quota.key", 0]),
        "Invalid configuration key not.a.quota.key",
      ],
      ["null key", ops([null, 99.9]), "Invalid configuration key null"],
      ["unknown quota", ops(["foobar", 1]), "Invalid configuration key foobar"],
      ["zero quota", ops([P, 0]), "Quota producer_byte_rate must be greater than 0"],
      ["negative quota", ops(["consumer_byte_rate", -2]), "Quota consumer_byte_rate must be greater than 0"],
      [
        "LONG too large",
        ops(["consumer_byte_rate", 2 ** 65]) /* Kafka uses 36893488147419103232.4, the same double */,
        "Proposed value for consumer_byte_rate is too large for a LONG.",
      ],
      ["fractional LONG", ops(["consumer_byte_rate", 2.245]), "consumer_byte_rate cannot be a fractional value."],
      [
        "fractional LONG (ClientQuotasRequestTest)",
        ops([P, 10000.5]),
        "producer_byte_rate cannot be a fractional value.",
      ],
      [
        "ip key on a user entity",
        ops(["connection_creation_rate", 5]),
        "Invalid configuration key connection_creation_rate",
      ],
    ] as const)("%s", (_name, o, message) => {
      expect(validateQuotaAlteration(user, o)).toEqual(invalid(message));
    });

    it.each([
      ["valid consumer_byte_rate", ops(["consumer_byte_rate", 1234])],
      ["LONG within 1e-6 of an integer", ops(["consumer_byte_rate", 1235.0000001])],
      ["DOUBLE request_percentage", ops(["request_percentage", 56.62367])],
      ["request_percentage has no upper bound", ops(["request_percentage", 1e12])],
      ["removal of any key is not validated", ops(["not.a.quota.key", null])],
    ] as const)("%s is accepted", (_name, o) => {
      expect(validateQuotaAlteration(user, o)).toEqual(ok);
    });

    it("reports the first failing op in Java HashMap order, not request order", () => {
      // new HashMap<>(3) of these keys iterates consumer_byte_rate, request_percentage, producer_byte_rate (OpenJDK 17)
      expect(
        validateQuotaAlteration(
          user,
          ops(["request_percentage", -1], ["producer_byte_rate", -1], ["consumer_byte_rate", -1]),
        ),
      ).toEqual(invalid("Quota consumer_byte_rate must be greater than 0"));
    });

    it("a key given twice fails the entity with Kafka's 'Ignoring duplicate entity' message", () => {
      expect(validateQuotaAlteration({ user: "u", "client-id": "c" }, ops([P, 1], [P, 2]))).toEqual(
        invalid("Ignoring duplicate entity ClientQuotaEntity(entries={client-id=c, user=u})"),
      );
    });
  },
);

describe("validateQuotaAlteration — ClientQuotasRequestTest.testAlterClientQuotasInvalidRequests / BadIp", () => {
  it.each([
    [{ user: "" }, ops(["request_percentage", 12.34]), "Empty user not supported"],
    [{ "client-id": "" }, ops(["request_percentage", 12.34]), "Empty client-id not supported"],
    [{ "": "name" }, ops(["request_percentage", 12.34]), "Unhandled client quota entity type: "],
    [{}, ops([P, 10000.5]), "Invalid empty client quota entity"],
    [{ user: "user" }, ops(["bad", 1]), "Invalid configuration key bad"],
    [
      { ip: "not a valid host because it has spaces" },
      ops(["connection_creation_rate", 50]),
      "not a valid host because it has spaces is not a valid IP or resolvable host.",
    ],
    [
      { ip: "RFC2606.invalid" },
      ops(["connection_creation_rate", 50]),
      "RFC2606.invalid is not a valid IP or resolvable host.",
    ],
    [
      { ip: "example.invalid" },
      ops(["connection_creation_rate", 50]),
      "example.invalid is not a valid IP or resolvable host.",
    ],
    [
      { ip: "1.2.3.4" },
      ops(["connection_creation_rate", 2147483648]),
      "Proposed value for connection_creation_rate is too large for an INT.",
    ],
    [
      { ip: "1.2.3.4" },
      ops(["connection_creation_rate", 1.5]),
      "connection_creation_rate cannot be a fractional value.",
    ],
    [{ ip: null }, ops([P, 5]), "Invalid configuration key producer_byte_rate"],
  ] as const)("%j %j", (entity, o, message) => {
    expect(validateQuotaAlteration(entity, o)).toEqual(invalid(message));
  });

  it.each([
    [{ user: null }, ops([P, 100])],
    [{ user: "user-1", "client-id": null }, ops(["request_percentage", 54.54])],
    [{ ip: "127.0.0.1" }, ops(["connection_creation_rate", 100])],
    [{ ip: null }, ops(["connection_creation_rate", 200])],
    [{ ip: "::1" }, ops(["connection_creation_rate", 2147483647])],
    [{ "client-id": "<default>" }, ops([P, 20000])],
  ] as const)("accepts %j %j", (entity, o) => {
    expect(validateQuotaAlteration(entity, o)).toEqual(ok);
  });

  it("host names: rejected unless the caller can resolve them (the core has no DNS)", () => {
    expect(validateQuotaAlteration({ ip: "localhost" }, ops(["connection_creation_rate", 1]))).toEqual(
      invalid("localhost is not a valid IP or resolvable host."),
    );
    expect(
      validateQuotaAlteration({ ip: "localhost" }, ops(["connection_creation_rate", 1]), {
        isResolvableHost: (h) => h === "localhost",
      }),
    ).toEqual(ok);
  });
});

describe("Java facts the messages depend on (checked with OpenJDK 17)", () => {
  it("String.hashCode", () => {
    expect(javaStringHash("user")).toBe(3599307);
    expect(javaStringHash(null)).toBe(0);
  });
  it("HashMap iteration order", () => {
    expect(
      javaHashMapOrder(
        ["request_percentage", "controller_mutation_rate", "producer_byte_rate", "consumer_byte_rate"],
        4,
      ),
    ).toEqual(["producer_byte_rate", "consumer_byte_rate", "controller_mutation_rate", "request_percentage"]);
    expect(javaHashMapOrder(["ip", "client-id", "user"], 3)).toEqual(["client-id", "user", "ip"]);
    expect(javaHashMapOrder(["user", "client-id"], 2)).toEqual(["client-id", "user"]);
    expect(javaHashMapOrder(["request_percentage", "producer_byte_rate"], 2)).toEqual([
      "request_percentage",
      "producer_byte_rate",
    ]);
    expect(javaHashMapOrder(["request_percentage", "consumer_byte_rate", "producer_byte_rate"], 3)).toEqual([
      "consumer_byte_rate",
      "request_percentage",
      "producer_byte_rate",
    ]);
  });
  it.each([
    ["1.2.3.4", "1.2.3.4"],
    ["1.2.3", "1.2.0.3"],
    ["1.2", "1.0.0.2"],
    ["16909060", "1.2.3.4"],
    ["001.002.003.004", "1.2.3.4"],
    ["1.2.65535", "1.2.255.255"],
    ["4294967295", "255.255.255.255"],
    ["::1", "0:0:0:0:0:0:0:1"],
    ["[::1]", "0:0:0:0:0:0:0:1"],
    ["::ffff:1.2.3.4", "1.2.3.4"],
    ["::1.2.3.4", "0:0:0:0:0:0:102:304"],
    ["ABCD::1", "abcd:0:0:0:0:0:0:1"],
    ["fe80::1%1", "fe80:0:0:0:0:0:0:1%1"],
    ["::", "0:0:0:0:0:0:0:0"],
  ])("InetAddress.getByName(%j) is the literal %s", (text, address) => {
    expect(canonicalIp(text)).toBe(address);
  });
  it.each([
    "1.2.3.4.",
    "256.1.1.1",
    "1.2.3.256",
    "1.2.3.4%eth0",
    "0x1.2.3.4",
    "4294967296",
    " 1.2.3.4",
    "1::2::3",
    "[1.2.3.4]",
    "+1.2.3.4",
    "localhost",
  ])("%j is not an IP literal", (text) => {
    expect(canonicalIp(text)).toBeNull();
  });
});
