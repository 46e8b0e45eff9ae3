/**
 * Issue #17, item 12: `npm start` writes the demo data once per cluster and never again, so a
 * change made in the console (svc-orders' produce quota raised from 1 MiB to 2 MiB) stays;
 * `--force` (what `npm test` runs) still restores the demo state. Against the dev broker, with
 * a fresh console database; the quota is restored at the end.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllConnections, describeClientQuotas } from "@/lib/kafka";
import { alterClientQuotas } from "@/lib/kafka/writes";
import { useMigratedTestDatabase } from "@/test/db";
import { SEED_ADMIN, seedDemoDataOnce } from "./seed-demo";

const MiB = 1_048_576;
let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;

/** What someone changes in the console: svc-orders may produce 2 MiB/s. */
const raiseQuota = () =>
  alterClientQuotas(SEED_ADMIN, [
    { entity: { user: "svc-orders" }, ops: [{ key: "producer_byte_rate", value: 2 * MiB }] },
  ]);
const produceQuota = async () =>
  (
    await describeClientQuotas(SEED_ADMIN, {
      components: [{ entityType: "user", matchType: "EXACT", match: "svc-orders" }],
      strict: true,
    })
  )[0]?.values.producer_byte_rate;

async function records() {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (
      await c.query<{ cluster_id: string; seeded: boolean }>(
        `SELECT cluster_id, seeded_at IS NOT NULL AS seeded FROM demo_seed`,
      )
    ).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  db = await useMigratedTestDatabase("demo_seed");
});

afterAll(async () => {
  await alterClientQuotas(SEED_ADMIN, [
    { entity: { user: "svc-orders" }, ops: [{ key: "producer_byte_rate", value: MiB }] },
  ]);
  await closeAllConnections();
  await db?.teardown();
});

describe("demo data once per cluster", () => {
  it("a cluster seeded before the console kept a record: recorded, nothing written", async () => {
    await raiseQuota();
    const lines: string[] = [];
    expect(await seedDemoDataOnce(db.url, (l) => lines.push(l))).toEqual({ seeded: false });
    expect(lines.join("\n")).toContain("recorded, not written again");
    expect(await produceQuota()).toBe(2 * MiB);
    expect(await records()).toEqual([{ cluster_id: "default", seeded: true }]);
  });

  it(
    "seeding twice writes once: a seed that had not finished is completed; the next start leaves the " +
      "console's change alone",
    async () => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      await c.query(`UPDATE demo_seed SET seeded_at = NULL`);
      await c.end();

      expect(await seedDemoDataOnce(db.url)).toEqual({ seeded: true });
      expect(await produceQuota()).toBe(MiB);
      expect(await records()).toEqual([{ cluster_id: "default", seeded: true }]);

      await raiseQuota();
      const lines: string[] = [];
      expect(await seedDemoDataOnce(db.url, (l) => lines.push(l))).toEqual({ seeded: false });
      expect(lines.join("\n")).toMatch(/not written again \(npm run seed -- --force would\)/);
      expect(await produceQuota()).toBe(2 * MiB);
    },
  );

  it("--force writes the demo data again (what npm test runs)", async () => {
    expect(await produceQuota()).toBe(2 * MiB);
    expect(await seedDemoDataOnce(db.url, undefined, { force: true })).toEqual({ seeded: true });
    expect(await produceQuota()).toBe(MiB);
    expect(await records()).toEqual([{ cluster_id: "default", seeded: true }]);
  });
});
