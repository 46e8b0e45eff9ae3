/**
 * The demo cluster's contents, as data: who exists, what they may do, how fast they may
 * go. It tells a small story the console can explain:
 *
 *  - admin is the super user; the others are ordinary principals.
 *  - alice and carol are application users: alice reads `orders` (and uses `alice-*`
 *    consumer groups), carol may see every topic name and read `audit-log`, but only
 *    from 127.0.0.1. Neither has any cluster-level permission or CREATE_TOKENS.
 *  - bob reads every `payments-*` topic except `payments-eu` (an explicit DENY), and may
 *    create and describe delegation tokens for svc-orders (KIP-373).
 *  - dana is a security officer: ALTER and DESCRIBE on the cluster, so Kafka lets her
 *    read and change ACLs (not quotas: no DESCRIBE_CONFIGS or ALTER_CONFIGS). She is the
 *    second person entitled to change ACLs: on a four-eyes cluster (requests.approvals > 0)
 *    she approves what admin requests, and admin what she requests (docs/requests.md).
 *  - svc-orders produces orders (also transactionally, `orders-tx-*`), consumes them as
 *    group `orders-service` and writes the dead-letter topic.
 *  - svc-billing consumes `payments-*` as group `billing` and appends to `audit-log`.
 *  - Everyone (`User:*`) may read `inventory` but svc-orders (its own DENY wins over the
 *    `User:*` ALLOW); nobody but the super user may delete `audit-log` (DENY for `User:*`).
 *  - Quotas: svc-orders has a 1 MiB/s produce budget split among client ids (KIP-55);
 *    svc-billing's `billing-export` sub-quota exceeds its user total, a violation Kafka
 *    accepts and the console reports; defaults for users and client ids; one IP quota.
 */
import type { AclBinding, QuotaEntity, QuotaKey } from "@/lib/policy/types";

export const DEMO_USERS = ["admin", "alice", "bob", "carol", "dana", "svc-orders", "svc-billing"] as const;
export const demoPassword = (user: string) => `${user}-secret`;

export const DEMO_TOPICS: { name: string; partitions: number }[] = [
  { name: "orders", partitions: 3 },
  { name: "orders-dlq", partitions: 1 },
  { name: "payments-eu", partitions: 2 },
  { name: "payments-us", partitions: 2 },
  { name: "audit-log", partitions: 1 },
  { name: "inventory", partitions: 1 },
];

type Acl = Omit<AclBinding, "patternType" | "host" | "permissionType"> &
  Partial<Pick<AclBinding, "patternType" | "host" | "permissionType">>;

function acl(a: Acl): AclBinding {
  return { patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}

export const DEMO_ACLS: AclBinding[] = [
  // alice: reads orders with her own groups.
  acl({ resourceType: "TOPIC", resourceName: "orders", principal: "User:alice", operation: "READ" }),
  acl({
    resourceType: "GROUP",
    resourceName: "alice-",
    patternType: "PREFIXED",
    principal: "User:alice",
    operation: "READ",
  }),
  // carol: sees every topic name, reads the audit log from the local host only.
  acl({ resourceType: "TOPIC", resourceName: "*", principal: "User:carol", operation: "DESCRIBE" }),
  acl({
    resourceType: "TOPIC",
    resourceName: "audit-log",
    principal: "User:carol",
    operation: "READ",
    host: "127.0.0.1",
  }),
  // bob: all payments topics but EU; tokens on behalf of svc-orders.
  acl({
    resourceType: "TOPIC",
    resourceName: "payments-",
    patternType: "PREFIXED",
    principal: "User:bob",
    operation: "READ",
  }),
  acl({
    resourceType: "TOPIC",
    resourceName: "payments-eu",
    principal: "User:bob",
    operation: "READ",
    permissionType: "DENY",
  }),
  acl({
    resourceType: "GROUP",
    resourceName: "bob-",
    patternType: "PREFIXED",
    principal: "User:bob",
    operation: "READ",
  }),
  acl({ resourceType: "USER", resourceName: "User:svc-orders", principal: "User:bob", operation: "CREATE_TOKENS" }),
  acl({ resourceType: "USER", resourceName: "User:svc-orders", principal: "User:bob", operation: "DESCRIBE_TOKENS" }),
  // dana: the security officer, a second principal entitled to change ACLs (four-eyes).
  acl({ resourceType: "CLUSTER", resourceName: "kafka-cluster", principal: "User:dana", operation: "ALTER" }),
  acl({ resourceType: "CLUSTER", resourceName: "kafka-cluster", principal: "User:dana", operation: "DESCRIBE" }),
  // svc-orders: the orders service.
  acl({ resourceType: "TOPIC", resourceName: "orders", principal: "User:svc-orders", operation: "WRITE" }),
  acl({ resourceType: "TOPIC", resourceName: "orders", principal: "User:svc-orders", operation: "READ" }),
  acl({ resourceType: "TOPIC", resourceName: "orders-dlq", principal: "User:svc-orders", operation: "WRITE" }),
  acl({ resourceType: "GROUP", resourceName: "orders-service", principal: "User:svc-orders", operation: "READ" }),
  acl({
    resourceType: "TRANSACTIONAL_ID",
    resourceName: "orders-tx-",
    patternType: "PREFIXED",
    principal: "User:svc-orders",
    operation: "WRITE",
  }),
  acl({
    resourceType: "CLUSTER",
    resourceName: "kafka-cluster",
    principal: "User:svc-orders",
    operation: "IDEMPOTENT_WRITE",
  }),
  // svc-billing: the billing service.
  acl({
    resourceType: "TOPIC",
    resourceName: "payments-",
    patternType: "PREFIXED",
    principal: "User:svc-billing",
    operation: "READ",
  }),
  acl({ resourceType: "GROUP", resourceName: "billing", principal: "User:svc-billing", operation: "READ" }),
  acl({ resourceType: "TOPIC", resourceName: "audit-log", principal: "User:svc-billing", operation: "WRITE" }),
  // Everyone reads inventory; nobody (but the super user) deletes the audit log.
  acl({ resourceType: "TOPIC", resourceName: "inventory", principal: "User:*", operation: "READ" }),
  // ...except svc-orders, which reads stock through the inventory service: its DENY wins over the User:* ALLOW.
  acl({
    resourceType: "TOPIC",
    resourceName: "inventory",
    principal: "User:svc-orders",
    operation: "READ",
    permissionType: "DENY",
  }),
  acl({
    resourceType: "TOPIC",
    resourceName: "audit-log",
    principal: "User:*",
    operation: "DELETE",
    permissionType: "DENY",
  }),
];

export const DEMO_QUOTAS: { entity: QuotaEntity; values: Partial<Record<QuotaKey, number>> }[] = [
  { entity: { user: "svc-orders" }, values: { producer_byte_rate: 1_048_576, consumer_byte_rate: 2_097_152 } },
  { entity: { user: "svc-orders", "client-id": "orders-api" }, values: { producer_byte_rate: 524_288 } },
  { entity: { user: "svc-orders", "client-id": "orders-batch" }, values: { producer_byte_rate: 262_144 } },
  { entity: { user: "svc-billing" }, values: { producer_byte_rate: 524_288, request_percentage: 50 } },
  { entity: { user: "svc-billing", "client-id": "billing-export" }, values: { producer_byte_rate: 1_048_576 } },
  { entity: { user: null }, values: { producer_byte_rate: 2_097_152 } },
  { entity: { "client-id": null }, values: { consumer_byte_rate: 4_194_304 } },
  { entity: { ip: "203.0.113.10" }, values: { connection_creation_rate: 20 } },
];

/** Records to produce, and who then consumes them as which group (creating the group). */
export const DEMO_RECORDS: { topic: string; producer: string; values: string[] }[] = [
  {
    topic: "orders",
    producer: "svc-orders",
    values: [
      '{"orderId":"o-1001","sku":"KB-101","qty":2}',
      '{"orderId":"o-1002","sku":"MS-220","qty":1}',
      '{"orderId":"o-1003","sku":"HD-310","qty":4}',
    ],
  },
  { topic: "payments-eu", producer: "admin", values: ['{"paymentId":"p-9001","orderId":"o-1001","eur":59.8}'] },
];

export const DEMO_GROUPS: { group: string; topic: string; consumer: string }[] = [
  { group: "orders-service", topic: "orders", consumer: "svc-orders" },
  { group: "billing", topic: "payments-eu", consumer: "svc-billing" },
];

export const DEMO_TRANSACTIONS: { transactionalId: string; topic: string; producer: string; value: string }[] = [
  {
    transactionalId: "orders-tx-1",
    topic: "orders",
    producer: "svc-orders",
    value: '{"orderId":"o-1004","sku":"KB-101","qty":1}',
  },
];
