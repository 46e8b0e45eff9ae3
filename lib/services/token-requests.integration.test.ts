/**
 * Token-request races against the dev broker and PostgreSQL: never more than one token per
 * request, whoever approves at the same time, whatever Kafka answers (or does not).
 *
 * Principals are fresh SCRAM users: an owner, a requester, an approver with CREATE_TOKENS on
 * USER:<owner>, an outsider; admin is the dev broker's super user. Every request names a
 * renewer unique to it, so the tokens Kafka holds can be counted per request. Every token is
 * expired as its owner at the end (only the owner and renewers may).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as KafkaTokens from "@/lib/kafka/tokens";
import type { KafkaCredential } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const real = vi.hoisted(() => ({ create: null as null | ((...args: unknown[]) => Promise<unknown>) }));
// The approvals' writes go through the KafkaWriter, which calls lib/kafka/tokens.
vi.mock("@/lib/kafka/tokens", async (importOriginal) => {
  const actual = await importOriginal<typeof KafkaTokens>();
  real.create = actual.createDelegationToken as never;
  return { ...actual, createDelegationToken: vi.fn(actual.createDelegationToken) };
});

const kafka = await import("@/lib/kafka");
const kafkaTokens = await import("@/lib/kafka/tokens");
const { KafkaOperationError } = await import("@/lib/kafka/errors");
const { createAcls } = await import("@/lib/kafka/acls");
const { ADMIN, createScramUser, dropScramUser, runId } = await import("@/test/kafka/fixtures");
const { useMigratedTestDatabase } = await import("@/test/db");
const { getTokenRequest } = await import("@/lib/db/token-request");
const service = await import("./token-requests");

const id = runId();
const names = {
  owner: `it-trq-owner-${id}`,
  requester: `it-trq-req-${id}`,
  approver: `it-trq-appr-${id}`,
  outsider: `it-trq-out-${id}`,
};
const viewers = {} as Record<keyof typeof names | "admin", Viewer>;
const creds = {} as Record<keyof typeof names, KafkaCredential>;
const p = (name: string) => `User:${name}`;
const createMock = vi.mocked(kafkaTokens.createDelegationToken);

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;

beforeAll(async () => {
  db = await useMigratedTestDatabase("token_request_races");
  for (const [k, name] of Object.entries(names)) {
    creds[k as keyof typeof names] = await createScramUser(name);
    viewers[k as keyof typeof names] = {
      sessionId: null,
      principal: p(name),
      credential: creds[k as keyof typeof names],
    };
  }
  viewers.admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
  await createAcls(ADMIN, [
    {
      resourceType: "USER",
      resourceName: p(names.owner),
      patternType: "LITERAL",
      principal: p(names.approver),
      host: "*",
      operation: "CREATE_TOKENS",
      permissionType: "ALLOW",
    },
  ]);
});

afterAll(async () => {
  for (const t of await kafka.describeDelegationTokens(creds.owner, null)) {
    if (t.owner !== p(names.owner)) continue;
    await kafkaTokens.expireDelegationToken(creds.owner, t.hmac, -1).catch(() => undefined);
  }
  for (const name of Object.values(names)) await dropScramUser(name);
  await kafka.closeAllConnections();
  await db?.teardown();
});

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** A request from the requester for the owner, with a renewer that names it. */
async function ask(tag: string) {
  const marker = p(`it-trq-mark-${id}-${tag}`);
  const r = await service.submitTokenRequest(viewers.requester, {
    owner: p(names.owner),
    renewers: [marker],
    maxLifetimeMs: 3_600_000,
    reason: `race ${tag}`,
  });
  if (!r.ok) throw new Error(r.message);
  return { id: r.data.id, marker };
}

/** The live tokens Kafka holds for this request (by its marker renewer), as the owner sees them. */
async function tokensFor(marker: string) {
  return (await kafka.describeDelegationTokens(creds.owner, null)).filter(
    (t) => t.owner === p(names.owner) && t.renewers.includes(marker),
  );
}

const lostAnswer = () =>
  new KafkaOperationError({
    code: "BROKER_UNAVAILABLE",
    api: "CreateDelegationToken",
    message: "Kafka is unreachable: the request timed out.",
    kafkaMessage: null,
    missing: [],
  });

describe("who sees a pending request", () => {
  it(
    "the requester, the owner and a super user see it; an outsider (and an approver the console " +
      "cannot judge yet) does not",
    async () => {
      const r = await ask("visibility");
      const pendingIds = async (v: Viewer) => {
        const l = await service.listTokenRequests(v);
        if (!l.ok) throw new Error(l.message);
        return l.data.pending.map((x) => x.id);
      };
      expect(await pendingIds(viewers.requester)).toContain(r.id);
      expect(await pendingIds(viewers.owner)).toContain(r.id);
      expect(await pendingIds(viewers.admin)).toContain(r.id);
      expect(await pendingIds(viewers.outsider)).not.toContain(r.id);
      const outsider = await service.listTokenRequests(viewers.outsider);
      expect(JSON.stringify(outsider)).not.toContain("race visibility");
      await service.denyRequest(viewers.admin, r.id, "cleanup");
    },
  );
});

describe("racing approvals", () => {
  it(
    "ten approvals at once create exactly one token in Kafka, and the requester retrieves exactly " + "that one",
    async () => {
      for (let round = 0; round < 2; round++) {
        const r = await ask(`ten-${round}`);
        const approvers = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? viewers.approver : viewers.admin));
        const results = await Promise.all(approvers.map((v) => service.approveRequest(v, r.id)));
        expect(results.filter((x) => x.ok)).toHaveLength(1);
        for (const x of results.filter((y) => !y.ok)) expect(x).toMatchObject({ ok: false, code: "CONFLICT" });

        const tokens = await tokensFor(r.marker);
        expect(tokens).toHaveLength(1);
        const stored = await getTokenRequest(r.id);
        expect(stored).toMatchObject({ status: "APPROVED", tokenId: tokens[0]!.tokenId });
        const retrieved = await service.retrieveRequestedToken(viewers.requester, r.id);
        expect(retrieved).toEqual({
          ok: true,
          data: { requestId: r.id, tokenId: tokens[0]!.tokenId, hmac: tokens[0]!.hmac },
        });
      }
    },
  );

  it("approve racing deny ends either DENIED with no token or APPROVED with exactly one", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const r = await ask(`deny-${round}`);
      const [approved, denied] = await Promise.all([
        service.approveRequest(viewers.approver, r.id),
        service.denyRequest(viewers.admin, r.id, "racing"),
      ]);
      const stored = await getTokenRequest(r.id);
      const tokens = await tokensFor(r.marker);
      expect(approved.ok !== denied.ok).toBe(true);
      if (stored?.status === "DENIED") {
        expect(tokens).toHaveLength(0);
        expect(approved).toMatchObject({ ok: false, code: "CONFLICT" });
      } else {
        expect(stored).toMatchObject({ status: "APPROVED", tokenId: tokens[0]?.tokenId });
        expect(tokens).toHaveLength(1);
        expect(denied).toMatchObject({ ok: false, code: "CONFLICT" });
      }
      outcomes.add(stored!.status);
    }
    expect([...outcomes].every((s) => s === "DENIED" || s === "APPROVED")).toBe(true);
  });
});

describe("an approval whose outcome is unknown", () => {
  it(
    "Kafka created the token but the answer was lost: found by describing, recorded, one token, " + "retrievable",
    async () => {
      const r = await ask("lost-answer");
      createMock.mockImplementationOnce(async (...args) => {
        await real.create!(...args);
        throw lostAnswer();
      });
      const result = await service.approveRequest(viewers.approver, r.id);
      const tokens = await tokensFor(r.marker);
      expect(tokens).toHaveLength(1);
      expect(result).toMatchObject({ ok: true, data: { status: "APPROVED", tokenId: tokens[0]!.tokenId } });
      expect(await service.retrieveRequestedToken(viewers.requester, r.id)).toMatchObject({
        ok: true,
        data: { hmac: tokens[0]!.hmac },
      });
    },
  );

  it(
    "no token was created: the claim holds (no second approval, no deny) until it is stale, then the " +
      "request is PENDING again and approved once",
    async () => {
      const r = await ask("hung");
      createMock.mockImplementationOnce(async () => {
        throw lostAnswer();
      });
      const first = await service.approveRequest(viewers.approver, r.id);
      expect(first).toMatchObject({ ok: false, code: "BROKER_UNAVAILABLE" });
      expect(!first.ok && first.message).toContain("stays APPROVING");
      expect(await getTokenRequest(r.id)).toMatchObject({ status: "APPROVING", claimedBy: p(names.approver) });

      const calls = createMock.mock.calls.length;
      expect(await service.approveRequest(viewers.admin, r.id)).toMatchObject({ ok: false, code: "CONFLICT" });
      const deny = await service.denyRequest(viewers.admin, r.id, "while held");
      expect(deny).toMatchObject({ ok: false, code: "CONFLICT" });
      expect(!deny.ok && deny.message).toContain(`${p(names.approver)} is approving this request right now`);
      expect(createMock.mock.calls.length).toBe(calls);
      expect(await tokensFor(r.marker)).toHaveLength(0);

      // The approver died: its claim ages past the timeout. The next approval settles it from Kafka first.
      await sql(`UPDATE token_request SET claimed_at = now() - interval '10 minutes' WHERE id = $1`, [r.id]);
      const second = await service.approveRequest(viewers.admin, r.id);
      expect(second).toMatchObject({ ok: true, data: { status: "APPROVED" } });
      const tokens = await tokensFor(r.marker);
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.requester).toBe("User:admin");
      const actions = await sql<{ action: string; outcome: string }>(
        `SELECT action, outcome FROM audit_event WHERE target = $1 ORDER BY id`,
        [`token request ${r.id}`],
      );
      expect(actions).toEqual([
        { action: "token.request.create", outcome: "success" },
        { action: "token.request.approve", outcome: "unknown" },
        { action: "token.request.approve", outcome: "failure" },
        { action: "token.request.deny", outcome: "failure" },
        { action: "token.request.resolve", outcome: "success" },
        { action: "token.request.approve", outcome: "success" },
      ]);
    },
  );

  it(
    "a stale claim whose approver died after Kafka created the token is recorded with that token; no " + "second token",
    async () => {
      const r = await ask("died-after-create");
      const made = await real.create!(creds.approver, {
        owner: p(names.owner),
        renewers: [r.marker],
        maxLifetimeMs: 3_600_000,
      });
      const madeToken = made as { tokenId: string; hmac: string };
      await sql(
        `UPDATE token_request SET status = 'APPROVING', claimed_by = $2, claimed_at = now() - interval '3 ` +
          `minutes' WHERE id = $1`,
        [r.id, p(names.approver)],
      );

      const calls = createMock.mock.calls.length;
      const result = await service.approveRequest(viewers.admin, r.id);
      expect(result).toMatchObject({ ok: false, code: "CONFLICT" });
      expect(!result.ok && result.message).toContain("already APPROVED");
      expect(createMock.mock.calls.length).toBe(calls);
      expect(await getTokenRequest(r.id)).toMatchObject({
        status: "APPROVED",
        approver: p(names.approver),
        tokenId: madeToken.tokenId,
      });
      expect(await tokensFor(r.marker)).toHaveLength(1);
      expect(await service.retrieveRequestedToken(viewers.requester, r.id)).toMatchObject({
        ok: true,
        data: { tokenId: madeToken.tokenId, hmac: madeToken.hmac },
      });
    },
  );
});

describe("the audit trail of token requests", () => {
  it(
    "every mutation is a token-request row with subjects [requester, owner, ...renewers], and no " + "HMAC anywhere",
    async () => {
      const rows = await sql<{
        action: string;
        category: string;
        subjects: string[];
        request: unknown;
        after: unknown;
        message: string | null;
        outcome: string;
      }>(
        `SELECT action, category, subjects, request, after, message, outcome FROM audit_event WHERE action LIKE ` +
          `'token.request.%'`,
      );
      expect(rows.length).toBeGreaterThan(20);
      for (const row of rows) {
        expect(row.category).toBe("token-request");
        expect(row.subjects.slice(0, 2)).toEqual([p(names.requester), p(names.owner)]);
        expect(row.subjects[2]).toMatch(/^User:it-trq-mark-/);
        expect(row.outcome).not.toBe("pending");
      }
      const hmacs = (await kafka.describeDelegationTokens(creds.owner, null)).map((t) => t.hmac);
      expect(hmacs.length).toBeGreaterThan(0);
      const everything = JSON.stringify(await sql(`SELECT * FROM audit_event`));
      for (const hmac of hmacs) expect(everything).not.toContain(hmac);
    },
  );
});
