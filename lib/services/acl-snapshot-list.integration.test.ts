/**
 * The ACL list (listAcls, what GET /api/v1/acls and the ACLs page answer) on the real dev
 * broker, through the process-wide snapshot with short bounds:
 * - an ACL another process creates (kafka-acls.sh, another console: the console is not
 *   told) is listed within ACL_SNAPSHOT_MAX_AGE_MS, and at once with refresh;
 * - a viewer whose DESCRIBE on CLUSTER is taken away by another process stops seeing the
 *   list within ACL_VIEWER_PROOF_MAX_AGE_MS;
 * - every answer says when the snapshot was read.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AclBinding } from "@/lib/policy";

const MAX_AGE_MS = 1_500;
const PROOF_MAX_AGE_MS = 1_000;
process.env.ACL_SNAPSHOT_MAX_AGE_MS = String(MAX_AGE_MS);
process.env.ACL_VIEWER_PROOF_MAX_AGE_MS = String(PROOF_MAX_AGE_MS);

vi.mock("server-only", () => ({}));
const { listAcls } = await import("./acls");
const { aclListQuerySchema } = await import("@/lib/schemas/acls");
const { aclSnapshotCache } = await import("./acl-snapshot");
const { closeAllConnections } = await import("@/lib/kafka/client");
const { ADMIN, createScramUser, dropScramUser, runId } = await import("@/test/kafka/fixtures");

const id = runId();
const user = `it-list-${id}`;
const principal = `User:it-list-owner-${id}`;
const grant: AclBinding = {
  resourceType: "TOPIC",
  resourceName: `it-list-${id}`,
  patternType: "LITERAL",
  principal,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};
const describeOnCluster: AclBinding = {
  resourceType: "CLUSTER",
  resourceName: "kafka-cluster",
  patternType: "LITERAL",
  principal: `User:${user}`,
  host: "*",
  operation: "DESCRIBE",
  permissionType: "ALLOW",
};

const adminViewer = { sessionId: `it-list-admin-${id}`, principal: "User:admin", credential: ADMIN };
let userViewer: { sessionId: string; principal: string; credential: Awaited<ReturnType<typeof createScramUser>> };

/**
 * Another process changes the ACLs through Kafka's admin API (e2e/kafka-behind-the-back.ts): this process's snapshot is
 * not told.
 */
function behindTheBack(action: "create" | "delete", bindings: AclBinding[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "e2e/kafka-behind-the-back.ts", action, JSON.stringify(bindings)],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${action} failed: ${stderr}`))));
    child.on("error", reject);
  });
}

/** Each change starts a Node process with tsx (seconds on a loaded machine); the bounds are measured from its exit. */
const CHILD_PROCESSES_TIMEOUT_MS = 180_000;

const list = (viewer: typeof adminViewer, query: Record<string, string>) =>
  listAcls(viewer, aclListQuerySchema.parse(query));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (done(await read())) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  userViewer = { sessionId: `it-list-user-${id}`, principal: `User:${user}`, credential: await createScramUser(user) };
});

afterAll(async () => {
  await behindTheBack("delete", [grant, describeOnCluster]).catch(() => undefined);
  await dropScramUser(user);
  aclSnapshotCache().clear();
  await closeAllConnections();
});

describe("the ACL list on the real broker", () => {
  it(
    "lists an ACL created by another process within ACL_SNAPSHOT_MAX_AGE_MS, and at once with refresh",
    async () => {
      const before = await list(adminViewer, { principal });
      if (!before.ok) throw new Error(before.message);
      expect(before.data.matching).toBe(0);
      expect(Date.parse(before.data.snapshot.takenAt)).toBeLessThanOrEqual(Date.now());

      await behindTheBack("create", [grant]);
      const createdAt = Date.now();
      await until(
        () => list(adminViewer, { principal }),
        (r) => r.ok && r.data.matching === 1,
        10_000,
      );
      // Within the bound, plus one fetch and the polling step.
      expect(Date.now() - createdAt).toBeLessThan(MAX_AGE_MS + 1_500);
      const seen = await list(adminViewer, { principal: principal.slice("User:".length) });
      expect(seen.ok && seen.data.acls).toEqual([grant]);

      // Deleted by another process: refresh=true reads Kafka for this very request.
      await behindTheBack("delete", [grant]);
      const refreshed = await list(adminViewer, { principal, refresh: "true" });
      expect(refreshed.ok && refreshed.data.matching).toBe(0);
      expect(refreshed.ok && refreshed.data.snapshot.ageMs).toBeLessThan(MAX_AGE_MS);
    },
    CHILD_PROCESSES_TIMEOUT_MS,
  );

  it(
    "stops listing for a viewer whose DESCRIBE on CLUSTER another process took away, within " +
      "ACL_VIEWER_PROOF_MAX_AGE_MS",
    async () => {
      expect(await list(userViewer, {})).toMatchObject({ ok: false, code: "DENIED" });
      await behindTheBack("create", [describeOnCluster]);
      await until(
        () => list(userViewer, {}),
        (r) => r.ok,
        10_000,
      );

      await behindTheBack("delete", [describeOnCluster]);
      const revokedAt = Date.now();
      await until(
        () => list(userViewer, {}),
        (r) => !r.ok,
        10_000,
      );
      expect(Date.now() - revokedAt).toBeLessThan(PROOF_MAX_AGE_MS + 1_500);
      expect(await list(userViewer, {})).toMatchObject({ ok: false, code: "DENIED" });
      expect((await list(adminViewer, {})).ok).toBe(true);
    },
    CHILD_PROCESSES_TIMEOUT_MS,
  );
});
