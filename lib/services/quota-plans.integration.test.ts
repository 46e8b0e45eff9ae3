/**
 * Quota plans (kind quota.alter) against the real broker and PostgreSQL: Apply carries out
 * exactly the previewed alteration, once; a quota it depends on changed between preview and
 * apply — through the console or straight through Kafka, as kafka-configs.sh would — is a
 * 409 with nothing sent, checked again inside the per-user lock; quotas of other users do
 * not make a plan stale. Works on throwaway users only and removes their quotas.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sameEntity } from "@/lib/policy";
import type { QuotaPlanView } from "@/lib/schemas/plans";

vi.mock("server-only", () => ({}));

const { useMigratedTestDatabase } = await import("@/test/db");
const { getPrisma } = await import("@/lib/db/client");
const { getPlan } = await import("@/lib/db/change-plan");
const { closeAllConnections, describeClientQuotas } = await import("@/lib/kafka");
const { alterClientQuotas } = await import("@/lib/kafka/writes");
const { ADMIN } = await import("@/test/kafka/fixtures");
const { applyPlan, createPlan, getPlanView } = await import("./plans");
const { quotaAlterPlanKind } = await import("./quota-plans");
const { applyQuotaAlteration, QUOTA_PLAN_STALE_MESSAGE } = await import("./quotas");

const RUN = randomBytes(4).toString("hex");
const KEY = "producer_byte_rate" as const;
const admin = { sessionId: null, principal: "User:admin", credential: ADMIN };
const alice = {
  sessionId: null,
  principal: "User:alice",
  credential: { username: "alice", password: "alice-secret", mechanism: "SCRAM-SHA-512" as const },
};

const users: string[] = [];
function freshUser(): string {
  const user = `it-qplan-${RUN}-${users.length}`;
  users.push(user);
  return user;
}

async function valueOf(entity: Record<string, string | null>): Promise<number | null> {
  const entries = await describeClientQuotas(ADMIN, { components: [], strict: false });
  return entries.find((e) => sameEntity(e.entity, entity))?.values[KEY] ?? null;
}

async function outside(entity: Record<string, string | null>, value: number | null): Promise<void> {
  const [r] = await alterClientQuotas(ADMIN, [{ entity, ops: [{ key: KEY, value }] }]);
  expect(r?.error).toBeNull();
}

async function quotaPlan(entity: Record<string, string | null>, value: number | null): Promise<QuotaPlanView> {
  const r = await createPlan(admin, "quota.alter", { entity, key: KEY, value });
  if (!r.ok) throw new Error(`plan refused: ${r.message}`);
  return r.data as unknown as QuotaPlanView;
}

type Db = Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let db: Db;

beforeAll(async () => {
  db = await useMigratedTestDatabase("quota_plans");
});

afterAll(async () => {
  const entries = await describeClientQuotas(ADMIN, { components: [], strict: false });
  const mine = entries.filter((e) => typeof e.entity.user === "string" && e.entity.user.startsWith(`it-qplan-${RUN}`));
  if (mine.length > 0)
    await alterClientQuotas(
      ADMIN,
      mine.map((e) => ({
        entity: e.entity,
        ops: Object.keys(e.values).map((key) => ({ key: key as typeof KEY, value: null })),
      })),
    );
  await closeAllConnections();
  await db.teardown();
});

describe("quota.alter plans", () => {
  it(
    "preview: exactly entity, key and value; the pair before and after with the user's budget; the " +
      "kafka-configs.sh command. Apply sends exactly it, once, audited with the plan id",
    async () => {
      const user = freshUser();
      await outside({ user }, 1_048_576);
      const entity = { user, "client-id": "c1" };
      const plan = await quotaPlan(entity, 262_144);
      expect(plan).toMatchObject({
        kind: "quota.alter",
        status: "OPEN",
        applicable: true,
        entity,
        key: KEY,
        value: 262_144,
        current: null,
        allowed: true,
      });
      expect(plan.impact.pairs[0]).toMatchObject({
        user,
        clientId: "c1",
        changed: true,
        before: { value: 1_048_576, level: 3 },
        after: { value: 262_144, level: 1 },
        budgetBefore: { total: 1_048_576, sum: 0 },
        budgetAfter: { total: 1_048_576, sum: 262_144 },
      });
      expect(plan.cli).toEqual([
        {
          command: expect.stringMatching(
            new RegExp(
              `--alter --entity-type users --entity-name ${user} --entity-type clients --entity-name c1 ` +
                `--add-config producer_byte_rate=262144$`,
            ),
          ),
        },
      ]);
      const stored = await getPlan(plan.id);
      expect(stored?.payload).toEqual({ entity, key: KEY, value: 262_144 });
      expect(await valueOf(entity)).toBeNull();

      const applied = await applyPlan(admin, plan.id);
      expect(applied).toMatchObject({
        ok: true,
        data: {
          applied: true,
          message: `Set ${KEY} of user=${user}, client-id=c1 to 262144.`,
          plan: { status: "APPLIED" },
        },
      });
      expect(await valueOf(entity)).toBe(262_144);
      expect(await applyPlan(admin, plan.id)).toMatchObject({
        ok: false,
        code: "CONFLICT",
        message: expect.stringContaining("already applied"),
      });
      const events = await getPrisma().auditEvent.findMany({ where: { planId: plan.id } });
      expect(events.map((e) => [e.action, e.outcome])).toEqual([["quota.alter", "success"]]);
    },
  );

  it("409 when the user's total changed through the console between preview and apply; nothing sent", async () => {
    const user = freshUser();
    const plan = await quotaPlan({ user, "client-id": "c1" }, 4096);
    const other = await applyQuotaAlteration(admin, { entity: { user }, key: KEY, value: 2_097_152 });
    expect(other.ok).toBe(true);
    expect(await applyPlan(admin, plan.id)).toEqual({ ok: false, code: "CONFLICT", message: QUOTA_PLAN_STALE_MESSAGE });
    expect(await valueOf({ user, "client-id": "c1" })).toBeNull();
    expect((await getPlan(plan.id))?.status).toBe("FAILED");
  });

  it(
    "409 when a quota changed outside the console (straight through Kafka, as kafka-configs.sh " +
      "would): a sibling sub-quota, the <default> client id of the user",
    async () => {
      const user = freshUser();
      const sibling = await quotaPlan({ user, "client-id": "c1" }, 4096);
      await outside({ user, "client-id": "c2" }, 8192);
      expect(await applyPlan(admin, sibling.id)).toMatchObject({
        ok: false,
        code: "CONFLICT",
        message: QUOTA_PLAN_STALE_MESSAGE,
      });

      const total = await quotaPlan({ user }, 1_048_576);
      await outside({ user, "client-id": null }, 1024);
      expect(await applyPlan(admin, total.id)).toMatchObject({
        ok: false,
        code: "CONFLICT",
        message: QUOTA_PLAN_STALE_MESSAGE,
      });
      expect(await valueOf({ user, "client-id": "c1" })).toBeNull();
      expect(await valueOf({ user })).toBeNull();
    },
  );

  it(
    "the basis is checked again inside the per-user lock, right before the alteration: execute alone " +
      "refuses a stale plan and sends nothing",
    async () => {
      const user = freshUser();
      const plan = await quotaPlan({ user, "client-id": "c1" }, 4096);
      await outside({ user }, 65_536);
      const stored = (await getPlan(plan.id))!;
      const execution = await quotaAlterPlanKind.execute(admin, {
        id: plan.id,
        kind: plan.kind,
        payload: stored.payload as never,
        basis: stored.basis,
        view: plan,
        detail: null,
      });
      expect(execution).toEqual({
        changed: false,
        result: { ok: false, code: "CONFLICT", message: QUOTA_PLAN_STALE_MESSAGE },
      });
      expect(await valueOf({ user, "client-id": "c1" })).toBeNull();
      const events = await getPrisma().auditEvent.findMany({ where: { planId: plan.id } });
      expect(events.map((e) => [e.outcome, e.message])).toEqual([["failure", QUOTA_PLAN_STALE_MESSAGE]]);
    },
  );

  it("another user's quotas changing in between do not make the plan stale", async () => {
    const user = freshUser();
    const bystander = freshUser();
    const plan = await quotaPlan({ user, "client-id": "c1" }, 4096);
    await outside({ user: bystander }, 1024);
    await outside({ user: bystander, "client-id": "c1" }, 512);
    expect(await applyPlan(admin, plan.id)).toMatchObject({ ok: true, data: { applied: true } });
    expect(await valueOf({ user, "client-id": "c1" })).toBe(4096);
  });

  it(
    "a plan the KIP-55 rule refuses is shown but cannot be applied; only its principal may see or " + "apply it",
    async () => {
      const user = freshUser();
      await outside({ user }, 1000);
      const plan = await quotaPlan({ user, "client-id": "c1" }, 2000);
      expect(plan).toMatchObject({ applicable: false, allowed: false, budget: { ok: false } });
      expect(plan.notApplicable).toContain("KIP-55");
      expect(await applyPlan(admin, plan.id)).toMatchObject({ ok: false, code: "VALIDATION" });
      expect(await getPlanView(alice, plan.id)).toMatchObject({ ok: false, code: "DENIED" });
      expect(await valueOf({ user, "client-id": "c1" })).toBeNull();
    },
  );
});
