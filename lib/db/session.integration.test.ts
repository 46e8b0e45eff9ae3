import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createSession, deleteExpiredSessions, deleteSession, getSession, hashSessionId } from "./session";
import { useMigratedTestDatabase } from "@/test/db";

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
beforeAll(async () => {
  db = await useMigratedTestDatabase("session");
});
afterAll(async () => {
  await db.teardown();
});

async function rawRows(): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query("SELECT * FROM session")).rows;
  } finally {
    await c.end();
  }
}

const base = {
  principal: "User:alice",
  username: "alice",
  mechanism: "SCRAM-SHA-512",
  encryptedCredential: "v1.abcd.iv.tag.ct",
};

describe("sessions", () => {
  it("creates an unguessable id, stores only its hash, and reads it back with the credential", async () => {
    const now = new Date("2026-11-30T06:00:00.000Z");
    const { id, expiresAt } = await createSession({ ...base, ttlMs: 3_600_000 }, now);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(id, "base64url")).toHaveLength(32);
    expect(expiresAt.toISOString()).toBe("2026-11-30T07:00:00.000Z");

    const rows = await rawRows();
    const row = rows.find((r) => r.id_hash === hashSessionId(id));
    expect(row).toBeDefined();
    expect(JSON.stringify(rows)).not.toContain(id);

    const s = await getSession(id, new Date(now.getTime() + 1000));
    expect(s).toMatchObject({ id, ...base, expiresAt });

    const other = await createSession({ ...base, ttlMs: 1000 }, now);
    expect(other.id).not.toBe(id);
  });

  it("returns null for unknown, malformed and expired ids, and removes the expired one", async () => {
    const now = new Date("2026-11-30T06:00:00.000Z");
    expect(await getSession("x".repeat(43), now)).toBeNull();
    expect(await getSession("not a session id", now)).toBeNull();
    const { id } = await createSession({ ...base, ttlMs: 60_000 }, now);
    expect(await getSession(id, new Date(now.getTime() + 59_999))).not.toBeNull();
    expect(await getSession(id, new Date(now.getTime() + 60_000))).toBeNull();
    expect((await rawRows()).some((r) => r.id_hash === hashSessionId(id))).toBe(false);
  });

  it("touches lastSeenAt at most once a minute", async () => {
    const t0 = new Date("2026-11-30T06:00:00.000Z");
    const { id } = await createSession({ ...base, ttlMs: 3_600_000 }, t0);
    const lastSeen = async () => (await rawRows()).find((r) => r.id_hash === hashSessionId(id))!.last_seen_at as Date;

    expect((await getSession(id, new Date(t0.getTime() + 30_000)))!.lastSeenAt.toISOString()).toBe(t0.toISOString());
    expect((await lastSeen()).toISOString()).toBe(t0.toISOString());

    const t1 = new Date(t0.getTime() + 61_000);
    expect((await getSession(id, t1))!.lastSeenAt.toISOString()).toBe(t1.toISOString());
    expect((await lastSeen()).toISOString()).toBe(t1.toISOString());

    await getSession(id, new Date(t1.getTime() + 59_000));
    expect((await lastSeen()).toISOString()).toBe(t1.toISOString());
  });

  it("deletes a session at sign-out and sweeps expired ones", async () => {
    const now = new Date("2026-11-30T06:00:00.000Z");
    const a = await createSession({ ...base, ttlMs: 3_600_000 }, now);
    expect(await deleteSession(a.id)).toBe(true);
    expect(await deleteSession(a.id)).toBe(false);
    expect(await getSession(a.id, now)).toBeNull();

    const live = await createSession({ ...base, ttlMs: 10 * 3_600_000 }, now);
    await createSession({ ...base, ttlMs: 1000 }, now);
    const removed = await deleteExpiredSessions(new Date(now.getTime() + 2 * 3_600_000));
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = (await rawRows()).map((r) => r.expires_at as Date);
    expect(left.every((d) => d.getTime() > now.getTime() + 2 * 3_600_000)).toBe(true);
    expect(await getSession(live.id, now)).not.toBeNull();
    await expect(createSession({ ...base, ttlMs: 0 })).rejects.toThrow(/ttlMs must be a positive/);
  });
});
