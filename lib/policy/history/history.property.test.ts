/**
 * The journal's promise, as a property (#20): for random sequences of console changes,
 * outside changes, reads and checkpoints, recorded the way the journal service records them,
 *
 *   - the state rebuilt at the instant of any read equals the state that read saw, nothing is
 *     uncertain then, and the ACL authorizer decides the same on both (super users and
 *     allow.everyone.if.no.acl.found taken from the rebuilt settings);
 *   - at any other instant the rebuilt state differs from the real one only on keys it calls
 *     uncertain or on keys changed outside the console within the read window around that
 *     instant (an ACL added and removed between two reads is invisible: the documented limit).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { authorize } from "../acl/authorize";
import type { AclBinding, AclOperation } from "../types";
import { aclKey, quotaKey, scramKey, settingKey, type Json } from "./keys";
import {
  aclsOf,
  applyChanges,
  authorizerConfigOf,
  rebuildAt,
  stateJson,
  type Checkpoint,
  type Coverage,
  type Entry,
} from "./state";
import { readChanges } from "./record";

const acl = (
  resourceName: string,
  principal: string,
  operation: AclOperation,
  permissionType: "ALLOW" | "DENY" = "ALLOW",
  patternType: "LITERAL" | "PREFIXED" = "LITERAL",
): AclBinding => ({
  resourceType: "TOPIC",
  resourceName,
  patternType,
  principal,
  host: "*",
  operation,
  permissionType,
});

const ACLS = [
  acl("orders", "User:alice", "READ"),
  acl("orders", "User:bob", "WRITE"),
  acl("ord", "User:alice", "READ", "DENY", "PREFIXED"),
  acl("*", "User:*", "DESCRIBE"),
  acl("payments", "User:bob", "ALL"),
  acl("pay", "User:alice", "READ", "ALLOW", "PREFIXED"),
];

/** Every key the simulation may set, with the values it may take. */
const UNIVERSE: { key: string; values: Json[] }[] = [
  ...ACLS.map((b) => ({ key: aclKey(b), values: [true] as Json[] })),
  { key: quotaKey({ user: "alice" }, "producer_byte_rate"), values: [1024, 2048] },
  { key: quotaKey({ user: null, "client-id": "c,1" }, "consumer_byte_rate"), values: [10, 20] },
  { key: scramKey("alice", "SCRAM-SHA-512"), values: [4096, 8192] },
  { key: scramKey("bob", "SCRAM-SHA-256"), values: [8192] },
  { key: settingKey("superUsers"), values: [[], ["User:alice"], ["User:bob", "User:alice"]] },
  { key: settingKey("allowEveryoneIfNoAclFound"), values: [true, false] },
];

type Event =
  | { kind: "console" | "outside"; slot: number; value: number | null; dt: number }
  | { kind: "read"; dt: number }
  | { kind: "checkpoint"; dt: number };

const change = (kind: "console" | "outside") =>
  fc.record({
    kind: fc.constant(kind),
    slot: fc.nat(UNIVERSE.length - 1),
    value: fc.option(fc.nat(2), { nil: null }),
    dt: fc.integer({ min: 1, max: 5 }),
  });
const events = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: change("console") },
    { weight: 4, arbitrary: change("outside") },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("read" as const), dt: fc.integer({ min: 1, max: 5 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("checkpoint" as const), dt: fc.integer({ min: 1, max: 3 }) }),
    },
  ),
  { maxLength: 60 },
) as fc.Arbitrary<Event[]>;

interface Run {
  entries: Entry[];
  checkpoints: Checkpoint[];
  coverage: Coverage[];
  reads: { at: number; state: Map<string, Json> }[];
  /** The real state after each instant's event. */
  real: { at: number; state: Map<string, Json> }[];
  outside: { at: number; key: string }[];
  end: number;
}

/** Plays the events against a simulated cluster and a journal recording them like the service. */
function play(evs: Event[]): Run {
  const real = new Map<string, Json>();
  const journal = new Map<string, Json>();
  const run: Run = { entries: [], checkpoints: [], coverage: [], reads: [], real: [], outside: [], end: 0 };
  let id = 0;
  let t = 0;
  let lastRead: number | null = null;
  const record = (key: string, value: Json | null, from: number, to: number, origin: Entry["origin"]) => {
    run.entries.push({ id: ++id, key, op: value === null ? "disappeared" : "appeared", value, from, to, origin });
    applyChanges(journal, [{ key, op: value === null ? "disappeared" : "appeared", value }]);
  };
  const read = () => {
    const seen = new Map(real);
    const changes = readChanges(journal, seen);
    for (const c of changes) record(c.key, c.op === "appeared" ? c.value : null, lastRead ?? t, t, "outside");
    run.reads.push({ at: t, state: seen });
    if (run.coverage.length === 0) run.coverage.push({ from: t, to: t });
    else run.coverage[run.coverage.length - 1]!.to = t;
    lastRead = t;
  };
  read(); // the journal begins with a read at 0
  run.real.push({ at: 0, state: new Map(real) });
  for (const e of evs) {
    t += e.dt;
    if (e.kind === "read") read();
    else if (e.kind === "checkpoint") run.checkpoints.push({ at: t, lastEntryId: id, state: new Map(journal) });
    else {
      const slot = UNIVERSE[e.slot]!;
      const value = e.value === null ? null : slot.values[e.value % slot.values.length]!;
      if (value === null) real.delete(slot.key);
      else real.set(slot.key, value);
      if (e.kind === "console") record(slot.key, value, t, t, "console");
      else run.outside.push({ at: t, key: slot.key });
    }
    run.real.push({ at: t, state: new Map(real) });
  }
  run.end = t;
  return run;
}

const START: Checkpoint = { at: 0, lastEntryId: 0, state: new Map() };

function nearestCheckpoint(run: Run, t: number): Checkpoint {
  let best = START;
  for (const c of run.checkpoints) if (c.at <= t && c.at >= best.at) best = c;
  return best;
}

const PRINCIPALS = ["User:alice", "User:bob", "User:carol"];
const TOPICS = ["orders", "ord-x", "payments", "pay", "*x", "other"];
const OPS: AclOperation[] = ["READ", "WRITE", "DESCRIBE", "ALTER"];

function decisions(state: ReadonlyMap<string, Json>): string[] {
  const acls = aclsOf(state);
  const config = authorizerConfigOf(state);
  const out: string[] = [];
  for (const principal of PRINCIPALS)
    for (const resourceName of TOPICS)
      for (const operation of OPS)
        out.push(
          authorize(acls, { principal, host: "10.0.0.1", operation, resourceType: "TOPIC", resourceName }, config)
            .decision,
        );
  return out;
}

describe("journal rebuild (property)", () => {
  it("rebuilds exactly the state each read saw, and the authorizer decides the same on it", () => {
    fc.assert(
      fc.property(events, (evs) => {
        const run = play(evs);
        for (const r of run.reads) {
          const at = rebuildAt(nearestCheckpoint(run, r.at), run.entries, r.at, run.coverage);
          expect(stateJson(at.state)).toBe(stateJson(r.state));
          expect([...at.uncertain]).toEqual([]);
          expect(at.vouch).toEqual({ kind: "covered" });
          expect(decisions(at.state)).toEqual(decisions(r.state));
        }
      }),
      { numRuns: 400 },
    );
  });

  it("between reads, differs from the real state only on uncertain keys or keys changed outside in that window", () => {
    fc.assert(
      fc.property(events, (evs) => {
        const run = play(evs);
        const readTimes = run.reads.map((r) => r.at);
        for (let t = 0; t <= run.end; t++) {
          const at = rebuildAt(nearestCheckpoint(run, t), run.entries, t, run.coverage);
          const real = [...run.real].reverse().find((s) => s.at <= t)!.state;
          const prev = Math.max(...readTimes.filter((r) => r <= t));
          const next = Math.min(...readTimes.filter((r) => r >= t), Infinity);
          const outsideNow = new Set(run.outside.filter((o) => o.at > prev && o.at <= next).map((o) => o.key));
          const keys = new Set([...real.keys(), ...at.state.keys()]);
          for (const key of keys) {
            const same =
              stateJson(new Map([[key, real.get(key) ?? null]])) ===
              stateJson(new Map([[key, at.state.get(key) ?? null]]));
            if (!same) expect(at.uncertain.has(key) || outsideNow.has(key), `${key} at ${t}`).toBe(true);
          }
          if (t > readTimes[readTimes.length - 1]!) expect(at.vouch.kind).toBe("after-last-read");
        }
      }),
      { numRuns: 200 },
    );
  });

  it("says a key is uncertain inside the window of an outside change, and certain at both ends", () => {
    const b = aclKey(ACLS[0]!);
    const entries: Entry[] = [{ id: 1, key: b, op: "appeared", value: true, from: 100, to: 160, origin: "outside" }];
    const coverage = [{ from: 0, to: 200 }];
    expect(rebuildAt(START, entries, 100, coverage).state.has(b)).toBe(false);
    expect([...rebuildAt(START, entries, 100, coverage).uncertain]).toEqual([]);
    expect([...rebuildAt(START, entries, 130, coverage).uncertain]).toEqual([b]);
    expect(rebuildAt(START, entries, 160, coverage).state.has(b)).toBe(true);
    expect(
      rebuildAt(START, entries, 130, [
        { from: 0, to: 100 },
        { from: 160, to: 200 },
      ]).vouch,
    ).toEqual({
      kind: "gap",
      from: 100,
      to: 160,
    });
    expect(rebuildAt(START, entries, 110, [{ from: 120, to: 200 }]).vouch).toEqual({
      kind: "before-journal",
      begins: 120,
    });
  });

  it("refuses a checkpoint after the instant asked", () => {
    expect(() => rebuildAt({ at: 10, lastEntryId: 0, state: new Map() }, [], 5)).toThrow(/after the instant/);
  });
});
