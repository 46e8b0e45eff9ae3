import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import {
  approveTokenRequest,
  createTokenRequest,
  denyTokenRequest,
  getTokenRequest,
  listMyTokenRequests,
  listPendingTokenRequests,
  purgeExpiredHmacs,
  retrieveHmacOnce,
} from "./token-request";
import { useMigratedTestDatabase } from "./testing";

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
beforeAll(async () => {
  db = await useMigratedTestDatabase("token_request");
});
afterAll(async () => {
  await db.teardown();
});

async function rawRow(id: string): Promise<Record<string, unknown> | undefined> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query("SELECT * FROM token_request WHERE id = $1", [id])).rows[0];
  } finally {
    await c.end();
  }
}

const now = new Date("2026-11-30T06:00:00.000Z");
const inOneHour = new Date(now.getTime() + 3_600_000);
const ask = (over: Partial<Parameters<typeof createTokenRequest>[0]> = {}) =>
  createTokenRequest({ requester: "User:bob", owner: "User:svc-orders", renewers: ["User:bob", "User:bob", "User:ops"], maxLifetimeMs: 86_400_000, reason: "deploy pipeline", ...over }, now);

describe("token requests", () => {
  it("creates a pending request and lists it for the requester and for approvers", async () => {
    const r = await ask();
    expect(r).toMatchObject({
      requester: "User:bob",
      owner: "User:svc-orders",
      renewers: ["User:bob", "User:ops"],
      maxLifetimeMs: 86_400_000,
      reason: "deploy pipeline",
      status: "PENDING",
      approver: null,
      hmacAvailable: false,
    });
    const other = await ask({ requester: "User:carol", owner: "User:svc-billing", maxLifetimeMs: null, renewers: [] });
    expect(other.maxLifetimeMs).toBeNull();

    expect((await listMyTokenRequests("User:bob")).map((x) => x.id)).toContain(r.id);
    expect((await listMyTokenRequests("User:bob")).map((x) => x.id)).not.toContain(other.id);
    const pending = await listPendingTokenRequests();
    expect(pending.map((x) => x.id)).toEqual(expect.arrayContaining([r.id, other.id]));
    expect((await listPendingTokenRequests({ owners: ["User:svc-billing"] })).map((x) => x.id)).toEqual([other.id]);
    await expect(ask({ maxLifetimeMs: -5 })).rejects.toThrow(/maxLifetimeMs must be a positive integer/);
  });

  it("lets exactly one of several racing approvers win", async () => {
    for (let round = 0; round < 5; round++) {
      const r = await ask();
      const approvers = ["User:admin", "User:lead", "User:sre", "User:ops"];
      const results = await Promise.all(approvers.map((a, i) => approveTokenRequest(r.id, a, `tok-${round}-${i}`, `enc-${round}-${i}`, inOneHour, now)));
      const winners = results.filter((x) => x.ok);
      expect(winners).toHaveLength(1);
      for (const x of results.filter((y) => !y.ok)) expect(x).toEqual({ ok: false, error: "NOT_PENDING", status: "APPROVED" });
      const w = winners[0];
      if (!w?.ok) throw new Error("no winner");
      const stored = await getTokenRequest(r.id);
      expect(stored).toMatchObject({ status: "APPROVED", approver: w.request.approver, tokenId: w.request.tokenId, hmacAvailable: true });
      const i = approvers.indexOf(w.request.approver!);
      expect(w.request.tokenId).toBe(`tok-${round}-${i}`);
      expect((await rawRow(r.id))!.encrypted_hmac).toBe(`enc-${round}-${i}`);
    }
  });

  it("denies only pending requests, with the reason recorded", async () => {
    const r = await ask();
    const d = await denyTokenRequest(r.id, "User:admin", "owner is being retired", now);
    expect(d.ok && d.request).toMatchObject({ status: "DENIED", approver: "User:admin", decisionReason: "owner is being retired", hmacAvailable: false });
    expect(await approveTokenRequest(r.id, "User:lead", "tok", "enc", inOneHour, now)).toEqual({ ok: false, error: "NOT_PENDING", status: "DENIED" });
    expect(await denyTokenRequest(r.id, "User:lead", "again", now)).toEqual({ ok: false, error: "NOT_PENDING", status: "DENIED" });
    expect(await denyTokenRequest("00000000-0000-0000-0000-000000000000", "User:lead", "x", now)).toEqual({ ok: false, error: "NOT_FOUND" });
    expect(await retrieveHmacOnce(r.id, "User:bob", now)).toEqual({ ok: false, error: "NOT_APPROVED", status: "DENIED" });
  });

  it("hands the HMAC to its requester exactly once, even when asked concurrently, and erases it", async () => {
    const r = await ask();
    expect(await retrieveHmacOnce(r.id, "User:bob", now)).toEqual({ ok: false, error: "NOT_APPROVED", status: "PENDING" });
    await approveTokenRequest(r.id, "User:admin", "tok-x", "v1.enc.hmac", inOneHour, now);
    expect((await getTokenRequest(r.id))!.hmacAvailable).toBe(true);

    expect(await retrieveHmacOnce(r.id, "User:mallory", now)).toEqual({ ok: false, error: "NOT_REQUESTER" });
    const later = new Date(now.getTime() + 60_000);
    const results = await Promise.all(Array.from({ length: 6 }, () => retrieveHmacOnce(r.id, "User:bob", later)));
    const got = results.filter((x) => x.ok);
    expect(got).toEqual([{ ok: true, tokenId: "tok-x", encryptedHmac: "v1.enc.hmac" }]);
    for (const x of results.filter((y) => !y.ok)) expect(x).toEqual({ ok: false, error: "ALREADY_RETRIEVED", status: "RETRIEVED" });

    const row = await rawRow(r.id);
    expect(row!.encrypted_hmac).toBeNull();
    expect(row!.status).toBe("RETRIEVED");
    expect((row!.retrieved_at as Date).toISOString()).toBe(later.toISOString());
    expect((await getTokenRequest(r.id))!.hmacAvailable).toBe(false);
  });

  it("refuses retrieval after the deadline and purges unretrieved HMACs", async () => {
    const expiring = await ask();
    const keeping = await ask();
    await approveTokenRequest(expiring.id, "User:admin", "tok-e", "enc-e", new Date(now.getTime() + 1000), now);
    await approveTokenRequest(keeping.id, "User:admin", "tok-k", "enc-k", inOneHour, now);
    const afterDeadline = new Date(now.getTime() + 1000);

    expect(await retrieveHmacOnce(expiring.id, "User:bob", afterDeadline)).toEqual({ ok: false, error: "EXPIRED", status: "APPROVED" });
    expect((await rawRow(expiring.id))!.encrypted_hmac).toBe("enc-e");

    const purged = await purgeExpiredHmacs(afterDeadline);
    expect(purged).toBeGreaterThanOrEqual(1);
    const e = await rawRow(expiring.id);
    expect(e).toMatchObject({ encrypted_hmac: null, status: "EXPIRED_UNRETRIEVED", token_id: "tok-e" });
    expect((await rawRow(keeping.id))!.encrypted_hmac).toBe("enc-k");
    expect(await retrieveHmacOnce(expiring.id, "User:bob", afterDeadline)).toEqual({ ok: false, error: "EXPIRED", status: "EXPIRED_UNRETRIEVED" });
    expect(await purgeExpiredHmacs(afterDeadline)).toBe(0);

    expect(await retrieveHmacOnce(keeping.id, "User:bob", afterDeadline)).toEqual({ ok: true, tokenId: "tok-k", encryptedHmac: "enc-k" });
    expect(await retrieveHmacOnce("no-such-id", "User:bob", afterDeadline)).toEqual({ ok: false, error: "NOT_FOUND" });
  });
});
