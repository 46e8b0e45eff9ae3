import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { startEmbeddedDatabase, runningEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";
import { migrate, readMigrations } from "./migrate";

const execFileAsync = promisify(execFile);
const root = mkdtempSync(path.join(tmpdir(), "ksc-embedded-"));
const dataDir = path.join(root, "pglite");
const repoRoot = path.resolve(import.meta.dirname, "../..");

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function withPool<T>(url: string, max: number, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

describe("embedded database", () => {
  let db: EmbeddedDatabase | undefined;

  it("starts, migrates, serves a pg pool, Prisma and another process, and keeps data across restarts", async () => {
    db = await startEmbeddedDatabase({ dataDir, port: 0 });
    expect(db.url).toMatch(/^postgresql:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres\?sslmode=disable$/);
    expect(runningEmbeddedDatabase(dataDir)).toEqual({ pid: process.pid, url: db.url });

    // Two runners at once (as two console processes would): each migration applied once.
    const [a, b] = await Promise.all([migrate(db.url), migrate(db.url)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(readMigrations().map((m) => m.name));

    // Concurrent pooled work: distinct statements, transactions (half rolled back) and failing queries.
    await withPool(db.url, 10, async (pool) => {
      const results = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          if (i % 6 === 0) {
            await expect(pool.query(`SELECT * FROM "missing_${i}" WHERE x = $1`, [i])).rejects.toThrow(
              /does not exist/,
            );
            return true;
          }
          if (i % 4 === 1) {
            const c = await pool.connect();
            try {
              await c.query("BEGIN");
              await c.query(
                `INSERT INTO audit_event (principal, action, target, outcome) VALUES ($1, 'probe', $2, 'success')`,
                [`User:w${i}`, `t${i}`],
              );
              await new Promise((r) => setTimeout(r, 5));
              await c.query(i % 8 === 1 ? "COMMIT" : "ROLLBACK");
            } finally {
              c.release();
            }
            return true;
          }
          const r = await pool.query<{ n: number; s: string }>(
            `SELECT $1::int * ${i % 7} AS n, $2::text || '-${i}' AS s`,
            [i, `v${i}`],
          );
          return r.rows[0]?.n === i * (i % 7) && r.rows[0]?.s === `v${i}-${i}`;
        }),
      );
      expect(results.every(Boolean)).toBe(true);
      const committed = await pool.query<{ target: string }>("SELECT target FROM audit_event WHERE action = 'probe'");
      const expected = Array.from({ length: 60 }, (_, i) => i)
        .filter((i) => i % 8 === 1)
        .map((i) => `t${i}`);
      expect(committed.rows.map((r) => r.target).sort()).toEqual(expected.sort());
      await pool.query(
        `INSERT INTO audit_event (principal, action, target, outcome) VALUES ('User:alice', 'persist', ` +
          `'before-restart', 'success')`,
      );
    });

    // A client that vanishes mid-transaction does not block the others, and its work is rolled back.
    const quitter = new pg.Client({ connectionString: db.url });
    quitter.on("error", () => {});
    await quitter.connect();
    await quitter.query("BEGIN");
    await quitter.query(
      `INSERT INTO audit_event (principal, action, target, outcome) VALUES ('User:q', 'abandoned', 'x', 'success')`,
    );
    (quitter as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await withPool(db.url, 2, async (pool) => {
      const r = await pool.query("SELECT count(*)::int AS n FROM audit_event WHERE action = 'abandoned'");
      expect(r.rows[0]).toEqual({ n: 0 });
    });

    // Prisma through adapter-pg.
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }) });
    try {
      const created = await prisma.tokenRequest.create({
        data: { requester: "User:bob", owner: "User:svc", reason: "embedded test" },
      });
      expect(created.status).toBe("PENDING");
      expect(created.renewers).toEqual([]);
      await Promise.all(
        Array.from({ length: 10 }, () => prisma.$transaction([prisma.auditEvent.count(), prisma.session.count()])),
      );
    } finally {
      await prisma.$disconnect();
    }

    // A separate process (as the Next server would be) connects through the URL.
    const child = await execFileAsync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "import pg from 'pg'; const c = new pg.Client({ connectionString: process.env.DATABASE_URL }); await " +
          "c.connect();" +
          "const r = await c.query(\"SELECT target FROM audit_event WHERE action = 'persist'\"); " +
          "console.log(JSON.stringify(r.rows)); await c.end();",
      ],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: db.url }, timeout: 30_000 },
    );
    expect(JSON.parse(child.stdout)).toEqual([{ target: "before-restart" }]);

    await db.stop();
    db = undefined;
    expect(existsSync(`${dataDir}.lock`)).toBe(false);

    db = await startEmbeddedDatabase({ dataDir, port: 0 });
    expect((await migrate(db.url)).applied).toEqual([]);
    await withPool(db.url, 2, async (pool) => {
      const r = await pool.query<{ target: string }>("SELECT target FROM audit_event WHERE action = 'persist'");
      expect(r.rows).toEqual([{ target: "before-restart" }]);
      const t = await pool.query<{ reason: string }>("SELECT reason FROM token_request");
      expect(t.rows).toEqual([{ reason: "embedded test" }]);
    });
  }, 180_000); // every migration applied on PGlite, twice over: a minute on two loaded cores

  it("refuses to open a data directory that is already open, and names the running server", async () => {
    expect(db).toBeDefined();
    await expect(startEmbeddedDatabase({ dataDir, port: 0 })).rejects.toThrow(/already open in this process/);
    await db!.stop();
    db = undefined;
  });

  it("takes over the lock of a process that died, and reports a busy port clearly", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.exit(0)"]);
    writeFileSync(`${dataDir}.lock`, JSON.stringify({ pid: dead.pid, url: "postgresql://x" }));
    const again = await startEmbeddedDatabase({ dataDir, port: 0 });
    await again.stop();

    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      await expect(startEmbeddedDatabase({ dataDir, port })).rejects.toThrow(
        new RegExp(`port ${port} on 127.0.0.1 is in use; set EMBEDDED_DB_PORT`),
      );
      expect(existsSync(`${dataDir}.lock`)).toBe(false);
    } finally {
      blocker.close();
    }
  });
});
