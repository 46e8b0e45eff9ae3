/**
 * The adapter's two faces: `@/lib/kafka` only reads, every write is in `./writes` (which only
 * the audited wrapper imports, eslint.config.js), and the KafkaWriter holds the writes the
 * console's changes make. A write added back to the index, or a new write left out of the
 * writer, fails here.
 */
import { describe, expect, it } from "vitest";
import * as adapter from "./index";
import * as writes from "./writes";

const CHANGES = [
  ...["createAcls", "deleteAcls", "alterClientQuotas", "upsertScramCredential", "deleteScramCredential"],
  ...["createDelegationToken", "renewDelegationToken", "expireDelegationToken"],
];
/** Writes for the demo seed and tests only (topics, records, groups). */
const SEED_AND_TESTS = [
  ...["deleteConsumerGroups", "consumeWithGroup"],
  ...["createTopics", "deleteTopics", "produce", "produceTransactional"],
];
const cred = { username: "alice", password: "x", mechanism: "SCRAM-SHA-512" as const };

describe("lib/kafka", () => {
  it("exports no write, and no raw Admin, from its index", () => {
    const exported = Object.keys(adapter);
    for (const name of [...CHANGES, ...SEED_AND_TESTS, "withAdmin", "createAdmin", "anyBrokerConnection"]) {
      expect(exported).not.toContain(name);
    }
    expect(exported).toContain("validateClientQuotas");
  });

  it("exports every write from ./writes; a KafkaWriter holds the console's changes, frozen", () => {
    for (const name of [...CHANGES, ...SEED_AND_TESTS]) expect(writes).toHaveProperty(name, expect.any(Function));
    const { writer, close } = writes.openKafkaWriter();
    expect(Object.keys(writer).sort()).toEqual([...CHANGES].sort());
    expect(Object.isFrozen(writer)).toBe(true);
    close();
  });

  it("a writer's writes pass through while it is open, and fail before anything is sent once closed", async () => {
    const { writer, close } = writes.openKafkaWriter();
    // Empty batches return before any connection is made.
    await expect(writer.deleteAcls(cred, [])).resolves.toEqual([]);
    close();
    await expect(writer.deleteAcls(cred, [])).rejects.toThrow(`${writes.WRITER_CLOSED_MESSAGE} (deleteAcls)`);
    // Another writer is not affected.
    await expect(writes.openKafkaWriter().writer.createAcls(cred, [])).resolves.toEqual([]);
  });
});
