/**
 * The console against a real 3-node KRaft cluster (scripts/kafka-cluster.sh, each node
 * broker+controller), started here on private ports and stopped afterwards (left running
 * when it already ran). Through the console's own adapter and services, as the super user:
 *
 *   - an ACL created through one broker is shown by every broker once the write returns;
 *   - a broker killed mid-session does not stop the console, which names the broker down;
 *   - the active controller killed during a quota change: the change is applied (a re-read
 *     shows it) or the console says it may not have been, and a re-read shows the truth.
 *
 * MULTI_BROKER_BASE_PORT (19300: clients on 19300-19302, controllers +10, TLS +20/+30) and
 * MULTI_BROKER_STATE_DIR (<tmp>/ksc-multi-broker-<port>) choose where the cluster runs.
 */
import { execFile } from "node:child_process";
import { tracingChannel } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy/types";

vi.mock("server-only", () => ({}));

const BASE = Number(process.env.MULTI_BROKER_BASE_PORT ?? 19300);
const STATE_DIR = process.env.MULTI_BROKER_STATE_DIR ?? path.join(os.tmpdir(), `ksc-multi-broker-${BASE}`);
const SERVERS = [0, 1, 2].map((i) => `127.0.0.1:${BASE + i}`);
// Read once, on the first Kafka call: set before any.
process.env.KAFKA_BOOTSTRAP_SERVERS = SERVERS.join(",");
process.env.KAFKA_SECURITY_PROTOCOL = "SASL_PLAINTEXT";

const { describeAclsV3 } = await import("@platformatic/kafka");
const { useMigratedTestDatabase } = await import("@/test/db");
const { listAudit } = await import("@/lib/db/audit");
const { createAcls, deleteAcls, describeAcls } = await import("./acls");
const { closeAllConnections, createAdmin } = await import("./client");
const { describeClientQuotas, alterClientQuotas } = await import("./quotas");
const { listConsumerGroupsPerBroker, listTopics, listTransactionalIdsPerBroker, unreachableNote } =
  await import("./cluster");
const { filterToWire } = await import("./wire");
const { ADMIN, runId } = await import("@/test/kafka/fixtures");
const { getClusterView } = await import("@/lib/services/cluster");
const { applyQuotaAlteration } = await import("@/lib/services/quotas");
const { createAclsAudited, PROPAGATING_NOTE } = await import("@/lib/services/acls");

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const clusterEnv = {
  ...process.env,
  KAFKA_CLUSTER_STATE_DIR: STATE_DIR,
  KAFKA_CLUSTER_BASE_PORT: String(BASE),
  KAFKA_START_TIMEOUT: "240",
};

async function cluster(...args: string[]): Promise<string> {
  const { stdout } = await run("bash", [path.join(ROOT, "scripts/kafka-cluster.sh"), ...args], {
    cwd: ROOT,
    env: clusterEnv,
    maxBuffer: 1 << 22,
  });
  return stdout;
}

const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const id = runId();
let startedHere = false;
let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;

beforeAll(async () => {
  const up = await cluster("status").then(
    () => true,
    () => false,
  );
  if (!up) {
    await cluster("start", "--brokers", "3");
    startedHere = true;
  }
  db = await useMigratedTestDatabase("multi_broker");
}, 420_000);

afterAll(async () => {
  await closeAllConnections();
  await db?.teardown();
  if (startedHere && process.env.KEEP_CLUSTER !== "1") await cluster("stop");
  // A cluster that ran before keeps running, with every node up again.
  else await cluster("start", "--brokers", "3");
}, 300_000);

/** The bindings that broker `nodeId` itself answers for `binding`'s resource (no other broker asked). */
async function aclsOnBroker(nodeId: number, binding: AclBinding): Promise<number> {
  const direct = createAdmin(ADMIN, {
    bootstrapServers: [SERVERS[nodeId - 1]!],
    securityProtocol: "SASL_PLAINTEXT",
    tls: undefined,
    clientId: "multi-broker-test",
  });
  try {
    const connection = (await direct.connectToBrokers([nodeId])).get(nodeId)!;
    const answer = await describeAclsV3.api.async(
      connection,
      filterToWire({ ...binding, operation: "ANY", permissionType: "ANY", host: null }),
    );
    return answer.resources.reduce((n, r) => n + r.acls.filter((a) => a.principal === binding.principal).length, 0);
  } finally {
    await direct.close();
  }
}

const binding = (name: string): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: `mb-${id}-${name}`,
  patternType: "LITERAL",
  principal: `User:mb-${id}`,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
});

describe("a 3-broker cluster", () => {
  it("has three brokers, and the console reaches all of them", async () => {
    const view = await getClusterView(admin);
    expect(view.brokers.map((b) => b.id)).toEqual([1, 2, 3]);
    expect(view.unreachable).toEqual([]);
  });

  it(
    "an ACL created through the console is shown by every broker when the write returns, and gone " +
      "from every broker when the delete returns",
    async () => {
      const b = binding("visible");
      const [created] = await createAcls(ADMIN, [b]);
      expect(created?.error).toBeNull();
      // No waiting here: the console's write waited until every broker showed it.
      expect(await Promise.all([1, 2, 3].map((n) => aclsOnBroker(n, b)))).toEqual([1, 1, 1]);

      const [deleted] = await deleteAcls(ADMIN, [{ ...b }]);
      expect(deleted?.deleted).toHaveLength(1);
      expect(await Promise.all([1, 2, 3].map((n) => aclsOnBroker(n, b)))).toEqual([0, 0, 0]);
    },
  );

  it(
    "an ACL created while a broker is frozen (it cannot apply the change) is reported as still " +
      "propagating, and that broker shows it once it runs again",
    async () => {
      const b = binding("propagating");
      await listTopics(ADMIN);
      // Neither the active controller (the write would wait for a new one) nor broker 1 (the console writes through
      // it).
      const leader = Number((await cluster("leader")).trim());
      const frozen = leader === 3 ? 2 : 3;
      const pid = Number(readFileSync(path.join(STATE_DIR, `node-${frozen}`, "kafka.pid"), "utf8"));
      process.kill(pid, "SIGSTOP");
      let result: Awaited<ReturnType<typeof createAclsAudited>>;
      try {
        result = await createAclsAudited(admin, [b]);
      } finally {
        process.kill(pid, "SIGCONT");
      }
      expect(result).toMatchObject({ ok: true, data: { message: expect.stringContaining(PROPAGATING_NOTE) } });
      await expect.poll(() => aclsOnBroker(frozen, b), { timeout: 60_000, interval: 1_000 }).toBe(1);
      await deleteAcls(ADMIN, [{ ...b }]);
    },
    120_000,
  );

  it("a broker killed mid-session does not stop the console, which says which broker is down", async () => {
    // The session's pooled connections exist already (the tests above).
    await listTopics(ADMIN);
    await cluster("kill-node", "1");
    try {
      // Groups and transactional ids are listed by each broker for what it coordinates: the
      // others still answer, and broker 1 is named (asked at once, before the controller
      // fences it out of the metadata, 9 s on).
      const [groups, transactions] = await Promise.all([
        listConsumerGroupsPerBroker(ADMIN),
        listTransactionalIdsPerBroker(ADMIN),
      ]);
      expect(groups.unreachable.map((x) => x.id)).toEqual([1]);
      expect(unreachableNote(groups.unreachable, "groups")).toMatch(
        /^Broker 1 \(.+\) did not answer: the groups it coordinates are not listed\.$/,
      );
      expect(transactions.unreachable.map((x) => x.id)).toEqual([1]);

      const b = binding("while-down");
      const [created] = await createAcls(ADMIN, [b]);
      expect(created?.error).toBeNull();
      expect(await describeAcls(ADMIN, { ...b, host: null })).toEqual([b]);
      expect(Array.isArray(await listTopics(ADMIN))).toBe(true);
      expect(Array.isArray(await describeClientQuotas(ADMIN, { components: [] }))).toBe(true);

      const view = await getClusterView(admin);
      expect(view.unreachable).toEqual([expect.objectContaining({ id: 1, server: SERVERS[0] })]);
      expect(view.unreachable[0]?.message).toMatch(
        new RegExp(`^Broker 1 \\(${SERVERS[0]!.replace(/\./g, "\\.")}\\) is not reachable`),
      );
      expect(view.brokers.map((x) => x.id)).not.toContain(undefined);

      await deleteAcls(ADMIN, [{ ...b }]);
    } finally {
      await cluster("start-node", "1");
    }
    const view = await getClusterView(admin);
    expect(view.unreachable).toEqual([]);
    await expect
      .poll(async () => (await listConsumerGroupsPerBroker(ADMIN)).unreachable, { timeout: 60_000 })
      .toEqual([]);
  }, 300_000);

  it(
    "the active controller killed as the console sends a quota change: the change is applied, or the " +
      "console says it may not have been and a re-read shows the truth",
    async () => {
      const leader = Number((await cluster("leader")).trim());
      expect([1, 2, 3]).toContain(leader);
      await quotaChangeWhileKilling("the active controller", () => leader);
    },
    300_000,
  );

  it(
    "the broker the console sends a quota change to killed with it (its answer lost): applied, or " +
      "the console says it may not have been and a re-read shows the truth",
    async () => {
      await quotaChangeWhileKilling("the broker it was sent to", (port) => port - BASE + 1);
    },
    300_000,
  );
});

/**
 * Sets a quota through the console's quota service and SIGKILLs node `pick(port of the broker
 * the request goes to)` the moment the console sends the AlterClientQuotas (API key 49) that
 * applies (after the one that validates). Then:
 * either the console says it applied the change and a re-read shows it, or it says the
 * change may not have been applied, and what a re-read shows is what Kafka holds.
 */
async function quotaChangeWhileKilling(who: string, pick: (port: number) => number): Promise<void> {
  const user = `mb-${id}-quota-${runId()}`;
  let node = 0;
  try {
    const channel = tracingChannel<unknown, { apiKey?: number; connection?: { port?: number } }>(
      "plt:kafka:connections:api",
    );
    let sends = 0;
    const onStart = (message: { apiKey?: number; connection?: { port?: number } }) => {
      // The first AlterClientQuotas is the service's validateOnly check; the second applies.
      if (message.apiKey !== 49 || ++sends !== 2) return;
      node = pick(message.connection?.port ?? 0);
      process.kill(Number(readFileSync(path.join(STATE_DIR, `node-${node}`, "kafka.pid"), "utf8")), "SIGKILL");
    };
    const handlers = {
      start: onStart,
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: () => undefined,
      error: () => undefined,
    };
    channel.subscribe(handlers);
    let result: Awaited<ReturnType<typeof applyQuotaAlteration>>;
    try {
      result = await applyQuotaAlteration(admin, { entity: { user }, key: "producer_byte_rate", value: 4096 });
    } finally {
      channel.unsubscribe(handlers);
    }
    expect([1, 2, 3]).toContain(node);
    console.info(
      `node ${node} (${who}) killed during AlterClientQuotas; the console ` +
        `answered: ${result.ok ? result.data.message : result.message}`,
    );

    const reread = async () =>
      (await describeClientQuotas(ADMIN, { components: [{ entityType: "user", matchType: "EXACT", match: user }] }))[0]
        ?.values.producer_byte_rate;
    if (result.ok) {
      expect(result.data.applied).toBe(true);
      expect(await reread()).toBe(4096);
    } else {
      expect(result.message).toMatch(/^The quota change may not have been applied: Kafka's answer was lost/);
      // The audit trail records the outcome as unknown, not as a failure.
      const [event] = (await listAudit({ action: "quota.alter", limit: 1 })).events;
      expect(event).toMatchObject({ outcome: "unknown", target: expect.stringContaining(user) });
      // The truth, read through the surviving brokers: set or not, never anything else.
      expect([undefined, 4096]).toContain(await reread());
    }
  } finally {
    if (node !== 0) await cluster("start-node", String(node));
    await alterClientQuotas(ADMIN, [{ entity: { user }, ops: [{ key: "producer_byte_rate", value: null }] }]).catch(
      () => undefined,
    );
  }
}
