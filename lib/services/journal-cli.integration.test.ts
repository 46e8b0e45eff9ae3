/**
 * The history journal (#20) against changes made with the broker's own tools, as an operator
 * would: `kafka-acls.sh` (org.apache.kafka.tools.AclCommand) adds an ACL and `kafka-configs.sh`
 * (kafka.admin.ConfigCommand) sets a user quota, each in a fresh JVM from the dev broker's jars;
 * the next background read lists both as outside changes whose window holds the moment the tool
 * ran, and the removal with the same tools is found by the read after. Only this run's names (MARK).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
process.env.CONSOLE_SECRET_KEY ??= randomBytes(32).toString("hex");

const { AclCli, runTool } = await import("@/scripts/bench/kafka-cli");
const { getPrisma } = await import("@/lib/db/client");
const fx = await import("@/test/services/grant-fixtures");
const { journalTestCluster } = await import("@/test/services/journal-fixture");
const { readClusterForJournal } = await import("./journal");
const { aclKey, quotaKey } = await import("@/lib/policy/history");

const MARK = `it-cli-${randomBytes(4).toString("hex")}`;
const USER = MARK;
const TOPIC = `${MARK}-orders`;
const BOOTSTRAP = `127.0.0.1:${process.env.KAFKA_PORT ?? "9092"}`;
const dir = mkdtempSync(path.join(tmpdir(), "ksc-journal-cli-"));
const acls = new AclCli(BOOTSTRAP, dir, { username: "admin", password: "admin-secret" });
const config = path.join(dir, "bench-admin.properties");

/** kafka-configs.sh as admin. */
async function configs(args: string[]): Promise<void> {
  const r = await runTool("kafka.admin.ConfigCommand", [
    "--bootstrap-server",
    BOOTSTRAP,
    "--command-config",
    config,
    ...args,
  ]);
  if (r.code !== 0) throw new Error(`kafka-configs.sh ${args.join(" ")} failed (exit ${r.code}): ${r.head}`);
}

const aclArgs = ["--allow-principal", `User:${USER}`, "--operation", "Read", "--topic", TOPIC];
const binding = fx.topicAcl(TOPIC, `User:${USER}`, "READ");
const rate = quotaKey({ user: USER }, "producer_byte_rate");
const entriesOf = (key: string) =>
  getPrisma().journalEntry.findMany({ where: { clusterId: "default", key }, orderBy: { id: "asc" } });

journalTestCluster("journal_cli", MARK, async () => {
  await acls.run(["--remove", "--force", ...aclArgs]).catch(() => undefined);
  await configs([
    "--alter",
    "--entity-type",
    "users",
    "--entity-name",
    USER,
    "--delete-config",
    "producer_byte_rate",
  ]).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe("changes made with kafka-acls.sh and kafka-configs.sh", () => {
  it(
    "are found by the next read as outside changes, with a window holding the moment the tool ran",
    { timeout: 180_000 },
    async () => {
      expect(await readClusterForJournal("default")).toMatchObject({ kind: "read", began: true });
      const before = Date.now();
      await acls.run(["--add", ...aclArgs]);
      await configs([
        "--alter",
        "--entity-type",
        "users",
        "--entity-name",
        USER,
        "--add-config",
        "producer_byte_rate=1024",
      ]);
      const after = Date.now();
      await readClusterForJournal("default");

      const [acl] = await entriesOf(aclKey(binding));
      const [quota] = await entriesOf(rate);
      for (const e of [acl, quota]) {
        expect(e).toMatchObject({ origin: "outside", op: "appeared", actor: null, auditId: null });
        expect(e!.windowFrom.getTime()).toBeLessThanOrEqual(before);
        expect(e!.windowTo.getTime()).toBeGreaterThanOrEqual(after);
      }
      expect(quota!.value).toBe(1024);
      expect(acl!.principal).toBe(`User:${USER}`);

      await acls.run(["--remove", "--force", ...aclArgs]);
      await configs([
        "--alter",
        "--entity-type",
        "users",
        "--entity-name",
        USER,
        "--delete-config",
        "producer_byte_rate",
      ]);
      await readClusterForJournal("default");
      expect((await entriesOf(aclKey(binding))).map((e) => [e.origin, e.op])).toEqual([
        ["outside", "appeared"],
        ["outside", "disappeared"],
      ]);
      expect((await entriesOf(rate)).map((e) => [e.origin, e.op])).toEqual([
        ["outside", "appeared"],
        ["outside", "disappeared"],
      ]);
    },
  );
});
