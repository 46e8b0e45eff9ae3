import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";
import { AGGREGATE_MS, MAX_USERNAMES_PER_SOURCE, recordSignInFailure, type SignInFailure } from "./sign-in-audit";
import { getPrisma } from "./client";
import { useMigratedTestDatabase } from "@/test/db";

let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
/** A second console instance: its own Prisma client and connection pool on the same database. */
let other: PrismaClient;
beforeAll(async () => {
  db = await useMigratedTestDatabase("sign_in_audit");
  other = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url, max: 10 }) });
});
afterAll(async () => {
  await other.$disconnect();
  await db.teardown();
});

const t0 = new Date("2026-12-01T09:00:00.000Z");
const failure = (
  clientAddress: string,
  username: string,
  code = "INVALID_CREDENTIALS",
  clusterId = "default",
): SignInFailure => ({
  clusterId,
  clientAddress,
  clientSource: clientAddress,
  username,
  mechanism: "SCRAM-SHA-512",
  code,
  message:
    code === "THROTTLED"
      ? "Too many failed sign-ins. Try again in 2 s."
      : "Kafka rejected these credentials (SCRAM-SHA-512).",
});
const rowsFrom = (clientAddress: string, clusterId = "default") =>
  getPrisma().auditEvent.findMany({
    where: { sourceKey: { startsWith: `sign-in-failure|${clusterId}|${clientAddress}|` } },
    orderBy: { id: "asc" },
  });

describe("failed sign-ins on the audit trail", () => {
  it("folds repeated failures of one client and username into one row, also when they arrive in parallel", async () => {
    const first = await recordSignInFailure(failure("192.0.2.1", "alice"), t0);
    expect(first.repeatCount).toBe(1);
    await Promise.all(
      Array.from({ length: 99 }, (_, i) =>
        recordSignInFailure(
          failure("192.0.2.1", i % 2 ? "Alice" : "alice", i % 3 ? "INVALID_CREDENTIALS" : "THROTTLED"),
          new Date(t0.getTime() + 1000 + i),
        ),
      ),
    );
    const rows = await rowsFrom("192.0.2.1");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: BigInt(first.id),
      action: "session.sign-in",
      category: "session",
      outcome: "denied",
      principal: "User:alice",
      repeatCount: 100,
      sourceKey: "sign-in-failure|default|192.0.2.1|alice",
      clusterId: "default",
      request: { username: "alice", mechanism: "SCRAM-SHA-512", client: "192.0.2.1", code: "INVALID_CREDENTIALS" },
    });
    expect(rows[0]!.lastAt!.getTime()).toBeGreaterThan(t0.getTime());
  });

  it("folds failures arriving at several console instances at once into the same row", async () => {
    const client = "192.0.2.9";
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? recordSignInFailure(failure(client, "carol"), new Date(t0.getTime() + i))
          : recordSignInFailure(failure(client, "carol"), new Date(t0.getTime() + i), other),
      ),
    );
    const rows = await rowsFrom(client);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.repeatCount).toBe(40);
  });

  it(
    "bounds the rows of a client trying many usernames: one per username up to a limit, then one for " + "the rest",
    async () => {
      const client = "192.0.2.2";
      for (let i = 0; i < 40; i++) {
        for (let j = 0; j < 3; j++)
          await recordSignInFailure(failure(client, `user-${i}`), new Date(t0.getTime() + i * 10 + j));
      }
      const rows = await rowsFrom(client);
      expect(rows).toHaveLength(MAX_USERNAMES_PER_SOURCE + 1);
      const rest = rows.find((r) => r.sourceKey === `sign-in-failure|default|${client}|*`);
      expect(rest).toMatchObject({ principal: "User:ANONYMOUS", repeatCount: (40 - MAX_USERNAMES_PER_SOURCE) * 3 });
      expect(rows.reduce((sum, r) => sum + r.repeatCount, 0)).toBe(120);
      // Other clients are not folded into it.
      await recordSignInFailure(failure("192.0.2.3", "user-39"), t0);
      expect(await rowsFrom("192.0.2.3")).toHaveLength(1);
    },
  );

  it("opens a new row once the first failure of a row is AGGREGATE_MS old", async () => {
    const client = "192.0.2.4";
    await recordSignInFailure(failure(client, "bob"), t0);
    await recordSignInFailure(failure(client, "bob"), new Date(t0.getTime() + AGGREGATE_MS - 1));
    await recordSignInFailure(failure(client, "bob"), new Date(t0.getTime() + AGGREGATE_MS));
    expect((await rowsFrom(client)).map((r) => r.repeatCount)).toEqual([2, 1]);
  });

  it("keeps each cluster's failures in rows of that cluster, folded separately", async () => {
    const client = "192.0.2.5";
    await recordSignInFailure(failure(client, "carol"), t0);
    await recordSignInFailure(failure(client, "carol", "INVALID_CREDENTIALS", "prod"), t0);
    await recordSignInFailure(failure(client, "carol", "INVALID_CREDENTIALS", "prod"), t0);
    const onDefault = await rowsFrom(client);
    const onProd = await rowsFrom(client, "prod");
    expect(onDefault.map((r) => [r.clusterId, r.repeatCount])).toEqual([["default", 1]]);
    expect(onProd.map((r) => [r.clusterId, r.repeatCount])).toEqual([["prod", 2]]);
  });
});
