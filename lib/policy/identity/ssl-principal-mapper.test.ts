/**
 * Ported from Kafka's clients/src/test/java/org/apache/kafka/common/security/ssl/SslPrincipalMapperTest.java
 * (testValidRules, testInvalidRules, testSslPrincipalMapper, testRulesSplitting,
 * testCommaWithWhitespace), the authorization document's examples
 * (shared/seeds/kafka-docs-authorization-and-acls.ko.txt, "Customizing SSL User Name"),
 * and behaviours of SslPrincipalMapper that the differential test found and Kafka 4.1.1
 * confirms (messages pinned here were read from Kafka's classes through
 * java/PrincipalMapHarness.java).
 */
import { describe, expect, it } from "vitest";
import { JavaException } from "./java/exception";
import { mapDistinguishedName, parseSslRules, sslRulesToString } from "./ssl-principal-mapper";

const nameOf = (rules: string | null, dn: string) => mapDistinguishedName(parseSslRules(rules), dn).name;

function thrown(fn: () => unknown): { error: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof JavaException) return { error: e.exception, message: e.message };
    throw e;
  }
  throw new Error("expected a Java exception");
}

describe("SslPrincipalMapperTest", () => {
  it.each([
    "DEFAULT",
    "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
    "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT",
    "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/",
    "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L",
    "RULE:^cn=(.?),ou=(.?),dc=(.?),dc=(.?)$/$1@$2/U",
    "RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/",
    "RULE:^CN=([^,DEFAULT,]+)(,.*|$)/$1/",
  ])("testValidRules: %s", (rules) => {
    expect(() => parseSslRules(rules)).not.toThrow();
  });

  it.each([
    ["default", "Invalid rule: `default`, unmatched substring: `default`"],
    ["DEFAUL", "Invalid rule: `DEFAUL`, unmatched substring: `DEFAUL`"],
    ["DEFAULT/L", "Invalid rule: `DEFAULT/L`, unmatched substring: `/L`"],
    ["DEFAULT/U", "Invalid rule: `DEFAULT/U`, unmatched substring: `/U`"],
    // The splitter cuts at the comma inside the pattern: no closing slash before it.
    ["RULE:CN=(.*?),OU=ServiceUsers.*/$1", "Invalid rule: `RULE:CN=(.*?)`, unmatched substring: `RULE:CN=(.*?)`"],
    ["rule:^CN=(.*?),OU=ServiceUsers.*$/$1/", "Invalid rule: `rule:^CN=(.*?)`, unmatched substring: `rule:^CN=(.*?)`"],
    [
      "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U",
      "Invalid rule: `RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U`, unmatched substring: `/U`",
    ],
    ["RULE:^CN=(.*?),OU=ServiceUsers.*$/L", "Invalid rule: `RULE:^CN=(.*?)`, unmatched substring: `RULE:^CN=(.*?)`"],
    ["RULE:^CN=(.*?),OU=ServiceUsers.*$/U", "Invalid rule: `RULE:^CN=(.*?)`, unmatched substring: `RULE:^CN=(.*?)`"],
    ["RULE:^CN=(.*?),OU=ServiceUsers.*$/LU", "Invalid rule: `RULE:^CN=(.*?)`, unmatched substring: `RULE:^CN=(.*?)`"],
  ])("testInvalidRules: %s is IllegalArgumentException", (rules, message) => {
    expect(thrown(() => parseSslRules(rules))).toEqual({ error: "IllegalArgumentException", message });
  });

  it("testSslPrincipalMapper: rules in order, /L and /U, DEFAULT keeps the DN", () => {
    const rules = [
      "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L",
      "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L",
      "RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U",
      "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U",
      "DEFAULT",
    ].join(", ");
    expect(nameOf(rules, "CN=Duke,OU=ServiceUsers,O=Org,C=US")).toBe("duke");
    expect(nameOf(rules, "CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US")).toBe("duke@sme");
    expect(nameOf(rules, "cn=duke,ou=sme,dc=mycp,dc=com")).toBe("DUKE@SME");
    expect(nameOf(rules, "cN=duke,OU=JavaSoft,O=Sun Microsystems")).toBe("DUKE");
    expect(nameOf(rules, "OU=JavaSoft,O=Sun Microsystems,C=US")).toBe("OU=JavaSoft,O=Sun Microsystems,C=US");
  });

  it.each([
    ["[]", ""],
    ["[DEFAULT]", "DEFAULT"],
    ["[RULE:/]", "RULE://"],
    ["[RULE:/.*]", "RULE:/.*/"],
    ["[RULE:/.*/L]", "RULE:/.*/L"],
    ["[RULE:/, DEFAULT]", "RULE://,DEFAULT"],
    ["[RULE:/, DEFAULT]", "  RULE:// ,  DEFAULT  "],
    ["[RULE:   /     , DEFAULT]", "  RULE:   /     / ,  DEFAULT  "],
    ["[RULE:  /     /U, DEFAULT]", "  RULE:  /     /U   ,DEFAULT  "],
    ["[RULE:([A-Z]*)/$1/U, RULE:([a-z]+)/$1, DEFAULT]", "  RULE:([A-Z]*)/$1/U   ,RULE:([a-z]+)/$1/,   DEFAULT  "],
    // empty rules are ignored
    ["[]", ",   , , ,      , , ,   "],
    ["[RULE:/, DEFAULT]", ",,RULE://,,,DEFAULT,,"],
    ["[RULE: /   , DEFAULT]", ",  , RULE: /   /    ,,,   DEFAULT, ,   "],
    ["[RULE:   /  /U, DEFAULT]", "     ,  , RULE:   /  /U    ,,  ,DEFAULT, ,"],
    // escape sequences
    [String.raw`[RULE:\/\\\(\)\n\t/\/\/]`, String.raw`RULE:\/\\\(\)\n\t/\/\//`],
    [String.raw`[RULE:\**\/+/*/L, RULE:\/*\**/**]`, String.raw`RULE:\**\/+/*/L,RULE:\/*\**/**/`],
    // rules rule
    [
      String.raw`[RULE:,RULE:,/,RULE:,\//U, RULE:,/RULE:,, RULE:,RULE:,/L,RULE:,/L, RULE:, DEFAULT, /DEFAULT, DEFAULT]`,
      String.raw`RULE:,RULE:,/,RULE:,\//U,RULE:,/RULE:,/,RULE:,RULE:,/L,RULE:,/L,RULE:, DEFAULT, /DEFAULT/,DEFAULT`,
    ],
  ])("testRulesSplitting: %s from %j", (expected, rules) => {
    expect(sslRulesToString(parseSslRules(rules))).toBe(expected);
  });

  it("testCommaWithWhitespace: an escaped comma inside the pattern", () => {
    const rules = String.raw`RULE:^CN=((\\, *|\w)+)(,.*|$)/$1/,DEFAULT`;
    expect(nameOf(rules, String.raw`CN=Tkac\, Adam,OU=ITZ,DC=geodis,DC=cz`)).toBe(String.raw`Tkac\, Adam`);
  });
});

describe("the authorization document's example rules", () => {
  const documented = [
    "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
    "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L",
    "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L",
    "DEFAULT",
  ];

  it.each([
    ["on one line", documented.join(",")],
    ["one rule per line, as the document lays them out", documented.join(",\n")],
  ])("%s: serviceuser and adminuser@admin", (_, rules) => {
    expect(nameOf(rules, "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown")).toBe(
      "serviceuser",
    );
    expect(nameOf(rules, "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown")).toBe("adminuser@admin");
  });

  it("without rules the DN itself is the name (the document's writeuser example)", () => {
    expect(nameOf(null, "CN=writeuser,OU=Unknown,O=Unknown,L=Unknown,ST=Unknown,C=Unknown")).toBe(
      "CN=writeuser,OU=Unknown,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
    );
  });
});

describe("SslPrincipalMapper behaviours a naive mirror gets wrong", () => {
  it("no rule applying is NoMatchingRule, listing the rules as Kafka prints them", () => {
    expect(
      thrown(() =>
        mapDistinguishedName(parseSslRules("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/"), "CN=adminUser,OU=Admin"),
      ),
    ).toEqual({
      error: "NoMatchingRule",
      message: "No rules apply to CN=adminUser,OU=Admin, rules [RULE:^CN=(.*?),OU=ServiceUsers.*$/$1]",
    });
  });

  it("the replacement replaces every match of the pattern in the DN, not only the first", () => {
    // `.*` matches the whole DN and then the empty string at its end: two replacements.
    expect(nameOf("RULE:.*/x/", "CN=a")).toBe("xx");
    expect(nameOf("RULE:(CN=a)?/y/", "CN=a")).toBe("yy");
  });

  it("$n beyond the pattern's groups is literal; $12 with one group is $1 then 2", () => {
    expect(nameOf("RULE:CN=(.*)/$2-$1/", "CN=a")).toBe("$2-a");
    expect(nameOf("RULE:CN=(.*)/$12/", "CN=a")).toBe("a2");
  });

  it("a pattern without groups keeps $1 as a group reference, which Java refuses at mapping time", () => {
    expect(thrown(() => mapDistinguishedName(parseSslRules("RULE:CN=.*/$1/"), "CN=a"))).toEqual({
      error: "IndexOutOfBoundsException",
      message: "No group 1",
    });
  });

  it("a group number beyond Integer.MAX_VALUE is Kafka's NumberFormatException", () => {
    expect(thrown(() => mapDistinguishedName(parseSslRules("RULE:(.*)/$99999999999/"), "CN=x"))).toEqual({
      error: "NumberFormatException",
      message: 'For input string: "99999999999"',
    });
  });

  it("a pattern Java cannot compile stops the broker with PatternSyntaxException", () => {
    expect(thrown(() => parseSslRules("RULE:(/x/"))).toEqual({
      error: "PatternSyntaxException",
      message: "Unclosed group near index 1\n(",
    });
  });

  it("/L lower-cases with Java's full mapping (İ becomes i + combining dot) and /U upper-cases ß to SS", () => {
    expect(nameOf("RULE:CN=(.*)/$1/L", "CN=İstanbul")).toBe("i\u0307stanbul");
    expect(nameOf("RULE:CN=(.*)/$1/U", "CN=straße")).toBe("STRASSE");
  });
});
