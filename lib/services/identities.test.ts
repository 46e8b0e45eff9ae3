import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";

vi.mock("server-only", () => ({}));
const { mapIdentities, mapConfiguredClient, certificateSubject, configuredPrincipalMapping } = await import("./identities");

const SEED_SSL_RULES = [
  "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,",
  "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,",
  "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,",
  "DEFAULT",
].join("\n");
const SEED_KERBEROS_RULES = "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT";

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe("mapIdentities: the Kafka documentation's examples", () => {
  it("maps the service user and the admin DN with the four SSL rules, naming the rule", () => {
    const { results, config } = mapIdentities({
      sslRules: SEED_SSL_RULES,
      kerberosRules: SEED_KERBEROS_RULES,
      defaultRealm: "",
      inputs: [
        { type: "ssl", distinguishedName: "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
        { type: "ssl", distinguishedName: "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
        { type: "kerberos", principal: "user@MYDOMAIN.COM" },
        { type: "kerberos", principal: "user@OTHER.COM" },
        { type: "ssl", distinguishedName: null },
      ],
    });
    expect(config.error).toBeNull();
    expect(config.parsedSslRules).toHaveLength(4);
    expect(results.map((r) => (r.outcome.ok ? r.outcome.principal : r.outcome.error))).toEqual([
      "User:serviceuser",
      "User:adminuser@admin",
      "User:user",
      "NoMatchingRule",
      "User:ANONYMOUS",
    ]);
    expect(results[0]!.outcome).toMatchObject({ rule: { index: 0, text: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1" } });
    expect(results[1]!.outcome).toMatchObject({ rule: { index: 1 } });
    expect(results[3]!.outcome).toMatchObject({ ok: false, stage: "mapping", message: expect.stringContaining("No rules apply to user@OTHER.COM") });
  });

  it("answers every client with the exception a broker would refuse to start with", () => {
    const { results, config } = mapIdentities({ sslRules: "RULE:^CN=(.*?/$1/", inputs: [{ type: "ssl", distinguishedName: "CN=a" }, { type: "kerberos", principal: "a@B" }] });
    expect(config.error).toMatchObject({ property: "ssl.principal.mapping.rules", error: "PatternSyntaxException" });
    expect(results.every((r) => !r.outcome.ok && r.outcome.stage === "config")).toBe(true);
  });

  it("refuses what is not a certificate without guessing", () => {
    expect(certificateSubject("not a certificate")).toMatchObject({ ok: false, error: "CertificateException" });
    const { results } = mapIdentities({ inputs: [{ type: "certificate", pem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" }] });
    expect(results[0]!.outcome).toMatchObject({ ok: false, stage: "certificate" });
  });

  it("does not take a private key for a certificate", () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    expect(certificateSubject(privateKey.export({ type: "pkcs8", format: "pem" }).toString())).toMatchObject({ ok: false });
  });
});

describe("the configured rules (KAFKA_SSL_PRINCIPAL_MAPPING_RULES, KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES)", () => {
  it("are what omitted rules mean, and what the access check maps with", () => {
    vi.stubEnv("KAFKA_SSL_PRINCIPAL_MAPPING_RULES", "RULE:^CN=([^,]*),.*$/$1/L");
    vi.stubEnv("KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES", SEED_KERBEROS_RULES);
    resetEnvForTests();
    expect(configuredPrincipalMapping().configured).toBe(true);
    const { results } = mapIdentities({ inputs: [{ type: "ssl", distinguishedName: "CN=Alice,OU=Eng" }] });
    expect(results[0]!.outcome).toMatchObject({ ok: true, principal: "User:alice" });
    expect(mapConfiguredClient("certificate", "CN=Alice,OU=Eng")).toMatchObject({ ok: true, principal: "User:alice", rule: "RULE:^CN=([^,]*),.*$/$1/L" });
    expect(mapConfiguredClient("kerberos", "bob@MYDOMAIN.COM")).toMatchObject({ ok: true, principal: "User:bob" });
    const refused = mapConfiguredClient("certificate", "OU=NoCommonName");
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining("NoMatchingRule") });
  });

  it("blank settings are unset: DEFAULT keeps the DN", () => {
    vi.stubEnv("KAFKA_SSL_PRINCIPAL_MAPPING_RULES", " ");
    resetEnvForTests();
    expect(configuredPrincipalMapping().configured).toBe(false);
    expect(mapConfiguredClient("certificate", "CN=a,O=b")).toMatchObject({ ok: true, principal: "User:CN=a,O=b", rule: "DEFAULT", canonicalDn: null });
    expect(mapConfiguredClient("certificate", "cn=a, o=b")).toMatchObject({ ok: true, principal: "User:CN=a,O=b", canonicalDn: "CN=a,O=b" });
  });
});
