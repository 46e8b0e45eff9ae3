/**
 * Puts the demo data (demo-data.ts) on the cluster, as the super user, idempotently:
 * it first reads what is there and then adds only what is missing, so a second run
 * changes nothing and reports "already seeded". Consumer groups and the transactional
 * id are created the way Kafka creates them: by consuming and by producing in a
 * transaction, as the service users (which also proves their ACLs work).
 *
 * Once per cluster (seedDemoDataOnce, what `npm start` runs): the console's database
 * records (table demo_seed) each Kafka cluster id it wrote the demo data to, and never
 * writes it there again, so what people changed in the console (a quota, a deleted demo
 * user) stays changed. `npm run seed -- --force` (what `npm test` runs, since its tests
 * start from the demo state) writes what is missing or changed regardless.
 */
import pg from "pg";
import {
  describeAcls,
  describeCluster,
  describeClientQuotas,
  describeScramUsers,
  entityKey,
  listConsumerGroups,
  listTopics,
  listTransactionalIds,
  verifyCredentials,
  isKafkaOperationError,
  type KafkaCredential,
  type QuotaAlteration,
} from "@/lib/kafka";
// The seed sets up the demo cluster directly, outside the console's audit trail (a named exemption of the write fence).
import {
  alterClientQuotas,
  consumeWithGroup,
  createAcls,
  createTopics,
  produce,
  produceTransactional,
  upsertScramCredential,
} from "@/lib/kafka/writes";
import type { AclBinding } from "@/lib/policy/types";
import { ANY_ACL_FILTER } from "@/lib/policy/acl/filter";
import {
  DEMO_ACLS,
  DEMO_GROUPS,
  DEMO_QUOTAS,
  DEMO_RECORDS,
  DEMO_TOPICS,
  DEMO_TRANSACTIONS,
  DEMO_USERS,
  demoPassword,
} from "./demo-data";

export const SEED_ADMIN: KafkaCredential = {
  username: "admin",
  password: demoPassword("admin"),
  mechanism: "SCRAM-SHA-512",
};

/**
 * The super user as it can sign in now: SCRAM-SHA-512, else SCRAM-SHA-256, else the
 * static PLAIN password. SCRAM credentials live in the metadata log and can go missing
 * (Kafka 4.1.1 loses them when a restart replays a log with deletions, see
 * scripts/kafka.sh); the seed then restores them, which it could not do as a SCRAM user.
 */
export async function signInAdmin(): Promise<KafkaCredential> {
  const mechanisms = ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] as const;
  for (const mechanism of mechanisms) {
    const cred: KafkaCredential = { ...SEED_ADMIN, mechanism };
    try {
      await verifyCredentials(cred);
      return cred;
    } catch (error) {
      if (!isKafkaOperationError(error) || error.code !== "SASL_AUTHENTICATION_FAILED" || mechanism === "PLAIN")
        throw error;
    }
  }
  throw new Error("unreachable");
}

const scram = (user: string): KafkaCredential => ({
  username: user,
  password: demoPassword(user),
  mechanism: "SCRAM-SHA-512",
});
const aclKey = (b: AclBinding) =>
  [b.resourceType, b.resourceName, b.patternType, b.principal, b.host, b.operation, b.permissionType].join("|");

interface Missing {
  users: string[];
  topics: typeof DEMO_TOPICS;
  acls: AclBinding[];
  quotas: QuotaAlteration[];
  groups: typeof DEMO_GROUPS;
  transactions: typeof DEMO_TRANSACTIONS;
}

async function findMissing(admin: KafkaCredential): Promise<Missing> {
  const [scramUsers, topics, acls, quotas, groups, transactions] = await Promise.all([
    describeScramUsers(admin, [...DEMO_USERS]),
    listTopics(admin),
    describeAcls(admin, ANY_ACL_FILTER),
    describeClientQuotas(admin, { components: [], strict: false }),
    listConsumerGroups(admin),
    listTransactionalIds(admin),
  ]);
  const complete = new Set(
    scramUsers
      .filter((u) => ["SCRAM-SHA-256", "SCRAM-SHA-512"].every((m) => u.credentials.some((c) => c.mechanism === m)))
      .map((u) => u.user),
  );
  const aclKeys = new Set(acls.map(aclKey));
  const quotaValues = new Map(quotas.map((q) => [entityKey(q.entity), q.values]));
  const groupIds = new Set(groups.map((g) => g.groupId));
  // A transactional id whose transaction never committed (an interrupted seed) is redone.
  const txIds = new Set(
    transactions.filter((t) => /^(PrepareCommit|CompleteCommit)$/.test(t.state)).map((t) => t.transactionalId),
  );
  return {
    users: DEMO_USERS.filter((u) => !complete.has(u)),
    topics: DEMO_TOPICS.filter((t) => !topics.includes(t.name)),
    acls: DEMO_ACLS.filter((b) => !aclKeys.has(aclKey(b))),
    quotas: DEMO_QUOTAS.flatMap(({ entity, values }) => {
      const current = quotaValues.get(entityKey(entity)) ?? {};
      const ops = Object.entries(values)
        .filter(([key, value]) => current[key as keyof typeof current] !== value)
        .map(([key, value]) => ({ key: key as keyof typeof values, value: value ?? null }));
      return ops.length > 0 ? [{ entity, ops }] : [];
    }),
    groups: DEMO_GROUPS.filter((g) => !groupIds.has(g.group)),
    transactions: DEMO_TRANSACTIONS.filter((t) => !txIds.has(t.transactionalId)),
  };
}

function isEmpty(m: Missing): boolean {
  return Object.values(m).every((list: unknown[]) => list.length === 0);
}

/**
 * Seeds the demo data on the cluster the environment points at (KAFKA_BOOTSTRAP_SERVERS,
 * default the dev broker). Returns `{ seeded: false }` when everything was already there.
 */
export async function seedDemoData(log: (line: string) => void = () => undefined): Promise<{ seeded: boolean }> {
  const admin = await signInAdmin();
  const missing = await findMissing(admin);
  if (isEmpty(missing)) {
    log("demo data: already seeded");
    return { seeded: false };
  }

  for (const user of missing.users) {
    await upsertScramCredential(admin, user, "SCRAM-SHA-512", demoPassword(user));
    await upsertScramCredential(admin, user, "SCRAM-SHA-256", demoPassword(user));
  }
  if (missing.users.length)
    log(`demo data: SCRAM-SHA-512/256 users ${missing.users.join(", ")} (password <name>-secret)`);

  if (missing.topics.length) {
    const created = await createTopics(admin, missing.topics);
    const failed = created.filter((c) => c.error);
    if (failed.length) throw new Error(`could not create topics: ${failed.map((f) => f.error?.message).join("; ")}`);
    log(`demo data: topics ${missing.topics.map((t) => t.name).join(", ")}`);
  }

  if (missing.acls.length) {
    const results = await createAcls(admin, missing.acls);
    const failed = results.filter((r) => r.error);
    if (failed.length) throw new Error(`could not create ACLs: ${failed.map((f) => f.error?.message).join("; ")}`);
    log(`demo data: ${missing.acls.length} ACLs`);
  }

  if (missing.quotas.length) {
    const results = await alterClientQuotas(admin, missing.quotas);
    const failed = results.filter((r) => r.error);
    if (failed.length) throw new Error(`could not set quotas: ${failed.map((f) => f.error?.message).join("; ")}`);
    log(`demo data: quotas for ${missing.quotas.length} entities`);
  }

  if (missing.groups.length) {
    for (const { topic, producer, values } of DEMO_RECORDS) {
      if (!missing.groups.some((g) => g.topic === topic)) continue;
      await produce(
        producer === "admin" ? admin : scram(producer),
        topic,
        values.map((value) => ({ value })),
      );
    }
    for (const { group, topic, consumer } of missing.groups) {
      const expected = DEMO_RECORDS.filter((r) => r.topic === topic).reduce((n, r) => n + r.values.length, 0);
      const records = await consumeWithGroup(scram(consumer), group, topic, {
        max: Math.max(1, expected),
        timeoutMs: 5_000,
      });
      log(`demo data: group ${group} (${consumer} consumed ${records.length} records from ${topic})`);
    }
  }

  for (const { transactionalId, topic, producer, value } of missing.transactions) {
    await produceTransactional(scram(producer), transactionalId, topic, [{ value }]);
    log(`demo data: transactional id ${transactionalId} (${producer} committed a transaction on ${topic})`);
  }

  return { seeded: true };
}

/**
 * The demo data, once per Kafka cluster, recorded in the console database at
 * `databaseUrl` (table demo_seed, by Kafka's cluster id; `clusterId` is the console's id
 * for it). Written when the database has no record of the cluster, or a record of a seed
 * that did not finish; not when it records a finished one. A cluster without a record that
 * already holds demo topics was seeded by a console from before the record: it is recorded
 * and nothing is written. `force` writes regardless (and records it).
 */
export async function seedDemoDataOnce(
  databaseUrl: string,
  log: (line: string) => void = () => undefined,
  options: { force?: boolean; clusterId?: string } = {},
): Promise<{ seeded: boolean }> {
  const admin = await signInAdmin();
  const kafkaClusterId = (await describeCluster(admin)).clusterId;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  db.on("error", (error) => log(`database connection error: ${error.message}`));
  try {
    const found = await db.query<{ seeded_at: Date | null }>(
      `SELECT seeded_at FROM demo_seed WHERE kafka_cluster_id = $1`,
      [kafkaClusterId],
    );
    const record = found.rows[0];
    if (!options.force && record?.seeded_at) {
      log(
        `demo data: written to this cluster (${kafkaClusterId}) on ${record.seeded_at.toISOString()}; not ` +
          `written again (npm run seed -- --force would)`,
      );
      return { seeded: false };
    }
    if (!options.force && !record && (await listTopics(admin)).some((t) => DEMO_TOPICS.some((d) => d.name === t))) {
      await db.query(
        `INSERT INTO demo_seed (kafka_cluster_id, cluster_id, seeded_at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING`,
        [kafkaClusterId, options.clusterId ?? "default"],
      );
      log(`demo data: already on this cluster (${kafkaClusterId}) from an earlier start; recorded, not written again`);
      return { seeded: false };
    }
    await db.query(`INSERT INTO demo_seed (kafka_cluster_id, cluster_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      kafkaClusterId,
      options.clusterId ?? "default",
    ]);
    const result = await seedDemoData(log);
    await db.query(`UPDATE demo_seed SET seeded_at = now() WHERE kafka_cluster_id = $1`, [kafkaClusterId]);
    return result;
  } finally {
    await db.end();
  }
}
