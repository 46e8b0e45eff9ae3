/**
 * Conformance of the policy CLI with Apache Kafka 4.x, ACLs: authorize (StandardAuthorizer),
 * authorize-by-type, filter, validate-acl, and the plan previews issue #7 found wrong.
 * How the cases are translated from Kafka's own tests: ./cli.ts.
 */
import { describe, expect, it } from "vitest";
import {
  type Acl,
  acl,
  authorizeCases,
  type Case,
  cli,
  type Expect,
  type Json,
  LOCALHOST,
  OPS,
  request,
  T,
} from "./cli";

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
      // All imply DESCRIBE.
      for (const op of ["DESCRIBE", "READ", "WRITE", "DELETE", "ALTER"]) one("ALLOW", op, "DESCRIBE", "ALLOWED");
      one("ALLOW", "CREATE", "DESCRIBE", null); // CREATE does not imply DESCRIBE
      // DENY does no implication.
      for (const op of ["READ", "WRITE", "DELETE", "ALTER"]) one("DENY", op, "DESCRIBE", null);
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
        {
          req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "foo_bar"),
          decision: "ALLOWED",
          rule: { kind: "acl", acl: fooRead },
        },
        {
          req: request("User:alice", "127.0.0.1", "READ", "TOPIC", "foo_bar"),
          decision: "DENIED",
          rule: { kind: "noAclMatched" },
        },
        {
          req: request("User:alice", "127.0.0.1", "READ", "GROUP", "bar"),
          decision: "DENIED",
          rule: { kind: "acl", acl: barDeny },
        },
        // testSimpleAuthorizations
        {
          req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "foo_"),
          decision: "ALLOWED",
          rule: { kind: "acl", acl: fooRead },
        },
        {
          req: request("User:fred", "127.0.0.1", "ALTER_CONFIGS", "GROUP", "bar"),
          decision: "ALLOWED",
          rule: { kind: "acl", acl: barAlterConfigs },
        },
      );
      // superUsers and allowEveryoneIfNoAclFound omitted: no super users, default DENIED.
      await authorizeCases({ acls }, cases);
    },
    T,
  );

  it(
    "StandardAuthorizerTest.testDenyPrecedenceWithOperationAll / testTopicAclWithOperationAll / testPrefixAcls " +
      "/ testHostAddressAclValidation",
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
      const c = (principal: string, host: string, op: string, name: string, decision: Expect): Case => ({
        req: request(`User:${principal}`, host, op, "TOPIC", name),
        decision,
      });
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
    "StandardAuthorizerTest.testAuthorizationWithManyAcls / testDenyAuditLogging / testAllowAuditLogging / " +
      "testAuthorizationPriorToCompleteInitialLoad",
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
        {
          req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "green1"),
          decision: "ALLOWED",
          rule: { kind: "acl", acl: greenAllow },
        },
        { req: request("User:bob", "127.0.0.1", "WRITE", "GROUP", "wheel"), decision: "DENIED" },
        {
          req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "alpha"),
          decision: "DENIED",
          rule: { kind: "acl", acl: alpDeny },
        },
        { req: request("User:bob", "127.0.0.1", "WRITE", "GROUP", "arbitrary"), decision: "ALLOWED" },
        {
          req: request("User:bob", "127.0.0.1", "READ", "TOPIC", "ala"),
          decision: "DENIED",
          rule: { kind: "default" },
        },
        // super users are allowed whatever the ACLs say
        {
          req: request("User:superman", "127.0.0.1", "READ", "TOPIC", "green1"),
          decision: "ALLOWED",
          rule: { kind: "superUser" },
        },
        {
          req: request("User:superman", "127.0.0.1", "WRITE", "GROUP", "wheel"),
          decision: "ALLOWED",
          rule: { kind: "superUser" },
        },
      ]);
    },
    T,
  );

  it(
    "StandardAuthorizerTest.testAllowEveryoneIfNoAclFoundConfigEnabled / testGetConfiguredSuperUsers (Kafka's " +
      "property string forms)",
    async () => {
      const aliceRead = acl("TOPIC", "topic1", "LITERAL", "User:Alice", "*", "READ", "ALLOW");
      await authorizeCases(
        { acls: [aliceRead], superUsers: ";  User:bob  ;  User:alice ", allowEveryoneIfNoAclFound: "true" },
        [
          {
            req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic1"),
            decision: "DENIED",
            rule: { kind: "noAclMatched" },
          },
          {
            req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic2"),
            decision: "ALLOWED",
            rule: { kind: "default" },
          },
          {
            req: request("User:alice", "127.0.0.1", "READ", "TOPIC", "topic1"),
            decision: "ALLOWED",
            rule: { kind: "superUser" },
          },
          {
            req: request("User:bob", "127.0.0.1", "DELETE", "TOPIC", "topic1"),
            decision: "ALLOWED",
            rule: { kind: "superUser" },
          },
        ],
      );
    },
    T,
  );

  it(
    "StandardAuthorizerTest.testAllowEveryoneIfNoAclFoundConfigDisabled (setting omitted = false); " +
      "AuthorizerTest.testAuthorizeWithEmptyResourceName (before)",
    async () => {
      const aliceRead = acl("TOPIC", "topic1", "LITERAL", "User:Alice", "*", "READ", "ALLOW");
      await authorizeCases({ acls: [aliceRead], superUsers: ["User:alice", "User:chris"] }, [
        {
          req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic1"),
          decision: "DENIED",
          rule: { kind: "noAclMatched" },
        },
        {
          req: request("User:Bob", "127.0.0.1", "READ", "TOPIC", "topic2"),
          decision: "DENIED",
          rule: { kind: "default" },
        },
        // super users are exact, case-sensitive strings: User:Alice is not User:alice
        {
          req: request("User:Alice", "127.0.0.1", "READ", "TOPIC", "topic1"),
          decision: "ALLOWED",
          rule: { kind: "acl", acl: aliceRead },
        },
        {
          req: request("User:Alice", "127.0.0.1", "WRITE", "TOPIC", "topic1"),
          decision: "DENIED",
          rule: { kind: "noAclMatched" },
        },
        {
          req: request("User:alice", "192.168.0.1", "READ", "GROUP", ""),
          decision: "ALLOWED",
          rule: { kind: "superUser" },
        },
        { req: request("User:bob", "192.168.0.1", "READ", "GROUP", ""), decision: "DENIED", rule: { kind: "default" } },
      ]);
    },
    T,
  );

  it(
    "AuthorizerTest: testTopicAcl, testAllowAccessWithCustomPrincipal, testDenyTakesPrecedence, " +
      "testAllowAllAccess, testSuperUserHasAccess, testNoAclFound, testSingleCharacterResourceAcls, " +
      "testAuthorizeWithEmptyResourceName, testAclInheritance",
    async () => {
      // BaseAuthorizerTest: super.users = "User:superuser1; User:superuser2", requestContext = User:alice from
      // 192.168.0.1
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
      const c = (
        principal: string,
        host: string,
        op: string,
        name: string,
        decision: Expect,
        resourceType = "TOPIC",
      ): Case => ({
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
        for (const op of OPS)
          cases.push(
            c(
              p,
              "192.168.3.1",
              op,
              "kafka-cluster",
              allowedOps.includes(op) || op === parent ? "ALLOWED" : "DENIED",
              "CLUSTER",
            ),
          );
      }
      const denied: Record<string, readonly string[]> = { ALL: OPS, DESCRIBE: [], DESCRIBE_CONFIGS: [] };
      for (const [parent, deniedOps] of Object.entries(denied)) {
        const p = `inherit-deny-${parent}`;
        acls.push(acl("CLUSTER", "kafka-cluster", "LITERAL", `User:${p}`, "*", parent, "DENY"));
        acls.push(acl("CLUSTER", "kafka-cluster", "LITERAL", `User:${p}`, "*", "ALL", "ALLOW"));
        for (const op of OPS)
          cases.push(
            c(
              p,
              "192.168.3.1",
              op,
              "kafka-cluster",
              deniedOps.includes(op) || op === parent ? "DENIED" : "ALLOWED",
              "CLUSTER",
            ),
          );
      }
      await authorizeCases({ acls, superUsers: "User:superuser1; User:superuser2" }, cases);
    },
    T,
  );

  it(
    "AuthorizerTest.testWildCardAcls / testAuthorizeWithPrefixedResource / " +
      "testAccessAllowedIfAllowAclExistsOnPrefixedResource",
    async () => {
      const h = "192.168.3.1";
      const wildcardRead = acl("TOPIC", "*", "LITERAL", "User:alice", h, "READ", "ALLOW");
      const wildcardDenyWrite = acl("TOPIC", "*", "LITERAL", "User:alice", h, "WRITE", "DENY");
      const denyRead = (name: string, patternType: string) =>
        acl("TOPIC", name, patternType, "User:*", "*", "READ", "DENY");
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
        {
          req: request("User:alice", h, "READ", "TOPIC", "w-res"),
          decision: "ALLOWED",
          rule: { kind: "acl", acl: wildcardRead },
        },
        {
          req: request("User:alice", h, "WRITE", "TOPIC", "w-res"),
          decision: "DENIED",
          rule: { kind: "acl", acl: wildcardDenyWrite },
        },
        {
          req: request("User:alice", "192.168.0.1", "READ", "TOPIC", "foo-0b9c4e55-aaaa"),
          decision: "ALLOWED",
          rule: { kind: "acl", acl: fooPrefixAllow },
        },
      ]);
    },
    T,
  );
});

describe.concurrent("authorize-by-type (Authorizer#authorizeByResourceType)", () => {
  it(
    "BaseAuthorizerTest: PrefixedResourceDenyDominate, WildcardResourceDenyDominate, WithAllOperationAce, " +
      "WithAllHostAce, DenyTakesPrecedence, MultipleAddAndRemove, IsolationUnrelatedDenyWontDominateAllow",
    async () => {
      // Each step of Kafka's add/remove sequences is one principal with the ACLs it has at that step.
      const h1 = "192.168.1.1";
      const h2 = "192.168.1.2";
      const acls: Acl[] = [];
      const cases: {
        req: { principal: string; host: string; operation: string; resourceType: string };
        decision: Expect;
      }[] = [];
      const step = (
        p: string,
        stepAcls: [string, string, string, string, string, string][],
        checks: [string, string, string, Expect][],
      ) => {
        for (const [type, name, pattern, host, op, perm] of stepAcls)
          acls.push(acl(type, name, pattern, `User:${p}`, host, op, perm));
        for (const [host, op, type, decision] of checks)
          cases.push({ req: { principal: `User:${p}`, host, operation: op, resourceType: type }, decision });
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
      step(
        "ao2",
        [denyWrite, allowAll, ["TOPIC", "sb1-r1", "LITERAL", h1, "ALL", "DENY"]],
        [[h1, "READ", "TOPIC", "DENIED"]],
      );
      // testAuthorizeByResourceTypeWithAllHostAce (TOPIC, READ)
      const allowHost1: A = ["TOPIC", "sb1-h1", "LITERAL", h1, "READ", "ALLOW"];
      const denyAllHostR1: A = ["TOPIC", "sb1-h1", "LITERAL", "*", "READ", "DENY"];
      const denyHost1R2: A = ["TOPIC", "sb2-h2", "LITERAL", h1, "READ", "DENY"];
      const allowAllHostR2: A = ["TOPIC", "sb2-h2", "LITERAL", "*", "READ", "ALLOW"];
      const denyAllHostR2: A = ["TOPIC", "sb2-h2", "LITERAL", "*", "READ", "DENY"];
      step("ah0", [], [[h1, "READ", "TOPIC", "DENIED"]]);
      step("ah1", [allowHost1], [[h1, "READ", "TOPIC", "ALLOWED"]]);
      step("ah2", [allowHost1, denyAllHostR1], [[h1, "READ", "TOPIC", "DENIED"]]);
      step(
        "ah3",
        [allowHost1, denyAllHostR1, denyHost1R2],
        [
          [h1, "READ", "TOPIC", "DENIED"],
          [h2, "READ", "TOPIC", "DENIED"],
        ],
      );
      step("ah4", [allowHost1, denyAllHostR1, denyHost1R2, allowAllHostR2], [[h2, "READ", "TOPIC", "ALLOWED"]]);
      step(
        "ah5",
        [allowHost1, denyAllHostR1, denyHost1R2, allowAllHostR2, denyAllHostR2],
        [[h2, "READ", "TOPIC", "DENIED"]],
      );
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
      step(
        "hardcode",
        [
          ["TOPIC", "h", "PREFIXED", "*", "READ", "ALLOW"],
          ["GROUP", "zzz", "PREFIXED", "*", "READ", "ALLOW"],
        ],
        [
          [h1, "DESCRIBE", "TOPIC", "ALLOWED"],
          [h1, "DESCRIBE", "GROUP", "DENIED"],
        ],
      );
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
        cli("authorize-by-type", {
          acls: [allowUser1, denyAllUser, denyUser1, allowAllUser, denyAllUserR2],
          requests: [u1, u2],
        }),
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
      expect(out.results.map((r: Json) => r.decision)).toEqual([
        "ALLOWED",
        "DENIED",
        "ALLOWED",
        "DENIED",
        "ALLOWED",
        "DENIED",
        "ALLOWED",
        "DENIED",
      ]);
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
    [
      "MATCH Name-something",
      { resourceType: "TOPIC", resourceName: "Name-something", patternType: "MATCH" },
      [P5, P4, P2],
    ],
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
    "AuthorizerTest.testAclsFilter: MATCH on a name returns the literal and the prefixed ACL that apply, " +
      "across resource types",
    async () => {
      const resource1 = "foo-0c5b1b0e";
      const resource2 = "bar-3f6a8d21";
      const acl1 = acl("TOPIC", resource1, "LITERAL", "User:alice", "*", "READ", "ALLOW");
      const acl2 = acl("TOPIC", resource1, "LITERAL", "User:alice", "192.168.0.1", "WRITE", "ALLOW");
      const acl3 = acl("TOPIC", resource2, "LITERAL", "User:alice", "*", "DESCRIBE", "ALLOW");
      const acl4 = acl("TOPIC", "bar-", "PREFIXED", "User:*", "*", "READ", "ALLOW");
      const out = await cli("filter", {
        acls: [acl1, acl2, acl3, acl4],
        filter: { resourceType: "ANY", resourceName: resource2, patternType: "MATCH", ...anyEntry },
      });
      expect(out).toEqual({ acls: [acl3, acl4] });
    },
    T,
  );

  it(
    "AclControlManagerTest.testCreateAclDeleteAcl: the filter (ANY, null, LITERAL) deletes the literal ACLs of " +
      "every type",
    async () => {
      // StandardAclTest.TEST_ACLS 0..2
      const clusterAlter = acl("CLUSTER", "kafka-cluster", "LITERAL", "User:*", "*", "ALTER", "ALLOW");
      const fooRead = acl("TOPIC", "foo_", "PREFIXED", "User:*", "*", "READ", "ALLOW");
      const groupDeny = acl("GROUP", "mygroup", "LITERAL", "User:foo", "*", "READ", "DENY");
      const out = await cli("filter", {
        acls: [clusterAlter, fooRead, groupDeny],
        filter: { resourceType: "ANY", resourceName: null, patternType: "LITERAL", ...anyEntry },
      });
      expect(out).toEqual({ acls: [clusterAlter, groupDeny] });
    },
    T,
  );

  it(
    "AclBindingFilterTest.testAclFilterMatching (ANY_ANONYMOUS) / AuthorizerTest.testGetAclsPrincipal: " +
      "principal is an exact string, User:* is not expanded",
    async () => {
      const ACL1 = acl("TOPIC", "mytopic", "LITERAL", "User:ANONYMOUS", "", "ALL", "ALLOW");
      const ACL2 = acl("TOPIC", "mytopic", "LITERAL", "User:*", "", "READ", "ALLOW");
      const ACL3 = acl("TOPIC", "mytopic2", "LITERAL", "User:ANONYMOUS", "127.0.0.1", "READ", "DENY");
      const out = await cli("filter", {
        acls: [ACL1, ACL2, ACL3],
        filter: {
          resourceType: "ANY",
          resourceName: null,
          patternType: "LITERAL",
          principal: "User:ANONYMOUS",
          host: null,
          operation: "ANY",
          permissionType: "ANY",
        },
      });
      expect(out).toEqual({ acls: [ACL1, ACL3] });
    },
    T,
  );
});

describe.concurrent("validate-acl (CreateAcls: AclApis + AclControlManager.validateNewAcl)", () => {
  it(
    "AclControlManagerTest.testValidateNewAcl / testValidateAclWithBadPrincipal / " +
      "testValidateAclWithEmptyPrincipal; AuthorizerTest.testEmptyAclThrowsException; AclApis cluster name",
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
        [
          { ...base, principal: "invalid" },
          invalid(
            "Could not parse principal from `invalid` (no colon is present separating the principal type from " +
              "the principal name)",
          ),
        ],
        [
          { ...base, principal: "" },
          invalid(
            "Could not parse principal from `` (no colon is present separating the principal type from the " +
              "principal name)",
          ),
        ],
        [acl("GROUP", "", "LITERAL", "User:*", "*", "READ", "ALLOW"), { ok: false, error: "INVALID_REQUEST" }],
        [acl("CLUSTER", "kafka-cluster", "LITERAL", "User:alice", "*", "ALTER", "ALLOW"), { ok: true }],
        [
          acl("CLUSTER", "*", "LITERAL", "User:alice", "*", "ALTER", "ALLOW"),
          invalid("The only valid name for the CLUSTER resource is kafka-cluster"),
        ],
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
    "DENY User:* WRITE TOPIC LITERAL orders: User:svc-orders can no longer WRITE orders (the old preview: 'No " +
      "decision changes')",
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
      expect(out.decisionChanges).toEqual([
        change("User:svc-orders", "orders", "WRITE", "ALLOWED", "DENIED"),
        change("User:svc-orders", "orders-dlq", "WRITE", "ALLOWED", "DENIED"),
      ]);
    },
    T,
  );

  it(
    "deleting the wildcard DENY gives WRITE back wherever an ALLOW was waiting (DESCRIBE never went: a DENY " +
      "implies nothing)",
    async () => {
      const deny = acl("TOPIC", "*", "LITERAL", "User:*", "*", "WRITE", "DENY");
      const out = await cli("plan", { current: [...current, deny], delete: [deny], universe });
      expect(out).toEqual({
        create: [],
        delete: [deny],
        invalid: [],
        decisionChanges: [
          change("User:svc-orders", "orders", "WRITE", "DENIED", "ALLOWED"),
          change("User:svc-orders", "orders-dlq", "WRITE", "DENIED", "ALLOWED"),
        ],
      });
    },
    T,
  );
});
