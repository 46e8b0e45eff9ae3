/**
 * Ported from Kafka's clients/src/test/java/org/apache/kafka/common/security/kerberos/
 * KerberosNameTest.java (testParse, testToLowerCase, testToUpperCase, testInvalidRules) and
 * KerberosRuleTest.java (testReplaceParameters), the authorization document's example
 * (shared/seeds/kafka-docs-authorization-and-acls.ko.txt, "Customizing SASL User Name"),
 * ConfigDef's LIST parsing of the property, and behaviours confirmed against Kafka 4.1.1's
 * classes through java/PrincipalMapHarness.java (the messages pinned below).
 */
import { describe, expect, it } from "vitest";
import { JavaException } from "./java/exception";
import {
  kerberosShortName,
  parseKerberosName,
  parseKerberosRules,
  replaceParameters,
  splitKerberosRules,
} from "./kerberos";

function thrown(fn: () => unknown): { error: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof JavaException) return { error: e.exception, message: e.message };
    throw e;
  }
  throw new Error("expected a Java exception");
}

const shortNamer = (realm: string, rules: string[] | null) => {
  const parsed = parseKerberosRules(realm, rules);
  return (principal: string) => kerberosShortName(parsed, parseKerberosName(principal)).name;
};

describe("KerberosNameTest", () => {
  it("testParse: components, realm and short names", () => {
    const shortName = shortNamer("REALM.COM", [
      String.raw`RULE:[1:$1](App\..*)s/App\.(.*)/$1/g`,
      String.raw`RULE:[2:$1](App\..*)s/App\.(.*)/$1/g`,
      "DEFAULT",
    ]);

    expect(parseKerberosName("App.service-name/example.com@REALM.COM")).toEqual({
      serviceName: "App.service-name",
      hostName: "example.com",
      realm: "REALM.COM",
    });
    expect(shortName("App.service-name/example.com@REALM.COM")).toBe("service-name");

    expect(parseKerberosName("App.service-name@REALM.COM")).toEqual({
      serviceName: "App.service-name",
      hostName: null,
      realm: "REALM.COM",
    });
    expect(shortName("App.service-name@REALM.COM")).toBe("service-name");

    expect(parseKerberosName("user/host@REALM.COM")).toEqual({
      serviceName: "user",
      hostName: "host",
      realm: "REALM.COM",
    });
    expect(shortName("user/host@REALM.COM")).toBe("user");
  });

  it.each([
    ["L", ["user", "test", "xyz_user_xyz", "service-name", "user"]],
    ["U", ["USER", "TEST", "XYZ_USER_XYZ", "SERVICE-NAME", "USER"]],
  ])("testToLowerCase / testToUpperCase: /%s", (flag, expected) => {
    const shortName = shortNamer("REALM.COM", [
      `RULE:[1:$1]/${flag}`,
      `RULE:[2:$1](Test.*)s/ABC///${flag}`,
      `RULE:[2:$1](ABC.*)s/ABC/XYZ/g/${flag}`,
      String.raw`RULE:[2:$1](App\..*)s/App\.(.*)/$1/g/` + flag,
      `RULE:[2:$1]/${flag}`,
      "DEFAULT",
    ]);
    expect(
      [
        "User@REALM.COM",
        "TestABC/host@FOO.COM",
        "ABC_User_ABC/host@FOO.COM",
        "App.SERVICE-name/example.com@REALM.COM",
        "User/root@REALM.COM",
      ].map(shortName),
    ).toEqual(expected);
  });

  it.each([
    ["default", "Invalid rule: default"],
    ["DEFAUL", "Invalid rule: DEFAUL"],
    ["DEFAULT/L", "Invalid rule: `DEFAULT/L`, unmatched substring: `/L`"],
    ["DEFAULT/g", "Invalid rule: `DEFAULT/g`, unmatched substring: `/g`"],
    ["rule:[1:$1]", "Invalid rule: rule:[1:$1]"],
    ["rule:[1:$1]/L/U", "Invalid rule: rule:[1:$1]/L/U"],
    ["rule:[1:$1]/U/L", "Invalid rule: rule:[1:$1]/U/L"],
    ["rule:[1:$1]/LU", "Invalid rule: rule:[1:$1]/LU"],
    ["RULE:[1:$1/L", "Invalid rule: RULE:[1:$1/L"],
    ["RULE:[1:$1]/l", "Invalid rule: `RULE:[1:$1]/l`, unmatched substring: `l`"],
    ["RULE:[2:$1](ABC.*)s/ABC/XYZ/L/g", "Invalid rule: `RULE:[2:$1](ABC.*)s/ABC/XYZ/L/g`, unmatched substring: `/g`"],
  ])("testInvalidRules: %s is IllegalArgumentException", (rule, message) => {
    expect(thrown(() => parseKerberosRules("REALM.COM", [rule]))).toEqual({
      error: "IllegalArgumentException",
      message,
    });
  });
});

describe("KerberosRuleTest.testReplaceParameters", () => {
  const many = ["too", "many", "parameters", "are", "ok"];
  it.each([
    ["", [], ""],
    ["hello", [], "hello"],
    ["", many, ""],
    ["hello", many, "hello"],
    ["hello $0", many, "hello too"],
    ["hello $0", ["no recursion $1"], "hello no recursion $1"],
  ])("%j with %j is %j", (format, params, expected) => {
    expect(replaceParameters(format, params)).toBe(expected);
  });

  it("an out-of-bounds parameter number is BadFormatString", () => {
    expect(thrown(() => replaceParameters("$0", []))).toEqual({
      error: "BadFormatString",
      message: "index 0 from $0 is outside of the valid range 0 to -1",
    });
  });

  it("a malformed parameter name is BadFormatString", () => {
    expect(thrown(() => replaceParameters("hello $a", ["does not matter"]))).toEqual({
      error: "BadFormatString",
      message: "bad format in username mapping in ",
    });
  });
});

describe("the authorization document's example", () => {
  const rules = splitKerberosRules(String.raw`RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT`);

  it("user@MYDOMAIN.COM becomes user, and DEFAULT still maps the default realm", () => {
    expect(rules).toEqual([String.raw`RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//`, "DEFAULT"]);
    const shortName = shortNamer("EXAMPLE.COM", rules);
    expect(shortName("user@MYDOMAIN.COM")).toBe("user");
    expect(shortName("kafka/broker1.example.com@EXAMPLE.COM")).toBe("kafka");
  });

  it("other realms match no rule: NoMatchingRule lists the rules", () => {
    const parsed = parseKerberosRules("EXAMPLE.COM", rules);
    expect(thrown(() => kerberosShortName(parsed, parseKerberosName("user@OTHER.COM")))).toEqual({
      error: "NoMatchingRule",
      message: "No rules apply to user@OTHER.COM, rules [RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//, DEFAULT]",
    });
  });
});

describe("KerberosShortNamer behaviours a naive mirror gets wrong", () => {
  it("a name without a realm is its own short name: no rule is consulted, not even an empty rule list", () => {
    expect(shortNamer("", [])("alice")).toBe("alice");
  });

  it("DEFAULT maps only the default realm, and the broker's default realm is empty when it has none", () => {
    const shortName = shortNamer("", null);
    expect(shortName("alice@")).toBe("alice");
    expect(thrown(() => shortName("alice@EXAMPLE.COM"))).toEqual({
      error: "NoMatchingRule",
      message: "No rules apply to alice@EXAMPLE.COM, rules [DEFAULT]",
    });
  });

  it("a result with / or @ is NoMatchingRule (Non-simple name), even when a later rule would apply", () => {
    const parsed = parseKerberosRules("", ["RULE:[1:$1@$0]", "DEFAULT"]);
    expect(thrown(() => kerberosShortName(parsed, parseKerberosName("user@")))).toEqual({
      error: "NoMatchingRule",
      message: "Non-simple name user@ after auth_to_local rule RULE:[1:$1@$0]",
    });
  });

  it("more than one slash or at-sign is IllegalArgumentException (Malformed Kerberos name)", () => {
    expect(thrown(() => parseKerberosName("a/b/c@R"))).toEqual({
      error: "IllegalArgumentException",
      message: "Malformed Kerberos name: a/b/c@R",
    });
    expect(thrown(() => parseKerberosName("a@b@c"))).toEqual({
      error: "IllegalArgumentException",
      message: "Malformed Kerberos name: a@b@c",
    });
  });

  it("a rule without a component count is NumberFormatException when the broker starts", () => {
    expect(thrown(() => parseKerberosRules("", ["RULE:[:$1]"]))).toEqual({
      error: "NumberFormatException",
      message: 'For input string: ""',
    });
  });

  it("s/// replaces the first match unless g", () => {
    expect(shortNamer("", ["RULE:[1:$1](.*)s/a/x/"])("banana@R")).toBe("bxnana");
    expect(shortNamer("", ["RULE:[1:$1](.*)s/a/x/g"])("banana@R")).toBe("bxnxnx");
  });
});

describe("ConfigDef LIST parsing of sasl.kerberos.principal.to.local.rules", () => {
  it.each([
    ["", []],
    ["   ", []],
    ["DEFAULT", ["DEFAULT"]],
    ["  RULE:[1:$1] ,\n DEFAULT  ", ["RULE:[1:$1]", "DEFAULT"]],
    // Empty items are kept (and refused as rules).
    [", DEFAULT", ["", "DEFAULT"]],
    ["DEFAULT,", ["DEFAULT", ""]],
    ["a,,b", ["a", "", "b"]],
  ])("%j is %j", (value, expected) => {
    expect(splitKerberosRules(value)).toEqual(expected);
  });

  it("an empty item is an invalid rule", () => {
    expect(thrown(() => parseKerberosRules("", splitKerberosRules("DEFAULT,")))).toEqual({
      error: "IllegalArgumentException",
      message: "Invalid rule: ",
    });
  });
});
