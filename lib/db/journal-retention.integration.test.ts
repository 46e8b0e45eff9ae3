/**
 * The journal's retention (#20, docs/history.md) on PostgreSQL: the newest checkpoint older than
 * the cutoff becomes the journal's beginning; the entries it folds in, older checkpoints, what was
 * decided about those entries (drift) and the coverage before it go; the state at any later instant
 * rebuilds exactly as before, and an instant before the new beginning is "before the journal".
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const journal = await import("./journal");
const { aclKey, applyChanges, rebuildAt, stateJson, vouchFor } = await import("@/lib/policy/history");

const CLUSTER = "retention";
const H = 3600_000;
const T0 = Date.UTC(2026, 0, 1);
const acl = (name: string) => ({
  resourceType: "TOPIC" as const,
  resourceName: name,
  patternType: "LITERAL" as const,
  principal: "User:alice",
  host: "*",
  operation: "READ" as const,
  permissionType: "ALLOW" as const,
});
let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;

beforeAll(async () => {
  db = await useMigratedTestDatabase("journal_retention");
});
afterAll(async () => {
  await db.teardown();
});

/** Two hours of the journal: a checkpoint every hour, an outside change each half hour. */
async function seed(): Promise<{ states: Map<number, string> }> {
  const prisma = getPrisma();
  const state = new Map<string, true>();
  const states = new Map<number, string>();
  await journal.writeCheckpoint(CLUSTER, { at: new Date(T0), lastEntryId: 0n, state }, prisma);
  states.set(T0, stateJson(state));
  let last = 0n;
  for (let i = 1; i <= 4; i++) {
    const at = T0 + (i * H) / 2;
    const change = { key: aclKey(acl(`t${i}`)), op: "appeared" as const, value: true };
    await prisma.$transaction((tx) =>
      journal.insertEntries(tx, CLUSTER, [
        { ...change, from: new Date(at - 60_000), to: new Date(at), origin: "outside" as const },
      ]),
    );
    applyChanges(state, [change]);
    last = await journal.lastEntryId(CLUSTER);
    states.set(at, stateJson(state));
    if (i % 2 === 0) await journal.writeCheckpoint(CLUSTER, { at: new Date(at), lastEntryId: last, state }, prisma);
  }
  const entry = await prisma.journalEntry.findFirstOrThrow({ where: { clusterId: CLUSTER }, orderBy: { id: "asc" } });
  await prisma.driftAcknowledgement.create({
    data: { entryId: entry.id, clusterId: CLUSTER, actor: "User:admin", comment: "kept" },
  });
  await prisma.journalCoverage.create({
    data: {
      clusterId: CLUSTER,
      coveredFrom: new Date(T0),
      coveredTo: new Date(T0 + 2 * H),
      lastReadAt: new Date(T0 + 2 * H),
    },
  });
  return { states };
}

async function stateAt(t: number): Promise<string> {
  const cp = await journal.checkpointAtOrBefore(CLUSTER, new Date(t));
  const { entries } = await journal.entriesBearingOn(CLUSTER, cp!.bigLastEntryId, new Date(t));
  return stateJson(rebuildAt(cp!, entries, t).state);
}

describe("the journal's retention", () => {
  it("drops what the newest checkpoint before the cutoff folds in, and later instants rebuild as before", async () => {
    const { states } = await seed();
    const later = [T0 + H, T0 + (3 * H) / 2, T0 + 2 * H];
    const before = await Promise.all(later.map(stateAt));
    expect(before).toEqual(later.map((t) => states.get(t)));

    const dropped = await journal.applyRetention(CLUSTER, new Date(T0 + H + 60_000));
    expect(dropped).toEqual({ entries: 2, checkpoints: 1 });
    const prisma = getPrisma();
    expect(await prisma.journalEntry.count({ where: { clusterId: CLUSTER } })).toBe(2);
    expect(await prisma.driftAcknowledgement.count({ where: { clusterId: CLUSTER } })).toBe(0);
    expect(await Promise.all(later.map(stateAt))).toEqual(before);

    const coverage = await journal.coverageOf(CLUSTER);
    expect(coverage).toEqual([{ from: T0 + H, to: T0 + 2 * H }]);
    expect(vouchFor(coverage, T0 + H / 2)).toEqual({ kind: "before-journal", begins: T0 + H });
    expect(await journal.checkpointAtOrBefore(CLUSTER, new Date(T0 + H / 2))).toBeNull();
  });

  it("with no checkpoint older than the cutoff, nothing goes", async () => {
    expect(await journal.applyRetention(CLUSTER, new Date(T0 - H))).toBeNull();
    expect(await getPrisma().journalEntry.count({ where: { clusterId: CLUSTER } })).toBe(2);
  });
});
