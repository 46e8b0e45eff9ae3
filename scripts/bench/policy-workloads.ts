/**
 * The policy bench's ACLs and requests, from seeded generators: Kafka's
 * AuthorizerBenchmark workload (the same ACLs as java/AuthorizerHarness.java builds), the
 * realistic 100,000-ACL set of a large multi-team cluster and the 2,000 mixed requests
 * asked of it.
 */
import type { AuthorizeRequest } from "../../lib/policy/index";
import type { AclBinding, AclOperation, ResourceType } from "../../lib/policy/types";
import { SEED } from "./policy-options";

/** mulberry32: the same generator as AuthorizerHarness.Mulberry32, bit for bit. */
export function mulberry32(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- 1. Kafka's AuthorizerBenchmark workload -----------------------------------------------

const RESOURCE_NAME_PREFIX = "foo-bar35_resource-";
const HOST_PRE_COUNT = 1000;
const BY_TYPE_HOST = "127.0.0.2";

/** AuthorizerBenchmark.prepareAclCache, in the order AuthorizerHarness.benchmarkAcls builds it. */
export function benchmarkAcls(
  resourceCount: number,
  aclCount: number,
  denyPercentage: number,
  seed: number,
): AclBinding[] {
  const rand = mulberry32(seed);
  const eps = 1e-9;
  const principal = "User:test-user";
  const acls: AclBinding[] = [];
  const entry = (
    resourceType: ResourceType,
    resourceName: string,
    patternType: "LITERAL" | "PREFIXED",
    p: string,
    host: string,
    permissionType: "ALLOW" | "DENY",
  ): AclBinding => ({
    resourceType,
    resourceName,
    patternType,
    principal: p,
    host,
    operation: "READ",
    permissionType,
  });
  for (let resourceId = 0; resourceId < resourceCount; resourceId++) {
    const type: ResourceType = resourceId % 10 === 0 ? "GROUP" : "TOPIC";
    const name = RESOURCE_NAME_PREFIX + resourceId;
    const pattern = resourceId % 5 === 0 ? "PREFIXED" : "LITERAL";
    for (let aclId = 0; aclId < aclCount; aclId++) {
      const p = principal + (aclId === 0 ? "" : String(aclId));
      acls.push(entry(type, name, pattern, p, "*", "ALLOW"));
      if (rand() * 100.0 - eps < denyPercentage) acls.push(entry(type, name, pattern, p, "*", "DENY"));
    }
  }
  for (let hostId = 0; hostId < HOST_PRE_COUNT; hostId++) {
    acls.push(entry("TOPIC", RESOURCE_NAME_PREFIX, "PREFIXED", principal, `127.0.0.${hostId}`, "ALLOW"));
    if (rand() * 100.0 - eps < denyPercentage)
      acls.push(entry("TOPIC", RESOURCE_NAME_PREFIX, "PREFIXED", principal, `127.0.0.${hostId}`, "DENY"));
  }
  for (let hostId = 0; hostId < Math.floor(resourceCount / 10); hostId++) {
    // Kafka's benchmark really writes "127.0.0" + hostId (no dot) here.
    const hostName = `127.0.0${hostId}`;
    if (hostName === BY_TYPE_HOST) continue;
    acls.push(entry("TOPIC", "*", "LITERAL", principal, hostName, "ALLOW"));
    if (rand() * 100.0 - eps < denyPercentage) acls.push(entry("TOPIC", "*", "LITERAL", principal, hostName, "DENY"));
  }
  return acls;
}

/** AuthorizerBenchmark.testAuthorizer's action and request context. */
export const BENCH_REQUEST: AuthorizeRequest = {
  principal: "User:test-user",
  host: "127.0.0.1",
  operation: "WRITE",
  resourceType: "TOPIC",
  resourceName: RESOURCE_NAME_PREFIX + 95,
};

// ---- the realistic-mixed row: 100,000 ACLs, 2,000 different requests ---------------------------

export interface MixedWorkload {
  acls: AclBinding[];
  requests: AuthorizeRequest[];
}

const MIXED_REQUESTS = 2_000;
const CLIENT_HOSTS = ["10.1.0.7", "10.1.0.8", "10.2.3.4", "192.168.10.20", "10.9.8.7", "172.16.0.5", "10.0.0.12"];
const REQUEST_OPERATIONS: Partial<Record<ResourceType, readonly AclOperation[]>> = {
  TOPIC: ["READ", "WRITE", "DESCRIBE", "DESCRIBE", "DESCRIBE_CONFIGS", "CREATE", "DELETE", "ALTER", "ALTER_CONFIGS"],
  GROUP: ["READ", "DESCRIBE", "DELETE"],
  TRANSACTIONAL_ID: ["WRITE", "DESCRIBE"],
  CLUSTER: ["IDEMPOTENT_WRITE", "DESCRIBE", "CREATE", "CLUSTER_ACTION", "ALTER", "DESCRIBE_CONFIGS"],
};

/**
 * Requests the way a cluster gets them: 70% derived from a random ACL (its principal, or
 * another one; its resource, or a name under its prefix; its operation, the DESCRIBE /
 * DESCRIBE_CONFIGS it implies, or another operation of the type; its host or a client
 * host), 30% anything (principals without ACLs, topics nobody named, other hosts).
 * Never `User:*` as the requester (Kafka throws on that) and never ALL (not a request).
 */
function mixedRequests(acls: readonly AclBinding[], count: number, seed: number): AuthorizeRequest[] {
  const rand = mulberry32(seed ^ 0x5bd1e995);
  const int = (n: number): number => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const anyPrincipal = (): string =>
    rand() < 0.1 ? `Group:team${int(50)}` : rand() < 0.2 ? `User:unknown-${int(500)}` : `User:app-${int(3000)}`;
  const anyName = (type: ResourceType): string => {
    const stem = `team${int(55)}.svc${int(22)}`;
    if (type === "TOPIC") return rand() < 0.1 ? `orders-${int(100)}` : `${stem}.topic${int(25)}`;
    if (type === "GROUP") return `${stem}.consumer${int(7)}`;
    if (type === "TRANSACTIONAL_ID") return `${stem}.tx${int(4)}`;
    return "kafka-cluster";
  };
  const implied = (op: AclOperation, type: ResourceType): AclOperation => {
    if (op === "DESCRIBE_CONFIGS" || op === "ALTER_CONFIGS") return "DESCRIBE_CONFIGS";
    return REQUEST_OPERATIONS[type]!.includes("DESCRIBE") ? "DESCRIBE" : op;
  };
  const out: AuthorizeRequest[] = [];
  while (out.length < count) {
    if (rand() < 0.7) {
      let b = acls[int(acls.length)]!;
      // Cluster checks (IDEMPOTENT_WRITE, CREATE...) are rare next to topic and group ones,
      // and the one cluster resource has ~2,000 ACLs that Kafka scans one by one: keep
      // them about 1% of the requests, so they do not dominate Kafka's average.
      while (b.resourceType === "CLUSTER" && rand() < 0.75) b = acls[int(acls.length)]!;
      const type = b.resourceType;
      const ops = REQUEST_OPERATIONS[type]!;
      const name =
        b.patternType === "PREFIXED"
          ? `${b.resourceName}${pick(["topic", "consumer", "tx", "x"])}${int(30)}`
          : b.resourceName === "*"
            ? anyName(type)
            : b.resourceName;
      const r = rand();
      const operation =
        r < 0.45 && b.operation !== "ALL" ? b.operation : r < 0.75 ? implied(b.operation, type) : pick(ops);
      const principal = b.principal === "User:*" || rand() < 0.15 ? anyPrincipal() : b.principal;
      const host = b.host !== "*" && rand() < 0.8 ? b.host : pick(CLIENT_HOSTS);
      out.push({ principal, host, operation, resourceType: type, resourceName: name });
    } else {
      const r = rand();
      const type: ResourceType = r < 0.62 ? "TOPIC" : r < 0.85 ? "GROUP" : r < 0.99 ? "TRANSACTIONAL_ID" : "CLUSTER";
      out.push({
        principal: anyPrincipal(),
        host: pick(CLIENT_HOSTS),
        operation: pick(REQUEST_OPERATIONS[type]!),
        resourceType: type,
        resourceName: anyName(type),
      });
    }
  }
  return out;
}

export function mixedWorkload(): MixedWorkload {
  const acls = realisticAcls(100_000, SEED);
  return { acls, requests: mixedRequests(acls, MIXED_REQUESTS, SEED) };
}

// ---- 2. a realistic 100,000-ACL set -------------------------------------------------------------

const TOPIC_OPERATIONS: AclOperation[] = [
  "ALL",
  "READ",
  "WRITE",
  "CREATE",
  "DELETE",
  "ALTER",
  "DESCRIBE",
  "DESCRIBE_CONFIGS",
  "ALTER_CONFIGS",
];

/**
 * 100,000 ACLs shaped like a large multi-team cluster: 50 teams x 20 services x 20 topics
 * (names share the stems `teamN.` and `teamN.svcM.`), PREFIXED ACLs on those stems,
 * LITERAL ACLs per topic for 3,000 application principals, consumer groups and
 * transactional ids, some `User:*`, LITERAL `*`, host-pinned and DENY entries.
 */
export function realisticAcls(total: number, seed: number): AclBinding[] {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (n: number): number => Math.floor(rand() * n);
  const hosts = ["*", "*", "*", "*", "*", "*", "10.1.0.7", "10.1.0.8", "10.2.3.4", "192.168.10.20"];
  const out: AclBinding[] = [];
  const seen = new Set<string>();
  const push = (b: AclBinding): void => {
    const k =
      `${b.resourceType}|${b.resourceName}|${b.patternType}|${b.principal}|${b.host}|${b.operation}|` +
      `${b.permissionType}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(b);
  };
  const principal = (): string =>
    rand() < 0.02 ? "User:*" : rand() < 0.1 ? `Group:team${int(50)}` : `User:app-${int(3000)}`;
  const acl = (
    resourceType: ResourceType,
    resourceName: string,
    patternType: "LITERAL" | "PREFIXED",
    operation: AclOperation,
  ): AclBinding => ({
    resourceType,
    resourceName,
    patternType,
    principal: principal(),
    host: pick(hosts),
    operation,
    permissionType: rand() < 0.1 ? "DENY" : "ALLOW",
  });
  for (let i = 0; i < 20; i++) push(acl("TOPIC", "*", "LITERAL", pick(["DESCRIBE", "DESCRIBE_CONFIGS", "READ"])));
  while (out.length < total) {
    const team = int(50);
    const svc = int(20);
    const r = rand();
    if (r < 0.62) push(acl("TOPIC", `team${team}.svc${svc}.topic${int(20)}`, "LITERAL", pick(TOPIC_OPERATIONS)));
    else if (r < 0.72) push(acl("TOPIC", `team${team}.svc${svc}.`, "PREFIXED", pick(TOPIC_OPERATIONS)));
    else if (r < 0.76) push(acl("TOPIC", `team${team}.`, "PREFIXED", pick(TOPIC_OPERATIONS)));
    else if (r < 0.92)
      push(
        acl(
          "GROUP",
          `team${team}.svc${svc}.consumer${int(5)}`,
          rand() < 0.3 ? "PREFIXED" : "LITERAL",
          pick(["READ", "DESCRIBE", "DELETE"] as AclOperation[]),
        ),
      );
    else if (r < 0.98)
      push(
        acl(
          "TRANSACTIONAL_ID",
          `team${team}.svc${svc}.tx${int(3)}`,
          "LITERAL",
          pick(["WRITE", "DESCRIBE"] as AclOperation[]),
        ),
      );
    else
      push(
        acl("CLUSTER", "kafka-cluster", "LITERAL", pick(["IDEMPOTENT_WRITE", "DESCRIBE", "CREATE"] as AclOperation[])),
      );
  }
  return out;
}
