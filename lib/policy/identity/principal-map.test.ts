/**
 * DefaultKafkaPrincipalBuilder's answers, ported from Kafka's
 * clients/src/test/java/org/apache/kafka/common/security/auth/DefaultKafkaPrincipalBuilderTest.java
 * (testPrincipalIfSSLPeerIsNotAuthenticated, testPrincipalWithSslPrincipalMapper,
 * testPrincipalBuilderGssapi with a real short namer instead of a mock), plus the
 * document-level rule of the `principal-map` contract: a rules value Kafka refuses is the
 * answer to every request, because the broker would not start.
 */
import { describe, expect, it } from "vitest";
import { mapPrincipals, principalMapper, type PrincipalMappingConfig } from "./principal-map";

const sslOnly = (rules: string | null): PrincipalMappingConfig => ({ ssl: { rules }, kerberos: null });

describe("DefaultKafkaPrincipalBuilderTest", () => {
  it(
    "testPrincipalIfSSLPeerIsNotAuthenticated: a client without a certificate is User:ANONYMOUS, whatever " +
      "the rules",
    () => {
      const [result] = mapPrincipals(sslOnly("RULE:^CN=(.*?),.*$/$1/"), [{ type: "ssl", distinguishedName: null }]);
      expect(result).toEqual({ ok: true, name: "ANONYMOUS", principal: "User:ANONYMOUS", rule: null });
    },
  );

  it("testPrincipalWithSslPrincipalMapper: User:<mapped name> for the RFC 2253 DN of X500Principal", () => {
    const rules = [
      "RULE:^CN=(.*),OU=ServiceUsers.*$/$1/L",
      "RULE:^CN=(.*),OU=(.*),O=(.*),L=(.*),ST=(.*),C=(.*)$/$1@$2/L",
      "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U",
      "DEFAULT",
    ].join(", ");
    // new X500Principal("CN=Duke, OU=ServiceUsers, O=Org, C=US").getName() drops the spaces after the commas.
    const results = mapPrincipals(sslOnly(rules), [
      { type: "ssl", distinguishedName: "CN=Duke,OU=ServiceUsers,O=Org,C=US" },
      { type: "ssl", distinguishedName: "CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US" },
      { type: "ssl", distinguishedName: "CN=duke,OU=JavaSoft,O=Sun Microsystems" },
      { type: "ssl", distinguishedName: "OU=JavaSoft,O=Sun Microsystems,C=US" },
    ]);
    expect(results.map((r) => (r.ok ? r.principal : r.error))).toEqual([
      "User:duke",
      "User:duke@sme",
      "User:DUKE",
      "User:OU=JavaSoft,O=Sun Microsystems,C=US",
    ]);
    expect(results.map((r) => (r.ok ? r.rule?.index : null))).toEqual([0, 1, 2, 3]);
  });

  it("testPrincipalBuilderGssapi: foo/host@REALM.COM is User:foo with the default rules", () => {
    const [result] = mapPrincipals({ ssl: null, kerberos: { rules: null, defaultRealm: "REALM.COM" } }, [
      { type: "kerberos", principal: "foo/host@REALM.COM" },
    ]);
    expect(result).toEqual({ ok: true, name: "foo", principal: "User:foo", rule: { index: 0, text: "DEFAULT" } });
  });
});

describe("the principal-map document", () => {
  it("the seed document's examples, SSL and Kerberos in one document", () => {
    const results = mapPrincipals(
      {
        ssl: {
          rules:
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,\nRULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/" +
            "$1@$2/L,\nRULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,\nDEFAULT",
        },
        kerberos: { rules: "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT", defaultRealm: null },
      },
      [
        { type: "ssl", distinguishedName: "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
        { type: "ssl", distinguishedName: "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
        { type: "kerberos", principal: "user@MYDOMAIN.COM" },
      ],
    );
    expect(results).toEqual([
      {
        ok: true,
        name: "serviceuser",
        principal: "User:serviceuser",
        rule: { index: 0, text: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1" },
      },
      {
        ok: true,
        name: "adminuser@admin",
        principal: "User:adminuser@admin",
        rule: { index: 1, text: "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L" },
      },
      {
        ok: true,
        name: "user",
        principal: "User:user",
        rule: { index: 0, text: "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//" },
      },
    ]);
  });

  it("refused SSL rules answer every request, Kerberos ones included: the broker would not start", () => {
    const mapper = principalMapper({ ssl: { rules: "DEFAULT/L" }, kerberos: { rules: null, defaultRealm: null } });
    const refused = {
      ok: false,
      error: "IllegalArgumentException",
      message: "Invalid rule: `DEFAULT/L`, unmatched substring: `/L`",
      stage: "config",
      property: "ssl.principal.mapping.rules",
    };
    expect(mapper.configError).toEqual(refused);
    expect([
      mapper.map({ type: "ssl", distinguishedName: null }),
      mapper.map({ type: "kerberos", principal: "alice" }),
    ]).toEqual([refused, refused]);
  });

  it("refused Kerberos rules answer every request, SSL ones included", () => {
    const results = mapPrincipals(
      { ssl: { rules: null }, kerberos: { rules: "RULE:[1:$1](a(b)", defaultRealm: null } },
      [{ type: "ssl", distinguishedName: "CN=a" }],
    );
    expect(results).toEqual([
      {
        ok: false,
        error: "PatternSyntaxException",
        message: "Unclosed group near index 3\na(b",
        stage: "config",
        property: "sasl.kerberos.principal.to.local.rules",
      },
    ]);
  });

  it("NoMatchingRule carries the KafkaException the broker logs around it", () => {
    const [ssl] = mapPrincipals(sslOnly("RULE:^CN=x$/x/"), [{ type: "ssl", distinguishedName: "CN=y" }]);
    expect(ssl).toMatchObject({
      ok: false,
      error: "NoMatchingRule",
      stage: "mapping",
      brokerError: {
        error: "KafkaException",
        message: "Failed to map name for 'CN=y' based on SSL principal mapping rules.",
      },
    });
    const [krb] = mapPrincipals({ ssl: null, kerberos: { rules: "RULE:[1:$3]", defaultRealm: null } }, [
      { type: "kerberos", principal: "bob@R" },
    ]);
    expect(krb).toMatchObject({
      ok: false,
      error: "BadFormatString",
      brokerError: {
        error: "KafkaException",
        message: "Failed to set name for 'bob@R' based on Kerberos authentication rules.",
      },
    });
  });

  it("no configuration at all is DEFAULT for both: the DN as is, and realm-less Kerberos names as is", () => {
    const results = mapPrincipals({ ssl: null, kerberos: null }, [
      { type: "ssl", distinguishedName: "CN=a,O=b" },
      { type: "kerberos", principal: "alice" },
      { type: "kerberos", principal: "alice@" },
    ]);
    expect(results.map((r) => (r.ok ? r.principal : r.error))).toEqual(["User:CN=a,O=b", "User:alice", "User:alice"]);
  });
});
