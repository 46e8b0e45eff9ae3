/**
 * "No change without its record", against the real broker and PostgreSQL, for every
 * mutation of the ACL, quota and token areas (services, and the pages' server actions):
 *
 * - the intent cannot be written (database down or dropped): nothing changes in Kafka and
 *   the caller gets a clear failure;
 * - the outcome cannot be written: the change is reported to the caller and its event
 *   stays "pending" (visible as outcome unknown);
 * - NUL / lone surrogates in names are a 400 field error, and neither Kafka nor the audit
 *   trail sees anything.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { KafkaCredential } from "@/lib/kafka";

vi.mock("server-only", () => ({}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
const session = vi.hoisted((): { viewer: unknown } => ({ viewer: null }));
vi.mock("@/lib/auth/current", () => ({ requireViewer: vi.fn(async () => session.viewer) }));

const { createTestDatabase, useMigratedTestDatabase } = await import("@/test/db");
const { migrate } = await import("@/lib/db/migrate");
const { disconnectPrisma } = await import("@/lib/db/client");
const { listAudit } = await import("@/lib/db/audit");
const { HTTP_STATUS } = await import("@/lib/schemas/result");
const kafka = await import("@/lib/kafka");
const writes = await import("@/lib/kafka/writes");
const { ADMIN, createScramUser, dropScramUser } = await import("@/test/kafka/fixtures");
const { AUDIT_UNAVAILABLE_MESSAGE } = await import("./audited-mutation");
const { createAclsAudited, deleteAclsAudited } = await import("./acls");
const { alterQuota } = await import("./quotas");
const { createToken, expireToken, renewToken } = await import("./tokens");
const aclActions = await import("@/app/c/[cluster]/(console)/acls/actions");
const quotaActions = await import("@/app/c/[cluster]/(console)/quotas/actions");
const tokenActions = await import("@/app/c/[cluster]/(console)/tokens/actions");

const id = randomBytes(4).toString("hex");
const MARK = `it-audit-${id}`;
const tokenUserName = `it-audit-owner-${id}`;
let tokenUser: KafkaCredential;
const quotaUsers: string[] = [];

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;

const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const owner = () => ({ sessionId: null, principal: `User:${tokenUserName}`, credential: tokenUser });

const grant = (suffix: string) =>
  ({
    resourceType: "TOPIC",
    resourceName: `${MARK}-${suffix}`,
    patternType: "LITERAL",
    principal: `User:${MARK}`,
    host: "*",
    operation: "READ",
    permissionType: "ALLOW",
  }) as const;

const freshQuotaUser = () => {
  const u = `e2e-q-${randomBytes(4).toString("hex")}`;
  quotaUsers.push(u);
  return u;
};

/** Every ACL Kafka holds that this run made (by name or principal). */
async function aclsOfThisRun() {
  const all = await kafka.describeAcls(ADMIN, {
    resourceType: "ANY",
    resourceName: null,
    patternType: "ANY",
    principal: null,
    host: null,
    operation: "ANY",
    permissionType: "ANY",
  });
  return all.filter((a) => a.resourceName.includes(MARK) || a.principal.includes(MARK));
}

async function quotasOf(user: string) {
  return kafka.describeClientQuotas(ADMIN, { components: [{ entityType: "user", matchType: "EXACT", match: user }] });
}

async function tokensOfOwner() {
  return kafka.describeDelegationTokens(tokenUser, null);
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

const auditCount = async () =>
  Number((await sql<{ n: string }>(db.url, "SELECT count(*) AS n FROM audit_event"))[0]!.n);

/** Runs `fn` with DATABASE_URL pointing at `url` (a closed port, a dropped database), then back. */
async function withDatabaseAt<T>(url: string, fn: () => Promise<T>): Promise<T> {
  await disconnectPrisma();
  process.env.DATABASE_URL = url;
  try {
    return await fn();
  } finally {
    await disconnectPrisma();
    process.env.DATABASE_URL = db.url;
  }
}
const CLOSED_PORT_URL = "postgresql://postgres@127.0.0.1:1/ksc_nowhere";

function expectNothingChanged(r: { ok: boolean; code?: string; message?: string }) {
  expect(r).toMatchObject({ ok: false, code: "INTERNAL", message: AUDIT_UNAVAILABLE_MESSAGE });
  expect(r.message).toContain("Nothing was changed");
}

beforeAll(async () => {
  db = await useMigratedTestDatabase("audited_mutations");
  tokenUser = await createScramUser(tokenUserName);
});

afterAll(async () => {
  for (const t of await tokensOfOwner().catch(() => [])) {
    await writes.expireDelegationToken(tokenUser, t.hmac, -1).catch(() => undefined);
  }
  const leftovers = await aclsOfThisRun();
  if (leftovers.length > 0)
    await writes.deleteAcls(
      ADMIN,
      leftovers.map((b) => ({ ...b })),
    );
  // Also names that should never have reached Kafka (a NUL appended), should a run get them there.
  const ours = (await kafka.describeClientQuotas(ADMIN, { components: [] })).filter((e) =>
    quotaUsers.some((u) => e.entity.user?.startsWith(u)),
  );
  if (ours.length > 0) {
    await writes.alterClientQuotas(
      ADMIN,
      ours.map((e) => ({
        entity: e.entity,
        ops: Object.keys(e.values).map((key) => ({ key: key as "producer_byte_rate", value: null })),
      })),
    );
  }
  await dropScramUser(tokenUserName);
  await kafka.closeAllConnections();
  await db.teardown();
});

describe("every mutation writes one event: intent first, outcome on the same row", () => {
  it("an ACL create is one event, completed as success, category acl", async () => {
    const r = await createAclsAudited(admin, [grant("ok")]);
    expect(r).toMatchObject({ ok: true, data: { outcome: "success" } });
    const events = (await listAudit({ action: "acl.create" })).events.filter((e) => e.target.includes(`${MARK}-ok`));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ outcome: "success", category: "acl", principal: "User:admin" });
    expect(events[0]!.completedAt).not.toBeNull();
    expect(await deleteAclsAudited(admin, [grant("ok")])).toMatchObject({ ok: true, data: { outcome: "success" } });
  });

  it("a token's create, renew and expire name the owner and renewers as subjects, never the HMAC", async () => {
    const created = await createToken(owner(), { owner: null, renewers: ["User:bob"], maxLifetimeMs: 3_600_000 });
    if (!created.ok) throw new Error(created.message);
    const { token, hmac } = created.data;
    expect((await renewToken(owner(), { tokenId: token.tokenId, hmac, periodHours: 1 })).ok).toBe(true);
    expect((await expireToken(owner(), { tokenId: token.tokenId, hmac, periodMs: -1 })).ok).toBe(true);
    const events = (await listAudit({ principal: `User:${tokenUserName}` })).events.filter(
      (e) => e.target === `token ${token.tokenId}`,
    );
    expect(events.map((e) => e.action).sort()).toEqual(["token.create", "token.expire", "token.renew"]);
    for (const e of events)
      expect(e).toMatchObject({
        outcome: "success",
        category: "token",
        subjects: [`User:${tokenUserName}`, "User:bob"],
      });
    expect(JSON.stringify(events)).not.toContain(hmac);
  });
});

describe("the intent cannot be written: nothing changes in Kafka, a clear failure", () => {
  it("database unreachable: ACL create and delete, quota alteration, token create, renew and expire", async () => {
    const existing = grant("kept");
    await writes.createAcls(ADMIN, [existing]);
    const quotaUser = freshQuotaUser();
    const token = await writes.createDelegationToken(tokenUser, { renewers: [], maxLifetimeMs: 3_600_000 });

    const results = await withDatabaseAt(CLOSED_PORT_URL, async () => ({
      create: await createAclsAudited(admin, [grant("down")]),
      del: await deleteAclsAudited(admin, [existing]),
      quota: await alterQuota(admin, {
        entity: { user: quotaUser },
        key: "producer_byte_rate",
        value: 1024,
        dryRun: false,
      }),
      tokenCreate: await createToken(owner(), { owner: null, renewers: [], maxLifetimeMs: 3_600_000 }),
      renew: await renewToken(owner(), { tokenId: token.tokenId, hmac: token.hmac, periodHours: 1 }),
      expire: await expireToken(owner(), { tokenId: token.tokenId, hmac: token.hmac, periodMs: -1 }),
    }));
    for (const r of Object.values(results)) expectNothingChanged(r);
    expect(HTTP_STATUS.INTERNAL).toBe(500);

    const acls = await aclsOfThisRun();
    expect(acls.map((a) => a.resourceName)).toEqual([`${MARK}-kept`]);
    expect(await quotasOf(quotaUser)).toEqual([]);
    const tokens = await tokensOfOwner();
    expect(tokens.map((t) => t.tokenId)).toEqual([token.tokenId]);
    expect(tokens[0]!.expiryTimestamp).toBe(token.expiryTimestamp);

    await writes.deleteAcls(ADMIN, [{ ...existing }]);
    await writes.expireDelegationToken(tokenUser, token.hmac, -1);
  });

  it("database dropped under the console: the ACL is not created", async () => {
    const gone = await createTestDatabase("audited_dropped");
    await migrate(gone.url);
    const r = await withDatabaseAt(gone.url, async () => {
      await gone.drop();
      return createAclsAudited(admin, [grant("dropped")]);
    });
    expectNothingChanged(r);
    expect((await aclsOfThisRun()).filter((a) => a.resourceName === `${MARK}-dropped`)).toEqual([]);
  });
});

describe("the outcome cannot be written: the change is reported, its event stays pending", () => {
  it(
    "ACL create, quota alteration and token create succeed for the caller; the trail shows each as " + "pending",
    async () => {
      await sql(
        db.url,
        `CREATE FUNCTION refuse_audit_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN RAISE EXCEPTION 'outcome refused by the test'; END $$;
         CREATE TRIGGER refuse_audit_outcome BEFORE UPDATE ON audit_event
           FOR EACH ROW EXECUTE FUNCTION refuse_audit_outcome();`,
      );
      const quotaUser = freshQuotaUser();
      let hmac = "";
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        const acl = await createAclsAudited(admin, [grant("pending")]);
        expect(acl).toMatchObject({
          ok: true,
          data: { outcome: "success", message: expect.stringContaining("Created 1 of 1") },
        });
        const quota = await alterQuota(admin, {
          entity: { user: quotaUser },
          key: "producer_byte_rate",
          value: 2048,
          dryRun: false,
        });
        expect(quota).toMatchObject({
          ok: true,
          data: { applied: true, message: `Set producer_byte_rate of user=${quotaUser} to 2048.` },
        });
        const token = await createToken(owner(), { owner: null, renewers: [], maxLifetimeMs: 3_600_000 });
        if (!token.ok) throw new Error(token.message);
        hmac = token.data.hmac;
        expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('stays "pending"'))).toHaveLength(3);
      } finally {
        errors.mockRestore();
        await sql(db.url, "DROP TRIGGER refuse_audit_outcome ON audit_event; DROP FUNCTION refuse_audit_outcome();");
      }

      expect((await aclsOfThisRun()).map((a) => a.resourceName)).toContain(`${MARK}-pending`);
      expect((await quotasOf(quotaUser))[0]?.values).toEqual({ producer_byte_rate: 2048 });
      expect(await tokensOfOwner()).toHaveLength(1);

      const events = (await listAudit({ limit: 1000 })).events;
      const aclEvent = events.find((e) => e.action === "acl.create" && e.target.includes(`${MARK}-pending`));
      const quotaEvent = events.find((e) => e.action === "quota.alter" && e.target === `user=${quotaUser}`);
      const tokenEvent = events.find(
        (e) => e.action === "token.create" && e.principal === `User:${tokenUserName}` && e.outcome === "pending",
      );
      for (const e of [aclEvent, quotaEvent, tokenEvent])
        expect(e).toMatchObject({ outcome: "pending", completedAt: null });
      expect(aclEvent?.request).toMatchObject({ bindings: [grant("pending")] });
      expect(quotaEvent?.request).toMatchObject({
        entity: { user: quotaUser },
        key: "producer_byte_rate",
        value: 2048,
      });
      expect(JSON.stringify(events)).not.toContain(hmac);

      await writes.deleteAcls(ADMIN, [{ ...grant("pending") }]);
      await writes.expireDelegationToken(tokenUser, hmac, -1);
    },
  );
});

describe("NUL and lone surrogates are a 400 field error; nothing reaches Kafka or the audit trail", () => {
  const NUL = "\u0000";
  const LONE = "\uD800";
  const ESC = "\u001b";

  it(
    "services (the API's path): ACL principal, host and resource name, quota entity names, token " + "renewers",
    async () => {
      const before = await auditCount();
      const quotaUser = freshQuotaUser();
      const cases: [Promise<{ ok: boolean; code?: string; fieldErrors?: Record<string, string[]> }>, string][] = [
        [createAclsAudited(admin, [{ ...grant("nul"), principal: `User:${MARK}${NUL}` }]), "bindings.0.principal"],
        [createAclsAudited(admin, [{ ...grant("lone"), host: `10.0.0.1${LONE}` }]), "bindings.0.host"],
        [
          createAclsAudited(admin, [{ ...grant("name"), resourceName: `${MARK}-name${NUL}` }]),
          "bindings.0.resourceName",
        ],
        [deleteAclsAudited(admin, [{ ...grant("del"), principal: `User:${MARK}${LONE}` }]), "bindings.0.principal"],
        [
          alterQuota(admin, {
            entity: { user: `${quotaUser}${NUL}` },
            key: "producer_byte_rate",
            value: 1024,
            dryRun: false,
          }),
          "entity.user",
        ],
        [
          alterQuota(admin, {
            entity: { user: quotaUser, "client-id": `api${LONE}` },
            key: "producer_byte_rate",
            value: 1024,
            dryRun: false,
          }),
          "entity.client-id",
        ],
        [createToken(owner(), { owner: null, renewers: [`User:bob${NUL}`], maxLifetimeMs: 3_600_000 }), "renewers.0"],
        [
          createToken(owner(), { owner: null, renewers: ["User:bob", `User:carol${LONE}`], maxLifetimeMs: 3_600_000 }),
          "renewers.1",
        ],
      ];
      for (const [pending, field] of cases) {
        const r = await pending;
        expect(r, field).toMatchObject({ ok: false, code: "VALIDATION" });
        expect(HTTP_STATUS[r.code as "VALIDATION"]).toBe(400);
        expect(Object.keys(r.fieldErrors ?? {}), field).toContain(field);
      }
      expect(await aclsOfThisRun()).toEqual([]);
      expect(await quotasOf(quotaUser)).toEqual([]);
      expect(await tokensOfOwner()).toEqual([]);
      expect(await auditCount()).toBe(before);
    },
  );

  it("the ACL, quota and token pages' server actions answer with field errors", async () => {
    const before = await auditCount();
    const form = (fields: Record<string, string>) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.append(k, v);
      return fd;
    };
    session.viewer = admin;
    const raw = {
      mode: "raw",
      resourceType: "TOPIC",
      patternType: "LITERAL",
      resourceName: `${MARK}-form`,
      principal: `User:${MARK}`,
      host: "*",
      operation: "READ",
      permissionType: "ALLOW",
    };
    const preview = await aclActions.createAclAction(
      null,
      form({ ...raw, principal: `User:${MARK}${NUL}`, intent: "preview" }),
    );
    expect(preview?.result).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { principal: [expect.stringContaining("NUL")] },
    });
    const hostPreview = await aclActions.createAclAction(
      null,
      form({ ...raw, host: `10.0.0.1${ESC}`, intent: "preview" }),
    );
    expect(hostPreview?.result).toMatchObject({
      ok: false,
      fieldErrors: { host: [expect.stringContaining("control characters")] },
    });
    // Apply takes only a sealed plan's id: bindings posted with it are never read, whatever
    // their JSON escapes spell (a NUL, a lone surrogate); a NUL in the plan id is a field error.
    const tampered = JSON.stringify([{ ...grant("form"), resourceName: `${MARK}-form${NUL}` }]);
    const escaped = `[${JSON.stringify(grant("form")).replace(`"${MARK}-form"`, `"${MARK}-form\\ud800"`)}]`;
    expect((JSON.parse(escaped) as { resourceName: string }[])[0]?.resourceName).toBe(`${MARK}-form${LONE}`);
    for (const bindings of [tampered, escaped]) {
      const apply = await aclActions.createAclAction(null, form({ ...raw, intent: "apply", bindings }));
      expect(apply).toMatchObject({ step: "apply", result: { ok: false, code: "VALIDATION" } });
      const del = await aclActions.deleteAclAction(null, form({ intent: "delete", bindings }));
      expect(del).toMatchObject({ step: "apply", result: { ok: false, code: "VALIDATION" } });
    }
    const badId = `00000000-0000-4000-8000-00000000000${NUL}`;
    expect(await aclActions.createAclAction(null, form({ ...raw, intent: "apply", planId: badId }))).toMatchObject({
      step: "apply",
      result: { ok: false, code: "VALIDATION", fieldErrors: { planId: [expect.stringContaining("NUL")] } },
    });
    expect(await aclActions.deleteAclAction(null, form({ intent: "delete", planId: badId }))).toMatchObject({
      step: "apply",
      result: { ok: false, code: "VALIDATION", fieldErrors: { planId: [expect.stringContaining("NUL")] } },
    });

    const quotaUser = freshQuotaUser();
    // The quota form previews a sealed plan from its fields (Apply reads only the plan id).
    const quota = await quotaActions.quotaAlterAction(
      null,
      form({ kind: "user", user: `${quotaUser}${NUL}`, key: "producer_byte_rate", value: "1024" }),
    );
    expect(quota).toMatchObject({
      plan: null,
      error: { code: "VALIDATION", fieldErrors: { user: [expect.stringContaining("NUL")] } },
    });
    const client = await quotaActions.quotaAlterAction(
      null,
      form({
        kind: "user+client-id",
        user: quotaUser,
        clientId: `api${ESC}`,
        key: "producer_byte_rate",
        value: "1024",
      }),
    );
    expect(client).toMatchObject({
      plan: null,
      error: { code: "VALIDATION", fieldErrors: { clientId: [expect.stringContaining("control characters")] } },
    });
    const quotaApply = await quotaActions.quotaAlterAction(
      null,
      form({ intent: "apply", planId: `00000000-0000-4000-8000-00000000000${NUL}` }),
    );
    // Apply reads only the plan id, and refuses one with unsafe text like every form field (as the ACL form does).
    expect(quotaApply).toMatchObject({
      applied: null,
      error: { code: "VALIDATION", fieldErrors: { planId: [expect.stringContaining("NUL")] } },
    });

    session.viewer = owner();
    const token = await tokenActions.createTokenAction(
      null,
      form({ owner: "", renewers: `User:bob, User:carol${NUL}`, maxLifetime: "1", maxLifetimeUnit: "hours" }),
    );
    expect(token).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { renewers: [expect.stringContaining("NUL")] },
    });
    const control = await tokenActions.createTokenAction(
      null,
      form({ owner: "", renewers: `User:bob${ESC}`, maxLifetime: "1", maxLifetimeUnit: "hours" }),
    );
    expect(control).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { renewers: [expect.stringContaining("control characters")] },
    });
    const renew = await tokenActions.renewTokenAction(
      null,
      form({ tokenId: `x${NUL}`, hmac: "c2VjcmV0", periodHours: "1" }),
    );
    expect(renew).toMatchObject({ ok: false, code: "VALIDATION", fieldErrors: { tokenId: [expect.any(String)] } });

    expect(await aclsOfThisRun()).toEqual([]);
    expect(await quotasOf(quotaUser)).toEqual([]);
    expect(await tokensOfOwner()).toEqual([]);
    expect(await auditCount()).toBe(before);
  });
});
