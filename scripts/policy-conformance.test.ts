/**
 * Black-box conformance of the policy CLI with Apache Kafka 4.x.
 *
 * Every case below is a case of one of Kafka's own tests, translated the way an outside
 * tester would: the CLI is spawned (`tsx scripts/policy.ts <command>`, what
 * `npm run --silent policy -- <command>` runs), fed one JSON document on stdin, and its
 * stdout compared with what Kafka's test asserts. The Kafka test each case comes from is
 * named next to it (paths relative to the apache/kafka repository):
 *
 *   StandardAuthorizerTest      metadata/src/test/java/org/apache/kafka/metadata/authorizer/
 *   AclControlManagerTest       metadata/src/test/java/org/apache/kafka/controller/
 *   ClientQuotaControlManagerTest  (same folder)
 *   ClientQuotasImage           metadata/src/main/java/org/apache/kafka/image/ (describe's errors)
 *   AuthorizerTest, BaseAuthorizerTest  core/src/test/scala/unit/kafka/security/authorizer/
 *   ClientQuotaManagerTest, ClientQuotasRequestTest, DelegationTokenRequests*Test
 *                               core/src/test/scala/unit/kafka/server/
 *   DelegationTokenEndToEndAuthorizationWithOwnerTest  core/src/test/scala/integration/kafka/api/
 *   ResourcePatternFilterTest   clients/src/test/java/org/apache/kafka/common/acl/
 *   AclBindingFilterTest        clients/src/test/java/org/apache/kafka/common/acl/
 *   SslPrincipalMapperTest      clients/src/test/java/org/apache/kafka/common/security/ssl/
 *   KerberosNameTest, KerberosRuleTest  clients/src/test/java/org/apache/kafka/common/security/kerberos/
 *   DefaultKafkaPrincipalBuilderTest    clients/src/test/java/org/apache/kafka/common/security/auth/
 *
 * Kafka tests that mutate state step by step are translated into one stateless input per
 * step. To keep the number of CLI spawns small (each costs ~0.5-1 s on a loaded machine),
 * independent steps share one call where that cannot change the answer:
 *  - by namespacing the principal per step (`User:s1-user1`): with the default DENY, ACLs of
 *    other principals only decide between "noAclMatched" and "default", which such cases
 *    do not assert;
 *  - by prefixing every resource name of one Kafka test with a tag (`d.foo`), which keeps
 *    all prefix relations within the test and none across tests;
 *  - for quotas, by giving each independent configuration its own quota key (Kafka resolves
 *    every key separately, with its own quota manager).
 * Hosts Kafka reads from InetAddress.getLocalHost() are written as 10.0.0.5.
 */
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const TSX_CLI = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const T = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Spawn the CLI with the Node that runs the tests, as `npm run --silent policy -- <args>` would. */
function runCli(args: string[], stdin: string): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, "scripts/policy.ts", ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    child.stdin.end(stdin);
  });
}

// The CLI's answers are JSON of known shape; the tests read them loosely typed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function cli(command: string, input: unknown): Promise<Json> {
  const r = await runCli([command], JSON.stringify(input));
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

// ---- ACL vocabulary -----------------------------------------------------------------

interface Acl {
  resourceType: string;
  resourceName: string;
  patternType: string;
  principal: string;
  host: string;
  operation: string;
  permissionType: string;
}

const acl = (resourceType: string, resourceName: string, patternType: string, principal: string, host: string, operation: string, permissionType: string): Acl => ({
  resourceType,
  resourceName,
  patternType,
  principal,
  host,
  operation,
  permissionType,
});

const request = (principal: string, host: string, operation: string, resourceType: string, resourceName: string) => ({ principal, host, operation, resourceType, resourceName });

/** One expected authorize() answer next to its request, so that long batches stay readable. */
type Expect = "ALLOWED" | "DENIED";
interface Case {
  req: ReturnType<typeof request>;
  decision: Expect;
  rule?: Json;
}

async function authorizeCases(doc: { acls: Acl[]; superUsers?: unknown; allowEveryoneIfNoAclFound?: unknown }, cases: Case[]) {
  const out = await cli("authorize", { ...doc, requests: cases.map((c) => c.req) });
  expect(out.results).toHaveLength(cases.length);
  cases.forEach((c, i) => {
    const where = `${JSON.stringify(c.req)}`;
    expect(out.results[i].decision, where).toBe(c.decision);
    if (c.rule !== undefined) expect(out.results[i].rule, where).toEqual(c.rule);
  });
}

const LOCALHOST = "10.0.0.5"; // InetAddress.getLocalHost().getHostAddress() in Kafka's tests

// Valid operations of AclOperation (BaseAuthorizerTest.validOp: all but ANY and UNKNOWN).
const OPS = [
  "ALL",
  "READ",
  "WRITE",
  "CREATE",
  "DELETE",
  "ALTER",
  "DESCRIBE",
  "CLUSTER_ACTION",
  "DESCRIBE_CONFIGS",
  "ALTER_CONFIGS",
  "IDEMPOTENT_WRITE",
  "CREATE_TOKENS",
  "DESCRIBE_TOKENS",
] as const;

describe.concurrent("authorize (StandardAuthorizer)", () => {
  it(
    "StandardAuthorizerTest.testFindResultImplication / testFindResultPrincipalMatching / testSimpleAuthorizations",
    async () => {
      // findResult(action, context, acl) for one ACL at a time: one principal per ACL here.
      // findResult == null means "this ACL does not decide": the resource has ACLs, so DENIED.
      const cases: Case[] = [];
      const acls: Acl[] = [];
      const one = (permission: string, op: string, requested: string, expected: "ALLOWED" | "DENIED" | null) => {
        const principal = `User:bob-${permission}-${op}-${requested}`;
        const a = acl("TOPIC", "foo_", "PREFIXED", principal, "*", op, permission);
        acls.push(a);
        cases.push({
          req: request(principal, "127.0.0.1", requested, "TOPIC", "foo_bar"),
          decision: expected ?? "DENIED",
          rule: expected === null ? { kind: "noAclMatched" } : { kind: "acl", acl: a },
        });
      };
      for (const op of ["DESCRIBE", "READ", "WRITE", "DELETE", "ALTER"]) one("ALLOW", op, "DESCRIBE", "ALLOWED"); // all imply DESCRIBE
      one("ALLOW", "CREATE", "DESCRIBE", null); // CREATE does not imply DESCRIBE
      for (const op of ["READ", "WRITE", "DELETE", "ALTER"]) one("DENY", op, "DESCRIBE", null); // DENY does no implication
      one("DENY", "DESCRIBE", "DESCRIBE", "DENIED");
      for (const op of ["DESCRIBE_CONFIGS", "ALTER_CONFIGS"]) one("ALLOW", op, "DESCRIBE_CONFIGS", "ALLOWED");
      one("DENY", "ALTER_CONFIGS", "DESCRIBE_CONFIGS", null);
      one("DENY", "ALTER_CONFIGS", "ALTER_CONFIGS", "DENIED");

      // testFindResultPrincipalMatching (newFooAcl READ ALLOW for User:bob, newBarAcl READ DENY for User:*)
      const fooRead = acl("TOPIC", "foo_", "PREFIXED", "User:bob", "*", "READ", "ALLOW");
      const barDeny = acl("GROUP", "bar", "LITERAL", "User:*", "*", "READ", "DENY");
      // testSimpleAuthorizations adds newFooAcl(WRITE, ALLOW) and newBarAcl(DESCRIBE_CONFIGS / ALTER_CONFIGS, ALLOW)
      const fooWrite = acl("TOPIC", "foo_", "PREFIXED", "User:bob", "*", "WRITE", "ALLOW");
      const barDescribeConfigs = acl("GROUP", "bar", "LITERAL", "User:*", "*", "DESCRIBE_CONFIGS", "ALLOW");
      const barAlterConfigs = acl("GROUP", "bar", "LITERAL", "User:*", "*", "ALTER_CONFIGS", "ALLOW");
      acls.push(fooRead, barDeny, fooWrite, barDescribeConfigs, barAlterConfigs);
      cases.push(
        { req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "foo_bar"), decision: "ALLOWED", rule: { kind: "acl", acl: fooRead } },
        { req: request("User:alice", "127.0.0.1", "READ", "TOPIC", "foo_bar"), decision: "DENIED", rule: { kind: "noAclMatched" } },
        { req: request("User:alice", "127.0.0.1", "READ", "GROUP", "bar"), decision: "DENIED", rule: { kind: "acl", acl: barDeny } },
        // testSimpleAuthorizations
        { req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "foo_"), decision: "ALLOWED", rule: { kind: "acl", acl: fooRead } },
        { req: request("User:fred", "127.0.0.1", "ALTER_CONFIGS", "GROUP", "bar"), decision: "ALLOWED", rule: { kind: "acl", acl: barAlterConfigs } },
      );
      // superUsers and allowEveryoneIfNoAclFound omitted: no super users, default DENIED.
      await authorizeCases({ acls }, cases);
    },
    T,
  );

  it(
    "StandardAuthorizerTest.testDenyPrecedenceWithOperationAll / testTopicAclWithOperationAll / testPrefixAcls / testHostAddressAclValidation",
    async () => {
      const h1 = "192.168.1.1";
      const h2 = "192.168.1.2";
      const acls = [
        // testDenyPrecedenceWithOperationAll, names tagged "d."
        acl("TOPIC", "d.foo", "LITERAL", "User:alice", "*", "ALL", "DENY"),
        acl("TOPIC", "d.foo", "PREFIXED", "User:alice", "*", "READ", "ALLOW"),
        acl("TOPIC", "d.foo", "LITERAL", "User:*", "*", "ALL", "DENY"),
        acl("TOPIC", "d.foo", "PREFIXED", "User:*", "*", "DESCRIBE", "ALLOW"),
        // testTopicAclWithOperationAll, "o."
        acl("TOPIC", "o.foo", "LITERAL", "User:*", "*", "ALL", "ALLOW"),
        acl("TOPIC", "o.bar", "PREFIXED", "User:alice", "*", "ALL", "ALLOW"),
        acl("TOPIC", "o.baz", "LITERAL", "User:bob", "*", "ALL", "ALLOW"),
        // testPrefixAcls, "p."
        acl("TOPIC", "p.fooa", "PREFIXED", "User:alice", "*", "ALL", "ALLOW"),
        acl("TOPIC", "p.foobar", "LITERAL", "User:bob", "*", "ALL", "ALLOW"),
        acl("TOPIC", "p.f", "PREFIXED", "User:bob", "*", "ALL", "ALLOW"),
        // testHostAddressAclValidation, "h."
        acl("TOPIC", "h.foo", "LITERAL", "User:alice", h1, "READ", "DENY"),
        acl("TOPIC", "h.foo", "LITERAL", "User:alice", "*", "READ", "ALLOW"),
        acl("TOPIC", "h.bar", "LITERAL", "User:bob", h2, "READ", "ALLOW"),
        acl("TOPIC", "h.bar", "LITERAL", "User:*", LOCALHOST, "DESCRIBE", "ALLOW"),
      ];
      const c = (principal: string, host: string, op: string, name: string, decision: Expect): Case => ({ req: request(`User:${principal}`, host, op, "TOPIC", name), decision });
      const L = "127.0.0.1";
      const hostActions = (principal: string, host: string, expected: [Expect, Expect, Expect]): Case[] => [
        c(principal, host, "READ", "h.foo", expected[0]),
        c(principal, host, "READ", "h.bar", expected[1]),
        c(principal, host, "DESCRIBE", "h.bar", expected[2]),
      ];
      await authorizeCases({ acls, superUsers: ["User:superman"] }, [
        c("alice", L, "WRITE", "d.foo", "DENIED"),
        c("alice", L, "READ", "d.foo", "DENIED"),
        c("alice", L, "DESCRIBE", "d.foo", "DENIED"),
        c("alice", L, "READ", "d.foobar", "ALLOWED"),
        c("bob", L, "DESCRIBE", "d.foo", "DENIED"),
        c("bob", L, "READ", "d.foo", "DENIED"),
        c("bob", L, "WRITE", "d.foo", "DENIED"),
        c("bob", L, "DESCRIBE", "d.foobaz", "ALLOWED"),
        c("bob", L, "READ", "d.foobaz", "DENIED"),

        c("alice", L, "WRITE", "o.foo", "ALLOWED"),
        c("alice", L, "DESCRIBE_CONFIGS", "o.bar", "ALLOWED"),
        c("alice", L, "DESCRIBE", "o.baz", "DENIED"),
        c("bob", L, "WRITE", "o.foo", "ALLOWED"),
        c("bob", L, "READ", "o.bar", "DENIED"),
        c("bob", L, "DESCRIBE", "o.baz", "ALLOWED"),
        c("malory", L, "DESCRIBE", "o.foo", "ALLOWED"),
        c("malory", L, "WRITE", "o.bar", "DENIED"),
        c("malory", L, "READ", "o.baz", "DENIED"),

        c("bob", L, "WRITE", "p.foobarr", "ALLOWED"),
        c("bob", L, "READ", "p.goobar", "DENIED"),
        c("bob", L, "READ", "p.fooa", "ALLOWED"),
        c("alice", L, "DESCRIBE", "p.fooa", "ALLOWED"),
        c("alice", L, "WRITE", "p.bar", "DENIED"),
        c("alice", L, "READ", "p.baz", "DENIED"),

        ...hostActions("alice", LOCALHOST, ["ALLOWED", "DENIED", "ALLOWED"]),
        ...hostActions("alice", h1, ["DENIED", "DENIED", "DENIED"]),
        ...hostActions("alice", h2, ["ALLOWED", "DENIED", "DENIED"]),
        ...hostActions("bob", LOCALHOST, ["DENIED", "DENIED", "ALLOWED"]),
        ...hostActions("bob", h1, ["DENIED", "DENIED", "DENIED"]),
        ...hostActions("bob", h2, ["DENIED", "ALLOWED", "ALLOWED"]),
      ]);
    },
    T,
  );

  it(
    "StandardAuthorizerTest.testAuthorizationWithManyAcls / testDenyAuditLogging / testAllowAuditLogging / testAuthorizationPriorToCompleteInitialLoad",
    async () => {
      const alpDeny = acl("TOPIC", "alp", "PREFIXED", "User:bob", "*", "READ", "DENY");
      const greenAllow = acl("TOPIC", "green", "PREFIXED", "User:bob", "*", "READ", "ALLOW");
      const acls = [
        acl("TOPIC", "green2", "LITERAL", "User:*", "*", "READ", "ALLOW"),
        greenAllow,
        acl("TOPIC", "betamax4", "LITERAL", "User:bob", "*", "READ", "ALLOW"),
        acl("TOPIC", "betamax", "LITERAL", "User:bob", "*", "READ", "ALLOW"),
        acl("TOPIC", "beta", "PREFIXED", "User:*", "*", "READ", "ALLOW"),
        acl("TOPIC", "alpha", "PREFIXED", "User:*", "*", "READ", "ALLOW"),
        alpDeny,
        acl("GROUP", "*", "LITERAL", "User:bob", "*", "WRITE", "ALLOW"),
        acl("GROUP", "wheel", "LITERAL", "User:*", "*", "WRITE", "DENY"),
      ];
      await authorizeCases({ acls, superUsers: ["User:superman"] }, [
        // the audit-log tests name the deciding ACL: "based on rule MatchingAcl(acl=StandardAcl(...))"
        { req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "green1"), decision: "ALLOWED", rule: { kind: "acl", acl: greenAllow } },
        { req: request("User:bob", "127.0.0.1", "WRITE", "GROUP", "wheel"), decision: "DENIED" },
        { req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "alpha"), decision: "DENIED", rule: { kind: "acl", acl: alpDeny } },
        { req: request("User:bob", "127.0.0.1", "WRITE", "GROUP", "arbitrary"), decision: "ALLOWED" },
        { req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "ala"), decision: "DENIED", rule: { kind: "default" } },
        // super users are allowed whatever the ACLs say
        { req: request("User:superman", "127.0.0.1", "READ", "TOPIC", "green1"), decision: "ALLOWED", rule: { kind: "superUser" } },
        { req: request("User:superman", "127.0.0.1", "WRITE", "GROUP", "wheel"), decision: "ALLOWED", rule: { kind: "superUser" } },
      ]);
    },
    T,
  );

  it(
    "StandardAuthorizerTest.testAllowEveryoneIfNoAclFoundConfigEnabled / testGetConfiguredSuperUsers (Kafka's property string forms)",
    async () => {
      const aliceRead = acl("TOPIC", "topic1", "LITERAL", "User:Alice", "*", "READ", "ALLOW");
      await authorizeCases({ acls: [aliceRead], superUsers: ";  User:bob  ;  User:alice ", allowEveryoneIfNoAclFound: "true" }, [
        { req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic1"), decision: "DENIED", rule: { kind: "noAclMatched" } },
        { req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic2"), decision: "ALLOWED", rule: { kind: "default" } },
        { req: request("User:alice", "127.0.0.1", "READ", "TOPIC", "topic1"), decision: "ALLOWED", rule: { kind: "superUser" } },
        { req: request("User:bob", "127.0.0.1", "DELETE", "TOPIC", "topic1"), decision: "ALLOWED", rule: { kind: "superUser" } },
      ]);
    },
    T,
  );

  it(
    "StandardAuthorizerTest.testAllowEveryoneIfNoAclFoundConfigDisabled (setting omitted = false); AuthorizerTest.testAuthorizeWithEmptyResourceName (before)",
    async () => {
      const aliceRead = acl("TOPIC", "topic1", "LITERAL", "User:Alice", "*", "READ", "ALLOW");
      await authorizeCases({ acls: [aliceRead], superUsers: ["User:alice", "User:chris"] }, [
        { req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic1"), decision: "DENIED", rule: { kind: "noAclMatched" } },
        { req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic2"), decision: "DENIED", rule: { kind: "default" } },
        // super users are exact, case-sensitive strings: User:Alice is not User:alice
        { req: request("User:Alice", "127.0.0.1", "READ", "TOPIC", "topic1"), decision: "ALLOWED", rule: { kind: "acl", acl: aliceRead } },
        { req: request("User:Alice", "127.0.0.1", "WRITE", "TOPIC", "topic1"), decision: "DENIED", rule: { kind: "noAclMatched" } },
        { req: request("User:alice", "192.168.0.1", "READ", "GROUP", ""), decision: "ALLOWED", rule: { kind: "superUser" } },
        { req: request("User:bob", "192.168.0.1", "READ", "GROUP", ""), decision: "DENIED", rule: { kind: "default" } },
      ]);
    },
    T,
  );

  it(
    "AuthorizerTest: testTopicAcl, testAllowAccessWithCustomPrincipal, testDenyTakesPrecedence, testAllowAllAccess, testSuperUserHasAccess, testNoAclFound, testSingleCharacterResourceAcls, testAuthorizeWithEmptyResourceName, testAclInheritance",
    async () => {
      // BaseAuthorizerTest: super.users = "User:superuser1; User:superuser2", requestContext = User:alice from 192.168.0.1
      const h1 = "192.168.1.1";
      const h2 = "192.168.1.2";
      const r = "t-topicacl";
      const acls: Acl[] = [
        acl("TOPIC", r, "LITERAL", "User:alice", h1, "READ", "ALLOW"),
        acl("TOPIC", r, "LITERAL", "User:alice", h2, "READ", "ALLOW"),
        acl("TOPIC", r, "LITERAL", "User:alice", h1, "READ", "DENY"),
        acl("TOPIC", r, "LITERAL", "User:alice", h1, "WRITE", "ALLOW"),
        acl("TOPIC", r, "LITERAL", "User:alice", "*", "DESCRIBE", "ALLOW"),
        acl("TOPIC", r, "LITERAL", "User:rob", "*", "READ", "ALLOW"),
        acl("TOPIC", r, "LITERAL", "User:batman", "*", "WRITE", "ALLOW"),
        // testAllowAccessWithCustomPrincipal
        acl("TOPIC", "t-custom", "LITERAL", "User:alice", h1, "READ", "DENY"),
        acl("TOPIC", "t-custom", "LITERAL", "User:alice", h2, "READ", "ALLOW"),
        // testDenyTakesPrecedence
        acl("TOPIC", "t-deny", "LITERAL", "User:*", "*", "ALL", "ALLOW"),
        acl("TOPIC", "t-deny", "LITERAL", "User:alice", "192.168.2.1", "ALL", "DENY"),
        // testAllowAllAccess
        acl("TOPIC", "t-allowall", "LITERAL", "User:*", "*", "ALL", "ALLOW"),
        // testSuperUserHasAccess
        acl("TOPIC", "t-super", "LITERAL", "User:*", "*", "ALL", "DENY"),
        // testSingleCharacterResourceAcls
        acl("TOPIC", "f", "LITERAL", "User:*", "*", "READ", "ALLOW"),
        acl("TOPIC", "_", "PREFIXED", "User:*", "*", "READ", "ALLOW"),
        // testAuthorizeWithEmptyResourceName (after adding the wildcard group ACL)
        acl("GROUP", "*", "LITERAL", "User:*", "*", "READ", "ALLOW"),
      ];
      const c = (principal: string, host: string, op: string, name: string, decision: Expect, resourceType = "TOPIC"): Case => ({
        req: request(`User:${principal}`, host, op, resourceType, name),
        decision,
      });
      const cases: Case[] = [
        c("alice", h2, "READ", r, "ALLOWED"),
        c("alice", h1, "READ", r, "DENIED"),
        c("alice", h1, "WRITE", r, "ALLOWED"),
        c("alice", h2, "WRITE", r, "DENIED"),
        c("alice", h1, "DESCRIBE", r, "ALLOWED"),
        c("alice", h2, "DESCRIBE", r, "ALLOWED"),
        c("alice", h1, "ALTER", r, "DENIED"),
        c("alice", h2, "ALTER", r, "DENIED"),
        c("rob", h1, "DESCRIBE", r, "ALLOWED"),
        c("batman", h1, "DESCRIBE", r, "ALLOWED"),
        c("rob", h1, "READ", r, "ALLOWED"),
        c("batman", h1, "WRITE", r, "ALLOWED"),
        c("alice", h2, "READ", "t-custom", "ALLOWED"),
        c("alice", h1, "READ", "t-custom", "DENIED"),
        c("alice", "192.168.2.1", "READ", "t-deny", "DENIED"),
        c("random", "192.0.4.4", "READ", "t-allowall", "ALLOWED"),
        { ...c("superuser1", "192.0.4.4", "READ", "t-super", "ALLOWED"), rule: { kind: "superUser" } },
        { ...c("superuser2", "192.0.4.4", "READ", "t-super", "ALLOWED"), rule: { kind: "superUser" } },
        { ...c("alice", "192.168.0.1", "READ", "t-none", "DENIED"), rule: { kind: "default" } },
        c("alice", "192.168.0.1", "READ", "f", "ALLOWED"),
        c("alice", "192.168.0.1", "READ", "foo", "DENIED"),
        c("alice", "192.168.0.1", "READ", "_foo", "ALLOWED"),
        c("alice", "192.168.0.1", "READ", "_", "ALLOWED"),
        c("alice", "192.168.0.1", "READ", "foo_", "DENIED"),
        c("alice", "192.168.0.1", "READ", "", "ALLOWED", "GROUP"),
      ];
      // testAclInheritance: testImplicationsOfAllow / testImplicationsOfDeny on the cluster resource,
      // one principal per sub-case (Kafka removes the ACLs between them).
      const implied: Record<string, readonly string[]> = {
        ALL: OPS,
        READ: ["DESCRIBE"],
        WRITE: ["DESCRIBE"],
        DELETE: ["DESCRIBE"],
        ALTER: ["DESCRIBE"],
        ALTER_CONFIGS: ["DESCRIBE_CONFIGS"],
      };
      for (const [parent, allowedOps] of Object.entries(implied)) {
        const p = `inherit-allow-${parent}`;
        acls.push(acl("CLUSTER", "kafka-cluster", "LITERAL", `User:${p}`, "*", parent, "ALLOW"));
        for (const op of OPS) cases.push(c(p, "192.168.3.1", op, "kafka-cluster", allowedOps.includes(op) || op === parent ? "ALLOWED" : "DENIED", "CLUSTER"));
      }
      const denied: Record<string, readonly string[]> = { ALL: OPS, DESCRIBE: [], DESCRIBE_CONFIGS: [] };
      for (const [parent, deniedOps] of Object.entries(denied)) {
        const p = `inherit-deny-${parent}`;
        acls.push(acl("CLUSTER", "kafka-cluster", "LITERAL", `User:${p}`, "*", parent, "DENY"));
        acls.push(acl("CLUSTER", "kafka-cluster", "LITERAL", `User:${p}`, "*", "ALL", "ALLOW"));
        for (const op of OPS) cases.push(c(p, "192.168.3.1", op, "kafka-cluster", deniedOps.includes(op) || op === parent ? "DENIED" : "ALLOWED", "CLUSTER"));
      }
      await authorizeCases({ acls, superUsers: "User:superuser1; User:superuser2" }, cases);
    },
    T,
  );

  it(
    "AuthorizerTest.testWildCardAcls / testAuthorizeWithPrefixedResource / testAccessAllowedIfAllowAclExistsOnPrefixedResource",
    async () => {
      const h = "192.168.3.1";
      const wildcardRead = acl("TOPIC", "*", "LITERAL", "User:alice", h, "READ", "ALLOW");
      const wildcardDenyWrite = acl("TOPIC", "*", "LITERAL", "User:alice", h, "WRITE", "DENY");
      const denyRead = (name: string, patternType: string) => acl("TOPIC", name, patternType, "User:*", "*", "READ", "DENY");
      const fooPrefixAllow = acl("TOPIC", "foo", "PREFIXED", "User:*", "*", "READ", "ALLOW");
      const acls = [
        wildcardRead,
        acl("TOPIC", "w-res", "LITERAL", "User:alice", h, "WRITE", "ALLOW"),
        wildcardDenyWrite,
        denyRead("a_other", "LITERAL"),
        denyRead("a_other", "PREFIXED"),
        denyRead("foo-6f1c2c7e-1", "PREFIXED"),
        denyRead("foo-6f1c2c7e-2", "PREFIXED"),
        denyRead("foo-6f1c2c7e-3-zzz", "PREFIXED"),
        denyRead("fooo-6f1c2c7e-4", "PREFIXED"),
        denyRead("fo-6f1c2c7e-5", "PREFIXED"),
        denyRead("fop-6f1c2c7e-6", "PREFIXED"),
        denyRead("fon-6f1c2c7e-7", "PREFIXED"),
        denyRead("fon-", "PREFIXED"),
        denyRead("z_other", "PREFIXED"),
        denyRead("z_other", "LITERAL"),
        fooPrefixAllow,
      ];
      await authorizeCases({ acls, superUsers: "User:superuser1; User:superuser2" }, [
        { req: request("User:alice", h, "READ", "TOPIC", "w-res"), decision: "ALLOWED", rule: { kind: "acl", acl: wildcardRead } },
        { req: request("User:alice", h, "WRITE", "TOPIC", "w-res"), decision: "DENIED", rule: { kind: "acl", acl: wildcardDenyWrite } },
        { req: request("User:alice", "192.168.0.1", "READ", "TOPIC", "foo-0b9c4e55-aaaa"), decision: "ALLOWED", rule: { kind: "acl", acl: fooPrefixAllow } },
      ]);
    },
    T,
  );
});

describe.concurrent("authorize-by-type (Authorizer#authorizeByResourceType)", () => {
  it(
    "BaseAuthorizerTest: PrefixedResourceDenyDominate, WildcardResourceDenyDominate, WithAllOperationAce, WithAllHostAce, DenyTakesPrecedence, MultipleAddAndRemove, IsolationUnrelatedDenyWontDominateAllow",
    async () => {
      // Each step of Kafka's add/remove sequences is one principal with the ACLs it has at that step.
      const h1 = "192.168.1.1";
      const h2 = "192.168.1.2";
      const acls: Acl[] = [];
      const cases: { req: { principal: string; host: string; operation: string; resourceType: string }; decision: Expect }[] = [];
      const step = (p: string, stepAcls: [string, string, string, string, string, string][], checks: [string, string, string, Expect][]) => {
        for (const [type, name, pattern, host, op, perm] of stepAcls) acls.push(acl(type, name, pattern, `User:${p}`, host, op, perm));
        for (const [host, op, type, decision] of checks) cases.push({ req: { principal: `User:${p}`, host, operation: op, resourceType: type }, decision });
      };
      type A = [string, string, string, string, string, string];
      // testAuthorizeByResourceTypePrefixedResourceDenyDominate (GROUP, READ)
      const allowAbcde: A = ["GROUP", "abcde", "PREFIXED", h1, "READ", "ALLOW"];
      const denyAbcd: A = ["GROUP", "abcd", "PREFIXED", h1, "READ", "DENY"];
      const allowAbc: A = ["GROUP", "abc", "PREFIXED", h1, "READ", "ALLOW"];
      const denyA: A = ["GROUP", "a", "PREFIXED", h1, "READ", "DENY"];
      const allowAb: A = ["GROUP", "ab", "PREFIXED", h1, "READ", "ALLOW"];
      step("pd1", [allowAbcde], [[h1, "READ", "GROUP", "ALLOWED"]]);
      step("pd2", [allowAbcde, denyAbcd], [[h1, "READ", "GROUP", "DENIED"]]);
      step("pd3", [allowAbcde, denyAbcd, allowAbc], [[h1, "READ", "GROUP", "ALLOWED"]]);
      step("pd4", [allowAbcde, denyAbcd, allowAbc, denyA], [[h1, "READ", "GROUP", "DENIED"]]);
      step("pd5", [allowAbcde, denyAbcd, allowAbc, denyA, allowAb], [[h1, "READ", "GROUP", "DENIED"]]);
      // testAuthorizeByResourceTypeWildcardResourceDenyDominate (GROUP, WRITE)
      const allowHello: A = ["GROUP", "hello", "PREFIXED", h1, "WRITE", "ALLOW"];
      const denyStar: A = ["GROUP", "*", "LITERAL", h1, "WRITE", "DENY"];
      const allowStar: A = ["GROUP", "*", "LITERAL", h1, "WRITE", "ALLOW"];
      const allowAloha: A = ["GROUP", "aloha", "LITERAL", h1, "WRITE", "ALLOW"];
      step("wd1", [allowHello], [[h1, "WRITE", "GROUP", "ALLOWED"]]);
      step("wd2", [allowHello, denyStar], [[h1, "WRITE", "GROUP", "DENIED"]]);
      step("wd3", [allowHello, denyStar, allowStar], [[h1, "WRITE", "GROUP", "DENIED"]]);
      step("wd4", [allowHello, denyStar, allowStar, allowAloha], [[h1, "WRITE", "GROUP", "DENIED"]]);
      // testAuthorizeByResourceTypeWithAllOperationAce (TOPIC, READ)
      step("ao0", [], [[h1, "READ", "TOPIC", "DENIED"]]);
      const denyWrite: A = ["TOPIC", "sb1-r1", "LITERAL", h1, "WRITE", "DENY"];
      const allowAll: A = ["TOPIC", "sb1-r1", "LITERAL", h1, "ALL", "ALLOW"];
      step("ao1", [denyWrite, allowAll], [[h1, "READ", "TOPIC", "ALLOWED"]]);
      step("ao2", [denyWrite, allowAll, ["TOPIC", "sb1-r1", "LITERAL", h1, "ALL", "DENY"]], [[h1, "READ", "TOPIC", "DENIED"]]);
      // testAuthorizeByResourceTypeWithAllHostAce (TOPIC, READ)
      const allowHost1: A = ["TOPIC", "sb1-h1", "LITERAL", h1, "READ", "ALLOW"];
      const denyAllHostR1: A = ["TOPIC", "sb1-h1", "LITERAL", "*", "READ", "DENY"];
      const denyHost1R2: A = ["TOPIC", "sb2-h2", "LITERAL", h1, "READ", "DENY"];
      const allowAllHostR2: A = ["TOPIC", "sb2-h2", "LITERAL", "*", "READ", "ALLOW"];
      const denyAllHostR2: A = ["TOPIC", "sb2-h2", "LITERAL", "*", "READ", "DENY"];
      step("ah0", [], [[h1, "READ", "TOPIC", "DENIED"]]);
      step("ah1", [allowHost1], [[h1, "READ", "TOPIC", "ALLOWED"]]);
      step("ah2", [allowHost1, denyAllHostR1], [[h1, "READ", "TOPIC", "DENIED"]]);
      step("ah3", [allowHost1, denyAllHostR1, denyHost1R2], [
        [h1, "READ", "TOPIC", "DENIED"],
        [h2, "READ", "TOPIC", "DENIED"],
      ]);
      step("ah4", [allowHost1, denyAllHostR1, denyHost1R2, allowAllHostR2], [[h2, "READ", "TOPIC", "ALLOWED"]]);
      step("ah5", [allowHost1, denyAllHostR1, denyHost1R2, allowAllHostR2, denyAllHostR2], [[h2, "READ", "TOPIC", "DENIED"]]);
      // testAuthorizeByResourceTypeDenyTakesPrecedence (TOPIC, WRITE)
      const allowW: A = ["TOPIC", "sb1-dp", "LITERAL", h1, "WRITE", "ALLOW"];
      step("dp1", [allowW], [[h1, "WRITE", "TOPIC", "ALLOWED"]]);
      step("dp2", [allowW, ["TOPIC", "sb1-dp", "LITERAL", h1, "WRITE", "DENY"]], [[h1, "WRITE", "TOPIC", "DENIED"]]);
      // testAuthorizeByResourceTypeMultipleAddAndRemove: no ACL / allow / allow+deny / allow again
      const allowR: A = ["TOPIC", "sb1-ma", "LITERAL", h1, "READ", "ALLOW"];
      step("ma0", [], [[h1, "READ", "TOPIC", "DENIED"]]);
      step("ma1", [allowR], [[h1, "READ", "TOPIC", "ALLOWED"]]);
      step("ma2", [allowR, ["TOPIC", "sb1-ma", "LITERAL", h1, "READ", "DENY"]], [[h1, "READ", "TOPIC", "DENIED"]]);
      // testAuthorizeByResourceTypeIsolationUnrelatedDenyWontDominateAllow: user1's ACLs
      // (user2's DENYs on the same resources do not concern user1)
      step(
        "iso-user1",
        [
          ["TOPIC", "sb1-iso", "LITERAL", h1, "READ", "DENY"],
          ["TOPIC", "sb1-iso", "LITERAL", h2, "WRITE", "DENY"],
          ["TOPIC", "sb1-iso", "LITERAL", h2, "READ", "ALLOW"],
          ["TOPIC", "sb2-iso", "LITERAL", h2, "READ", "DENY"],
          ["GROUP", "s", "PREFIXED", h2, "READ", "DENY"],
        ],
        [
          [h1, "READ", "TOPIC", "DENIED"],
          [h1, "READ", "GROUP", "DENIED"],
          [h1, "READ", "TRANSACTIONAL_ID", "DENIED"],
          [h1, "READ", "CLUSTER", "DENIED"],
          [h2, "READ", "TOPIC", "ALLOWED"],
        ],
      );
      // Authorizer#authorizeByResourceType first authorizes the resource "hardcode" with authorize(),
      // which applies implication (READ implies DESCRIBE); its own scan afterwards does not.
      step("hardcode", [["TOPIC", "h", "PREFIXED", "*", "READ", "ALLOW"], ["GROUP", "zzz", "PREFIXED", "*", "READ", "ALLOW"]], [
        [h1, "DESCRIBE", "TOPIC", "ALLOWED"],
        [h1, "DESCRIBE", "GROUP", "DENIED"],
      ]);
      acls.push(
        acl("TOPIC", "sb1-iso", "LITERAL", "User:iso-user2", h1, "READ", "DENY"),
        acl("TOPIC", "sb1-iso", "LITERAL", "User:iso-user2", h2, "READ", "DENY"),
      );
      const out = await cli("authorize-by-type", { acls, requests: cases.map((c) => c.req) });
      expect(out).toEqual({ results: cases.map((c) => ({ decision: c.decision })) });
    },
    T,
  );

  it(
    "BaseAuthorizerTest.testAuthorizeByResourceTypeWithAllPrincipalAce",
    async () => {
      // Kafka's steps: allow user1 on r1; deny User:* on r1; deny user1 on r2; allow User:* on r2;
      // deny User:* on r2. The User:* ACLs concern every principal, so a step is one input; the
      // last two steps are the ones where user1 and user2 differ.
      const h1 = "192.168.1.1";
      const allowUser1 = acl("TOPIC", "sb1-x", "LITERAL", "User:user1", h1, "READ", "ALLOW");
      const denyAllUser = acl("TOPIC", "sb1-x", "LITERAL", "User:*", h1, "READ", "DENY");
      const denyUser1 = acl("TOPIC", "sb2-x", "LITERAL", "User:user1", h1, "READ", "DENY");
      const allowAllUser = acl("TOPIC", "sb2-x", "LITERAL", "User:*", h1, "READ", "ALLOW");
      const denyAllUserR2 = acl("TOPIC", "sb2-x", "LITERAL", "User:*", h1, "READ", "DENY");
      const u1 = { principal: "User:user1", host: h1, operation: "READ", resourceType: "TOPIC" };
      const u2 = { ...u1, principal: "User:user2" };
      const [withAllowAll, final] = await Promise.all([
        cli("authorize-by-type", { acls: [allowUser1, denyAllUser, denyUser1, allowAllUser], requests: [u1, u2] }),
        cli("authorize-by-type", { acls: [allowUser1, denyAllUser, denyUser1, allowAllUser, denyAllUserR2], requests: [u1, u2] }),
      ]);
      expect(withAllowAll.results).toEqual([{ decision: "DENIED" }, { decision: "ALLOWED" }]);
      expect(final.results).toEqual([{ decision: "DENIED" }, { decision: "DENIED" }]);
    },
    T,
  );

  it(
    "BaseAuthorizerTest.testAuthorizeByResourceTypeSuperUserHasAccess",
    async () => {
      const denyAll = (type: string) => acl(type, "*", "LITERAL", "User:*", "*", "ALL", "DENY");
      const out = await cli("authorize-by-type", {
        acls: [denyAll("TOPIC"), denyAll("CLUSTER"), denyAll("GROUP"), denyAll("TRANSACTIONAL_ID")],
        superUsers: "User:superuser1; User:superuser2",
        requests: ["TOPIC", "CLUSTER", "GROUP", "TRANSACTIONAL_ID"].flatMap((resourceType) => [
          { principal: "User:superuser1", host: "192.0.4.4", operation: "READ", resourceType },
          { principal: "User:alice", host: "192.0.4.4", operation: "READ", resourceType },
        ]),
      });
      expect(out.results.map((r: Json) => r.decision)).toEqual(["ALLOWED", "DENIED", "ALLOWED", "DENIED", "ALLOWED", "DENIED", "ALLOWED", "DENIED"]);
    },
    T,
  );
});

describe.concurrent("filter (AclBindingFilter)", () => {
  // ResourcePatternFilterTest: the patterns the filters are matched against, in a deliberately unsorted order
  const P1 = acl("GROUP", "Name", "LITERAL", "User:a", "*", "READ", "ALLOW");
  const P2 = acl("TOPIC", "Name", "PREFIXED", "User:a", "*", "READ", "ALLOW");
  const P3 = acl("TOPIC", "Name", "LITERAL", "User:a", "*", "READ", "ALLOW");
  const P4 = acl("TOPIC", "*", "LITERAL", "User:a", "*", "READ", "ALLOW");
  const P5 = acl("TOPIC", "Name-something", "PREFIXED", "User:a", "*", "READ", "ALLOW");
  const patterns = [P5, P1, P4, P3, P2];
  const anyEntry = { principal: null, host: null, operation: "ANY", permissionType: "ANY" };

  it.each([
    // shouldMatchPrefixedIfNamePrefixedAnyFilterTypeIsMatch, shouldMatchLiteralWildcardIfFilterHasPatternTypeOfMatch,
    // shouldNotMatchIfDifferentResourceType; a MATCH filter never returns a literal of another name
    ["MATCH Name-something", { resourceType: "TOPIC", resourceName: "Name-something", patternType: "MATCH" }, [P5, P4, P2]],
    // shouldMatchLiteralIfNameMatchesAndPatternIsMatchOrAny, shouldNotMatchLiteralWildcardIfFilterHasPatternTypeOfAny,
    // shouldNotMatchPrefixedIfNamePrefixedAnyFilterTypeIsAny
    ["ANY Name", { resourceType: "TOPIC", resourceName: "Name", patternType: "ANY" }, [P3, P2]],
    // shouldMatchWhereResourceTypeIsAny, shouldNotMatchIfBothPrefixedAndFilterIsPrefixOfResource
    ["resource type ANY, PREFIXED Name", { resourceType: "ANY", resourceName: "Name", patternType: "PREFIXED" }, [P2]],
    // shouldMatchWherePatternTypeIsMatch (null name), shouldNotMatchIfDifferentResourceType
    ["MATCH, null name", { resourceType: "TOPIC", resourceName: null, patternType: "MATCH" }, [P5, P4, P3, P2]],
  ])(
    "ResourcePatternFilterTest: %s",
    async (_name, resource, expected) => {
      const out = await cli("filter", { acls: patterns, filter: { ...resource, ...anyEntry } });
      expect(out).toEqual({ acls: expected });
    },
    T,
  );

  it(
    "AuthorizerTest.testAclsFilter: MATCH on a name returns the literal and the prefixed ACL that apply, across resource types",
    async () => {
      const resource1 = "foo-0c5b1b0e";
      const resource2 = "bar-3f6a8d21";
      const acl1 = acl("TOPIC", resource1, "LITERAL", "User:alice", "*", "READ", "ALLOW");
      const acl2 = acl("TOPIC", resource1, "LITERAL", "User:alice", "192.168.0.1", "WRITE", "ALLOW");
      const acl3 = acl("TOPIC", resource2, "LITERAL", "User:alice", "*", "DESCRIBE", "ALLOW");
      const acl4 = acl("TOPIC", "bar-", "PREFIXED", "User:*", "*", "READ", "ALLOW");
      const out = await cli("filter", { acls: [acl1, acl2, acl3, acl4], filter: { resourceType: "ANY", resourceName: resource2, patternType: "MATCH", ...anyEntry } });
      expect(out).toEqual({ acls: [acl3, acl4] });
    },
    T,
  );

  it(
    "AclControlManagerTest.testCreateAclDeleteAcl: the filter (ANY, null, LITERAL) deletes the literal ACLs of every type",
    async () => {
      // StandardAclTest.TEST_ACLS 0..2
      const clusterAlter = acl("CLUSTER", "kafka-cluster", "LITERAL", "User:*", "*", "ALTER", "ALLOW");
      const fooRead = acl("TOPIC", "foo_", "PREFIXED", "User:*", "*", "READ", "ALLOW");
      const groupDeny = acl("GROUP", "mygroup", "LITERAL", "User:foo", "*", "READ", "DENY");
      const out = await cli("filter", { acls: [clusterAlter, fooRead, groupDeny], filter: { resourceType: "ANY", resourceName: null, patternType: "LITERAL", ...anyEntry } });
      expect(out).toEqual({ acls: [clusterAlter, groupDeny] });
    },
    T,
  );

  it(
    "AclBindingFilterTest.testAclFilterMatching (ANY_ANONYMOUS) / AuthorizerTest.testGetAclsPrincipal: principal is an exact string, User:* is not expanded",
    async () => {
      const ACL1 = acl("TOPIC", "mytopic", "LITERAL", "User:ANONYMOUS", "", "ALL", "ALLOW");
      const ACL2 = acl("TOPIC", "mytopic", "LITERAL", "User:*", "", "READ", "ALLOW");
      const ACL3 = acl("TOPIC", "mytopic2", "LITERAL", "User:ANONYMOUS", "127.0.0.1", "READ", "DENY");
      const out = await cli("filter", {
        acls: [ACL1, ACL2, ACL3],
        filter: { resourceType: "ANY", resourceName: null, patternType: "LITERAL", principal: "User:ANONYMOUS", host: null, operation: "ANY", permissionType: "ANY" },
      });
      expect(out).toEqual({ acls: [ACL1, ACL3] });
    },
    T,
  );
});

describe.concurrent("validate-acl (CreateAcls: AclApis + AclControlManager.validateNewAcl)", () => {
  it(
    "AclControlManagerTest.testValidateNewAcl / testValidateAclWithBadPrincipal / testValidateAclWithEmptyPrincipal; AuthorizerTest.testEmptyAclThrowsException; AclApis cluster name",
    async () => {
      const base = acl("TOPIC", "*", "LITERAL", "User:*", "*", "ALTER", "ALLOW");
      const invalid = (message: string) => ({ ok: false, error: "INVALID_REQUEST", message });
      const cases: [Acl, unknown][] = [
        [base, { ok: true }],
        [{ ...base, patternType: "UNKNOWN" }, invalid("Invalid patternType UNKNOWN")],
        [{ ...base, resourceType: "UNKNOWN" }, invalid("Invalid resourceType UNKNOWN")],
        [{ ...base, operation: "UNKNOWN" }, invalid("Invalid operation UNKNOWN")],
        [{ ...base, permissionType: "UNKNOWN" }, invalid("Invalid permissionType UNKNOWN")],
        [{ ...base, resourceType: "ANY" }, invalid("Invalid resourceType ANY")],
        [{ ...base, patternType: "MATCH" }, invalid("Invalid patternType MATCH")],
        [{ ...base, operation: "ANY" }, invalid("Invalid operation ANY")],
        [{ ...base, permissionType: "ANY" }, invalid("Invalid permissionType ANY")],
        [{ ...base, principal: "invalid" }, invalid("Could not parse principal from `invalid` (no colon is present separating the principal type from the principal name)")],
        [{ ...base, principal: "" }, invalid("Could not parse principal from `` (no colon is present separating the principal type from the principal name)")],
        [acl("GROUP", "", "LITERAL", "User:*", "*", "READ", "ALLOW"), { ok: false, error: "INVALID_REQUEST" }],
        [acl("CLUSTER", "kafka-cluster", "LITERAL", "User:alice", "*", "ALTER", "ALLOW"), { ok: true }],
        [acl("CLUSTER", "*", "LITERAL", "User:alice", "*", "ALTER", "ALLOW"), invalid("The only valid name for the CLUSTER resource is kafka-cluster")],
        [acl("USER", "User:alice", "LITERAL", "User:bob", "*", "CREATE_TOKENS", "ALLOW"), { ok: true }],
        [acl("TOPIC", "orders", "PREFIXED", "User:bob:with:colons", "10.0.0.1", "DESCRIBE", "DENY"), { ok: true }],
        // AclControlManagerTest.testCreateAclDeleteAcl: StandardAclTest.TEST_ACLS 0..2 are created
        [acl("CLUSTER", "kafka-cluster", "LITERAL", "User:*", "*", "ALTER", "ALLOW"), { ok: true }],
        [acl("TOPIC", "foo_", "PREFIXED", "User:*", "*", "READ", "ALLOW"), { ok: true }],
        [acl("GROUP", "mygroup", "LITERAL", "User:foo", "*", "READ", "DENY"), { ok: true }],
      ];
      const out = await cli("validate-acl", { bindings: cases.map(([b]) => b) });
      expect(out.results).toHaveLength(cases.length);
      cases.forEach(([b, expected], i) => expect(out.results[i], JSON.stringify(b)).toMatchObject(expected as object));
    },
    T,
  );
});

// ---- client quotas ----------------------------------------------------------------------

const q = (entity: Record<string, string | null>, key: string, value: number) => ({ entity, key, value });
const need = (user: string, clientId: string, key = "producer_byte_rate") => ({ user, clientId, key });
const tags = (user: string, clientId: string) => ({ user, "client-id": clientId });

describe.concurrent("quota (ClientQuotaManager: 8 levels, per key, metric tags)", () => {
  // ClientQuotaManagerTest.testQuotaConfigPrecedence, initial configuration (ZooKeeperInternals.DEFAULT_STRING = null here)
  const precedence = [
    q({ user: null }, "producer_byte_rate", 1000),
    q({ "client-id": null }, "producer_byte_rate", 2000),
    q({ user: null, "client-id": null }, "producer_byte_rate", 3000),
    q({ user: "userA" }, "producer_byte_rate", 4000),
    q({ user: "userA", "client-id": "client1" }, "producer_byte_rate", 5000),
    q({ user: "userB" }, "producer_byte_rate", 6000),
    q({ user: "userB", "client-id": "client1" }, "producer_byte_rate", 7000),
    q({ user: "userB", "client-id": null }, "producer_byte_rate", 8000),
    q({ user: "userC" }, "producer_byte_rate", 10000),
    q({ "client-id": "client1" }, "producer_byte_rate", 9000),
  ];

  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence (initial configuration); ClientQuotasRequestTest.testAlterIpQuotasRequest (ConnectionQuotas.connectionRateForIp)",
    async () => {
      const out = await cli("quota", {
        configured: [...precedence, q({ ip: "1.2.3.4" }, "connection_creation_rate", 150), q({ ip: null }, "connection_creation_rate", 200)],
        requests: [
          need("userA", "client1"),
          need("userA", "client2"),
          need("userA", "client3"),
          need("userB", "client1"),
          need("userB", "client2"),
          need("userB", "client3"),
          need("userD", "client1"),
          need("userD", "client2"),
          need("userE", "client1"),
          need("userA", "client1", "consumer_byte_rate"),
          { ip: "1.2.3.4", key: "connection_creation_rate" },
          { ip: "2.3.4.5", key: "connection_creation_rate" },
        ],
      });
      expect(out.results).toEqual([
        // <user, client> quota takes precedence over <user>; exclusive use (its own bucket)
        { value: 5000, entity: { user: "userA", "client-id": "client1" }, metricTags: tags("userA", "client1") },
        // <user> quota takes precedence over <client> and defaults, shared across the user's clients
        { value: 4000, entity: { user: "userA" }, metricTags: tags("userA", "") },
        { value: 4000, entity: { user: "userA" }, metricTags: tags("userA", "") },
        { value: 7000, entity: { user: "userB", "client-id": "client1" }, metricTags: tags("userB", "client1") },
        // default per-client quota for exclusive use of <user, client>
        { value: 8000, entity: { user: "userB", "client-id": null }, metricTags: tags("userB", "client2") },
        { value: 8000, entity: { user: "userB", "client-id": null }, metricTags: tags("userB", "client3") },
        // default <user, client> quota
        { value: 3000, entity: { user: null, "client-id": null }, metricTags: tags("userD", "client1") },
        { value: 3000, entity: { user: null, "client-id": null }, metricTags: tags("userD", "client2") },
        { value: 3000, entity: { user: null, "client-id": null }, metricTags: tags("userE", "client1") },
        // quotas are per key: nothing configures consumer_byte_rate
        { value: null, entity: null, metricTags: tags("", "client1") },
        { value: 150, entity: { ip: "1.2.3.4" } },
        { value: 200, entity: { ip: null } },
      ]);
    },
    T,
  );

  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence after removing <default user, default client-id>: <default user> is shared per user",
    async () => {
      const configured = precedence.filter((x) => !(x.entity.user === null && x.entity["client-id"] === null));
      const out = await cli("quota", { configured, requests: [need("userD", "client1"), need("userE", "client4"), need("userF", "client4"), need("userF", "client5")] });
      expect(out.results).toEqual(
        ["userD", "userE", "userF", "userF"].map((u) => ({ value: 1000, entity: { user: null }, metricTags: tags(u, "") })),
      );
    },
    T,
  );

  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence after also removing <default user>: <default client-id> is shared across users; later updates of userA",
    async () => {
      const configured = precedence.filter((x) => x.entity.user !== null);
      // The "Update quotas" steps, one user per step (they only change that user's entities).
      configured.push(
        q({ user: "userA1" }, "producer_byte_rate", 8000),
        q({ user: "userA1", "client-id": "client1" }, "producer_byte_rate", 10000),
        q({ user: "userA2" }, "producer_byte_rate", 8000), // <userA, client1> removed again
        q({ user: "userA3" }, "producer_byte_rate", 8000),
        q({ user: "userA3", "client-id": "client6" }, "producer_byte_rate", 11000),
        q({ user: "userA4" }, "producer_byte_rate", 8000),
        q({ user: "userA4", "client-id": null }, "producer_byte_rate", 12000), // <userA, client6> removed
      );
      const out = await cli("quota", {
        configured,
        requests: [
          need("userF", "client4"),
          need("userF", "client5"),
          need("userG", "client5"),
          need("userA1", "client2"),
          need("userA1", "client1"),
          need("userA2", "client6"),
          need("userA3", "client6"),
          need("userA4", "client6"),
        ],
      });
      expect(out.results).toEqual([
        { value: 2000, entity: { "client-id": null }, metricTags: tags("", "client4") },
        { value: 2000, entity: { "client-id": null }, metricTags: tags("", "client5") },
        { value: 2000, entity: { "client-id": null }, metricTags: tags("", "client5") },
        { value: 8000, entity: { user: "userA1" }, metricTags: tags("userA1", "") },
        { value: 10000, entity: { user: "userA1", "client-id": "client1" }, metricTags: tags("userA1", "client1") },
        { value: 8000, entity: { user: "userA2" }, metricTags: tags("userA2", "") },
        { value: 11000, entity: { user: "userA3", "client-id": "client6" }, metricTags: tags("userA3", "client6") },
        { value: 12000, entity: { user: "userA4", "client-id": null }, metricTags: tags("userA4", "client6") },
      ]);
    },
    T,
  );

  it(
    "ClientQuotaManagerTest: testSetAndRemoveDefaultUserQuota, testSetAndRemoveUserClientQuota, testClientIdQuotaParsing, no quota (one key each)",
    async () => {
      const out = await cli("quota", {
        configured: [
          q({ user: null }, "producer_byte_rate", 10),
          q({ user: "userA", "client-id": "client1" }, "consumer_byte_rate", 10),
          q({ "client-id": "p1" }, "request_percentage", 2000),
          q({ "client-id": "p2" }, "request_percentage", 4000),
        ],
        requests: [
          need("userA", "client1", "producer_byte_rate"),
          need("userA", "client1", "consumer_byte_rate"),
          need("userA", "client2", "consumer_byte_rate"),
          need("ANONYMOUS", "p1", "request_percentage"),
          need("ANONYMOUS", "p2", "request_percentage"),
          need("ANONYMOUS", "random-client-id", "request_percentage"),
          need("userA", "client1", "controller_mutation_rate"),
        ],
      });
      expect(out.results).toEqual([
        { value: 10, entity: { user: null }, metricTags: tags("userA", "") },
        { value: 10, entity: { user: "userA", "client-id": "client1" }, metricTags: tags("userA", "client1") },
        // only <user, client-id> quotas exist for this key: the bucket is (user, client-id), unlimited
        { value: null, entity: null, metricTags: tags("userA", "client2") },
        { value: 2000, entity: { "client-id": "p1" }, metricTags: tags("", "p1") },
        { value: 4000, entity: { "client-id": "p2" }, metricTags: tags("", "p2") },
        { value: null, entity: null, metricTags: tags("", "random-client-id") },
        { value: null, entity: null, metricTags: tags("", "client1") },
      ]);
    },
    T,
  );

  it(
    "ClientQuotaManagerTest: testUserQuotaParsing (case 4), testUserClientIdQuotaParsing, testQuotaViolation / testExpireQuotaSensors (\"Produce-:client1\"), sanitized user in the tags",
    async () => {
      const out = await cli("quota", {
        configured: [
          q({ "client-id": null }, "producer_byte_rate", 500),
          q({ user: "User2" }, "consumer_byte_rate", 4000),
          q({ user: null }, "consumer_byte_rate", 4000),
          q({ user: "User1", "client-id": "p1" }, "request_percentage", 2000),
          q({ user: "User2", "client-id": "p2" }, "request_percentage", 4000),
          q({ user: null }, "controller_mutation_rate", 7),
        ],
        requests: [
          need("ANONYMOUS", "client1", "producer_byte_rate"),
          need("User1", "p1", "consumer_byte_rate"),
          need("RandomUser", "random-client-id", "consumer_byte_rate"),
          need("User1", "p1", "request_percentage"),
          need("RandomUser", "random-client-id", "request_percentage"),
          need("user with spaces", "c", "controller_mutation_rate"),
          need("user@example.com", "c", "controller_mutation_rate"),
        ],
      });
      expect(out.results).toEqual([
        { value: 500, entity: { "client-id": null }, metricTags: tags("", "client1") },
        { value: 4000, entity: { user: null }, metricTags: tags("User1", "") },
        { value: 4000, entity: { user: null }, metricTags: tags("RandomUser", "") },
        { value: 2000, entity: { user: "User1", "client-id": "p1" }, metricTags: tags("User1", "p1") },
        { value: null, entity: null, metricTags: tags("RandomUser", "random-client-id") },
        // Sanitizer.sanitize(principal.getName) (URL encoding, space as %20)
        { value: 7, entity: { user: null }, metricTags: tags("user%20with%20spaces", "") },
        { value: 7, entity: { user: null }, metricTags: tags("user%40example.com", "") },
      ]);
    },
    T,
  );
});

describe.concurrent("quota-filter (DescribeClientQuotas, ClientQuotasImage.describe)", () => {
  // ClientQuotasRequestTest: matchUserClientEntities and matchIpEntities
  const uc = (user: string | null | undefined, clientId: string | null | undefined) => {
    const entity: Record<string, string | null> = {};
    if (user !== undefined) entity.user = user;
    if (clientId !== undefined) entity["client-id"] = clientId;
    return entity;
  };
  const entities = [
    uc("user-1", "client-id-1"),
    uc("user-2", "client-id-1"),
    uc("user-3", "client-id-2"),
    uc(null, "client-id-1"),
    uc("user-1", null),
    uc("user-3", null),
    uc("user-1", undefined),
    uc("user-2", undefined),
    uc("user-3", undefined),
    uc(null, undefined),
    uc(undefined, "client-id-2"),
  ];
  const configured = [
    ...entities.map((entity, i) => q(entity, "request_percentage", 50.5 + i * 1.01)),
    q({ ip: "1.2.3.4" }, "connection_creation_rate", 10),
    q({ ip: "2.3.4.5" }, "connection_creation_rate", 20),
  ];
  const sameSet = (actual: unknown[], expected: unknown[]) => {
    const key = (e: unknown) => JSON.stringify(Object.entries(e as object).sort());
    expect(actual.map(key).sort()).toEqual(expected.map(key).sort());
  };

  it.each([
    ["contains [user=user-1] (open-ended existing user)", [{ entityType: "user", matchType: "EXACT", match: "user-1" }], false, [entities[0], entities[4], entities[6]]],
    ["contains [user=<default>] (open-ended default user)", [{ entityType: "user", matchType: "DEFAULT", match: null }], false, [entities[3], entities[9]]],
    ["containsOnly [user] (close-ended, any name incl. default)", [{ entityType: "user", matchType: "SPECIFIED", match: null }], true, [entities[6], entities[7], entities[8], entities[9]]],
    ["contains [client-id] (open-ended)", [{ entityType: "client-id", matchType: "SPECIFIED", match: null }], false, entities.filter((e) => "client-id" in e)],
    ["containsOnly [user=user-1, client-id=<default>] (testDescribeClientQuotasMatchExact)", [{ entityType: "user", matchType: "EXACT", match: "user-1" }, { entityType: "client-id", matchType: "DEFAULT", match: null }], true, [entities[4]]],
    ["contains [] (matches all 13)", [], false, [...entities, { ip: "1.2.3.4" }, { ip: "2.3.4.5" }]],
  ])(
    "ClientQuotasRequestTest.testDescribeClientQuotasMatchPartial/Exact: %s",
    async (_name, components, strict, expected) => {
      const out = await cli("quota-filter", { configured, filter: { components, strict } });
      sameSet(out.entities, expected);
    },
    T,
  );

  it(
    "ClientQuotasRequestTest.testDescribeClientQuotasInvalidFilterCombination",
    async () => {
      const out = await cli("quota-filter", {
        configured,
        filter: { components: [{ entityType: "ip", matchType: "SPECIFIED", match: null }, { entityType: "user", matchType: "SPECIFIED", match: null }], strict: false },
      });
      expect(out).toEqual({ error: "INVALID_REQUEST: Invalid entity filter component combination. IP filter component should not be used with user or clientId filter component." });
    },
    T,
  );

  it(
    "ClientQuotasRequestTest.testClientQuotasWithDefaultName: a client-id literally named <default> is not the default",
    async () => {
      const out = await cli("quota-filter", {
        configured: [q({ "client-id": "<default>" }, "producer_byte_rate", 20000)],
        filter: { components: [{ entityType: "client-id", matchType: "DEFAULT", match: null }], strict: true },
      });
      expect(out).toEqual({ entities: [] });
    },
    T,
  );
});

describe.concurrent("quota-alter (AlterClientQuotas, ClientQuotaControlManager)", () => {
  const invalid = (message: string) => ({ ok: false, error: "INVALID_REQUEST", message });
  it.each([
    // ClientQuotasRequestTest.testAlterClientQuotasRequest, "Perform a mixed update"
    [
      "testAlterClientQuotasRequest mixed update",
      { user: "user", "client-id": "client-id" },
      [
        { key: "producer_byte_rate", value: 20000 },
        { key: "consumer_byte_rate", value: null },
        { key: "request_percentage", value: 12.3 },
      ],
      { ok: true },
    ],
    ["testAlterClientQuotasInvalidRequests: empty user", { user: "" }, [{ key: "request_percentage", value: 12.34 }], invalid("Empty user not supported")],
    ["testAlterClientQuotasInvalidRequests: empty entity type", { "": "name" }, [{ key: "request_percentage", value: 12.34 }], invalid("Unhandled client quota entity type: ")],
    ["testAlterClientQuotasInvalidRequests: fractional LONG", { user: "user" }, [{ key: "producer_byte_rate", value: 10000.5 }], invalid("producer_byte_rate cannot be a fractional value.")],
    ["testAlterClientQuotasInvalidRequests: unknown key", { user: "user" }, [{ key: "bad", value: 1 }], invalid("Invalid configuration key bad")],
    [
      "testAlterClientQuotasInvalidEntityCombination",
      { user: "user", ip: "1.2.3.4" },
      [{ key: "request_percentage", value: 12.34 }],
      invalid("Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId"),
    ],
    [
      "testAlterClientQuotasBadIp",
      { ip: "not a valid host because it has spaces" },
      [{ key: "connection_creation_rate", value: 50 }],
      invalid("not a valid host because it has spaces is not a valid IP or resolvable host."),
    ],
    // ClientQuotaControlManagerTest.testIsValidIpEntityWithLocalhost: InetAddress.getByName resolves the name
    ["ClientQuotaControlManagerTest: localhost is a resolvable ip entity", { ip: "localhost" }, [{ key: "connection_creation_rate", value: 50 }], { ok: true }],
    // ClientQuotaControlManager.alterClientQuotas: a duplicate key marks the entity, which is then reported as a duplicate entity
    [
      "ClientQuotaControlManager: duplicate key",
      { user: "user-1" },
      [
        { key: "producer_byte_rate", value: 1 },
        { key: "producer_byte_rate", value: 2 },
      ],
      invalid("Ignoring duplicate entity ClientQuotaEntity(entries={user=user-1})"),
    ],
  ])(
    "ClientQuotasRequestTest / ClientQuotaControlManagerTest: %s",
    async (_name, entity, ops, expected) => {
      expect(await cli("quota-alter", { entity, ops })).toEqual(expected);
    },
    T,
  );
});

describe.concurrent("quota-budget (the console's KIP-55 rule)", () => {
  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence's userA (sub-quota 5000 over a total of 4000): Kafka accepts it, the console budget reports it",
    async () => {
      const out = await cli("quota-budget", {
        configured: [q({ user: "userA" }, "producer_byte_rate", 4000)],
        change: [{ entity: { user: "userA", "client-id": "client1" }, key: "producer_byte_rate", value: 5000 }],
      });
      expect(out).toEqual({ ok: false, violations: [{ user: "userA", key: "producer_byte_rate", total: 4000, sum: 5000, clients: ["client1"] }] });
    },
    T,
  );
});

// ---- delegation tokens --------------------------------------------------------------------

const DAY = 86_400_000;
const NOW = 1_700_000_000_000;
const kafkaHmac = (secret: string, tokenId: string) => createHmac("sha512", Buffer.from(secret, "utf8")).update(tokenId, "utf8").digest("base64");

/** DelegationTokenRequestsTest: SASL_PLAINTEXT, secret "testKey", default lifetimes. */
const tokenDoc = (over: Record<string, unknown>) => ({
  config: { secretKey: "testKey", maxLifetimeMs: 7 * DAY, expiryTimeMs: DAY },
  connection: { principal: "User:admin", securityProtocol: "SASL_PLAINTEXT", tokenAuthenticated: false },
  superUsers: [],
  acls: [],
  tokens: [],
  now: NOW,
  ...over,
});

const token = (tokenId: string, owner: string, renewers: string[], requester = owner) => ({
  tokenId,
  hmac: kafkaHmac("testKey", tokenId),
  owner,
  requester,
  renewers,
  issueTimestamp: NOW - 1000,
  expiryTimestamp: NOW - 1000 + DAY,
  maxTimestamp: NOW - 1000 + 7 * DAY,
});

describe.concurrent("token (KRaft delegation tokens)", () => {
  const token1 = token("tokenOneAAAAAAAAAAAAAA", "User:admin", ["User:renewer1"]);
  const token2 = token("tokenTwoAAAAAAAAAAAAAA", "User:admin", ["User:renewer2"]);

  it(
    "DelegationTokenRequestsTest: create token1 with renewer1 (owner = requester, Kafka's lifetimes, HMAC of the token id)",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "create", request: { renewers: ["User:renewer1"] } }));
      expect(out).toMatchObject({
        error: "NONE",
        owner: "User:admin",
        requester: "User:admin",
        renewers: ["User:renewer1"],
        issueTimestamp: NOW,
        expiryTimestamp: NOW + DAY,
        maxTimestamp: NOW + 7 * DAY,
      });
      expect(out.tokenId).toMatch(/^[A-Za-z0-9_-]{22}$/); // Uuid.randomUuid().toString()
      expect(out.hmac).toBe(kafkaHmac("testKey", out.tokenId));
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: create with maxlifeTimeMs(1000) caps both timestamps",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "create", request: { renewers: ["User:renewer1"], maxLifetimeMs: 1000 } }));
      expect(out).toMatchObject({ error: "NONE", issueTimestamp: NOW, expiryTimestamp: NOW + 1000, maxTimestamp: NOW + 1000 });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: describe with owners [renewer2] returns the tokens renewer2 may renew",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "describe", tokens: [token1, token2], request: { owners: ["User:renewer2"] } }));
      expect(out).toEqual({ error: "NONE", tokens: [token2] });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: renew token1 (default period = delegation.token.expiry.time.ms)",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "renew", tokens: [token1, token2], request: { hmac: token1.hmac } }));
      expect(out).toMatchObject({ error: "NONE", expiryTimestamp: NOW + DAY });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: expire token1 (period -1 = now, token removed)",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "expire", tokens: [token1, token2], request: { hmac: token1.hmac } }));
      expect(out).toMatchObject({ error: "NONE", expiryTimestamp: NOW, removed: true });
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: renew a deleted token is DELEGATION_TOKEN_NOT_FOUND",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "renew", tokens: [token2], request: { hmac: token1.hmac } }));
      expect(out.error).toBe("DELEGATION_TOKEN_NOT_FOUND");
    },
    T,
  );

  it(
    "DelegationTokenRequestsTest: a Group renewer is INVALID_PRINCIPAL_TYPE",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "create", request: { renewers: ["Group:Renewer4"] } }));
      expect(out).toMatchObject({ error: "INVALID_PRINCIPAL_TYPE", owner: "User:admin", requester: "User:admin" });
    },
    T,
  );

  it(
    "DelegationTokenRequestsOnPlainTextTest: token requests on PLAINTEXT are DELEGATION_TOKEN_REQUEST_NOT_ALLOWED",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "describe", connection: { principal: "User:ANONYMOUS", securityProtocol: "PLAINTEXT" }, request: { owners: null } }));
      expect(out).toEqual({ error: "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", tokens: [] });
    },
    T,
  );

  it(
    "DelegationTokenRequestsWithDisableTokenFeatureTest: no secret key, every request is DELEGATION_TOKEN_AUTH_DISABLED",
    async () => {
      const out = await cli("token", tokenDoc({ operation: "expire", config: {}, request: { hmac: "" } }));
      expect(out.error).toBe("DELEGATION_TOKEN_AUTH_DISABLED");
    },
    T,
  );

  it(
    "SaslSslAdminIntegrationTest.testCreateTokenWithOverflowTimestamp: lifetimes of Long.MAX_VALUE saturate instead of wrapping",
    async () => {
      const max = 2 ** 63; // what JSON.parse makes of Long.MAX_VALUE (9223372036854775807)
      const out = await cli("token", tokenDoc({ operation: "create", config: { secretKey: "testKey", maxLifetimeMs: max, expiryTimeMs: max }, request: { maxLifetimeMs: max } }));
      expect(out).toMatchObject({ error: "NONE", issueTimestamp: NOW, expiryTimestamp: max, maxTimestamp: max });
    },
    T,
  );

  it(
    "SaslSslAdminIntegrationTest.testExpireDelegationToken: expiring an expired token with a period >= 0 is DELEGATION_TOKEN_EXPIRED",
    async () => {
      const expired = { ...token1, expiryTimestamp: NOW - 1, maxTimestamp: NOW - 1 };
      const out = await cli("token", tokenDoc({ operation: "expire", tokens: [expired], request: { hmac: expired.hmac, expiryTimePeriodMs: 1 } }));
      expect(out.error).toBe("DELEGATION_TOKEN_EXPIRED");
    },
    T,
  );

  it(
    "DelegationTokenEndToEndAuthorizationWithOwnerTest.testCreateTokenForOtherUserFails: CREATE_TOKENS only on USER:User:client",
    async () => {
      const out = await cli(
        "token",
        tokenDoc({
          operation: "create",
          connection: { principal: "User:scram-user2", securityProtocol: "SASL_SSL", tokenAuthenticated: false },
          superUsers: ["User:admin"],
          acls: [
            acl("USER", "User:client", "LITERAL", "User:scram-user2", "*", "CREATE_TOKENS", "ALLOW"),
            acl("USER", "User:client", "LITERAL", "User:scram-user2", "*", "DESCRIBE_TOKENS", "ALLOW"),
          ],
          // CreateDelegationTokenRequest's own fields (what CreateDelegationTokenOptions().owner(p) sends)
          request: { ownerPrincipalType: "User", ownerPrincipalName: "other-client-principal" },
        }),
      );
      expect(out).toEqual({ error: "DELEGATION_TOKEN_AUTHORIZATION_FAILED", owner: "User:other-client-principal", requester: "User:scram-user2" });
    },
    T,
  );

  it(
    "DelegationTokenEndToEndAuthorizationWithOwnerTest.testDescribeTokenForOtherUserFails: no DESCRIBE_TOKENS on the owner, nothing returned",
    async () => {
      const otherToken = token("otherTokenAAAAAAAAAAAA", "User:other-client-principal", []);
      const out = await cli(
        "token",
        tokenDoc({
          operation: "describe",
          connection: { principal: "User:describe-token-fail-principal", securityProtocol: "SASL_SSL", tokenAuthenticated: false },
          acls: [acl("USER", "User:other-client-principal", "LITERAL", "User:other-client-requester-principal", "*", "DESCRIBE_TOKENS", "ALLOW")],
          tokens: [otherToken],
          // DescribeDelegationTokenRequest's owners, as Kafka's wire message spells them
          request: { owners: [{ principalType: "User", principalName: "other-client-principal" }] },
        }),
      );
      expect(out).toEqual({ error: "NONE", tokens: [] });
    },
    T,
  );
});

// ---- plan: the blast radius of an ACL change -------------------------------------------------
//
// Not a Kafka test: the three previews the console got wrong (issue #7, "Changes you can
// trust"), where only the bindings' own principals on one representative name were decided.
// The expected rows are what StandardAuthorizer decides for each request before and after
// (a DENY beats every ALLOW; DESCRIBE is implied by WRITE only through an ALLOW).

describe.concurrent("plan (the previews issue #7 found wrong)", () => {
  const svcOrdersWrite = acl("TOPIC", "orders", "LITERAL", "User:svc-orders", "*", "WRITE", "ALLOW");
  const svcOrdersDlq = acl("TOPIC", "orders-dlq", "LITERAL", "User:svc-orders", "*", "WRITE", "ALLOW");
  const aliceRead = acl("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW");
  const current = [svcOrdersWrite, svcOrdersDlq, aliceRead];
  const universe = {
    principals: ["User:svc-orders", "User:alice", "User:bob", "User:admin"],
    hosts: ["10.0.0.1"],
    resources: ["orders", "orders-dlq", "payments"].map((resourceName) => ({ resourceType: "TOPIC", resourceName })),
  };
  const change = (principal: string, resourceName: string, operation: string, before: string, after: string) => ({
    principal,
    host: "10.0.0.1",
    resourceType: "TOPIC",
    resourceName,
    operation,
    before,
    after,
  });

  it(
    "DENY User:* WRITE TOPIC LITERAL orders: User:svc-orders can no longer WRITE orders (the old preview: 'No decision changes')",
    async () => {
      const deny = acl("TOPIC", "orders", "LITERAL", "User:*", "*", "WRITE", "DENY");
      const out = await cli("plan", { current, create: [deny], universe, superUsers: ["User:admin"] });
      expect(out).toEqual({
        create: [deny],
        delete: [],
        invalid: [],
        decisionChanges: [change("User:svc-orders", "orders", "WRITE", "ALLOWED", "DENIED")],
      });
    },
    T,
  );

  it(
    "DENY User:svc-orders WRITE TOPIC PREFIXED orders breaks WRITE on orders and orders-dlq",
    async () => {
      const deny = acl("TOPIC", "orders", "PREFIXED", "User:svc-orders", "*", "WRITE", "DENY");
      const out = await cli("plan", { current, create: [deny], universe });
      expect(out.decisionChanges).toEqual([change("User:svc-orders", "orders", "WRITE", "ALLOWED", "DENIED"), change("User:svc-orders", "orders-dlq", "WRITE", "ALLOWED", "DENIED")]);
    },
    T,
  );

  it(
    "deleting the wildcard DENY gives WRITE back wherever an ALLOW was waiting (DESCRIBE never went: a DENY implies nothing)",
    async () => {
      const deny = acl("TOPIC", "*", "LITERAL", "User:*", "*", "WRITE", "DENY");
      const out = await cli("plan", { current: [...current, deny], delete: [deny], universe });
      expect(out).toEqual({
        create: [],
        delete: [deny],
        invalid: [],
        decisionChanges: [change("User:svc-orders", "orders", "WRITE", "DENIED", "ALLOWED"), change("User:svc-orders", "orders-dlq", "WRITE", "DENIED", "ALLOWED")],
      });
    },
    T,
  );
});

// ---- robustness and speed -------------------------------------------------------------------

describe.concurrent("input robustness and speed", () => {
  it.each([
    ["authorize", { acls: [], requests: [{ principal: "User:a", host: "h", operation: "ANY", resourceType: "TOPIC", resourceName: "t" }] }],
    ["quota", { configured: [], requests: [{ user: "u", clientId: 7, key: "producer_byte_rate" }] }],
    ["token", { operation: "renew", config: { secretKey: "k" }, connection: { principal: "User:a", securityProtocol: "SASL_SSL" }, now: "soon", request: { hmac: "x" } }],
  ])(
    "wrong types exit 2 with { error } and no stack trace: %s %j",
    async (command, input) => {
      const r = await runCli([command], JSON.stringify(input));
      expect(r.code).toBe(2);
      const out = JSON.parse(r.stdout) as { error: unknown };
      expect(typeof out.error).toBe("string");
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    T,
  );

  it(
    "the documented entry point `npm run --silent policy -- <command>` prints exactly one JSON document",
    async () => {
      const r = await new Promise<Run>((resolve, reject) => {
        const started = Date.now();
        const child = spawn("npm", ["run", "--silent", "policy", "--", "quota-alter"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
        child.stdin.end(JSON.stringify({ entity: { "client-id": "c" }, ops: [{ key: "consumer_byte_rate", value: 2.245 }] }));
      });
      expect(r.code).toBe(0);
      // ClientQuotaControlManagerTest.testValidateQuotaKeyValueForFractionalConsumerByteRate
      expect(JSON.parse(r.stdout)).toEqual({ ok: false, error: "INVALID_REQUEST", message: "consumer_byte_rate cannot be a fractional value." });
    },
    T,
  );

  it(
    "one call with 3000 ACLs x 3000 requests, or 2000 tokens whose HMACs the CLI derives, answers in a few seconds even on a loaded machine",
    async () => {
      const acls = Array.from({ length: 3000 }, (_, i) =>
        acl(i % 2 ? "TOPIC" : "GROUP", `t${i}`, i % 3 ? "LITERAL" : "PREFIXED", `User:u${i % 50}`, "*", "READ", i % 7 ? "ALLOW" : "DENY"),
      );
      const requests = Array.from({ length: 3000 }, (_, i) => request(`User:u${i % 60}`, "10.0.0.1", "DESCRIBE", "TOPIC", `t${(i * 7) % 4000}`));
      const tokens = Array.from({ length: 2000 }, (_, i) => {
        const { hmac: _hmac, ...rest } = token(`tok${i}`, `User:o${i % 100}`, [`User:r${i % 10}`]);
        return rest;
      });
      const [a, t] = await Promise.all([
        runCli(["authorize"], JSON.stringify({ acls, requests })),
        runCli(["token"], JSON.stringify(tokenDoc({ operation: "describe", connection: { principal: "User:r3", securityProtocol: "SASL_SSL" }, tokens, request: { owners: null } }))),
      ]);
      expect(a.code).toBe(0);
      expect(t.code).toBe(0);
      expect(JSON.parse(a.stdout).results).toHaveLength(3000);
      expect(JSON.parse(t.stdout).tokens).toHaveLength(200);
      // ~1 s each when run alone; generous here because the whole suite runs in parallel.
      expect(a.ms).toBeLessThan(15_000);
      expect(t.ms).toBeLessThan(15_000);
    },
    T,
  );
});

// ---- principal-map: who a client is to Kafka -----------------------------------------------
//
// SslPrincipalMapperTest, KerberosNameTest, KerberosRuleTest and DefaultKafkaPrincipalBuilderTest
// as documents: the rules value as written in server.properties (a Java List of rules is the
// comma-joined LIST value), the DN as X500Principal.getName() gives it. A rules value Kafka
// refuses answers every request of its document, so each invalid rule is its own document.

describe.concurrent("principal-map (SslPrincipalMapper, KerberosShortNamer, DefaultKafkaPrincipalBuilder)", () => {
  const ssl = (rules: string | null, dns: (string | null)[]) => ({ ssl: { rules }, kerberos: null, requests: dns.map((distinguishedName) => ({ type: "ssl", distinguishedName })) });
  const kerberos = (rules: string | null, defaultRealm: string | null, principals: string[]) => ({
    ssl: null,
    kerberos: { rules, defaultRealm },
    requests: principals.map((principal) => ({ type: "kerberos", principal })),
  });
  const names = (out: Json) => (out.results as Json[]).map((r) => r.name ?? `${r.error}: ${r.message}`);
  const inBatches = async <T,>(items: T[], f: (item: T) => Promise<void>) => {
    for (let i = 0; i < items.length; i += 3) await Promise.all(items.slice(i, i + 3).map(f));
  };

  // One CLI process per refused value: on a loaded machine these take minutes, not seconds.
  const MANY = 5 * T;

  it(
    "SslPrincipalMapperTest.testValidRules: the broker starts with the values (joined into one: any refused rule would refuse it)",
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
        expect(out.results.map((r: Json) => r.error), rules).toEqual(["IllegalArgumentException", "IllegalArgumentException"]);
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
        cli("principal-map", ssl(rules, ["CN=Duke,OU=ServiceUsers,O=Org,C=US", "CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US", "cn=duke,ou=sme,dc=mycp,dc=com", "cN=duke,OU=JavaSoft,O=Sun Microsystems", "OU=JavaSoft,O=Sun Microsystems,C=US"])),
        cli("principal-map", ssl(String.raw`RULE:^CN=((\\, *|\w)+)(,.*|$)/$1/,DEFAULT`, [String.raw`CN=Tkac\, Adam,OU=ITZ,DC=geodis,DC=cz`])),
      ]);
      expect(names(mapped)).toEqual(["duke", "duke@sme", "DUKE@SME", "DUKE", "OU=JavaSoft,O=Sun Microsystems,C=US"]);
      expect(names(comma)).toEqual([String.raw`Tkac\, Adam`]);
    },
    T,
  );

  it(
    "KerberosNameTest.testParse, testToLowerCase, testToUpperCase",
    async () => {
      const flagged = (f: string) => [`RULE:[1:$1]/${f}`, `RULE:[2:$1](Test.*)s/ABC///${f}`, `RULE:[2:$1](ABC.*)s/ABC/XYZ/g/${f}`, String.raw`RULE:[2:$1](App\..*)s/App\.(.*)/$1/g/` + f, `RULE:[2:$1]/${f}`, "DEFAULT"].join(",");
      const cases = ["User@REALM.COM", "TestABC/host@FOO.COM", "ABC_User_ABC/host@FOO.COM", "App.SERVICE-name/example.com@REALM.COM", "User/root@REALM.COM"];
      const [parse, lower, upper] = await Promise.all([
        cli("principal-map", kerberos([String.raw`RULE:[1:$1](App\..*)s/App\.(.*)/$1/g`, String.raw`RULE:[2:$1](App\..*)s/App\.(.*)/$1/g`, "DEFAULT"].join(","), "REALM.COM", ["App.service-name/example.com@REALM.COM", "App.service-name@REALM.COM", "user/host@REALM.COM"])),
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
      const invalid = ["default", "DEFAUL", "DEFAULT/L", "DEFAULT/g", "rule:[1:$1]", "rule:[1:$1]/L/U", "rule:[1:$1]/U/L", "rule:[1:$1]/LU", "RULE:[1:$1/L", "RULE:[1:$1]/l", "RULE:[2:$1](ABC.*)s/ABC/XYZ/L/g"];
      await inBatches(invalid, async (rule) => {
        const out = await cli("principal-map", kerberos(rule, "REALM.COM", ["user@REALM.COM"]));
        expect(out.results.map((r: Json) => r.error), rule).toEqual(["IllegalArgumentException"]);
      });
    },
    MANY,
  );

  it(
    "KerberosRuleTest.testReplaceParameters through rules: $0 is the realm; out of range and malformed are BadFormatString",
    async () => {
      const out = await cli("principal-map", {
        ssl: null,
        kerberos: { rules: "RULE:[1:hello $0](hello REALM.COM), RULE:[2:$3], RULE:[3:hello $a], DEFAULT", defaultRealm: "REALM.COM" },
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
    "DefaultKafkaPrincipalBuilderTest: no peer certificate is User:ANONYMOUS; X500 names through the mapper; GSSAPI through the short namer",
    async () => {
      const out = await cli("principal-map", {
        ssl: { rules: ["RULE:^CN=(.*),OU=ServiceUsers.*$/$1/L", "RULE:^CN=(.*),OU=(.*),O=(.*),L=(.*),ST=(.*),C=(.*)$/$1@$2/L", "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U", "DEFAULT"].join(", ") },
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
      expect(out.results.map((r: Json) => r.principal)).toEqual(["User:ANONYMOUS", "User:duke", "User:duke@sme", "User:DUKE", "User:OU=JavaSoft,O=Sun Microsystems,C=US", "User:foo"]);
    },
    T,
  );

  it(
    "the authorization document: serviceuser, adminuser@admin and user@MYDOMAIN.COM as user",
    async () => {
      const out = await cli("principal-map", {
        ssl: { rules: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,\nRULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,\nRULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,\nDEFAULT" },
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
