/**
 * "What changed in P's access between T1 and T2" (#20): the decisions gained and lost per change
 * set, checked on cases an auditor would ask about and, as a property, against the authorizer run
 * on the whole state before and after every change set (also when the caller passes only what
 * bears on P, as the service does).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AclIndex } from "../acl/acl-index";
import { authorizePattern } from "../acl/effective";
import { SUPPORTED_OPERATIONS } from "../acl/operations";
import type { AclBinding, AclOperation, PatternType } from "../types";
import { aclKey, settingKey, type Json } from "./keys";
import { bearsOn, needsWholeState, principalChanges, type CausingEntry } from "./principal";
import { aclsOf, authorizerConfigOf } from "./state";

const acl = (
  resourceName: string,
  principal: string,
  operation: AclOperation,
  permissionType: "ALLOW" | "DENY" = "ALLOW",
  patternType: PatternType = "LITERAL",
): AclBinding => ({
  resourceType: "TOPIC",
  resourceName,
  patternType,
  principal,
  host: "*",
  operation,
  permissionType,
});

let nextId = 1;
const entry = (
  key: string,
  op: "appeared" | "disappeared",
  extra: Partial<CausingEntry> & { value?: Json } = {},
): CausingEntry => ({
  id: nextId++,
  key,
  op,
  value: op === "appeared" ? (extra.value ?? true) : null,
  from: 1000,
  to: 2000,
  origin: "outside",
  ...extra,
});
const state = (...acls: AclBinding[]) => new Map<string, Json>(acls.map((b) => [aclKey(b), true]));
const flips = (steps: ReturnType<typeof principalChanges>) =>
  steps.map((s) => s.decisions.map((d) => `${d.change} ${d.operation} ${d.patternType} ${d.resourceName}`));

describe("principalChanges", () => {
  it("an ALLOW READ for alice added outside: READ and DESCRIBE (implied) gained, with the change that did it", () => {
    const add = entry(aclKey(acl("payments-eu", "User:alice", "READ")), "appeared");
    const steps = principalChanges({ principal: "User:alice", state: state(), entries: [add] });
    expect(flips(steps)).toEqual([["gained DESCRIBE LITERAL payments-eu", "gained READ LITERAL payments-eu"]]);
    expect(steps[0]!.entries).toEqual([add]);
    expect(steps[0]!.decisions[1]!.after.rule).toEqual({ kind: "acl", acl: acl("payments-eu", "User:alice", "READ") });
  });

  it("someone else's ACL changes nothing for alice; a User:* ACL does (WRITE, and DESCRIBE it implies)", () => {
    const steps = principalChanges({
      principal: "User:alice",
      state: state(),
      entries: [
        entry(aclKey(acl("t", "User:bob", "WRITE")), "appeared", { auditId: "a1" }),
        entry(aclKey(acl("t", "User:*", "WRITE")), "appeared", { auditId: "a2" }),
      ],
    });
    expect(steps).toHaveLength(1);
    expect(steps[0]!.entries[0]!.auditId).toBe("a2");
    expect(flips(steps)).toEqual([["gained DESCRIBE LITERAL t", "gained WRITE LITERAL t"]]);
  });

  it("a DENY on a name under alice's prefixed grant: that name's READ lost, the prefix's kept", () => {
    const steps = principalChanges({
      principal: "User:alice",
      state: state(acl("pay", "User:alice", "READ", "ALLOW", "PREFIXED")),
      entries: [entry(aclKey(acl("payments-eu", "User:alice", "READ", "DENY")), "appeared")],
    });
    expect(flips(steps)).toEqual([["lost READ LITERAL payments-eu"]]);
  });

  it("one console change is one change set; a read's outside changes are another", () => {
    const steps = principalChanges({
      principal: "User:alice",
      state: state(),
      entries: [
        entry(aclKey(acl("a", "User:alice", "READ")), "appeared", { auditId: "x", origin: "console", from: 5, to: 5 }),
        entry(aclKey(acl("b", "User:alice", "READ")), "appeared", { auditId: "x", origin: "console", from: 5, to: 5 }),
        entry(aclKey(acl("c", "User:alice", "READ")), "appeared", { from: 5, to: 9 }),
        entry(aclKey(acl("a", "User:alice", "READ")), "disappeared", { from: 5, to: 9 }),
      ],
    });
    expect(steps.map((s) => s.entries.length)).toEqual([2, 2]);
    expect(flips(steps)[1]).toEqual([
      "lost DESCRIBE LITERAL a",
      "lost READ LITERAL a",
      "gained DESCRIBE LITERAL c",
      "gained READ LITERAL c",
    ]);
  });

  it("becoming a super user is its own line; an ACL re-created in one change set flips nothing", () => {
    const k = aclKey(acl("t", "User:alice", "READ"));
    const steps = principalChanges({
      principal: "User:alice",
      state: state(acl("t", "User:alice", "READ")),
      entries: [
        entry(k, "disappeared", { auditId: "r" }),
        entry(k, "appeared", { auditId: "r" }),
        entry(settingKey("superUsers"), "appeared", { value: ["User:alice"], auditId: "s" }),
      ],
    });
    expect(steps).toHaveLength(1);
    expect(steps[0]!.superUser).toBe("gained");
    // Her ACL's pattern: everything the super user status adds (READ and DESCRIBE were hers already).
    expect(flips(steps)[0]).not.toContain("gained READ LITERAL t");
    expect(flips(steps)[0]).toContain("gained WRITE LITERAL t");
  });

  it("with allow.everyone.if.no.acl.found, bob's first ACL on a topic takes alice's default access away", () => {
    const steps = principalChanges({
      principal: "User:alice",
      state: new Map<string, Json>([[settingKey("allowEveryoneIfNoAclFound"), true]]),
      entries: [entry(aclKey(acl("orders", "User:bob", "WRITE")), "appeared")],
    });
    expect(flips(steps)[0]).toEqual(SUPPORTED_OPERATIONS.TOPIC.map((op) => `lost ${op} LITERAL orders`).sort());
    expect(needsWholeState(new Map([[settingKey("allowEveryoneIfNoAclFound"), true]]), [])).toBe(true);
    expect(needsWholeState(new Map(), [])).toBe(false);
  });
});

// ---- property: equal to the authorizer on the whole state --------------------------------

const PRINCIPALS = ["User:alice", "User:bob", "User:*"];
const NAMES: [string, PatternType][] = [
  ["orders", "LITERAL"],
  ["ord", "PREFIXED"],
  ["*", "LITERAL"],
  ["payments", "LITERAL"],
  ["pay", "PREFIXED"],
];
const OPS: AclOperation[] = ["READ", "WRITE", "DESCRIBE", "ALL"];
const SLOTS: { key: string; values: Json[] }[] = [];
for (const [name, pt] of NAMES)
  for (const p of PRINCIPALS)
    for (const op of OPS)
      for (const perm of ["ALLOW", "DENY"] as const)
        SLOTS.push({ key: aclKey(acl(name, p, op, perm, pt)), values: [true] });
SLOTS.push({ key: settingKey("superUsers"), values: [[], ["User:alice"]] });
SLOTS.push({ key: settingKey("allowEveryoneIfNoAclFound"), values: [true, false] });

const change = fc.record({ slot: fc.nat(SLOTS.length - 1), value: fc.option(fc.nat(1), { nil: null }) });
const scenario = fc.record({
  initial: fc.array(change, { maxLength: 12 }),
  sets: fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { maxLength: 8 }),
  principal: fc.constantFrom("User:alice", "User:bob"),
});

type Cell = string;
/** Every (pattern, operation) decision of `principal` on the whole state, for the patterns given. */
function decide(st: Map<string, Json>, principal: string, patterns: Set<string>): Map<Cell, string> {
  const index = AclIndex.build(aclsOf(st));
  const config = authorizerConfigOf(st);
  const out = new Map<Cell, string>();
  for (const p of patterns) {
    const [resourceName, patternType] = JSON.parse(p) as [string, PatternType];
    for (const operation of SUPPORTED_OPERATIONS.TOPIC) {
      const r = authorizePattern(
        index,
        { principal, host: "\u0000", operation, resourceType: "TOPIC", resourceName, patternType },
        config,
      );
      out.set(`${r.decision === "ALLOWED" ? "gained" : "lost"} ${operation} ${patternType} ${resourceName}`, "");
    }
  }
  return out;
}

describe("principalChanges, as a property", () => {
  it("its flips are exactly the authorizer's on the whole state before and after each change set", () => {
    fc.assert(
      fc.property(scenario, ({ initial, sets, principal }) => {
        const st = new Map<string, Json>();
        const apply = (s: Map<string, Json>, c: { slot: number; value: number | null }) => {
          const { key, values } = SLOTS[c.slot]!;
          if (c.value === null) s.delete(key);
          else s.set(key, values[c.value % values.length]!);
        };
        for (const c of initial) apply(st, c);
        const entries: CausingEntry[] = [];
        let id = 1;
        const expected: string[][] = [];
        const cur = new Map(st);
        for (const [i, set] of sets.entries()) {
          const before = new Map(cur);
          for (const c of set) {
            const { key, values } = SLOTS[c.slot]!;
            const value = c.value === null ? null : values[c.value % values.length]!;
            entries.push({
              id: id++,
              key,
              op: value === null ? "disappeared" : "appeared",
              value,
              from: i,
              to: i,
              origin: "console",
              auditId: `a${i}`,
            });
            apply(cur, c);
          }
          // Patterns: the principal's and User:*'s before and after, and while the default is
          // open, every pattern of the set.
          const patterns = new Set<string>();
          const own = (s: Map<string, Json>) => {
            for (const b of aclsOf(s))
              if (b.principal === principal || b.principal === "User:*")
                patterns.add(JSON.stringify([b.resourceName, b.patternType]));
          };
          own(before);
          own(cur);
          if (authorizerConfigOf(before).allowEveryoneIfNoAclFound || authorizerConfigOf(cur).allowEveryoneIfNoAclFound)
            for (const c of set) {
              const k = JSON.parse(SLOTS[c.slot]!.key) as string[];
              if (k[0] === "acl") patterns.add(JSON.stringify([k[3], k[2]]));
            }
          const a = decide(before, principal, patterns);
          const b = decide(cur, principal, patterns);
          const flipped = [...b.keys()].filter((k) => !a.has(k)).sort();
          const superFlip =
            authorizerConfigOf(before).superUsers !== undefined &&
            [...authorizerConfigOf(before).superUsers!].includes(principal) !==
              [...authorizerConfigOf(cur).superUsers!].includes(principal);
          if (flipped.length > 0 || superFlip) expected.push(flipped);
        }
        const got = flips(principalChanges({ principal, state: st, entries })).map((f) => [...f].sort());
        expect(got).toEqual(expected);
        // The service passes only what bears on the principal when the default is closed throughout.
        if (!needsWholeState(st, entries)) {
          const part = new Map([...st].filter(([k]) => bearsOn(k, principal)));
          const partial = flips(
            principalChanges({ principal, state: part, entries: entries.filter((e) => bearsOn(e.key, principal)) }),
          ).map((f) => [...f].sort());
          expect(partial).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
