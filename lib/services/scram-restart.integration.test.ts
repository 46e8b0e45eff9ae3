/**
 * SCRAM credentials survive a deletion followed by a broker restart. Kafka 4.1.1 replays a
 * credential deletion from the metadata log wrongly (ScramDelta.apply drops every
 * credential of the mechanism; lib/kafka/README.md): the dev broker therefore snapshots its
 * metadata every 10 s, and a restart after that snapshot starts from a correct image. This
 * suite deletes one user's credential through the console, waits for the broker's next
 * metadata snapshot, restarts the broker, and checks through the console that the other
 * users of the mechanism still sign in and the deleted one does not. It runs a broker of
 * its own, since it restarts it.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useMigratedTestDatabase } from "@/test/db";
import { resetEnvForTests } from "@/lib/env";
import { startPrivateBroker, untilSignsIn, type PrivateBroker } from "@/test/kafka/private-broker";
import type { Viewer } from "@/lib/auth/sign-in";

vi.mock("server-only", () => ({}));

const PORT = Number(process.env.SCRAM_RESTART_BROKER_PORT ?? 25092);
const saved = process.env.KAFKA_BOOTSTRAP_SERVERS;
let broker: PrivateBroker | undefined;
let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;

beforeAll(async () => {
  broker = startPrivateBroker(path.join(os.tmpdir(), `ksc-it-scram-restart-${randomBytes(4).toString("hex")}`), PORT);
  process.env.KAFKA_BOOTSTRAP_SERVERS = broker.bootstrap; // read once, at the first Kafka call below
  resetEnvForTests();
  db = await useMigratedTestDatabase("scram_restart");
}, 240_000);

afterAll(async () => {
  const { closeAllConnections } = await import("@/lib/kafka");
  await closeAllConnections();
  broker?.destroy();
  await db?.teardown();
  if (saved === undefined) delete process.env.KAFKA_BOOTSTRAP_SERVERS;
  else process.env.KAFKA_BOOTSTRAP_SERVERS = saved;
  resetEnvForTests();
}, 120_000);

/** The newest metadata snapshot's time (epoch ms), 0 when there is none yet. */
function newestSnapshotAt(stateDir: string): number {
  const dir = path.join(stateDir, "data", "__cluster_metadata-0");
  let newest = 0;
  for (const name of readdirSync(dir))
    if (name.endsWith(".checkpoint")) newest = Math.max(newest, statSync(path.join(dir, name)).mtimeMs);
  return newest;
}

describe("a deleted SCRAM credential meets a broker restart", () => {
  it(
    "the other users of the mechanism still sign in afterwards, the deleted one does not, and the console " +
      "lists exactly that",
    { timeout: 240_000 },
    async () => {
      const { closeAllConnections, verifyCredentials } = await import("@/lib/kafka");
      const { ADMIN } = await import("@/test/kafka/fixtures");
      const { deleteScramUser, listScramUsers, upsertScramUser } = await import("./scram-users");
      const admin: Viewer = { sessionId: null, principal: "User:admin", credential: ADMIN };
      await untilSignsIn(ADMIN);
      const keep = {
        username: "it-restart-keep",
        password: `keep-${randomBytes(6).toString("hex")}`,
        mechanism: "SCRAM-SHA-256" as const,
      };
      const gone = {
        username: "it-restart-gone",
        password: `gone-${randomBytes(6).toString("hex")}`,
        mechanism: "SCRAM-SHA-256" as const,
      };

      for (const u of [keep, gone]) {
        const created = await upsertScramUser(admin, {
          user: u.username,
          mechanism: u.mechanism,
          iterations: 4096,
          password: u.password,
          ifExists: "refuse",
        });
        expect(created, JSON.stringify(created)).toMatchObject({ ok: true, data: { change: "created" } });
      }
      expect(await deleteScramUser(admin, { user: gone.username, mechanism: "SCRAM-SHA-256" })).toMatchObject({
        ok: true,
        data: { change: "deleted", credentials: [] },
      });
      const deletedAt = Date.now();

      const deadline = Date.now() + 60_000;
      while (newestSnapshotAt(broker!.stateDir) <= deletedAt) {
        if (Date.now() > deadline)
          throw new Error(
            "the broker took no metadata snapshot within 60 s of the deletion " +
              "(metadata.log.max.snapshot.interval.ms in scripts/kafka.sh)",
          );
        await new Promise((r) => setTimeout(r, 500));
      }
      await closeAllConnections();
      broker!.stop();
      broker!.start();
      await untilSignsIn(ADMIN);

      await expect(verifyCredentials(keep)).resolves.toEqual({ principal: `User:${keep.username}` });
      await expect(verifyCredentials(ADMIN)).resolves.toEqual({ principal: "User:admin" });
      await expect(verifyCredentials({ ...ADMIN, mechanism: "SCRAM-SHA-256" })).resolves.toEqual({
        principal: "User:admin",
      });
      await expect(verifyCredentials(gone)).rejects.toMatchObject({ code: "SASL_AUTHENTICATION_FAILED" });
      const list = await listScramUsers(admin);
      expect(list.ok && list.data.users.filter((u) => u.user.startsWith("it-restart-"))).toEqual([
        {
          user: keep.username,
          principal: `User:${keep.username}`,
          credentials: [{ mechanism: "SCRAM-SHA-256", iterations: 4096 }],
        },
      ]);
    },
  );
});
