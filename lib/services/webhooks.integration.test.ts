/**
 * A cluster's webhook against a real HTTP server on this machine and PostgreSQL: the body is
 * Slack-compatible and signed (the receiver can check the HMAC), carries no secret, a redirect
 * or an error answer is a failure (audited, thrown for the queue to retry), and setting a
 * webhook refuses a loopback target unless the operator lists it.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const { encryptSecret } = await import("@/lib/auth/crypto");
const { ADMIN } = await import("@/test/kafka/fixtures");
const { deliverWebhook, setWebhook, getWebhookView, notifyWithin, WEBHOOK_JOB } = await import("./webhooks");
const { startJobQueue, stopJobQueue } = await import("@/lib/jobs/queue");

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;
let server: Server;
let port = 0;
let answer = 200;
const received: { headers: IncomingMessage["headers"]; body: string }[] = [];

const SECRET = "whsec-test-0123456789abcdef";
const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const alice = {
  sessionId: null,
  principal: "User:alice",
  credential: { username: "alice", password: "alice-secret", mechanism: "SCRAM-SHA-512" as const },
};
const local = { allowHttp: true, allowedHosts: ["127.0.0.1"], ownOrigins: [] };
const job = (event: string) => ({
  clusterId: "default",
  event,
  text: "User:alice requests: create ALLOW WRITE on TOPIC payments-eu for User:alice",
  fields: { request: { id: "r1", requester: "User:alice" } },
  at: "2026-12-04T12:00:00.000Z",
});

beforeAll(async () => {
  db = await useMigratedTestDatabase("webhooks");
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answer, answer === 302 ? { Location: "http://169.254.169.254/" } : {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  await getPrisma().clusterWebhook.create({
    data: {
      clusterId: "default",
      url: `http://127.0.0.1:${port}/hook`,
      encryptedSecret: encryptSecret(SECRET),
      updatedBy: "User:admin",
    },
  });
});

afterAll(async () => {
  await stopJobQueue();
  server?.close();
  await db?.teardown();
});

describe("a cluster's webhook", () => {
  it("posts Slack-compatible JSON signed with HMAC-SHA256 over timestamp.body, without the secret", async () => {
    answer = 200;
    await deliverWebhook(job("request.filed"), { settings: local });
    const got = received.at(-1)!;
    const body = JSON.parse(got.body) as Record<string, unknown>;
    expect(body).toMatchObject({ event: "request.filed", cluster: "default", request: { id: "r1" } });
    expect(body.text).toContain("User:alice requests");
    const timestamp = String(got.headers["x-ksc-timestamp"]);
    const expected = `sha256=${createHmac("sha256", SECRET).update(`${timestamp}.${got.body}`).digest("hex")}`;
    expect(got.headers["x-ksc-signature-256"]).toBe(expected);
    expect(got.body).not.toContain(SECRET);
  });

  it("does not follow a redirect and records each failed attempt in the audit trail", async () => {
    for (const [status, why] of [
      [302, "redirects are not followed"],
      [500, "it answered 500"],
    ] as const) {
      answer = status;
      await expect(deliverWebhook(job("request.denied"), { settings: local })).rejects.toThrow(why);
    }
    expect(received.filter((r) => r.headers.host?.startsWith("169.254")).length).toBe(0);
    const rows = await getPrisma().auditEvent.findMany({
      where: { action: "webhook.deliver" },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => [r.outcome, r.message])).toEqual([
      ["failure", expect.stringContaining("redirects are not followed")],
      ["failure", expect.stringContaining("it answered 500")],
    ]);
  });

  it("refuses to deliver when the target is loopback and not listed (checked again at delivery)", async () => {
    await expect(deliverWebhook(job("grant.expired"), { settings: { ...local, allowedHosts: [] } })).rejects.toThrow(
      "loopback, private, link-local or metadata",
    );
  });

  it("only super users see or set it; a private target is refused when set, the secret never shown", async () => {
    expect(await getWebhookView(alice)).toMatchObject({ ok: false, code: "DENIED" });
    expect(await setWebhook(alice, { url: "https://hooks.example.org/x", secret: SECRET })).toMatchObject({
      ok: false,
      code: "DENIED",
    });
    const refused = await setWebhook(admin, { url: "https://metadata.example/x", secret: SECRET }, () =>
      Promise.resolve([{ address: "169.254.169.254", family: 4 }]),
    );
    expect(refused).toMatchObject({ ok: false, code: "VALIDATION" });
    const view = await getWebhookView(admin);
    expect(view).toEqual({
      ok: true,
      data: expect.objectContaining({ configured: true, target: `http://127.0.0.1:${port}` }),
    });
    expect(JSON.stringify(view)).not.toContain(SECRET);
  });

  it(
    "a notification queued within a transaction exists exactly when that transaction commits (drift.found)",
    { timeout: 60_000 },
    async () => {
      // A queue whose worker never takes a job (a long poll): the test reads what is queued.
      await startJobQueue(
        db.url,
        { [WEBHOOK_JOB]: { handler: async () => undefined } },
        {
          pollingIntervalSeconds: 3600,
        },
      );
      const queued = async (text: string) =>
        (
          await getPrisma().$queryRawUnsafe<{ n: bigint }[]>(
            "SELECT count(*) AS n FROM jobs.job WHERE name = $1 AND data->>'text' = $2",
            WEBHOOK_JOB,
            text,
          )
        )[0]!.n;
      const rolledBack = "2 changes made outside the console, rolled back";
      await expect(
        getPrisma().$transaction(async (tx) => {
          expect(await notifyWithin(tx, "default", "drift.found", { changes: 2 }, rolledBack)).toBeNull();
          throw new Error("the journal write failed");
        }),
      ).rejects.toThrow("the journal write failed");
      expect(await queued(rolledBack)).toBe(0n);

      const committed = "2 changes made outside the console, committed";
      await getPrisma().$transaction(async (tx) => {
        expect(await notifyWithin(tx, "default", "drift.found", { changes: 2 }, committed)).toBeNull();
        // Not visible outside the transaction before it commits.
        expect(await queued(committed)).toBe(0n);
      });
      expect(await queued(committed)).toBe(1n);
      await stopJobQueue();
    },
  );
});
