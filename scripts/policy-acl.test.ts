import { describe, expect, it } from "vitest";
import { PolicyInputError, aclHumanCommand, aclJsonCommands } from "./policy-acl";

const orders = {
  resourceType: "TOPIC",
  resourceName: "orders",
  patternType: "LITERAL",
  principal: "User:alice",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};
const ordDeny = {
  resourceType: "TOPIC",
  resourceName: "ord",
  patternType: "PREFIXED",
  principal: "User:*",
  host: "10.0.0.9",
  operation: "READ",
  permissionType: "DENY",
};

describe("aclJsonCommands (docs/policy-cli.md contract)", () => {
  it(
    "authorize: request hosts are compared as Kafka writes the address " +
      "(StandardAuthorizerTest.testHostAddressAclValidation)",
    () => {
      const acl = (resourceName: string, host: string) => ({ ...orders, resourceName, principal: "User:*", host });
      const out = aclJsonCommands.authorize({
        acls: [acl("t", "::1"), acl("u", "0:0:0:0:0:0:0:1")],
        requests: ["t", "u"].map((resourceName) => ({
          principal: "User:alice",
          host: "::1",
          operation: "READ",
          resourceType: "TOPIC",
          resourceName,
        })),
      }) as { results: { decision: string }[] };
      expect(out.results.map((r) => r.decision)).toEqual(["DENIED", "ALLOWED"]);
    },
  );

  it(
    "filter: a binding given twice is listed once, as Kafka stores ACLs as a set " +
      "(AclControlManagerTest.testCreateDedupe)",
    () => {
      const out = aclJsonCommands.filter({
        acls: [orders, ordDeny, orders],
        filter: {
          resourceType: "ANY",
          resourceName: null,
          patternType: "ANY",
          principal: null,
          host: null,
          operation: "ANY",
          permissionType: "ANY",
        },
      });
      expect(out).toEqual({ acls: [orders, ordDeny] });
    },
  );

  it("authorize: one result per request, in order, with the deciding rule", () => {
    const out = aclJsonCommands.authorize({
      acls: [orders, ordDeny],
      superUsers: ["User:admin"],
      requests: [
        {
          principal: "User:alice",
          host: "10.0.0.1",
          operation: "DESCRIBE",
          resourceType: "TOPIC",
          resourceName: "orders",
        },
        { principal: "User:alice", host: "10.0.0.9", operation: "READ", resourceType: "TOPIC", resourceName: "orders" },
        { principal: "User:admin", host: "10.0.0.9", operation: "READ", resourceType: "TOPIC", resourceName: "orders" },
        { principal: "User:bob", host: "10.0.0.1", operation: "READ", resourceType: "TOPIC", resourceName: "orders" },
        { principal: "User:bob", host: "10.0.0.1", operation: "READ", resourceType: "GROUP", resourceName: "g" },
      ],
    });
    expect(JSON.parse(JSON.stringify(out))).toEqual({
      results: [
        { decision: "ALLOWED", rule: { kind: "acl", acl: orders } },
        { decision: "DENIED", rule: { kind: "acl", acl: ordDeny } },
        { decision: "ALLOWED", rule: { kind: "superUser" } },
        { decision: "DENIED", rule: { kind: "noAclMatched" } },
        { decision: "DENIED", rule: { kind: "default" } },
      ],
    });
  });

  it("authorize: Kafka's property forms of the config are accepted", () => {
    const out = aclJsonCommands.authorize({
      acls: [],
      superUsers: " User:admin ; User:ops ",
      allowEveryoneIfNoAclFound: " TRUE ",
      requests: [
        { principal: "User:ops", host: "h", operation: "ALL", resourceType: "CLUSTER", resourceName: "kafka-cluster" },
        { principal: "User:x", host: "h", operation: "READ", resourceType: "TOPIC", resourceName: "t" },
      ],
    });
    expect(out).toEqual({
      results: [
        { decision: "ALLOWED", rule: { kind: "superUser" } },
        { decision: "ALLOWED", rule: { kind: "default" } },
      ],
    });
  });

  it("authorize-by-type: decisions only", () => {
    const out = aclJsonCommands["authorize-by-type"]({
      acls: [orders],
      requests: [
        { principal: "User:alice", host: "1.1.1.1", operation: "READ", resourceType: "TOPIC" },
        { principal: "User:alice", host: "1.1.1.1", operation: "DESCRIBE", resourceType: "TOPIC" },
      ],
    });
    expect(out).toEqual({ results: [{ decision: "ALLOWED" }, { decision: "DENIED" }] });
  });

  it("filter: matching bindings in input order", () => {
    const out = aclJsonCommands.filter({
      acls: [ordDeny, orders, { ...orders, resourceName: "other" }],
      filter: {
        resourceType: "TOPIC",
        resourceName: "orders",
        patternType: "MATCH",
        principal: null,
        host: null,
        operation: "ANY",
        permissionType: "ANY",
      },
    });
    expect(out).toEqual({ acls: [ordDeny, orders] });
  });

  it("validate-acl: one result per binding, arbitrary JSON included", () => {
    const out = aclJsonCommands["validate-acl"]({ bindings: [orders, { ...orders, principal: "alice" }, 42] });
    expect(out).toEqual({
      results: [
        { ok: true },
        {
          ok: false,
          error: "INVALID_REQUEST",
          message:
            "Could not parse principal from `alice` (no colon is present separating the principal type from " +
            "the principal name)",
        },
        {
          ok: false,
          error: "INVALID_REQUEST",
          message: expect.stringMatching(/must be an object/) as unknown as string,
        },
      ],
    });
  });

  it.each([
    ["authorize", null],
    ["authorize", { acls: [orders] }],
    ["authorize", { acls: [{ ...orders, operation: "ANY" }], requests: [] }],
    [
      "authorize",
      {
        acls: [],
        requests: [{ principal: "alice", host: "h", operation: "READ", resourceType: "TOPIC", resourceName: "t" }],
      },
    ],
    [
      "authorize",
      {
        acls: [],
        requests: [{ principal: "User:a", host: "h", operation: "ANY", resourceType: "TOPIC", resourceName: "t" }],
      },
    ],
    ["authorize", { acls: [], superUsers: "bob", requests: [] }],
    [
      "authorize-by-type",
      { acls: [], requests: [{ principal: "User:a", host: "h", operation: "READ", resourceType: "ANY" }] },
    ],
    ["filter", { acls: [], filter: { resourceType: "TOPIC" } }],
    ["validate-acl", { bindings: "x" }],
  ] as const)("%s rejects bad input %j with PolicyInputError", (command, input) => {
    expect(() => aclJsonCommands[command](input)).toThrow(PolicyInputError);
  });
});

describe("aclHumanCommand", () => {
  const files: Record<string, string> = {
    "acls.json": JSON.stringify({ acls: [orders, ordDeny] }),
    "acls.csv":
      "Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host\nUser:alice,Topic,Literal," +
      "orders,Read,Allow,*\nUser:alice,TOPIC,LITERAL,orders,READ,ALLOW,*\n",
  };
  const read = async (p: string) => {
    const text = files[p];
    if (text === undefined) throw new Error("no such file");
    return text;
  };

  it("returns null for commands that are not its own", async () => {
    expect(await aclHumanCommand(["quota"], read)).toBeNull();
  });

  it("explain: decision, deciding rule and the ACLs that apply", async () => {
    const out = (await aclHumanCommand(
      [
        "explain",
        "--acls",
        "acls.json",
        "--principal",
        "User:alice",
        "--operation",
        "READ",
        "--topic",
        "orders",
        "--host",
        "10.0.0.9",
      ],
      read,
    ))!;
    expect(out).toMatch(/^User:alice READ on TOPIC "orders" from 10\.0\.0\.9: DENIED/);
    expect(out).toContain('=> DENY  User:* READ on TOPIC names starting with "ord", from 10.0.0.9  [decides]');
    expect(out).toContain('ALLOW User:alice READ on TOPIC "orders", from any host  [matches]');
  });

  it("explain: the default rule and a suggestion when nothing applies", async () => {
    const out = (await aclHumanCommand(
      ["explain", "--acls", "acls.json", "--principal", "User:bob", "--operation", "Read", "--group", "g"],
      read,
    ))!;
    expect(out).toContain("DENIED");
    expect(out).toContain("allow.everyone.if.no.acl.found decides (false");
    expect(out).toContain('ALLOW User:bob READ on GROUP "g", from any host');
  });

  it("explain: usage errors", async () => {
    await expect(aclHumanCommand(["explain", "--acls", "acls.json"], read)).rejects.toThrow(PolicyInputError);
    await expect(
      aclHumanCommand(
        ["explain", "--acls", "acls.json", "--principal", "User:a", "--operation", "READ", "--topic", "t", "--cluster"],
        read,
      ),
    ).rejects.toThrow(/exactly one resource/);
    await expect(
      aclHumanCommand(
        ["explain", "--acls", "missing.json", "--principal", "User:a", "--operation", "READ", "--cluster"],
        read,
      ),
    ).rejects.toThrow(/cannot read missing.json/);
  });

  it("lint: reads CSV exports and prints findings", async () => {
    const out = (await aclHumanCommand(["lint", "acls.csv"], read))!;
    expect(out).toMatch(/^1 finding \(0 error, 1 warning, 0 info\) in 2 ACLs/);
    expect(out).toContain("WARNING duplicate");
    expect(await aclHumanCommand(["lint", "acls.json"], read)).toBe("No findings in 2 ACLs.\n");
  });
});
