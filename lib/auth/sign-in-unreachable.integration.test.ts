/**
 * A session whose re-proof cannot reach Kafka is not ended (an outage must not sign
 * everyone out); the proof is retried later. Kafka's answer is simulated here, the
 * session lives in a real PostgreSQL database.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KafkaOperationError } from "@/lib/kafka/errors";
import type * as KafkaAdapter from "@/lib/kafka";

const verifyCredentials = vi.hoisted(() => vi.fn());
vi.mock("@/lib/kafka", async (importOriginal) => ({
  ...(await importOriginal<typeof KafkaAdapter>()),
  verifyCredentials,
}));

const { viewerFromSessionId, UNREACHABLE_RETRY_MS } = await import("./sign-in");
const { encryptSecret } = await import("./crypto");
const { createSession, getSession } = await import("@/lib/db/session");
const { useMigratedTestDatabase } = await import("@/test/db");

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
const savedKey = process.env.CONSOLE_SECRET_KEY;

beforeAll(async () => {
  process.env.CONSOLE_SECRET_KEY = randomBytes(32).toString("base64");
  db = await useMigratedTestDatabase("auth_unreachable");
});
afterAll(async () => {
  await db.teardown();
  if (savedKey === undefined) delete process.env.CONSOLE_SECRET_KEY;
  else process.env.CONSOLE_SECRET_KEY = savedKey;
});

async function sessionVerifiedMinutesAgo(minutes: number, password: string): Promise<string> {
  const { id } = await createSession(
    {
      principal: "User:alice",
      username: "alice",
      mechanism: "SCRAM-SHA-512",
      encryptedCredential: encryptSecret(JSON.stringify({ password })),
      ttlMs: 8 * 3_600_000,
    },
    new Date(Date.now() - minutes * 60_000),
  );
  return id;
}

describe("re-proof with the broker unreachable", () => {
  it("keeps the session, says so in the log (without the credential) and retries only after a pause", async () => {
    const password = "very-secret-password";
    const sessionId = await sessionVerifiedMinutesAgo(6, password);
    const before = (await getSession(sessionId))!.verifiedAt;
    verifyCredentials.mockRejectedValue(
      new KafkaOperationError({
        code: "BROKER_UNAVAILABLE",
        api: "SaslAuthenticate",
        message: "Kafka is unreachable.",
        kafkaMessage: null,
        missing: [],
      }),
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);

    const viewer = await viewerFromSessionId(sessionId);
    expect(viewer?.principal).toBe("User:alice");
    expect(verifyCredentials).toHaveBeenCalledTimes(1);
    expect(await getSession(sessionId)).toMatchObject({ verifiedAt: before });
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /could not prove the Kafka credential of User:alice again \(BROKER_UNAVAILABLE\); the session continues/,
      ),
    );
    expect(JSON.stringify(warn.mock.calls)).not.toContain(password);

    // Within the pause, requests do not wait on the unreachable broker again.
    expect(await viewerFromSessionId(sessionId)).not.toBeNull();
    expect(verifyCredentials).toHaveBeenCalledTimes(1);

    // After it, Kafka is asked again; when it accepts, verifiedAt moves forward.
    verifyCredentials.mockResolvedValue({ principal: "User:alice" });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + UNREACHABLE_RETRY_MS + 1 });
    try {
      expect(await viewerFromSessionId(sessionId)).not.toBeNull();
    } finally {
      vi.useRealTimers();
    }
    expect(verifyCredentials).toHaveBeenCalledTimes(2);
    expect((await getSession(sessionId))!.verifiedAt.getTime()).toBeGreaterThan(before.getTime());
    warn.mockRestore();
  });

  it("proves a fresh session's credential only after the re-proof period", async () => {
    verifyCredentials.mockClear();
    const sessionId = await sessionVerifiedMinutesAgo(4, "pw");
    expect(await viewerFromSessionId(sessionId)).not.toBeNull();
    expect(verifyCredentials).not.toHaveBeenCalled();
    expect(await viewerFromSessionId(sessionId, new Date(Date.now() + 60_000))).not.toBeNull();
    expect(verifyCredentials).toHaveBeenCalledTimes(1);
  });
});
