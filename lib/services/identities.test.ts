import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";

vi.mock("server-only", () => ({}));
const {
  mapIdentities,
  mapIdentitiesFor,
  mapConfiguredClient,
  certificateSubject,
  configuredPrincipalMapping,
  RULES_TIME_LIMIT_MS,
} = await import("./identities");
const { explainAccess } = await import("./access-check");

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
    expect(results[3]!.outcome).toMatchObject({
      ok: false,
      stage: "mapping",
      message: expect.stringContaining("No rules apply to user@OTHER.COM"),
    });
  });

  it("answers every client with the exception a broker would refuse to start with", () => {
    const { results, config } = mapIdentities({
      sslRules: "RULE:^CN=(.*?/$1/",
      inputs: [
        { type: "ssl", distinguishedName: "CN=a" },
        { type: "kerberos", principal: "a@B" },
      ],
    });
    expect(config.error).toMatchObject({ property: "ssl.principal.mapping.rules", error: "PatternSyntaxException" });
    expect(results.every((r) => !r.outcome.ok && r.outcome.stage === "config")).toBe(true);
  });

  it("refuses what is not a certificate without guessing", () => {
    expect(certificateSubject("not a certificate")).toMatchObject({ ok: false, error: "CertificateException" });
    const { results } = mapIdentities({
      inputs: [{ type: "certificate", pem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" }],
    });
    expect(results[0]!.outcome).toMatchObject({ ok: false, stage: "certificate" });
  });

  it("does not take a private key for a certificate", () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    expect(certificateSubject(privateKey.export({ type: "pkcs8", format: "pem" }).toString())).toMatchObject({
      ok: false,
    });
  });
});

describe(
  "the configured rules (KAFKA_SSL_PRINCIPAL_MAPPING_RULES, " + "KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES)",
  () => {
    it("are what omitted rules mean, and what the access check maps with", () => {
      vi.stubEnv("KAFKA_SSL_PRINCIPAL_MAPPING_RULES", "RULE:^CN=([^,]*),.*$/$1/L");
      vi.stubEnv("KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES", SEED_KERBEROS_RULES);
      resetEnvForTests();
      expect(configuredPrincipalMapping().configured).toBe(true);
      const { results } = mapIdentities({ inputs: [{ type: "ssl", distinguishedName: "CN=Alice,OU=Eng" }] });
      expect(results[0]!.outcome).toMatchObject({ ok: true, principal: "User:alice" });
      expect(mapConfiguredClient("certificate", "CN=Alice,OU=Eng")).toMatchObject({
        ok: true,
        principal: "User:alice",
        rule: "RULE:^CN=([^,]*),.*$/$1/L",
      });
      expect(mapConfiguredClient("kerberos", "bob@MYDOMAIN.COM")).toMatchObject({ ok: true, principal: "User:bob" });
      const refused = mapConfiguredClient("certificate", "OU=NoCommonName");
      expect(refused).toMatchObject({ ok: false, message: expect.stringContaining("NoMatchingRule") });
    });

    it("blank settings are unset: DEFAULT keeps the DN", () => {
      vi.stubEnv("KAFKA_SSL_PRINCIPAL_MAPPING_RULES", " ");
      resetEnvForTests();
      expect(configuredPrincipalMapping().configured).toBe(false);
      expect(mapConfiguredClient("certificate", "CN=a,O=b")).toMatchObject({
        ok: true,
        principal: "User:CN=a,O=b",
        rule: "DEFAULT",
        canonicalDn: null,
      });
      expect(mapConfiguredClient("certificate", "cn=a, o=b")).toMatchObject({
        ok: true,
        principal: "User:CN=a,O=b",
        canonicalDn: "CN=a,O=b",
      });
    });
  },
);

describe("one budget per request (rules that backtrack must not hold the server)", () => {
  // Each match backtracks ~1.8 million steps and fails; 1,050 rules x 100 DNs used to run for minutes.
  const backtracking = Array<string>(1050).fill("RULE:^(.*a){5}$/x/").join(",");
  const dn = "a".repeat(40) + "!";
  const viewer = { credential: {} } as Parameters<typeof mapIdentitiesFor>[0];

  it(
    "refuses the whole request with RULES_TOO_COSTLY (422) naming the limit, within a fraction of a " + "second",
    async () => {
      const started = performance.now();
      const answer = await mapIdentitiesFor(viewer, {
        sslRules: backtracking,
        inputs: Array.from({ length: 100 }, () => ({ type: "ssl" as const, distinguishedName: dn })),
      });
      const ms = performance.now() - started;
      expect(answer).toEqual({
        ok: false,
        code: "RULES_TOO_COSTLY",
        message: expect.stringMatching(/more than 3,000,000 regex steps|longer than 150 ms/),
      });
      expect(ms).toBeLessThan(RULES_TIME_LIMIT_MS + 250);
    },
  );

  it("stops at once when the client has gone", async () => {
    const gone = new AbortController();
    gone.abort();
    const answer = await mapIdentitiesFor(
      viewer,
      { sslRules: "DEFAULT", inputs: [{ type: "ssl", distinguishedName: "CN=a" }] },
      gone.signal,
    );
    expect(answer).toMatchObject({
      ok: false,
      code: "RULES_TOO_COSTLY",
      message: expect.stringContaining("cancelled"),
    });
  });

  it("holds for the access check's certificate and Kerberos clients with the configured rules", async () => {
    vi.stubEnv("KAFKA_SSL_PRINCIPAL_MAPPING_RULES", backtracking);
    resetEnvForTests();
    const started = performance.now();
    const answer = await explainAccess(viewer, {
      client: { kind: "certificate", value: dn },
      principal: "",
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "orders",
      host: "127.0.0.1",
    });
    expect(answer).toMatchObject({ ok: false, code: "RULES_TOO_COSTLY" });
    expect(performance.now() - started).toBeLessThan(RULES_TIME_LIMIT_MS + 250);
  });
});
