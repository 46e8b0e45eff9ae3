/**
 * The history journal (#20) on the embedded database, as `npm start` runs it by default (PGlite
 * served over the wire, one backend for every connection: an open transaction holds it,
 * lib/db/embedded.ts). A journal read records in a transaction holding the journal lock; a query
 * made inside it on another connection would wait for that transaction to end, which waits for
 * the query, until the transaction's 120 s timeout, while every other query of the console waits
 * too. Here the journal begins, records an outside ACL and a console one, and writes a checkpoint,
 * each within seconds, against the dev broker.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { afterAll, beforeAll } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { startEmbeddedDatabase } = await import("@/lib/db/embedded");
const { migrate } = await import("@/lib/db/migrate");
const { disconnectPrisma, getPrisma } = await import("@/lib/db/client");
const fx = await import("@/test/services/grant-fixtures");
const { createAclsAudited } = await import("./acls");
const { readClusterForJournal, forgetJournalStateForTests } = await import("./journal");
const { aclKey } = await import("@/lib/policy/history");

const MARK = `it-journal-embedded-${randomBytes(4).toString("hex")}`;
const topics = fx.topicNames(MARK);
const root = mkdtempSync(path.join(tmpdir(), "ksc-journal-embedded-"));
let teardown: { teardown(): Promise<void> } | undefined;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  const db = await startEmbeddedDatabase({ dataDir: path.join(root, "pglite"), port: 0 });
  await migrate(db.url);
  const previous = process.env.DATABASE_URL;
  await disconnectPrisma();
  restoreEnv = fx.setEnv({
    DATABASE_URL: db.url,
    KAFKA_REQUIRED_APPROVALS: undefined,
    KAFKA_SERVICE_CREDENTIALS_FILE: undefined,
    KAFKA_HISTORY_INTERVAL_SECONDS: "30",
  });
  teardown = {
    async teardown() {
      await disconnectPrisma();
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
      await db.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  await fx.useDevServicePrincipal();
  forgetJournalStateForTests();
}, 120_000);

afterAll(async () => {
  await fx.cleanUp(MARK, restoreEnv, teardown);
});

/** A read, timed: a deadlock on the single backend would last the transaction's 120 s and then fail. */
async function timedRead() {
  const started = Date.now();
  const outcome = await readClusterForJournal("default");
  return { outcome, ms: Date.now() - started };
}

describe("the journal on the embedded database", () => {
  it("begins, records an outside and a console change, and checkpoints, each read within seconds", async () => {
    const first = await timedRead();
    expect(first.outcome).toMatchObject({ kind: "read", began: true });
    expect(first.ms).toBeLessThan(20_000);

    const outside = fx.topicAcl(topics(), "User:bob", "READ");
    const mine = fx.topicAcl(topics(), "User:bob", "WRITE");
    await fx.addAcls([outside]);
    const created = await createAclsAudited(fx.admin, [mine], { planId: randomUUID() });
    expect(created.ok).toBe(true);

    const second = await timedRead();
    expect(second.outcome).toMatchObject({ kind: "read", began: false });
    expect(second.ms).toBeLessThan(20_000);
    const entry = await getPrisma().journalEntry.findFirstOrThrow({ where: { key: aclKey(outside) } });
    expect(entry).toMatchObject({ origin: "outside", op: "appeared" });
    expect(await getPrisma().journalEntry.count({ where: { key: aclKey(mine), origin: "console" } })).toBe(1);
    // The first read wrote the journal's first checkpoint inside the lock's transaction.
    expect(await getPrisma().journalCheckpoint.count()).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
