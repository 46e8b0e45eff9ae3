import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bindingKey } from "./acl-index";
import { expireGrants, type GrantState } from "./grants";
import type { AclBinding } from "../types";

const b = (
  resourceName: string,
  operation: AclBinding["operation"] = "WRITE",
  principal = "User:alice",
): AclBinding => ({
  resourceType: "TOPIC",
  resourceName,
  patternType: "LITERAL",
  principal,
  host: "*",
  operation,
  permissionType: "ALLOW",
});

const NOW = Date.parse("2026-12-04T12:00:00Z");
const HOUR = 3_600_000;

describe("expireGrants", () => {
  it("removes an expired grant's bindings, and nothing of a live grant", () => {
    const write = b("payments-eu");
    const read = b("orders", "READ");
    const r = expireGrants({
      acls: [write, read],
      grants: [
        { id: "a", bindings: [write], expiresAt: NOW - 1 },
        { id: "b", bindings: [read], expiresAt: NOW + HOUR },
      ],
      now: NOW,
    });
    expect(r.removed).toEqual([write]);
    expect(r.grants.map((g) => [g.id, g.expired])).toEqual([
      ["a", true],
      ["b", false],
    ]);
    expect(r.grants[1]!.remove).toEqual([]);
  });

  it("keeps a binding another live grant also holds, naming it; removes it with the last holder", () => {
    const write = b("payments-eu");
    const read = b("payments-eu", "READ");
    const grants: GrantState[] = [
      { id: "a", bindings: [write, read], expiresAt: NOW - 1 },
      { id: "b", bindings: [write], expiresAt: NOW + HOUR },
    ];
    const first = expireGrants({ acls: [write, read], grants, now: NOW });
    expect(first.removed).toEqual([read]);
    expect(first.grants[0]!.keep).toEqual([{ binding: write, heldBy: ["b"] }]);
    const later = expireGrants({
      acls: [write],
      grants: [{ ...grants[0]!, ended: true }, grants[1]!],
      now: NOW + 2 * HOUR,
    });
    expect(later.removed).toEqual([write]);
  });

  it("the expiry instant itself is expired (expiresAt <= now)", () => {
    const write = b("t");
    const r = expireGrants({ acls: [write], grants: [{ id: "a", bindings: [write], expiresAt: NOW }], now: NOW });
    expect(r.removed).toEqual([write]);
  });

  it("a binding deleted by hand meanwhile is already gone: nothing else is removed for it", () => {
    const write = b("payments-eu");
    const other = b("payments-eu", "READ", "User:bob");
    const r = expireGrants({ acls: [other], grants: [{ id: "a", bindings: [write], expiresAt: NOW - 1 }], now: NOW });
    expect(r.removed).toEqual([]);
    expect(r.grants[0]!.alreadyGone).toEqual([write]);
  });

  it("two expired grants holding one binding remove it once", () => {
    const write = b("t");
    const r = expireGrants({
      acls: [write],
      grants: [
        { id: "a", bindings: [write], expiresAt: NOW - 2 },
        { id: "b", bindings: [write, write], expiresAt: NOW - 1 },
      ],
      now: NOW,
    });
    expect(r.removed).toEqual([write]);
    expect(r.grants.map((g) => g.remove.length)).toEqual([1, 1]);
  });

  it("ended grants neither hold nor remove", () => {
    const write = b("t");
    const r = expireGrants({
      acls: [write],
      grants: [{ id: "a", bindings: [write], expiresAt: NOW + HOUR, ended: true }],
      now: NOW,
    });
    expect(r.removed).toEqual([]);
    expect(r.grants[0]!.expired).toBe(false);
  });

  it("property: removed bindings exist, no live grant holds them, each once; expired ones accounted once", () => {
    const binding = fc
      .record({
        name: fc.constantFrom("a", "b", "c"),
        op: fc.constantFrom("READ", "WRITE"),
      })
      .map(({ name, op }) => b(name, op));
    const grant = fc.record({
      bindings: fc.array(binding, { maxLength: 4 }),
      offset: fc.integer({ min: -3, max: 3 }),
      ended: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(binding, { maxLength: 6 }), fc.array(grant, { maxLength: 5 }), (acls, gs) => {
        const grants = gs.map((g, i) => ({
          id: `g${i}`,
          bindings: g.bindings,
          expiresAt: NOW + g.offset,
          ended: g.ended,
        }));
        const r = expireGrants({ acls, grants, now: NOW });
        const present = new Set(acls.map(bindingKey));
        const live = new Set(
          grants.filter((g) => !g.ended && g.expiresAt > NOW).flatMap((g) => g.bindings.map(bindingKey)),
        );
        const keys = r.removed.map(bindingKey);
        expect(new Set(keys).size).toBe(keys.length);
        for (const k of keys) {
          expect(present.has(k)).toBe(true);
          expect(live.has(k)).toBe(false);
        }
        r.grants.forEach((e, i) => {
          const own = new Set(grants[i]!.bindings.map(bindingKey));
          const accounted = [...e.remove, ...e.keep.map((x) => x.binding), ...e.alreadyGone].map(bindingKey);
          expect(accounted.length).toBe(e.expired ? own.size : 0);
          expect(new Set(accounted)).toEqual(e.expired ? own : new Set());
        });
      }),
    );
  });
});
