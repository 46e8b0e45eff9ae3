/**
 * `npm run bench -- grants`: grants that end by themselves at scale (#19): 10,000 live
 * grants on a cluster of 100,000 ACLs (the realistic mix of policy-workloads.ts), each grant
 * holding 1 to 3 of those bindings, 1,000 of them past their expiry.
 *
 *   expire      the policy core's expireGrants over all 10,000 grants and 100,000 ACLs:
 *               what the expiry of the 1,000 due grants removes (best of 5);
 *   dashboard   the dashboard's grant queries on PostgreSQL: live count, overdue count and
 *               the 10 soonest expiries (best of 5);
 *   sweep       the sweep's database work before Kafka is asked: the due grants (up to
 *               1,000), then for each, the other live grants holding its bindings (by index);
 *               best of 3 over 100 due grants, and per grant.
 *
 * Kafka's own deletes are not timed (they are the broker's, batched through a plan). The
 * database is a fresh one on the machine's PostgreSQL (TEST_PG_ADMIN_URL), dropped after.
 * The budget the issue sets: sweep and dashboard under 1 s each.
 */
import { randomUUID } from "node:crypto";
import { expireGrants, type GrantState } from "../../lib/policy/acl/grants";
import type { AclBinding } from "../../lib/policy/types";
import { bestOf, fmt, round } from "./measure";
import { mulberry32, realisticAcls } from "./policy-workloads";

const ACLS = 100_000;
const GRANTS = 10_000;
const DUE = 1_000;
const CLUSTER = "bench";

async function timeAsync(runs: number, fn: () => Promise<unknown>): Promise<{ bestMs: number; medianMs: number }> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { bestMs: sorted[0]!, medianMs: sorted[Math.floor(sorted.length / 2)]! };
}

export async function grantsBench(): Promise<Record<string, unknown>> {
  const acls = realisticAcls(ACLS, 7);
  const rand = mulberry32(11);
  const now = Date.now();
  const grants: (GrantState & { bindings: AclBinding[] })[] = [];
  for (let i = 0; i < GRANTS; i++) {
    const n = 1 + Math.floor(rand() * 3);
    const bindings = Array.from({ length: n }, () => acls[Math.floor(rand() * acls.length)]!);
    const expiresAt = i < DUE ? now - 60_000 - i : now + 3_600_000 + i * 1000;
    grants.push({ id: randomUUID(), bindings, expiresAt });
  }
  const expire = bestOf(5, () => expireGrants({ acls, grants, now }));
  const result = expireGrants({ acls, grants, now });
  console.log(
    `expireGrants: ${GRANTS} grants over ${ACLS} ACLs, ${DUE} due: ${fmt(expire.bestMs)} ms ` +
      `(median ${fmt(expire.medianMs)}), removes ${result.removed.length} bindings`,
  );

  const { createTestDatabase } = await import("../../test/db");
  const { migrate } = await import("../../lib/db/migrate");
  const db = await createTestDatabase("bench_grants");
  const previous = process.env.DATABASE_URL;
  try {
    await migrate(db.url);
    process.env.DATABASE_URL = db.url;
    const { getPrisma, disconnectPrisma } = await import("../../lib/db/client");
    const { storedBindingKey, dueGrants, bindingsHeldByOthers, liveGrants } = await import("../../lib/db/access-grant");
    const prisma = getPrisma();
    for (let i = 0; i < grants.length; i += 1000) {
      const chunk = grants.slice(i, i + 1000);
      await prisma.accessGrant.createMany({
        data: chunk.map((g) => ({
          id: g.id,
          clusterId: CLUSTER,
          requester: "User:bench",
          approver: "User:admin",
          planId: randomUUID(),
          bindings: JSON.parse(JSON.stringify(g.bindings)) as object[],
          expiresAt: new Date(g.expiresAt),
        })),
      });
      await prisma.grantBinding.createMany({
        data: chunk.flatMap((g) =>
          [...new Set(g.bindings.map(storedBindingKey))].map((bindingKey) => ({
            grantId: g.id,
            clusterId: CLUSTER,
            bindingKey,
          })),
        ),
      });
    }
    await prisma.$executeRawUnsafe("ANALYZE");
    const live = { clusterId: CLUSTER, status: { in: ["LIVE", "REMOVING"] } };
    const dashboard = await timeAsync(5, () =>
      Promise.all([
        prisma.accessGrant.count({ where: live }),
        prisma.accessGrant.count({ where: { ...live, expiresAt: { lt: new Date(now - 60_000) } } }),
        liveGrants(CLUSTER, { limit: 10 }),
      ]),
    );
    const sweep100 = await timeAsync(3, async () => {
      const due = await dueGrants(new Date(now), DUE);
      for (const g of due.slice(0, 100)) await bindingsHeldByOthers(CLUSTER, g.id, g.bindings);
    });
    const dueOnly = await timeAsync(3, () => dueGrants(new Date(now), DUE));
    const perGrantMs = (sweep100.bestMs - dueOnly.bestMs) / 100;
    console.log(
      `dashboard grant queries: ${fmt(dashboard.bestMs)} ms; sweep: due grants ${fmt(dueOnly.bestMs)} ms, ` +
        `other holders ${fmt(perGrantMs, 2)} ms per grant (100 grants: ${fmt(sweep100.bestMs)} ms)`,
    );
    await disconnectPrisma();
    return {
      acls: ACLS,
      liveGrants: GRANTS,
      dueGrants: DUE,
      expireMs: round(expire.bestMs),
      expireMedianMs: round(expire.medianMs),
      bindingsRemoved: result.removed.length,
      dashboardMs: round(dashboard.bestMs),
      sweepDueQueryMs: round(dueOnly.bestMs),
      sweepPerGrantMs: round(perGrantMs),
      sweep100GrantsMs: round(sweep100.bestMs),
      budgetMs: 1000,
      withinBudget: expire.bestMs < 1000 && dashboard.bestMs < 1000 && sweep100.bestMs < 1000,
    };
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    await db.drop();
  }
}
