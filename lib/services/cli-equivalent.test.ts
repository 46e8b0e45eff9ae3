import { describe, expect, it } from "vitest";
import {
  aclCommand,
  aclPlanCommands,
  quotaCommand,
  shellQuote,
  tokenCreateCommand,
  tokenRenewCommand,
} from "./cli-equivalent";
import type { AclBinding } from "@/lib/policy";

const B = "127.0.0.1:9092";
const binding = (over: Partial<AclBinding> = {}): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: "orders",
  patternType: "LITERAL",
  principal: "User:alice",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  ...over,
});

describe("shellQuote", () => {
  it.each([
    ["orders", "orders"],
    ["User:alice", "User:alice"],
    ["*", "'*'"],
    ["", "''"],
    ["it's", `'it'\\''s'`],
    ["a b", "'a b'"],
    ["$(rm -rf /)", "'$(rm -rf /)'"],
    ["line\nbreak", "'line\nbreak'"],
  ])("%j -> %s", (input, quoted) => expect(shellQuote(input)).toBe(quoted));
});

describe("kafka-acls.sh", () => {
  it("names every field of an ALLOW binding, quoting the wildcard host", () => {
    expect(aclCommand("add", binding(), B).command).toBe(
      "kafka-acls.sh --bootstrap-server 127.0.0.1:9092 --command-config <admin.properties> --add " +
        "--allow-principal User:alice --allow-host '*' --operation Read --topic orders --resource-pattern-type " +
        "literal",
    );
  });

  it("removes a DENY on a PREFIXED group exactly, without prompting", () => {
    const cmd = aclCommand(
      "remove",
      binding({
        resourceType: "GROUP",
        resourceName: "orders-",
        patternType: "PREFIXED",
        principal: "User:*",
        host: "10.0.0.1",
        operation: "DESCRIBE_CONFIGS",
        permissionType: "DENY",
      }),
      B,
    );
    expect(cmd.command).toContain(
      "--remove --force --deny-principal 'User:*' --deny-host 10.0.0.1 --operation DescribeConfigs --group " +
        "orders- --resource-pattern-type prefixed",
    );
  });

  it("uses --cluster and --user-principal for those resource types", () => {
    expect(
      aclCommand(
        "add",
        binding({ resourceType: "CLUSTER", resourceName: "kafka-cluster", operation: "IDEMPOTENT_WRITE" }),
        B,
      ).command,
    ).toContain("--operation IdempotentWrite --cluster --resource-pattern-type literal");
    expect(
      aclCommand(
        "add",
        binding({ resourceType: "USER", resourceName: "User:svc-orders", operation: "CREATE_TOKENS" }),
        B,
      ).command,
    ).toContain("--operation CreateTokens --user-principal User:svc-orders");
  });

  it("warns when the tool would trim the name", () => {
    expect(aclCommand("add", binding({ resourceName: " orders" }), B).warning).toMatch(/trims/);
    expect(
      aclCommand("add", binding({ resourceType: "TRANSACTIONAL_ID", resourceName: " tx" }), B).warning,
    ).toBeUndefined();
  });

  it("lists deletions before creations", () => {
    const cmds = aclPlanCommands({ create: [binding()], delete: [binding({ operation: "WRITE" })] }, B);
    expect(cmds.map((c) => c.command.split(" ")[5])).toEqual(["--remove", "--add"]);
  });
});

describe("kafka-configs.sh", () => {
  it("sets a user+client-id sub-quota", () => {
    expect(
      quotaCommand({ user: "svc-orders", "client-id": "orders-batch" }, "consumer_byte_rate", 100000, B).command,
    ).toBe(
      "kafka-configs.sh --bootstrap-server 127.0.0.1:9092 --command-config <admin.properties> --alter " +
        "--entity-type users --entity-name svc-orders --entity-type clients --entity-name orders-batch " +
        "--add-config consumer_byte_rate=100000",
    );
  });

  it("removes a key of a <default> entity", () => {
    expect(quotaCommand({ user: null }, "producer_byte_rate", null, B).command).toContain(
      "--alter --entity-type users --entity-default --delete-config producer_byte_rate",
    );
  });

  it("addresses IP entities", () => {
    expect(quotaCommand({ ip: "10.1.2.3" }, "connection_creation_rate", 5, B).command).toContain(
      "--entity-type ips --entity-name 10.1.2.3 --add-config connection_creation_rate=5",
    );
  });
});

describe("kafka-delegation-tokens.sh", () => {
  it("creates for another owner with renewers", () => {
    expect(
      tokenCreateCommand({ owner: "User:svc-orders", renewers: ["User:bob"], maxLifetimeMs: 3600000 }, B).command,
    ).toContain(
      "--create --max-life-time-period 3600000 --renewer-principal User:bob --owner-principal User:svc-orders",
    );
  });

  it("never contains an HMAC, only the placeholder", () => {
    expect(tokenRenewCommand(null, B).command).toMatch(/--renew --renew-time-period -1 --hmac <HMAC>$/);
  });
});
