/**
 * Conformance of the policy CLI with Apache Kafka 4.x, principal-map: who a client is to Kafka.
 * How the cases are translated from Kafka's own tests: ./cli.ts.
 */
import { describe, expect, it } from "vitest";
import { cli, type Json, T } from "./cli";

// ---- principal-map: who a client is to Kafka -----------------------------------------------
//
// SslPrincipalMapperTest, KerberosNameTest, KerberosRuleTest and DefaultKafkaPrincipalBuilderTest
// as documents: the rules value as written in server.properties (a Java List of rules is the
// comma-joined LIST value), the DN as X500Principal.getName() gives it. A rules value Kafka
// refuses answers every request of its document, so each invalid rule is its own document.

describe.concurrent("principal-map (SslPrincipalMapper, KerberosShortNamer, DefaultKafkaPrincipalBuilder)", () => {
  const ssl = (rules: string | null, dns: (string | null)[]) => ({
    ssl: { rules },
    kerberos: null,
    requests: dns.map((distinguishedName) => ({ type: "ssl", distinguishedName })),
  });
  const kerberos = (rules: string | null, defaultRealm: string | null, principals: string[]) => ({
    ssl: null,
    kerberos: { rules, defaultRealm },
    requests: principals.map((principal) => ({ type: "kerberos", principal })),
  });
  const names = (out: Json) => (out.results as Json[]).map((r) => r.name ?? `${r.error}: ${r.message}`);
  const inBatches = async <T>(items: T[], f: (item: T) => Promise<void>) => {
    for (let i = 0; i < items.length; i += 3) await Promise.all(items.slice(i, i + 3).map(f));
  };

  // One CLI process per refused value: on a loaded machine these take minutes, not seconds.
  const MANY = 5 * T;

  it(
    "SslPrincipalMapperTest.testValidRules: the broker starts with the values (joined into one: any refused " +
      "rule would refuse it)",
    async () => {
      const valid = [
        "DEFAULT",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT",
        "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/",
        "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L",
        "RULE:^cn=(.?),ou=(.?),dc=(.?),dc=(.?)$/$1@$2/U",
        "RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/",
        "RULE:^CN=([^,DEFAULT,]+)(,.*|$)/$1/",
      ];
      const out = await cli("principal-map", ssl(valid.join(", "), [null, "CN=a,OU=b"]));
      expect(out.results).toEqual([
        { name: "ANONYMOUS", principal: "User:ANONYMOUS" },
        { name: "CN=a,OU=b", principal: "User:CN=a,OU=b" },
      ]);
    },
    T,
  );

  it(
    "SslPrincipalMapperTest.testInvalidRules: IllegalArgumentException for every request",
    async () => {
      const invalid = [
        "default",
        "DEFAUL",
        "DEFAULT/L",
        "DEFAULT/U",
        "RULE:CN=(.*?),OU=ServiceUsers.*/$1",
        "rule:^CN=(.*?),OU=ServiceUsers.*$/$1/",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/L",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/U",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/LU",
      ];
      await inBatches(invalid, async (rules) => {
        const out = await cli("principal-map", ssl(rules, [null, "CN=a"]));
        expect(
          out.results.map((r: Json) => r.error),
          rules,
        ).toEqual(["IllegalArgumentException", "IllegalArgumentException"]);
      });
    },
    MANY,
  );

  it(
    "SslPrincipalMapperTest.testSslPrincipalMapper and testCommaWithWhitespace",
    async () => {
      const rules = [
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L",
        "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L",
        "RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U",
        "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U",
        "DEFAULT",
      ].join(", ");
      const [mapped, comma] = await Promise.all([
        cli(
          "principal-map",
          ssl(rules, [
            "CN=Duke,OU=ServiceUsers,O=Org,C=US",
            "CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US",
            "cn=duke,ou=sme,dc=mycp,dc=com",
            "cN=duke,OU=JavaSoft,O=Sun Microsystems",
            "OU=JavaSoft,O=Sun Microsystems,C=US",
          ]),
        ),
        cli(
          "principal-map",
          ssl(String.raw`RULE:^CN=((\\, *|\w)+)(,.*|$)/$1/,DEFAULT`, [
            String.raw`CN=Tkac\, Adam,OU=ITZ,DC=geodis,DC=cz`,
          ]),
        ),
      ]);
      expect(names(mapped)).toEqual(["duke", "duke@sme", "DUKE@SME", "DUKE", "OU=JavaSoft,O=Sun Microsystems,C=US"]);
      expect(names(comma)).toEqual([String.raw`Tkac\, Adam`]);
    },
    T,
  );

  it(
    "KerberosNameTest.testParse, testToLowerCase, testToUpperCase",
    async () => {
      const flagged = (f: string) =>
        [
          `RULE:[1:$1]/${f}`,
          `RULE:[2:$1](Test.*)s/ABC///${f}`,
          `RULE:[2:$1](ABC.*)s/ABC/XYZ/g/${f}`,
          String.raw`RULE:[2:$1](App\..*)s/App\.(.*)/$1/g/` + f,
          `RULE:[2:$1]/${f}`,
          "DEFAULT",
        ].join(",");
      const cases = [
        "User@REALM.COM",
        "TestABC/host@FOO.COM",
        "ABC_User_ABC/host@FOO.COM",
        "App.SERVICE-name/example.com@REALM.COM",
        "User/root@REALM.COM",
      ];
      const [parse, lower, upper] = await Promise.all([
        cli(
          "principal-map",
          kerberos(
            [
              String.raw`RULE:[1:$1](App\..*)s/App\.(.*)/$1/g`,
              String.raw`RULE:[2:$1](App\..*)s/App\.(.*)/$1/g`,
              "DEFAULT",
            ].join(","),
            "REALM.COM",
            ["App.service-name/example.com@REALM.COM", "App.service-name@REALM.COM", "user/host@REALM.COM"],
          ),
        ),
        cli("principal-map", kerberos(flagged("L"), "REALM.COM", cases)),
        cli("principal-map", kerberos(flagged("U"), "REALM.COM", cases)),
      ]);
      expect(names(parse)).toEqual(["service-name", "service-name", "user"]);
      expect(names(lower)).toEqual(["user", "test", "xyz_user_xyz", "service-name", "user"]);
      expect(names(upper)).toEqual(["USER", "TEST", "XYZ_USER_XYZ", "SERVICE-NAME", "USER"]);
    },
    T,
  );

  it(
    "KerberosNameTest.testInvalidRules: IllegalArgumentException for every request",
    async () => {
      const invalid = [
        "default",
        "DEFAUL",
        "DEFAULT/L",
        "DEFAULT/g",
        "rule:[1:$1]",
        "rule:[1:$1]/L/U",
        "rule:[1:$1]/U/L",
        "rule:[1:$1]/LU",
        "RULE:[1:$1/L",
        "RULE:[1:$1]/l",
        "RULE:[2:$1](ABC.*)s/ABC/XYZ/L/g",
      ];
      await inBatches(invalid, async (rule) => {
        const out = await cli("principal-map", kerberos(rule, "REALM.COM", ["user@REALM.COM"]));
        expect(
          out.results.map((r: Json) => r.error),
          rule,
        ).toEqual(["IllegalArgumentException"]);
      });
    },
    MANY,
  );

  it(
    "KerberosRuleTest.testReplaceParameters through rules: $0 is the realm; out of range and malformed are " +
      "BadFormatString",
    async () => {
      const out = await cli("principal-map", {
        ssl: null,
        kerberos: {
          rules: "RULE:[1:hello $0](hello REALM.COM), RULE:[2:$3], RULE:[3:hello $a], DEFAULT",
          defaultRealm: "REALM.COM",
        },
        requests: [
          { type: "kerberos", principal: "x@REALM.COM" },
          { type: "kerberos", principal: "a/b@REALM.COM" },
          { type: "kerberos", principal: "a/b/c@REALM.COM" },
        ],
      });
      expect(out.results).toEqual([
        { name: "hello REALM.COM", principal: "User:hello REALM.COM" },
        { error: "BadFormatString", message: "index 3 from $3 is outside of the valid range 0 to 2" },
        { error: "IllegalArgumentException", message: "Malformed Kerberos name: a/b/c@REALM.COM" },
      ]);
    },
    T,
  );

  it(
    "DefaultKafkaPrincipalBuilderTest: no peer certificate is User:ANONYMOUS; X500 names through the mapper; " +
      "GSSAPI through the short namer",
    async () => {
      const out = await cli("principal-map", {
        ssl: {
          rules: [
            "RULE:^CN=(.*),OU=ServiceUsers.*$/$1/L",
            "RULE:^CN=(.*),OU=(.*),O=(.*),L=(.*),ST=(.*),C=(.*)$/$1@$2/L",
            "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U",
            "DEFAULT",
          ].join(", "),
        },
        kerberos: { rules: null, defaultRealm: "REALM.COM" },
        requests: [
          { type: "ssl", distinguishedName: null },
          { type: "ssl", distinguishedName: "CN=Duke,OU=ServiceUsers,O=Org,C=US" },
          { type: "ssl", distinguishedName: "CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US" },
          { type: "ssl", distinguishedName: "CN=duke,OU=JavaSoft,O=Sun Microsystems" },
          { type: "ssl", distinguishedName: "OU=JavaSoft,O=Sun Microsystems,C=US" },
          { type: "kerberos", principal: "foo/host@REALM.COM" },
        ],
      });
      expect(out.results.map((r: Json) => r.principal)).toEqual([
        "User:ANONYMOUS",
        "User:duke",
        "User:duke@sme",
        "User:DUKE",
        "User:OU=JavaSoft,O=Sun Microsystems,C=US",
        "User:foo",
      ]);
    },
    T,
  );

  it(
    "the authorization document: serviceuser, adminuser@admin and user@MYDOMAIN.COM as user",
    async () => {
      const out = await cli("principal-map", {
        ssl: {
          rules:
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,\nRULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/" +
            "$1@$2/L,\nRULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,\nDEFAULT",
        },
        kerberos: { rules: "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT", defaultRealm: null },
        requests: [
          { type: "ssl", distinguishedName: "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
          { type: "ssl", distinguishedName: "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
          { type: "kerberos", principal: "user@MYDOMAIN.COM" },
        ],
      });
      expect(names(out)).toEqual(["serviceuser", "adminuser@admin", "user"]);
    },
    T,
  );
});
