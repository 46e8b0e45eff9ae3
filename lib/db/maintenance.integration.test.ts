import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDbMaintenance } from "./maintenance";
import { createSession, getSession } from "./session";
import { approveTokenRequest, createTokenRequest, getTokenRequest } from "./token-request";
import { getRequest, holdRequestSecret, saveRequest, takeRequestSecret } from "./change-request";
import { getPrisma } from "./client";
import { useMigratedTestDatabase } from "@/test/db";

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
beforeAll(async () => {
  db = await useMigratedTestDatabase("maintenance");
});
afterAll(async () => {
  await db.teardown();
});

describe("database maintenance", () => {
  it("removes expired sessions and erases HMACs past their deadline, and nothing else", async () => {
    const t0 = new Date("2026-11-30T06:00:00.000Z");
    const later = new Date(t0.getTime() + 2 * 3_600_000);
    const cred = { principal: "User:a", username: "a", mechanism: "PLAIN", encryptedCredential: "x" };
    await createSession({ ...cred, ttlMs: 3_600_000 }, t0);
    const live = await createSession({ ...cred, ttlMs: 24 * 3_600_000 }, t0);

    const expiring = await createTokenRequest({ requester: "User:b", owner: "User:s", reason: "r" }, t0);
    const fresh = await createTokenRequest({ requester: "User:b", owner: "User:s", reason: "r" }, t0);
    await approveTokenRequest(expiring.id, "User:admin", "tok-1", "enc-1", new Date(t0.getTime() + 3_600_000), t0);
    await approveTokenRequest(fresh.id, "User:admin", "tok-2", "enc-2", new Date(t0.getTime() + 24 * 3_600_000), t0);

    expect(await runDbMaintenance(later)).toEqual({ expiredSessions: 1, purgedHmacs: 1, staleSignInThrottles: 0 });
    expect(await getSession(live.id, later)).not.toBeNull();
    expect(await getTokenRequest(expiring.id)).toMatchObject({ status: "EXPIRED_UNRETRIEVED", hmacAvailable: false });
    expect(await getTokenRequest(fresh.id)).toMatchObject({ status: "APPROVED", hmacAvailable: true });
    expect(await runDbMaintenance(later)).toEqual({ expiredSessions: 0, purgedHmacs: 0, staleSignInThrottles: 0 });
  });

  it("erases a requested SCRAM password past its deadline; one still in time is taken once", async () => {
    const t0 = new Date("2026-11-30T06:00:00.000Z");
    const later = new Date(t0.getTime() + 2 * 3_600_000);
    const filed = (user: string) =>
      saveRequest({
        clusterId: "default",
        requester: "User:alice",
        reason: "r",
        kind: "scram.change",
        input: { kind: "scram.change", user, action: "set", iterations: 8192 },
        summary: `set ${user}`,
        grantSeconds: null,
        timeoutAt: new Date(t0.getTime() + 24 * 3_600_000),
        now: t0,
      });
    const old = await filed("svc-old");
    const fresh = await filed("svc-fresh");
    for (const r of [old, fresh])
      await getPrisma().changeRequest.update({ where: { id: r.id }, data: { status: "APPLIED" } });
    await holdRequestSecret(old.id, "enc-old", new Date(t0.getTime() + 3_600_000));
    await holdRequestSecret(fresh.id, "enc-fresh", new Date(t0.getTime() + 24 * 3_600_000));

    expect(await runDbMaintenance(later)).toEqual({ expiredSessions: 0, purgedHmacs: 1, staleSignInThrottles: 0 });
    expect((await getRequest(old.id))?.secret).toMatchObject({ held: false, retrievedAt: null });
    expect(await takeRequestSecret(old.id, "User:alice", "default", later)).toEqual({ ok: false, error: "EXPIRED" });
    expect(await takeRequestSecret(fresh.id, "User:bob", "default", later)).toEqual({
      ok: false,
      error: "NOT_REQUESTER",
    });
    expect(await takeRequestSecret(fresh.id, "User:alice", "default", later)).toEqual({
      ok: true,
      encrypted: "enc-fresh",
    });
    expect(await takeRequestSecret(fresh.id, "User:alice", "default", later)).toEqual({
      ok: false,
      error: "ALREADY_RETRIEVED",
    });
  });
});
