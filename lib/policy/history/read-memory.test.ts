/**
 * Comparing a read with the previous one (read-memory.ts) must find what the whole comparison
 * finds: as a property over random sequences of reads (ACLs added, removed, the answer
 * reordered, quotas and SCRAM changed) and console writes recorded between and during reads,
 * the changes recorded the incremental way equal those recorded by comparing every key
 * (readChanges against the journal's state), read after read, and so do the journal states.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AclBinding, AclOperation } from "../types";
import { aclKey, quotaKey, scramKey, type Json } from "./keys";
import { changesOnKeys, compareWithPreviousRead, firstReadMemory, stateOfRead, type ReadMemory } from "./read-memory";
import { readChanges } from "./record";
import { applyChanges, type SecuritySnapshot } from "./state";

const OPS: AclOperation[] = ["READ", "WRITE", "DESCRIBE"];
const binding = (n: number): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: `topic-${n % 7}`,
  patternType: n % 5 === 0 ? "PREFIXED" : "LITERAL",
  principal: `User:u${n % 4}`,
  host: "*",
  operation: OPS[n % 3]!,
  permissionType: n % 11 === 0 ? "DENY" : "ALLOW",
});
/** Bindings, and twins of some that differ in one field only (a comparison must see each field). */
const UNIVERSE = Array.from({ length: 84 }, (_, n) => binding(n))
  .flatMap((b, n): AclBinding[] =>
    n % 6 !== 1
      ? [b]
      : [
          b,
          { ...b, permissionType: b.permissionType === "ALLOW" ? "DENY" : "ALLOW" },
          { ...b, host: "10.0.0.1" },
          { ...b, patternType: b.patternType === "LITERAL" ? "PREFIXED" : "LITERAL" },
          { ...b, resourceType: "GROUP" },
          { ...b, principal: `${b.principal}x` },
          { ...b, operation: b.operation === "READ" ? "WRITE" : "READ" },
          { ...b, resourceName: `${b.resourceName}\u0000` },
        ],
  )
  .filter((b, i, all) => all.findIndex((o) => aclKey(o) === aclKey(b)) === i);
const settings: SecuritySnapshot["settings"] = {
  superUsers: ["User:admin"],
  allowEveryoneIfNoAclFound: false,
  principalMapping: { sslRules: null, kerberosRules: null, kerberosDefaultRealm: null },
};

/** Kafka's answer: the cluster's ACLs in some order (fresh objects, as a decoder makes them). */
function answer(present: ReadonlySet<number>, order: readonly number[], quota: number, scram: number | null) {
  const acls = order.filter((n) => present.has(n)).map((n) => ({ ...UNIVERSE[n]! }));
  return {
    acls,
    quotas: quota === 0 ? [] : [{ entity: { user: "alice" }, values: { producer_byte_rate: quota } }],
    scram: scram === null ? [] : [{ user: "bob", credentials: [{ mechanism: "SCRAM-SHA-512", iterations: scram }] }],
    settings,
  } as SecuritySnapshot;
}

const step = fc.record({
  /** ACLs toggled outside the console before this read. */
  outside: fc.array(fc.nat({ max: UNIVERSE.length - 1 }), { maxLength: 4 }),
  /** ACLs the console toggles during the read (recorded by the console, skipped by the read). */
  during: fc.array(fc.nat({ max: UNIVERSE.length - 1 }), { maxLength: 2 }),
  /** Kafka reorders its answer (its hash map grew), or shifts it a little. */
  reorder: fc.oneof(fc.constant("none" as const), fc.constant("shuffle" as const), fc.constant("rotate" as const)),
  seed: fc.nat(),
  quota: fc.constantFrom(0, 1024, 2048),
  scram: fc.constantFrom(null, 4096, 8192),
});

function shuffled(order: number[], seed: number): number[] {
  const out = [...order];
  let s = seed + 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("comparing a read with the previous one", () => {
  it("records what comparing every key records, read after read", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const cluster = new Set<number>([0, 1, 2, 3, 10, 20]);
        let order = UNIVERSE.map((_, n) => n);
        // Two journals fed the same way, one recorded by comparing everything, one incrementally.
        const whole = new Map<string, Json>();
        const quick = new Map<string, Json>();
        let memory: ReadMemory | null = null;
        let mismatch = new Set<string>();
        let sinceLastRead = new Set<string>();
        let first = true;
        for (const s of steps) {
          for (const n of s.outside) if (!cluster.delete(n)) cluster.add(n);
          if (s.reorder === "shuffle") order = shuffled(order, s.seed);
          if (s.reorder === "rotate")
            order = [...order.slice(s.seed % order.length), ...order.slice(0, s.seed % order.length)];
          const read = answer(cluster, order, s.quota, s.scram);
          // The console's writes during the read: in Kafka after the answer, in the journal at once.
          const skip = new Set<string>();
          for (const n of s.during) {
            const key = aclKey(UNIVERSE[n]!);
            const change = cluster.delete(n)
              ? { key, op: "disappeared" as const, value: null }
              : (cluster.add(n), { key, op: "appeared" as const, value: true });
            applyChanges(whole, [change]);
            applyChanges(quick, [change]);
            skip.add(key);
            sinceLastRead.add(key);
          }
          const delta = compareWithPreviousRead(memory, read);
          const expected = readChanges(whole, stateOfRead(delta.memory), skip);
          if (first) {
            // The journal begins with the read (keys written during it keep the journal's value).
            for (const [k, v] of stateOfRead(delta.memory))
              if (!skip.has(k)) {
                whole.set(k, v);
                quick.set(k, v);
              }
            first = false;
          } else {
            const got =
              memory === null || delta.changed === null
                ? readChanges(quick, stateOfRead(delta.memory), skip)
                : changesOnKeys(quick, delta.memory, [...delta.changed, ...mismatch, ...sinceLastRead], skip);
            expect(got).toEqual(expected);
            applyChanges(whole, expected);
            applyChanges(quick, got);
          }
          expect(new Map([...quick].sort())).toEqual(new Map([...whole].sort()));
          // What the next read compares against: this one, the keys skipped, nothing recorded since.
          memory = delta.memory;
          mismatch = skip;
          sinceLastRead = new Set();
          expect([...memory.aclKeys].sort()).toEqual(read.acls.map(aclKey).sort());
        }
      }),
      { numRuns: 300 },
    );
  });

  it("names every key that differs between two reads, and builds keys only for what it cannot match", () => {
    const before = answer(
      new Set(UNIVERSE.map((_, n) => n)),
      UNIVERSE.map((_, n) => n),
      1024,
      4096,
    );
    const memory = firstReadMemory(before);
    const present = new Set(UNIVERSE.map((_, n) => n));
    present.delete(5);
    present.delete(40);
    const after = answer(
      present,
      UNIVERSE.map((_, n) => n),
      2048,
      4096,
    );
    const delta = compareWithPreviousRead(memory, after);
    expect(new Set(delta.changed)).toEqual(
      new Set([aclKey(UNIVERSE[5]!), aclKey(UNIVERSE[40]!), quotaKey({ user: "alice" }, "producer_byte_rate")]),
    );
    expect(delta.changed).not.toContain(scramKey("bob", "SCRAM-SHA-512"));
  });

  it("with nothing before it, says so (the caller compares every key)", () => {
    const delta = compareWithPreviousRead(null, answer(new Set([1, 2]), [1, 2], 0, null));
    expect(delta.changed).toBeNull();
    expect([...delta.memory.aclKeys]).toEqual([aclKey(UNIVERSE[1]!), aclKey(UNIVERSE[2]!)]);
  });
});
