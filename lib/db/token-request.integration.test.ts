import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import {
  approveTokenRequest,
  claimTokenRequest,
  createTokenRequest,
  denyTokenRequest,
  getTokenRequest,
  listMyTokenRequests,
  listPendingTokenRequests,
  openRequestOwners,
  purgeExpiredHmacs,
  recordClaimedApproval,
  releaseClaim,
  retrieveHmacOnce,
  tokenIdsRecordedElsewhere,
  type DecisionResult,
} from "./token-request";
import { useMigratedTestDatabase } from "@/test/db";

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
  createTokenRequest(
    {
      requester: "User:bob",
      owner: "User:svc-orders",
      renewers: ["User:bob", "User:bob", "User:ops"],
      maxLifetimeMs: 86_400_000,
      reason: "deploy pipeline",
      ...over,
    },
    now,
  );

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
      const results = await Promise.all(
        approvers.map((a, i) => approveTokenRequest(r.id, a, `tok-${round}-${i}`, `enc-${round}-${i}`, inOneHour, now)),
      );
      const winners = results.filter((x: DecisionResult) => x.ok);
      expect(winners).toHaveLength(1);
      // A loser reads the status after the winner's claim: APPROVING, or APPROVED once recorded.
      for (const x of results.filter((y: DecisionResult) => !y.ok))
        expect(x).toEqual({ ok: false, error: "NOT_PENDING", status: expect.stringMatching(/^APPROV(ING|ED)$/) });
      const w = winners[0];
      if (!w?.ok) throw new Error("no winner");
      const stored = await getTokenRequest(r.id);
      expect(stored).toMatchObject({
        status: "APPROVED",
        approver: w.request.approver,
        tokenId: w.request.tokenId,
        hmacAvailable: true,
      });
      const i = approvers.indexOf(w.request.approver!);
      expect(w.request.tokenId).toBe(`tok-${round}-${i}`);
      expect((await rawRow(r.id))!.encrypted_hmac).toBe(`enc-${round}-${i}`);
    }
  });

  it(
    "claims a request for exactly one of ten approvers before Kafka is asked, and refuses deny while " + "it is held",
    async () => {
      const r = await ask();
      const approvers = Array.from({ length: 10 }, (_, i) => `User:approver-${i}`);
      const results = await Promise.all(approvers.map((a) => claimTokenRequest(r.id, a, now)));
      const winners = results.filter((x) => x.ok);
      expect(winners).toHaveLength(1);
      for (const x of results.filter((y) => !y.ok))
        expect(x).toEqual({ ok: false, error: "NOT_PENDING", status: "APPROVING" });
      const w = winners[0];
      if (!w?.ok) throw new Error("no winner");
      expect(w.request).toMatchObject({
        status: "APPROVING",
        claimedBy: expect.stringMatching(/^User:approver-\d$/),
        claimedAt: now,
        approver: null,
        tokenId: null,
      });

      expect(await denyTokenRequest(r.id, "User:admin", "no", now)).toEqual({
        ok: false,
        error: "NOT_PENDING",
        status: "APPROVING",
      });
      expect((await getTokenRequest(r.id))!.status).toBe("APPROVING");
      // Still listed as open (being approved), for its owner's deciders.
      expect((await listPendingTokenRequests({ owners: ["User:svc-orders"] })).map((x) => x.id)).toContain(r.id);
    },
  );

  it("completes or releases only the exact claim it names", async () => {
    const r = await ask();
    const claimed = await claimTokenRequest(r.id, "User:lead", now);
    if (!claimed.ok) throw new Error("not claimed");
    const claim = { by: "User:lead", at: now };
    const approval = { approver: "User:lead", tokenId: "tok-c", encryptedHmac: "enc-c", deadline: inOneHour };
    // Another approver, or the same one with another claim time, cannot complete it.
    expect(await recordClaimedApproval(r.id, { by: "User:sre", at: now }, approval, now)).toEqual({
      ok: false,
      error: "CLAIM_LOST",
      status: "APPROVING",
    });
    expect(await releaseClaim(r.id, { by: "User:lead", at: new Date(now.getTime() + 1) })).toEqual({
      ok: false,
      error: "CLAIM_LOST",
      status: "APPROVING",
    });

    // Released: PENDING again, claim cleared, claimable again; the old claim is dead.
    const released = await releaseClaim(r.id, claim);
    expect(released.ok && released.request).toMatchObject({ status: "PENDING", claimedBy: null, claimedAt: null });
    expect(await recordClaimedApproval(r.id, claim, approval, now)).toEqual({
      ok: false,
      error: "CLAIM_LOST",
      status: "PENDING",
    });
    const later = new Date(now.getTime() + 5_000);
    expect((await claimTokenRequest(r.id, "User:sre", later)).ok).toBe(true);
    const done = await recordClaimedApproval(
      r.id,
      { by: "User:sre", at: later },
      { ...approval, approver: "User:sre" },
      later,
    );
    expect(done.ok && done.request).toMatchObject({
      status: "APPROVED",
      approver: "User:sre",
      tokenId: "tok-c",
      hmacAvailable: true,
    });
    expect((await rawRow(r.id))!.encrypted_hmac).toBe("enc-c");
    expect(await releaseClaim(r.id, { by: "User:sre", at: later })).toEqual({
      ok: false,
      error: "CLAIM_LOST",
      status: "APPROVED",
    });
    expect(await recordClaimedApproval("00000000-0000-0000-0000-000000000000", claim, approval, now)).toEqual({
      ok: false,
      error: "NOT_FOUND",
    });

    expect(await tokenIdsRecordedElsewhere(["tok-c", "tok-unknown"], "other-id")).toEqual(new Set(["tok-c"]));
    expect(await tokenIdsRecordedElsewhere(["tok-c"], r.id)).toEqual(new Set());
  });

  it("lists open requests only for the owners and requester asked for", async () => {
    const forBilling = await ask({ owner: "User:svc-billing-list", requester: "User:carol-list" });
    const forOrders = await ask({ owner: "User:svc-orders-list", requester: "User:dave-list" });
    const ids = async (o: Parameters<typeof listPendingTokenRequests>[0]) =>
      (await listPendingTokenRequests(o)).map((x) => x.id);
    expect(await ids({ owners: ["User:svc-billing-list"] })).toEqual([forBilling.id]);
    expect(await ids({ owners: [], requester: "User:dave-list" })).toEqual([forOrders.id]);
    expect(await ids({ owners: [] })).toEqual([]);
    expect((await ids({ owners: ["User:svc-billing-list"], requester: "User:dave-list" })).sort()).toEqual(
      [forBilling.id, forOrders.id].sort(),
    );
    expect(await openRequestOwners()).toEqual(
      expect.arrayContaining(["User:svc-billing-list", "User:svc-orders-list"]),
    );
    await denyTokenRequest(forBilling.id, "User:admin", "done", now);
    expect(await openRequestOwners()).not.toContain("User:svc-billing-list");
  });

  it("denies only pending requests, with the reason recorded", async () => {
    const r = await ask();
    const d = await denyTokenRequest(r.id, "User:admin", "owner is being retired", now);
    expect(d.ok && d.request).toMatchObject({
      status: "DENIED",
      approver: "User:admin",
      decisionReason: "owner is being retired",
      hmacAvailable: false,
    });
    expect(await approveTokenRequest(r.id, "User:lead", "tok", "enc", inOneHour, now)).toEqual({
      ok: false,
      error: "NOT_PENDING",
      status: "DENIED",
    });
    expect(await denyTokenRequest(r.id, "User:lead", "again", now)).toEqual({
      ok: false,
      error: "NOT_PENDING",
      status: "DENIED",
    });
    expect(await denyTokenRequest("00000000-0000-0000-0000-000000000000", "User:lead", "x", now)).toEqual({
      ok: false,
      error: "NOT_FOUND",
    });
    expect(await retrieveHmacOnce(r.id, "User:bob", now)).toEqual({
      ok: false,
      error: "NOT_APPROVED",
      status: "DENIED",
    });
  });

  it("hands the HMAC to its requester exactly once, even when asked concurrently, and erases it", async () => {
    const r = await ask();
    expect(await retrieveHmacOnce(r.id, "User:bob", now)).toEqual({
      ok: false,
      error: "NOT_APPROVED",
      status: "PENDING",
    });
    await approveTokenRequest(r.id, "User:admin", "tok-x", "v1.enc.hmac", inOneHour, now);
    expect((await getTokenRequest(r.id))!.hmacAvailable).toBe(true);

    expect(await retrieveHmacOnce(r.id, "User:mallory", now)).toEqual({ ok: false, error: "NOT_REQUESTER" });
    const later = new Date(now.getTime() + 60_000);
    const results = await Promise.all(Array.from({ length: 6 }, () => retrieveHmacOnce(r.id, "User:bob", later)));
    const got = results.filter((x) => x.ok);
    expect(got).toEqual([{ ok: true, tokenId: "tok-x", encryptedHmac: "v1.enc.hmac" }]);
    for (const x of results.filter((y) => !y.ok))
      expect(x).toEqual({ ok: false, error: "ALREADY_RETRIEVED", status: "RETRIEVED" });

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

    expect(await retrieveHmacOnce(expiring.id, "User:bob", afterDeadline)).toEqual({
      ok: false,
      error: "EXPIRED",
      status: "APPROVED",
    });
    expect((await rawRow(expiring.id))!.encrypted_hmac).toBe("enc-e");

    const purged = await purgeExpiredHmacs(afterDeadline);
    expect(purged).toBeGreaterThanOrEqual(1);
    const e = await rawRow(expiring.id);
    expect(e).toMatchObject({ encrypted_hmac: null, status: "EXPIRED_UNRETRIEVED", token_id: "tok-e" });
    expect((await rawRow(keeping.id))!.encrypted_hmac).toBe("enc-k");
    expect(await retrieveHmacOnce(expiring.id, "User:bob", afterDeadline)).toEqual({
      ok: false,
      error: "EXPIRED",
      status: "EXPIRED_UNRETRIEVED",
    });
    expect(await purgeExpiredHmacs(afterDeadline)).toBe(0);

    expect(await retrieveHmacOnce(keeping.id, "User:bob", afterDeadline)).toEqual({
      ok: true,
      tokenId: "tok-k",
      encryptedHmac: "enc-k",
    });
    expect(await retrieveHmacOnce("no-such-id", "User:bob", afterDeadline)).toEqual({ ok: false, error: "NOT_FOUND" });
  });
});
