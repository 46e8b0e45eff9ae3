/**
 * SCRAM users end to end against the dev broker and PostgreSQL, through the service the
 * /users page and /api/v1/scram-users call: admin creates a user (typed password), the
 * user signs in through the console's sign-in, admin rotates the password (generated,
 * answered once), the old password is refused and the new one accepted, a signed-in
 * session of the user ends at its next credential check, admin deletes the user. The
 * audit trail holds every change without the password, two concurrent changes of one user
 * are serialised (never two "created"), and a principal without ALTER on CLUSTER is
 * refused by Kafka (and audited as denied).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useMigratedTestDatabase } from "@/test/db";
import { getPrisma } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import { closeAllConnections, verifyCredentials } from "@/lib/kafka";
import { ADMIN, createScramUser, dropScramUser, runId } from "@/test/kafka/fixtures";
import type { Viewer } from "@/lib/auth/sign-in";

vi.mock("server-only", () => ({}));
const { signInAudited } = await import("./session");
const { viewerFromSessionId } = await import("@/lib/auth/sign-in");
const { deleteScramUser, listScramUsers, upsertScramUser } = await import("./scram-users");

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
const savedEnv = {
  CONSOLE_SECRET_KEY: process.env.CONSOLE_SECRET_KEY,
  CREDENTIAL_REVERIFY_MINUTES: process.env.CREDENTIAL_REVERIFY_MINUTES,
};
const id = runId();
const user = `it-scram-users-${id}`;
const outsider = `it-scram-outsider-${id}`;
const admin: Viewer = { sessionId: null, principal: "User:admin", credential: ADMIN };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  process.env.CONSOLE_SECRET_KEY = randomBytes(32).toString("base64");
  process.env.CREDENTIAL_REVERIFY_MINUTES = "0.05"; // 3 s instead of 5 min
  resetEnvForTests();
  db = await useMigratedTestDatabase("scram_users");
});

afterAll(async () => {
  await dropScramUser(user).catch(() => undefined);
  await dropScramUser(outsider).catch(() => undefined);
  await closeAllConnections();
  await db.teardown();
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
});

describe("a SCRAM user's life through the console", () => {
  const firstPassword = `first-${randomBytes(6).toString("hex")}`;
  let sessionId = "";
  let generated = "";

  it(
    "creates the user with a typed password, lists it, and answers the kafka-configs.sh equivalent " +
      "with the password masked",
    async () => {
      const created = await upsertScramUser(admin, {
        user,
        mechanism: "SCRAM-SHA-512",
        iterations: 4096,
        password: firstPassword,
      });
      expect(created).toMatchObject({
        ok: true,
        data: {
          change: "created",
          principal: `User:${user}`,
          credentials: [{ mechanism: "SCRAM-SHA-512", iterations: 4096 }],
        },
      });
      if (!created.ok) return;
      expect(created.data.generatedPassword).toBeUndefined();
      expect(created.data.cli[0]).toContain(
        `--alter --entity-type users --entity-name ${user} --add-config ` +
          `'SCRAM-SHA-512=[iterations=4096,password=<password>]'`,
      );
      expect(created.data.cli.join(" ")).not.toContain(firstPassword);

      const list = await listScramUsers(admin);
      expect(list.ok && list.data.users.find((u) => u.user === user)).toEqual({
        user,
        principal: `User:${user}`,
        credentials: [{ mechanism: "SCRAM-SHA-512", iterations: 4096 }],
      });
    },
  );

  it("lets the new user sign in through the console's sign-in", async () => {
    const signedIn = await signInAudited(
      { username: user, password: firstPassword, mechanism: "SCRAM-SHA-512" },
      "203.0.113.90",
    );
    expect(signedIn).toMatchObject({ ok: true, data: { principal: `User:${user}` } });
    if (signedIn.ok) sessionId = signedIn.data.sessionId;
  });

  it(
    "rotates to a generated password: shown once, the old one refused, the new one accepted, the " +
      "session ends at its next check",
    async () => {
      const rotated = await upsertScramUser(admin, {
        user,
        mechanism: "SCRAM-SHA-512",
        iterations: 8192,
        password: null,
      });
      expect(rotated).toMatchObject({
        ok: true,
        data: { change: "rotated", credentials: [{ mechanism: "SCRAM-SHA-512", iterations: 8192 }] },
      });
      if (!rotated.ok) return;
      generated = rotated.data.generatedPassword ?? "";
      expect(generated).toMatch(/^[A-Za-z0-9_-]{32}$/);

      const old = await signInAudited(
        { username: user, password: firstPassword, mechanism: "SCRAM-SHA-512" },
        "203.0.113.91",
      );
      expect(old).toMatchObject({ ok: false, code: "INVALID_CREDENTIALS" });
      await expect(
        verifyCredentials({ username: user, password: generated, mechanism: "SCRAM-SHA-512" }),
      ).resolves.toEqual({ principal: `User:${user}` });

      await sleep(3_200);
      expect(await viewerFromSessionId(sessionId)).toBeNull();
    },
  );

  it("adds SCRAM-SHA-256, deletes it alone, then deletes the user", async () => {
    const added = await upsertScramUser(admin, {
      user,
      mechanism: "SCRAM-SHA-256",
      iterations: 4096,
      password: "another-password",
    });
    expect(added).toMatchObject({ ok: true, data: { change: "added" } });
    const one = await deleteScramUser(admin, { user, mechanism: "SCRAM-SHA-256" });
    expect(one).toMatchObject({ ok: true, data: { change: "deleted", credentials: [{ mechanism: "SCRAM-SHA-512" }] } });
    if (one.ok) expect(one.data.cli[0]).toContain(`--entity-name ${user} --delete-config SCRAM-SHA-256`);

    const gone = await deleteScramUser(admin, { user });
    expect(gone).toMatchObject({ ok: true, data: { change: "deleted", credentials: [] } });
    await expect(
      verifyCredentials({ username: user, password: generated, mechanism: "SCRAM-SHA-512" }),
    ).rejects.toMatchObject({ code: "SASL_AUTHENTICATION_FAILED" });
    expect(await deleteScramUser(admin, { user })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    const list = await listScramUsers(admin);
    expect(list.ok && list.data.users.some((u) => u.user === user)).toBe(false);
  });

  it("audited every change under category scram with the user as subject, and never a password", async () => {
    const rows = await getPrisma().auditEvent.findMany({
      where: { category: "scram", subjects: { has: `User:${user}` } },
      orderBy: { at: "asc" },
    });
    expect(rows.map((r) => [r.action, r.outcome])).toEqual([
      ["scram.create", "success"],
      ["scram.rotate", "success"],
      ["scram.add", "success"],
      ["scram.delete", "success"],
      ["scram.delete", "success"],
    ]);
    const text = JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    for (const secret of [firstPassword, generated, "another-password"]) expect(text).not.toContain(secret);
    expect(rows[1]!.request).toMatchObject({ user, mechanism: "SCRAM-SHA-512", iterations: 8192, generated: true });
  });
});

describe("two people changing one user's credentials at the same moment", () => {
  const raced = `it-scram-race-${id}`;
  afterAll(async () => {
    await deleteScramUser(admin, { user: raced }).catch(() => undefined);
  });

  it(
    "creating the same new user twice at once: one is created, the other refused with nothing " +
      "changed; the created password is the one that works",
    async () => {
      const passwords = [`race-a-${randomBytes(6).toString("hex")}`, `race-b-${randomBytes(6).toString("hex")}`];
      const answers = await Promise.all(
        passwords.map((password) =>
          upsertScramUser(admin, {
            user: raced,
            mechanism: "SCRAM-SHA-512",
            iterations: 4096,
            password,
            ifExists: "refuse",
          }),
        ),
      );
      const created = answers.findIndex((a) => a.ok);
      expect(answers.filter((a) => a.ok)).toHaveLength(1);
      expect(answers[created]).toMatchObject({ ok: true, data: { change: "created" } });
      expect(answers[1 - created]).toMatchObject({
        ok: false,
        code: "CONFLICT",
        message: expect.stringContaining(`${raced} already has a SCRAM-SHA-512 credential`),
      });
      await expect(
        verifyCredentials({ username: raced, password: passwords[created]!, mechanism: "SCRAM-SHA-512" }),
      ).resolves.toEqual({ principal: `User:${raced}` });
      await expect(
        verifyCredentials({ username: raced, password: passwords[1 - created]!, mechanism: "SCRAM-SHA-512" }),
      ).rejects.toMatchObject({ code: "SASL_AUTHENTICATION_FAILED" });
    },
  );

  it(
    "two set-password calls at once are told apart: one rotated after the other, each answer saying " +
      "what it did, and the last one's password works",
    async () => {
      const passwords = [`race-c-${randomBytes(6).toString("hex")}`, `race-d-${randomBytes(6).toString("hex")}`];
      const other = `${raced}-b`;
      try {
        const answers = await Promise.all(
          passwords.map((password) =>
            upsertScramUser(admin, { user: other, mechanism: "SCRAM-SHA-512", iterations: 4096, password }),
          ),
        );
        expect(answers.map((a) => (a.ok ? a.data.change : a.code)).sort()).toEqual(["created", "rotated"]);
        const last = answers.findIndex((a) => a.ok && a.data.change === "rotated");
        await expect(
          verifyCredentials({ username: other, password: passwords[last]!, mechanism: "SCRAM-SHA-512" }),
        ).resolves.toEqual({ principal: `User:${other}` });
        const rows = await getPrisma().auditEvent.findMany({
          where: { category: "scram", subjects: { has: `User:${other}` } },
          orderBy: { at: "asc" },
        });
        expect(rows.map((r) => r.action)).toEqual(["scram.create", "scram.rotate"]);
      } finally {
        await deleteScramUser(admin, { user: other }).catch(() => undefined);
      }
    },
  );
});

describe("a principal without DESCRIBE or ALTER on CLUSTER", () => {
  it("is refused by Kafka, and the attempt on admin's password is audited as denied", async () => {
    const cred = await createScramUser(outsider);
    const viewer: Viewer = { sessionId: null, principal: `User:${outsider}`, credential: cred };
    expect(await listScramUsers(viewer)).toMatchObject({
      ok: false,
      code: "DENIED",
      message: expect.stringContaining("DESCRIBE on CLUSTER"),
    });
    expect(
      await upsertScramUser(viewer, {
        user: "admin",
        mechanism: "SCRAM-SHA-512",
        iterations: 4096,
        password: "not-the-admin-password",
      }),
    ).toMatchObject({
      ok: false,
      code: "DENIED",
      message: expect.stringContaining("ALTER on CLUSTER"),
    });
    await expect(verifyCredentials(ADMIN)).resolves.toBeDefined();
    const rows = await getPrisma().auditEvent.findMany({ where: { principal: `User:${outsider}`, category: "scram" } });
    expect(rows.map((r) => [r.action, r.outcome, r.kafkaError, r.subjects])).toEqual([
      ["scram.set", "denied", "CLUSTER_AUTHORIZATION_FAILED", ["User:admin"]],
    ]);
  });
});
