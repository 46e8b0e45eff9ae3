import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDbMaintenance } from "./maintenance";
import { createSession, getSession } from "./session";
import { approveTokenRequest, createTokenRequest, getTokenRequest } from "./token-request";
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
});
