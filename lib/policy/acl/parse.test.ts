import { describe, expect, it } from "vitest";
import { PolicyInputError } from "./errors";
import {
  parseAclDocument,
  parseAclFilter,
  parseAclList,
  parseAllowEveryone,
  parseAuthorizeRequest,
  parseSuperUsers,
  toAclCsv,
} from "./parse";
import { acl } from "@/test/policy/acl-helpers";

const HEADER = "Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host";

describe("reading ACL sets", () => {
  it("JSON: an array or { acls }, Kafka's names verbatim", () => {
    const b = acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW");
    expect(parseAclDocument(JSON.stringify([b]))).toEqual([b]);
    expect(parseAclDocument(JSON.stringify({ acls: [b] }))).toEqual([b]);
  });

  it("CSV: quoted fields with commas and quotes, CRLF, a BOM, columns in any order, kafka-acls.sh spellings", () => {
    const csv =
      "\ufeffHost,Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType\r\n" +
      '*,"User:CN=a,O=""b""",TransactionalId,Prefixed,tx-,Write,Allow\r\n' +
      "10.0.0.1,User:bob,TOPIC,LITERAL,orders,DESCRIBE_CONFIGS,DENY\r\n";
    expect(parseAclDocument(csv)).toEqual([
      acl("TRANSACTIONAL_ID", "tx-", "PREFIXED", 'User:CN=a,O="b"', "*", "WRITE", "ALLOW"),
      acl("TOPIC", "orders", "LITERAL", "User:bob", "10.0.0.1", "DESCRIBE_CONFIGS", "DENY"),
    ]);
  });

  it("CSV round trip keeps spaces and commas", () => {
    const acls = [
      acl("GROUP", " spaced ", "LITERAL", "User: alice", "*", "READ", "ALLOW"),
      acl("TOPIC", "a,b", "PREFIXED", 'User:"q"', "*", "ALL", "DENY"),
    ];
    expect(parseAclDocument(toAclCsv(acls))).toEqual(acls);
  });

  it("rejects what Kafka could not hold, naming the place", () => {
    const bad: Array<[string, RegExp]> = [
      ["[{}]", /acls\[0\]\.resourceType must be one of/],
      ['{"acls": 3}', /must be an array/],
      ["[1", /not valid JSON/],
      [`Principal,ResourceType\nUser:a,TOPIC\n`, /header must be/],
      [`${HEADER}\nUser:a,TOPIC,MATCH,t,READ,ALLOW,*\n`, /CSV line 2\.patternType must be one of LITERAL, PREFIXED/],
      [`${HEADER}\n"User:a,TOPIC,LITERAL,t,READ,ALLOW,*\n`, /quoted field is not closed/],
    ];
    for (const [text, message] of bad) {
      expect(() => parseAclDocument(text), text).toThrow(PolicyInputError);
      expect(() => parseAclDocument(text), text).toThrow(message);
    }
  });

  it(
    "refuses a JSON document nested deeper than 64 levels (the CLI's lint FILE) instead of overflowing the " + "stack",
    () => {
      const deep = `{"acls":${"[".repeat(5000)}${"]".repeat(5000)}}`;
      expect(() => parseAclDocument(deep)).toThrow(PolicyInputError);
      expect(() => parseAclDocument(deep)).toThrow(
        "The ACL file nests arrays and objects more than 64 levels deep; an ACL file needs 3.",
      );
    },
  );

  it("strict JSON for the CLI contract: no PascalCase there", () => {
    expect(() =>
      parseAclList(
        [{ ...acl("TOPIC", "t", "LITERAL", "User:a", "*", "READ", "ALLOW"), resourceType: "Topic" }],
        "acls",
      ),
    ).toThrow(PolicyInputError);
  });
});

describe("reading filters — AclControlManagerTest#testValidateFilter", () => {
  const filter = {
    resourceType: "ANY",
    resourceName: "*",
    patternType: "LITERAL",
    principal: "User:*",
    host: "*",
    operation: "ANY",
    permissionType: "ANY",
  };
  it("accepts ANY / MATCH values and rejects UNKNOWN ones", () => {
    expect(parseAclFilter(filter, "filter")).toEqual(filter);
    expect(
      parseAclFilter({ ...filter, patternType: "MATCH", resourceName: null, principal: null, host: null }, "filter")
        .patternType,
    ).toBe("MATCH");
    expect(() => parseAclFilter({ ...filter, patternType: "UNKNOWN" }, "filter")).toThrow(PolicyInputError);
    expect(() => parseAclFilter({ ...filter, patternType: "MATCH", permissionType: "UNKNOWN" }, "filter")).toThrow(
      /filter\.permissionType must be one of/,
    );
  });
});

describe("reading requests and config", () => {
  it("a request principal must be Type:name; ANY is not an operation or a resource type", () => {
    const ok = { principal: "User:a", host: "h", operation: "READ", resourceType: "TOPIC", resourceName: "t" };
    expect(parseAuthorizeRequest(ok, "r")).toEqual(ok);
    expect(() => parseAuthorizeRequest({ ...ok, principal: "a" }, "r")).toThrow(/Type:name/);
    expect(() => parseAuthorizeRequest({ ...ok, operation: "ANY" }, "r")).toThrow(/non-filter operation/);
    expect(() => parseAuthorizeRequest({ ...ok, resourceType: "ANY" }, "r")).toThrow(/non-filter resource type/);
    expect(() => parseAuthorizeRequest({ ...ok, resourceName: null }, "r")).toThrow(/resourceName must be a string/);
  });

  it(
    "allow.everyone.if.no.acl.found like getDefaultResult (testGetDefaultResult, " +
      "AuthorizerTest#testAclConfigWithWhitespace)",
    () => {
      expect(parseAllowEveryone(undefined, "a")).toBe(false);
      expect(parseAllowEveryone("true", "a")).toBe(true);
      expect(parseAllowEveryone("false", "a")).toBe(false);
      expect(parseAllowEveryone("  true ", "a")).toBe(true);
      expect(parseAllowEveryone("yes", "a")).toBe(false);
      expect(() => parseAllowEveryone(1, "a")).toThrow(PolicyInputError);
    },
  );

  it("super.users like StandardAuthorizer.getConfiguredSuperUsers (testGetConfiguredSuperUsers)", () => {
    expect(parseSuperUsers(undefined, "s")).toEqual([]);
    expect(parseSuperUsers(" ", "s")).toEqual([]);
    expect(parseSuperUsers("User:bob;User:alice ", "s")).toEqual(["User:bob", "User:alice"]);
    expect(parseSuperUsers(";  User:bob  ;  User:alice ", "s")).toEqual(["User:bob", "User:alice"]);
    expect(() => parseSuperUsers("bob;:alice", "s")).toThrow(
      "expected a string in format principalType:principalName but got bob",
    );
    expect(parseSuperUsers(["User:x"], "s")).toEqual(["User:x"]);
  });
});
