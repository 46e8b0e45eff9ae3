/**
 * Token requests as one kind of request (#19) against the dev broker and PostgreSQL: the
 * Requests list shows a delegation-token request beside a request for a change, to the people
 * the token-request rules show it to (its requester; bob, who has CREATE_TOKENS on
 * USER:svc-orders, judged through the console's service principal since he cannot describe
 * ACLs; the admin, a super user), never to dana (she reads the ACLs and has no such right);
 * the filters and the kind filter; the navigation's count; a decided request stays listed for
 * its requester and its decider only.
 *
 * A fresh database: every count here is this file's own. Creates no ACL and no token.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { useMigratedTestDatabase } = await import("@/test/db");
const fx = await import("@/test/services/grant-fixtures");
const requests = await import("./requests");
const tokens = await import("./token-requests");
const { isTokenItem } = await import("@/lib/schemas/requests");

const MARK = `it-rql-${randomBytes(4).toString("hex")}`;
const alice = fx.demoViewer("alice");
const bob = fx.demoViewer("bob");
const dana = fx.demoViewer("dana");
const { admin } = fx;
const newTopic = fx.topicNames(MARK);

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let restoreEnv: () => void = () => undefined;
let tokenId = "";
let changeId = "";

beforeAll(async () => {
  db = await useMigratedTestDatabase("request_list");
  restoreEnv = fx.setEnv({ KAFKA_REQUIRED_APPROVALS: undefined, KAFKA_SERVICE_CREDENTIALS_FILE: undefined });
  await fx.useDevServicePrincipal();
  tokens.forgetDecidableOwners();
  const token = await tokens.submitTokenRequest(alice, {
    owner: "User:svc-orders",
    renewers: ["User:carol"],
    maxLifetimeMs: 3_600_000,
    reason: `orders replay ${MARK}`,
  });
  if (!token.ok) throw new Error(`token request refused: ${token.message}`);
  tokenId = token.data.id;
  const change = await requests.fileRequest(alice, {
    change: { kind: "acl.create", bindings: [fx.topicAcl(newTopic(), alice.principal)] },
    reason: `change ${MARK}`,
  });
  if (!change.ok) throw new Error(`request refused: ${change.message}`);
  changeId = change.data.request.id;
});

afterAll(async () => {
  await fx.cleanUp(MARK, restoreEnv, db);
});

async function list(...args: Parameters<typeof requests.listRequestViews>) {
  const r = await requests.listRequestViews(...args);
  if (!r.ok) throw new Error(`listing refused: ${r.message}`);
  return r.data;
}

const ids = (l: { requests: { id: string }[] }) => l.requests.map((r) => r.id);

describe("the Requests list holds token requests", () => {
  it("alice's own: both kinds, newest first, the token request saying what it asks, not hers to decide", async () => {
    const mine = await list(alice, "mine");
    expect(ids(mine)).toEqual([changeId, tokenId]);
    const token = mine.requests.find(isTokenItem)!;
    expect(token).toMatchObject({
      kind: "token",
      owner: "User:svc-orders",
      status: "PENDING",
      reason: `orders replay ${MARK}`,
      summary: "delegation token for User:svc-orders, renewable by User:carol, for at most 1 h",
      you: { mayDecide: false, why: "Your own request: someone else must approve it." },
    });
    expect(mine.requests.find((r) => r.id === changeId)).toMatchObject({ kind: "acl.create" });
  });

  it("bob, entitled by CREATE_TOKENS on USER:svc-orders (the service principal reads it), may decide it", async () => {
    const waiting = await list(bob, "waiting");
    expect(ids(waiting)).toEqual([changeId, tokenId]);
    const token = waiting.requests.find(isTokenItem)!;
    expect(token.you.mayDecide).toBe(true);
    expect(token.you.why).toContain("The ACLs give you CREATE_TOKENS on USER User:svc-orders");
    expect(waiting).toMatchObject({ pending: 2, pendingTokens: 1 });
    expect(await requests.pendingRequestCount(bob)).toBe(2);
  });

  it("admin (a super user) may decide it too; dana, no right on svc-orders, never sees it", async () => {
    const forAdmin = await list(admin, "waiting");
    expect(forAdmin.requests.find(isTokenItem)).toMatchObject({ id: tokenId, you: { mayDecide: true } });
    const forDana = await list(dana, "all");
    expect(ids(forDana)).toEqual([changeId]);
    expect(forDana).toMatchObject({ pending: 1, pendingTokens: 0 });
    expect(await requests.pendingRequestCount(dana)).toBe(1);
    // Her own token request does not wait for her: the count is of those she may decide.
    expect(await requests.pendingRequestCount(alice)).toBe(1);
  });

  it("the kind filter keeps to one kind, and the limit holds across both", async () => {
    expect(ids(await list(bob, "waiting", 100, "token"))).toEqual([tokenId]);
    expect(ids(await list(bob, "waiting", 100, "change"))).toEqual([changeId]);
    const tokensOnly = await list(bob, "waiting", 100, "token");
    expect(tokensOnly).toMatchObject({ pending: 1, pendingTokens: 1 });
    expect(ids(await list(alice, "all", 1))).toEqual([changeId]);
  });

  it("denied by bob with a comment: decided for alice and bob, off every waiting list, not for dana", async () => {
    const denied = await tokens.denyRequest(bob, tokenId, `not this week ${MARK}`);
    expect(denied.ok).toBe(true);
    expect(ids(await list(bob, "waiting", 100, "token"))).toEqual([]);
    expect(await requests.pendingRequestCount(bob)).toBe(1);

    const forAlice = (await list(alice, "decided")).requests.find(isTokenItem);
    expect(forAlice).toMatchObject({
      id: tokenId,
      status: "DENIED",
      approver: bob.principal,
      decisionReason: `not this week ${MARK}`,
      you: { mayDecide: false, why: `It was denied by ${bob.principal}.` },
    });
    expect((await list(bob, "decided")).requests.find(isTokenItem)).toMatchObject({
      id: tokenId,
      you: { why: "It was denied by you." },
    });
    expect(ids(await list(dana, "decided"))).toEqual([]);
    expect(ids(await list(admin, "decided", 100, "token"))).toEqual([]);
  });
});
