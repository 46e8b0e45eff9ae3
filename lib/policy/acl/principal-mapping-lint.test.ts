import { describe, expect, it } from "vitest";
import type { AclBinding } from "../types";
import { lintAcls } from "./lint";
import { RegexBudget } from "../identity/regex-budget";

const acl = (principal: string, resourceName = "orders"): AclBinding => ({
  resourceType: "TOPIC",
  resourceName,
  patternType: "LITERAL",
  principal,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
});

const SEED_SSL_RULES =
  "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,RULE" +
  ":^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,DEFAULT";
const KERBEROS_RULES = "RULE:[1:$1@$0](.*@EXAMPLE.COM)s/@.*//,DEFAULT";

const findings = (acls: AclBinding[], ssl: string | null, kerberos: string | null = null) =>
  lintAcls(acls, {
    principalMapping: { ssl: { rules: ssl }, kerberos: { rules: kerberos, defaultRealm: "EXAMPLE.COM" } },
  }).filter((f) => f.code === "principal-not-producible");

describe("lint: principal-not-producible", () => {
  it(
    "reports a DN principal when the SSL rules turn every certificate into a short name, saying what the " +
      "client is instead",
    () => {
      const [f, ...rest] = findings(
        [acl("User:CN=alice,OU=Eng,O=Acme"), acl("User:CN=alice,OU=Eng,O=Acme", "payments")],
        "RULE:^CN=([^,]+),.*$/$1/L",
      );
      expect(rest).toEqual([]);
      expect(f).toMatchObject({
        severity: "warning",
        acls: [{ resourceName: "orders" }, { resourceName: "payments" }],
      });
      expect(f!.message).toContain(
        "No configured principal mapping rule produces User:CN=alice,OU=Eng,O=Acme, so its 2 ACLs apply to no " +
          "certificate or Kerberos client.",
      );
      expect(f!.message).toContain("A client presenting the certificate DN CN=alice,OU=Eng,O=Acme is User:alice.");
    },
  );

  it("reports a DN written with spaces that DEFAULT can never give (Kafka prints it without them)", () => {
    const [f] = findings([acl("User:CN=alice, OU=Eng")], "DEFAULT");
    expect(f!.message).toContain("(Kafka writes this DN as CN=alice,OU=Eng.)");
    expect(f!.message).toContain("is User:CN=alice,OU=Eng.");
    expect(findings([acl("User:CN=alice,OU=Eng")], "DEFAULT")).toEqual([]);
  });

  it("reports a realm-qualified Kerberos principal: Kerberos clients are shortened", () => {
    const [f] = findings([acl("User:alice@EXAMPLE.COM"), acl("User:alice")], null, KERBEROS_RULES);
    expect(f!.acls.map((a) => a.principal)).toEqual(["User:alice@EXAMPLE.COM"]);
    expect(f!.message).toContain("Kerberos principal alice@EXAMPLE.COM is User:alice.");
  });

  it("stays quiet where a rule may produce the name: the seed's $1@$2 rule, lazy groups, plain user names", () => {
    expect(
      findings(
        [acl("User:adminuser@admin"), acl("User:serviceuser"), acl("User:CN=x,OU=y")],
        SEED_SSL_RULES,
        KERBEROS_RULES,
      ),
    ).toEqual([]);
    // The /L rule cannot give upper case, but the first rule's (.*?) could yield anything.
    expect(findings([acl("User:Bob@Admin")], SEED_SSL_RULES, KERBEROS_RULES)).toEqual([]);
  });

  it("judges anchored rules by their template: /L never yields capitals, literals must be there", () => {
    expect(findings([acl("User:Bob@admin")], "RULE:^CN=([a-z]+),OU=([a-z]+)$/$1@$2/L", KERBEROS_RULES)).toHaveLength(1);
    expect(findings([acl("User:bob@admin")], "RULE:^CN=([a-z]+),OU=([a-z]+)$/$1@$2/L", KERBEROS_RULES)).toEqual([]);
    expect(findings([acl("User:bob#admin")], "RULE:^CN=([a-z]+),OU=([a-z]+)$/$1@$2/", KERBEROS_RULES)).toEqual([]);
    expect(findings([acl("User:bob/admin@X")], "RULE:^CN=([a-z]+),OU=([a-z]+)$/$1@$2/", KERBEROS_RULES)).toHaveLength(
      1,
    );
  });

  it("needs configured rules, and never reports User:* or other principal types", () => {
    expect(lintAcls([acl("User:CN=alice,OU=Eng")]).some((f) => f.code === "principal-not-producible")).toBe(false);
    expect(findings([acl("User:CN=alice,OU=Eng")], null, null)).toEqual([]);
    expect(findings([acl("User:*"), acl("Group:CN=x,OU=y")], "RULE:^CN=([^,]+),.*$/$1/L")).toEqual([]);
  });

  it("does not judge against rules a broker would refuse", () => {
    expect(findings([acl("User:CN=alice,OU=Eng")], "RULE:^CN=(/$1/")).toEqual([]);
  });

  it("stops within its regex budget, saying how many principals it checked, instead of holding the server", () => {
    // Each DN costs the first rule ~1.8 million backtracking steps before DEFAULT gives it back.
    const acls = Array.from({ length: 10 }, (_, i) => acl(`User:CN=${"a".repeat(40)}${i}!`));
    const started = performance.now();
    const found = lintAcls(acls, {
      principalMapping: { ssl: { rules: "RULE:^(.*a){5}$/x/,DEFAULT" }, kerberos: null },
      regexBudget: new RegexBudget(3_000_000),
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(found.filter((f) => f.code === "principal-not-producible")).toEqual([
      {
        severity: "info",
        code: "principal-not-producible",
        message:
          "Only 1 of the 10 principals were checked against the principal mapping rules: checking the others " +
          "would take longer than the console allows one lint (the rules backtrack a lot), so they are not " +
          "reported.",
        acls: [],
      },
    ]);
  });
});
