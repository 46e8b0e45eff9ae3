import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { auditToCsv, listAudit, recordAudit, type AuditEvent } from "./audit";
import { useMigratedTestDatabase } from "@/test/db";

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
beforeAll(async () => {
  db = await useMigratedTestDatabase("audit");
});
afterAll(async () => {
  await db.teardown();
});

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

describe("audit trail", () => {
  it("stores an event with secrets redacted before they reach the database", async () => {
    const e = await recordAudit({
      principal: "User:alice",
      action: "session.sign-in",
      target: "mechanism SCRAM-SHA-512",
      request: { username: "alice", password: "hunter2", mechanism: "SCRAM-SHA-512" },
      after: { token: { tokenId: "tok-1", hmac: "c2VjcmV0aG1hYw==" } },
      outcome: "success",
    });
    expect(e.id).toMatch(/^\d+$/);
    expect(e.request).toEqual({ username: "alice", password: "[redacted]", mechanism: "SCRAM-SHA-512" });
    expect(e.before).toBeNull();

    const raw = await sql("SELECT * FROM audit_event WHERE id = $1", [e.id]);
    const text = JSON.stringify(raw);
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("c2VjcmV0aG1hYw==");
    expect(text).toContain("tok-1");
  });

  it("lists newest first with filters and cursor paging that neither skips nor repeats", async () => {
    await sql("DELETE FROM audit_event");
    // 25 events, several sharing one timestamp, to exercise the (at, id) tie-break.
    const base = Date.parse("2026-11-30T05:00:00.000Z");
    for (let i = 0; i < 25; i++) {
      await recordAudit({
        principal: i % 2 ? "User:alice" : "User:bob",
        action: i % 3 ? "acl.create" : "quota.alter",
        target: `t${i}`,
        outcome: i % 5 === 0 ? "denied" : "success",
      });
    }
    await sql("UPDATE audit_event SET at = to_timestamp($1 / 1000.0) + ((id % 7) * interval '1 minute')", [base]);

    const all: AuditEvent[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listAudit({ limit: 4, cursor });
      all.push(...page.events);
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(7);
    expect(all).toHaveLength(25);
    expect(new Set(all.map((e) => e.id)).size).toBe(25);
    for (let i = 1; i < all.length; i++) {
      const a = all[i - 1]!;
      const b = all[i]!;
      const newerOrSame =
        a.at.getTime() > b.at.getTime() || (a.at.getTime() === b.at.getTime() && BigInt(a.id) > BigInt(b.id));
      expect(newerOrSame).toBe(true);
    }

    const alice = await listAudit({ principal: "User:alice", action: "acl.create", limit: 1000 });
    const expected = Array.from({ length: 25 }, (_, i) => i).filter((i) => i % 2 === 1 && i % 3 !== 0);
    expect(alice.events.map((e) => e.target).sort()).toEqual(expected.map((i) => `t${i}`).sort());
    expect(alice.nextCursor).toBeNull();

    const denied = await listAudit({ outcome: "denied" });
    expect(denied.events.map((e) => e.target).sort()).toEqual(["t0", "t10", "t15", "t20", "t5"]);

    const from = new Date(base + 2 * 60_000);
    const to = new Date(base + 3 * 60_000);
    const window = await listAudit({ from, to, limit: 1000 });
    expect(window.events.length).toBeGreaterThan(0);
    expect(window.events.every((e) => e.at >= from && e.at <= to)).toBe(true);
    expect(window.events.length).toBe(all.filter((e) => e.at >= from && e.at <= to).length);

    await expect(listAudit({ cursor: "garbage" })).rejects.toThrow(/invalid audit cursor/);
    await expect(recordAudit({ principal: "p", action: "a", target: "t", outcome: "maybe" as never })).rejects.toThrow(
      /outcome must be one of/,
    );
  });

  it("exports listed events as CSV", async () => {
    const page = await listAudit({ outcome: "denied" });
    const csv = auditToCsv(page.events);
    expect(csv.split("\r\n")).toHaveLength(page.events.length + 2);
    expect(csv).toContain("User:bob");
  });
});
