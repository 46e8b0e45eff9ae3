import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AclBinding, AclBindingFilter, AclOperation, ResourceType } from "@/lib/policy/types";
import { OPERATIONS } from "@/lib/policy/types";
import { ANY_ACL_FILTER } from "@/lib/policy/acl/filter";
import { createAcls, deleteAcls, describeAcls } from "./acls";
import { closeAllConnections } from "./client";
import { KafkaOperationError } from "./errors";
import { ADMIN, createScramUser, dropScramUser, runId } from "@/test/kafka/fixtures";
import type { KafkaCredential } from "./types";

const id = runId();
const subject = `it-acl-subject-${id}`;
const outsider = `it-acl-outsider-${id}`;
let outsiderCred: KafkaCredential;

const ANY: AclBindingFilter = ANY_ACL_FILTER;
const mine: AclBindingFilter = { ...ANY, principal: `User:${subject}` };

function binding(
  resourceType: ResourceType,
  resourceName: string,
  operation: AclOperation,
  extra: Partial<AclBinding> = {},
): AclBinding {
  return {
    resourceType,
    resourceName,
    patternType: "LITERAL",
    principal: `User:${subject}`,
    host: "*",
    operation,
    permissionType: "ALLOW",
    ...extra,
  };
}

const key = (b: AclBinding) =>
  JSON.stringify([b.resourceType, b.resourceName, b.patternType, b.principal, b.host, b.operation, b.permissionType]);
const sorted = (bs: AclBinding[]) => bs.map(key).sort();

beforeAll(async () => {
  outsiderCred = await createScramUser(outsider);
});

afterAll(async () => {
  await deleteAcls(ADMIN, [mine]);
  await dropScramUser(outsider);
  await closeAllConnections();
});

describe("ACL round trip as the super user", () => {
  it("creates and describes every resource type, both pattern types, every operation and DENY", async () => {
    const bindings: AclBinding[] = [
      ...OPERATIONS.filter((op) => !["CREATE_TOKENS", "DESCRIBE_TOKENS"].includes(op)).map((op) =>
        binding("TOPIC", `orders-${id}`, op),
      ),
      binding("TOPIC", `payments-${id}-`, "WRITE", { patternType: "PREFIXED" }),
      binding("TOPIC", "*", "DESCRIBE", { host: "127.0.0.1" }),
      binding("GROUP", `billing-${id}`, "READ", { permissionType: "DENY" }),
      binding("CLUSTER", "kafka-cluster", "IDEMPOTENT_WRITE"),
      binding("TRANSACTIONAL_ID", `tx-${id}-`, "WRITE", { patternType: "PREFIXED" }),
      binding("DELEGATION_TOKEN", `token-${id}`, "DESCRIBE"),
      binding("USER", `User:svc-${id}`, "CREATE_TOKENS"),
      binding("USER", `User:svc-${id}`, "DESCRIBE_TOKENS"),
    ];
    const results = await createAcls(ADMIN, bindings);
    expect(results.map((r) => r.error)).toEqual(bindings.map(() => null));

    const described = await describeAcls(ADMIN, mine);
    expect(sorted(described)).toEqual(sorted(bindings));
  });

  it("filters like Kafka: LITERAL is exact, MATCH adds the wildcard and prefixed patterns that apply", async () => {
    const topic = `payments-${id}-eu`;
    const literal = await describeAcls(ADMIN, {
      ...mine,
      resourceType: "TOPIC",
      resourceName: topic,
      patternType: "LITERAL",
    });
    expect(literal).toEqual([]);

    const match = await describeAcls(ADMIN, {
      ...mine,
      resourceType: "TOPIC",
      resourceName: topic,
      patternType: "MATCH",
    });
    expect(sorted(match)).toEqual(
      sorted([
        binding("TOPIC", `payments-${id}-`, "WRITE", { patternType: "PREFIXED" }),
        binding("TOPIC", "*", "DESCRIBE", { host: "127.0.0.1" }),
      ]),
    );
  });

  it("reports a malformed binding per item and still creates the good ones", async () => {
    const good = binding("TOPIC", `audit-${id}`, "READ");
    const bad = { ...binding("TOPIC", `audit-${id}`, "READ"), principal: "no-colon" };
    const results = await createAcls(ADMIN, [good, bad]);
    expect(results[0]?.error).toBeNull();
    expect(results[1]?.error?.code).toBe("INVALID_REQUEST");
    expect(results[1]?.error?.message).toMatch(/^Kafka refused CreateAcls \(INVALID_REQUEST\): /);
    expect(
      await describeAcls(ADMIN, {
        ...mine,
        resourceType: "TOPIC",
        resourceName: `audit-${id}`,
        patternType: "LITERAL",
      }),
    ).toEqual([good]);
  });

  it("deletes per filter and returns what each filter removed", async () => {
    const results = await deleteAcls(ADMIN, [
      {
        ...mine,
        resourceType: "USER",
        patternType: "LITERAL",
        resourceName: `User:svc-${id}`,
        operation: "CREATE_TOKENS",
      },
      { ...mine, resourceType: "GROUP", resourceName: `nothing-here-${id}`, patternType: "LITERAL" },
    ]);
    expect(results[0]?.deleted).toEqual([binding("USER", `User:svc-${id}`, "CREATE_TOKENS")]);
    expect(results[0]?.error).toBeNull();
    expect(results[1]?.deleted).toEqual([]);

    const left = await describeAcls(ADMIN, { ...mine, resourceType: "USER" });
    expect(left).toEqual([binding("USER", `User:svc-${id}`, "DESCRIBE_TOKENS")]);
  });
});

describe("ACL calls by a principal without cluster permissions", () => {
  it("cannot describe ACLs and is told it needs DESCRIBE on the cluster", async () => {
    const error = await describeAcls(outsiderCred, ANY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaOperationError);
    expect(error).toMatchObject({ code: "CLUSTER_AUTHORIZATION_FAILED", api: "DescribeAcls" });
    expect((error as Error).message).toBe(
      `Kafka refused DescribeAcls: User:${outsider} needs DESCRIBE on CLUSTER kafka-cluster.`,
    );
  });

  it("cannot create ACLs: each binding carries the missing ALTER on the cluster, and nothing is created", async () => {
    const attempt = binding("TOPIC", `sneaky-${id}`, "ALL", { principal: `User:${outsider}` });
    const [result] = await createAcls(outsiderCred, [attempt]);
    expect(result?.error?.code).toBe("CLUSTER_AUTHORIZATION_FAILED");
    expect(result?.error?.message).toBe(
      `Kafka refused CreateAcls: User:${outsider} needs ALTER on CLUSTER kafka-cluster.`,
    );
    expect(result?.error?.missing).toEqual([
      { operation: "ALTER", resourceType: "CLUSTER", resourceName: "kafka-cluster" },
    ]);
    expect(
      await describeAcls(ADMIN, {
        ...ANY,
        resourceType: "TOPIC",
        resourceName: `sneaky-${id}`,
        patternType: "LITERAL",
      }),
    ).toEqual([]);
  });

  it("cannot delete ACLs", async () => {
    const [result] = await deleteAcls(outsiderCred, [mine]);
    expect(result?.error?.code).toBe("CLUSTER_AUTHORIZATION_FAILED");
    expect(result?.error?.message).toBe(
      `Kafka refused DeleteAcls: User:${outsider} needs ALTER on CLUSTER kafka-cluster.`,
    );
    expect((await describeAcls(ADMIN, mine)).length).toBeGreaterThan(0);
  });

  it("may describe ACLs once granted DESCRIBE on the cluster, and only then", async () => {
    const grant: AclBinding = binding("CLUSTER", "kafka-cluster", "DESCRIBE", { principal: `User:${outsider}` });
    await createAcls(ADMIN, [grant]);
    const seen = await describeAcls(outsiderCred, mine);
    expect(seen.length).toBeGreaterThan(0);
    // DESCRIBE does not imply ALTER: creating is still refused.
    const [result] = await createAcls(outsiderCred, [
      binding("TOPIC", `sneaky-${id}`, "READ", { principal: `User:${outsider}` }),
    ]);
    expect(result?.error?.code).toBe("CLUSTER_AUTHORIZATION_FAILED");
  });
});
