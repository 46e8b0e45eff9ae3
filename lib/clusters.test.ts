import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  CLUSTERS_FILE_EXAMPLE,
  clusterProblems,
  ClustersError,
  DEFAULT_CLUSTER_ID,
  loadClusters,
  parseClustersFile,
} from "./clusters";
import { checkSettings } from "./settings-check";

const dir = mkdtempSync(path.join(tmpdir(), "ksc-clusters-"));
const ca = path.join(dir, "ca.pem");
writeFileSync(ca, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
const oidcSecret = path.join(dir, "oidc-secret");
writeFileSync(oidcSecret, "s3cret-of-the-client\n");

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

function problemsOf(text: string): string[] {
  try {
    parseClustersFile(text, "clusters.yaml");
  } catch (error) {
    if (error instanceof ClustersError) return error.problems;
    throw error;
  }
  return [];
}

describe("without CLUSTERS_FILE: the environment's one cluster", () => {
  it("is the local dev broker with no settings at all (npm start needs none)", () => {
    const registry = loadClusters({});
    expect(registry.defaultId).toBe(DEFAULT_CLUSTER_ID);
    expect(registry.clusters).toEqual([
      expect.objectContaining({
        id: "default",
        kafka: expect.objectContaining({ bootstrapServers: ["127.0.0.1:9092"], securityProtocol: "SASL_PLAINTEXT" }),
        saslMechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"],
        authorizer: expect.objectContaining({ superUsers: ["User:admin"], allowEveryoneIfNoAclFound: false }),
        principalMapping: { sslRules: null, kerberosRules: null, kerberosDefaultRealm: null },
      }),
    ]);
  });

  it("takes today's variables unchanged", () => {
    const [cluster] = loadClusters({
      KAFKA_BOOTSTRAP_SERVERS: "k1:9093,k2:9093",
      KAFKA_SUPER_USERS: "User:ops",
      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: "true",
      KAFKA_SSL_PRINCIPAL_MAPPING_RULES: "RULE:^CN=(.*)$/$1/L",
      KAFKA_KERBEROS_DEFAULT_REALM: "EXAMPLE.COM",
    }).clusters;
    expect(cluster).toMatchObject({
      id: "default",
      kafka: { bootstrapServers: ["k1:9093", "k2:9093"] },
      authorizer: { superUsers: ["User:ops"], allowEveryoneIfNoAclFound: true },
      principalMapping: { sslRules: "RULE:^CN=(.*)$/$1/L", kerberosRules: null, kerberosDefaultRealm: "EXAMPLE.COM" },
    });
  });

  it("lists the Kafka and super-user problems together", () => {
    expect(clusterProblems({ KAFKA_BOOTSTRAP_SERVERS: "no-port", KAFKA_SUPER_USERS: "ops" })).toEqual([
      expect.stringContaining("KAFKA_BOOTSTRAP_SERVERS must be a comma-separated list of host:port"),
      expect.stringContaining('KAFKA_SUPER_USERS: "ops" is not a principal'),
    ]);
  });
});

describe("a clusters file", () => {
  it("reads the example of docs/clusters.md (YAML), the default first named by `default`", () => {
    const registry = parseClustersFile(
      CLUSTERS_FILE_EXAMPLE.replace("/etc/kafka/ca.pem", ca).replace("/etc/kafka-console/okta-secret", oidcSecret),
      "clusters.yaml",
    );
    expect(registry.defaultId).toBe("dev");
    expect(registry.clusters[0]!.oidc).toBeNull();
    expect(registry.clusters[1]!.oidc).toEqual({
      name: "Okta",
      issuer: "https://example.okta.com/oauth2/default",
      clientId: "kafka-security-console",
      clientSecret: "s3cret-of-the-client",
      scopes: ["openid", "profile", "offline_access", "kafka"],
      principalClaim: "sub",
      audience: "api://kafka",
      resource: null,
      bootstrapServers: ["kafka-1.example:9097"],
      only: false,
    });
    expect(registry.clusters.map((c) => [c.id, c.displayName])).toEqual([
      ["dev", "Development"],
      ["prod-eu", "Production (EU)"],
    ]);
    const prod = registry.clusters[1]!;
    expect(prod.kafka).toMatchObject({
      bootstrapServers: ["kafka-1.example:9093", "kafka-2.example:9093"],
      securityProtocol: "SASL_SSL",
    });
    expect(prod.kafka.tls).toEqual({ rejectUnauthorized: true, ca: expect.stringContaining("BEGIN CERTIFICATE") });
    expect(prod.saslMechanisms).toEqual(["SCRAM-SHA-512"]);
    expect(prod.authorizer).toMatchObject({ superUsers: ["User:admin", "User:ops"], allowEveryoneIfNoAclFound: false });
    expect(prod.principalMapping).toEqual({
      sslRules: "RULE:^CN=([^,]*),.*$/$1/L,DEFAULT",
      kerberosRules: "DEFAULT",
      kerberosDefaultRealm: "EXAMPLE.COM",
    });
  });

  it("reads JSON, with defaults for what a cluster leaves out and the first cluster as default", () => {
    const registry = parseClustersFile(
      JSON.stringify({
        clusters: [
          { id: "a", bootstrapServers: "h:1" },
          { id: "b", bootstrapServers: ["h:2"], superUsers: "User:x; User:y" },
        ],
      }),
      "c.json",
    );
    expect(registry.defaultId).toBe("a");
    expect(registry.clusters[0]).toMatchObject({
      id: "a",
      displayName: "a",
      saslMechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"],
      authorizer: { superUsers: [] },
    });
    expect(registry.clusters[0]!.kafka.tls).toBeUndefined();
    expect(registry.clusters[1]!.authorizer.superUsers).toEqual(["User:x", "User:y"]);
  });

  it("is refused with every problem listed, each with its place in the file", () => {
    const problems = problemsOf(`
default: nowhere
clusters:
  - id: Prod EU
    bootstrapServers: [kafka-1, "k:99999"]
    securityProtocol: PLAINTEXT
    saslMechanisms: [GSSAPI]
    superUsers: [admin]
    allowEveryoneIfNoAclFound: "yes"
    colour: blue
  - id: dev
    bootstrapServers: []
    tls: { certFile: ${ca}, caFile: /nonexistent/ca.pem }
    principalMapping: { sslRules: "RULE:nonsense", kerberosRules: "RULE:[x:$1]" }
  - id: dev
    bootstrapServers: h:1
`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^CLUSTERS_FILE=clusters\.yaml: clusters\[0\]\.id: id must be a URL-safe slug/),
        expect.stringMatching(/clusters\[0\]\.bootstrapServers\[0\]: must be host:port/),
        expect.stringMatching(/clusters\[0\]\.bootstrapServers\[1\]: must be host:port/),
        expect.stringMatching(/clusters\[0\]\.securityProtocol: securityProtocol must be SASL_PLAINTEXT or SASL_SSL/),
        expect.stringMatching(
          /clusters\[0\]\.saslMechanisms\[0\]: each mechanism must be one of SCRAM-SHA-512, SCRAM-SHA-256, PLAIN/,
        ),
        expect.stringMatching(/clusters\[0\]\.superUsers\[0\]: must be a principal Type:name/),
        expect.stringMatching(
          /clusters\[0\]\.allowEveryoneIfNoAclFound: allowEveryoneIfNoAclFound must be true or false/,
        ),
        expect.stringMatching(/clusters\[0\]: Unrecognized key: "colour"/),
        expect.stringMatching(/clusters\[1\]\.bootstrapServers: bootstrapServers must name at least one host:port/),
        expect.stringMatching(/clusters\[1\]\.tls: tls is set but securityProtocol is SASL_PLAINTEXT/),
        expect.stringMatching(/clusters\[1\]\.tls: certFile and keyFile must be set together/),
        expect.stringMatching(/clusters\[1\]\.tls\.caFile: \/nonexistent\/ca\.pem cannot be read/),
        expect.stringMatching(
          /clusters\[1\]\.principalMapping\.sslRules: a broker would refuse to start with these rules/,
        ),
        expect.stringMatching(
          /clusters\[1\]\.principalMapping\.kerberosRules: a broker would refuse to start with these rules/,
        ),
      ]),
    );
    expect(problems).toHaveLength(14);
  });

  it("lists, once every cluster reads, a repeated id and an unknown default beside the TLS and rule problems", () => {
    const problems = problemsOf(`
default: nowhere
clusters:
  - id: dev
    bootstrapServers: h:1
    tls: { certFile: ${ca}, caFile: /nonexistent/ca.pem }
    principalMapping: { sslRules: "RULE:nonsense", kerberosRules: "RULE:[x:$1]" }
  - id: dev
    bootstrapServers: h:2
`);
    expect(problems).toEqual([
      "CLUSTERS_FILE=clusters.yaml: clusters[0].tls: tls is set but securityProtocol is SASL_PLAINTEXT; set it " +
        "to SASL_SSL",
      "CLUSTERS_FILE=clusters.yaml: clusters[0].tls: certFile and keyFile must be set together",
      expect.stringMatching(
        /^CLUSTERS_FILE=clusters\.yaml: clusters\[0\]\.tls\.caFile: \/nonexistent\/ca\.pem cannot be read: ENOENT/,
      ),
      expect.stringMatching(
        /^CLUSTERS_FILE=clusters\.yaml: clusters\[0\]\.principalMapping\.sslRules: a broker would refuse to start with these rules: Invalid rule/,
      ),
      expect.stringMatching(
        /^CLUSTERS_FILE=clusters\.yaml: clusters\[0\]\.principalMapping\.kerberosRules: a broker would refuse to start with these rules/,
      ),
      'CLUSTERS_FILE=clusters.yaml: clusters[1].id: id "dev" is used by an earlier cluster',
      'CLUSTERS_FILE=clusters.yaml: default: default "nowhere" is not the id of a cluster in the file',
    ]);
  });

  it("refuses a document that is not YAML, or has no clusters", () => {
    expect(problemsOf("clusters: [\n")).toEqual([
      expect.stringMatching(/^CLUSTERS_FILE=clusters\.yaml: not valid YAML/),
    ]);
    expect(problemsOf('{"clusters": ')).toEqual([expect.stringMatching(/not valid JSON/)]);
    expect(problemsOf("clusters: []")).toEqual([
      "CLUSTERS_FILE=clusters.yaml: clusters: clusters must name at least one cluster",
    ]);
    expect(problemsOf("just text")).toEqual([expect.stringMatching(/CLUSTERS_FILE=clusters\.yaml: the file: /)]);
  });
});

describe("CLUSTERS_FILE in the settings check", () => {
  it("adds the file's problems, an unreadable file and single-cluster variables set beside it to the one list", () => {
    const bad = file("bad.yaml", "clusters:\n  - id: x\n    bootstrapServers: nope\n");
    expect(checkSettings({ CLUSTERS_FILE: bad, KAFKA_BOOTSTRAP_SERVERS: "h:1", SESSION_TTL_HOURS: "abc" })).toEqual([
      expect.stringMatching(/^SESSION_TTL_HOURS: /),
      "KAFKA_BOOTSTRAP_SERVERS: set together with CLUSTERS_FILE; the clusters file describes every cluster, so " +
        "say it there",
      `CLUSTERS_FILE=${bad}: clusters[0].bootstrapServers[0]: must be host:port`,
    ]);
    expect(checkSettings({ CLUSTERS_FILE: path.join(dir, "missing.yaml") })).toEqual([
      expect.stringMatching(/missing\.yaml cannot be read: ENOENT/),
    ]);
  });

  it("is fine with a good file", () => {
    const good = file(
      "good.json",
      JSON.stringify({
        clusters: [
          { id: "one", bootstrapServers: "127.0.0.1:9092" },
          { id: "two", bootstrapServers: "127.0.0.1:23092" },
        ],
      }),
    );
    expect(checkSettings({ CLUSTERS_FILE: good })).toEqual([]);
    expect(loadClusters({ CLUSTERS_FILE: good }).clusters.map((c) => c.id)).toEqual(["one", "two"]);
  });
});

describe("the console's service principal (a credentials file per cluster)", () => {
  const secretFile = (name: string, text: string, mode = 0o600) => {
    const p = path.join(dir, name);
    writeFileSync(p, text, { mode });
    chmodSync(p, mode);
    return p;
  };

  it(
    "is read from KAFKA_SERVICE_CREDENTIALS_FILE (JSON) or the clusters file's serviceCredentialsFile " +
      "(YAML); none without either",
    () => {
      const json = secretFile(
        "service.json",
        JSON.stringify({ username: "console-service", password: "s3cret-pw", mechanism: "SCRAM-SHA-256" }),
      );
      expect(loadClusters({ KAFKA_SERVICE_CREDENTIALS_FILE: json }).clusters[0]?.servicePrincipal).toEqual({
        principal: "User:console-service",
        file: json,
        credential: {
          username: "console-service",
          password: "s3cret-pw",
          mechanism: "SCRAM-SHA-256",
          clusterId: "default",
        },
      });
      expect(loadClusters({}).clusters[0]?.servicePrincipal).toBeNull();

      const yaml = secretFile("service.yaml", "username: reader\npassword: other-pw\n");
      const clustersFile = file(
        "with-service.yaml",
        `clusters:\n  - { id: one, bootstrapServers: "h:1", serviceCredentialsFile: ${yaml} }\n  - { id: two, ` +
          `bootstrapServers: "h:2" }\n`,
      );
      const [one, two] = loadClusters({ CLUSTERS_FILE: clustersFile }).clusters;
      expect(one?.servicePrincipal?.credential).toEqual({
        username: "reader",
        password: "other-pw",
        mechanism: "SCRAM-SHA-512",
        clusterId: "one",
      });
      expect(two?.servicePrincipal).toBeNull();
    },
  );

  it("refuses a file other users may read, a bad one and a missing one, never quoting the password", () => {
    const open = secretFile("open.json", JSON.stringify({ username: "u", password: "leaky-pw" }), 0o644);
    const broken = secretFile("broken.json", '{"username": "u", "password": "broken-pw"');
    const incomplete = secretFile("incomplete.yaml", "username: u\nmechanism: GSSAPI\n");
    const problems = [open, broken, incomplete, path.join(dir, "absent.json")].flatMap((f) =>
      clusterProblems({ KAFKA_SERVICE_CREDENTIALS_FILE: f }),
    );
    expect(problems).toEqual([
      `KAFKA_SERVICE_CREDENTIALS_FILE: ${open} is readable by other users (mode 644); it holds a password: run ` +
        `chmod 600 ${open}`,
      `KAFKA_SERVICE_CREDENTIALS_FILE: ${broken} is not valid JSON or YAML (its content is not shown: it holds ` +
        `a password)`,
      `KAFKA_SERVICE_CREDENTIALS_FILE: ${incomplete}: password: password must be a string`,
      `KAFKA_SERVICE_CREDENTIALS_FILE: ${incomplete}: mechanism: mechanism must be one of SCRAM-SHA-512, ` +
        `SCRAM-SHA-256, PLAIN`,
      expect.stringMatching(/absent\.json cannot be read: ENOENT/),
    ]);
    expect(problems.join("\n")).not.toMatch(/leaky-pw|broken-pw/);
    const inFile = file(
      "bad-service.yaml",
      `clusters:\n  - { id: one, bootstrapServers: "h:1", serviceCredentialsFile: ${open} }\n`,
    );
    expect(clusterProblems({ CLUSTERS_FILE: inFile })).toEqual([
      expect.stringMatching(/^CLUSTERS_FILE=.*: clusters\[0\]\.serviceCredentialsFile: .* is readable by other users/),
    ]);
    expect(clusterProblems({ CLUSTERS_FILE: inFile, KAFKA_SERVICE_CREDENTIALS_FILE: open })[0]).toBe(
      "KAFKA_SERVICE_CREDENTIALS_FILE: set together with CLUSTERS_FILE; the clusters file describes every " +
        "cluster, so say it there",
    );
  });
});

describe("single sign-on settings (#21)", () => {
  const oidcVariables = {
    KAFKA_OIDC_ISSUER: "http://127.0.0.1:9400",
    KAFKA_OIDC_CLIENT_ID: "kafka-security-console",
    KAFKA_OIDC_CLIENT_SECRET_FILE: oidcSecret,
    KAFKA_OIDC_PRINCIPAL_CLAIM: "preferred_username",
    KAFKA_OIDC_BOOTSTRAP_SERVERS: "127.0.0.1:9096",
    KAFKA_OIDC_ONLY: "true",
  };

  it("reads the KAFKA_OIDC_* variables into the one cluster, with defaults for scopes and name", () => {
    const [cluster] = loadClusters(oidcVariables).clusters;
    expect(cluster!.oidc).toEqual({
      name: "127.0.0.1:9400",
      issuer: "http://127.0.0.1:9400",
      clientId: "kafka-security-console",
      clientSecret: "s3cret-of-the-client",
      scopes: ["openid", "profile", "offline_access"],
      principalClaim: "preferred_username",
      audience: null,
      resource: null,
      bootstrapServers: ["127.0.0.1:9096"],
      only: true,
    });
    expect(loadClusters({}).clusters[0]!.oidc).toBeNull();
  });

  it("names every problem: plain http to another host, no openid scope, an unreadable secret, no issuer", () => {
    expect(
      clusterProblems({
        ...oidcVariables,
        KAFKA_OIDC_ISSUER: "http://idp.example.com",
        KAFKA_OIDC_SCOPES: "profile kafka",
        KAFKA_OIDC_CLIENT_SECRET_FILE: path.join(dir, "missing"),
        KAFKA_OIDC_ONLY: "maybe",
      }),
    ).toEqual([
      "KAFKA_OIDC_ONLY: must be true or false",
      expect.stringContaining("KAFKA_OIDC_ISSUER: issuer must be an https:// URL"),
      expect.stringMatching(/KAFKA_OIDC_CLIENT_SECRET_FILE: .*missing cannot be read/),
      expect.stringContaining('KAFKA_OIDC_SCOPES: scopes must include "openid"'),
    ]);
    expect(clusterProblems({ KAFKA_OIDC_CLIENT_ID: "x" })).toEqual([
      "KAFKA_OIDC_CLIENT_ID: set without KAFKA_OIDC_ISSUER, which names the provider",
    ]);
  });

  it("refuses the variables beside a clusters file, and checks a file's oidc block with its place named", () => {
    const file = path.join(dir, "sso-clusters.yaml");
    writeFileSync(
      file,
      "clusters:\n  - id: dev\n    bootstrapServers: [127.0.0.1:9092]\n    oidc: { issuer: https://idp.example }\n",
    );
    expect(clusterProblems({ CLUSTERS_FILE: file })).toEqual([
      expect.stringContaining("clusters[0].oidc.clientId: clientId must be a string"),
    ]);
    expect(clusterProblems({ CLUSTERS_FILE: file, KAFKA_OIDC_ISSUER: "https://idp.example" })).toContainEqual(
      expect.stringContaining("KAFKA_OIDC_ISSUER: set together with CLUSTERS_FILE"),
    );
  });
});
