/**
 * The prefix chains stored at index build (NameNode.down, NameNode.starOnTheWay) are what
 * StandardAuthorizer's scan, run from the next name with the name itself as the resource,
 * reaches (`scanToPrefix`): checked on random name sets built from few characters around
 * `*` so that names share stems, prefix one another, start with `*` or sort next to it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AclBinding, PatternType } from "../types";
import { AclIndex, scanToPrefix } from "./acl-index";

const CHARS = ["", ")", "*", "+", "a", "b", "ab", "a*", "*a", "\uffff"];

function bindingsFor(names: readonly [string, PatternType][]): AclBinding[] {
  return names.map(([resourceName, patternType]) => ({
    resourceType: "TOPIC",
    resourceName,
    patternType,
    principal: "User:a",
    host: "*",
    operation: "READ",
    permissionType: "ALLOW",
  }));
}

function expectChainsLikeTheScan(acls: AclBinding[]): void {
  const section = AclIndex.build(acls).section("TOPIC");
  const got = section.names.map((n) => [n.name, n.down, n.starOnTheWay]);
  const want = section.names.map((n, i) => {
    const s = scanToPrefix(section, n.name, i + 1);
    const at = s >>> 1;
    return [n.name, at < section.names.length ? at : -1, (s & 1) === 1];
  });
  expect(got).toEqual(want);
}

describe("prefix chains stored at index build", () => {
  it("match the authorizer's scan from each name, on random names", () => {
    const name = fc.array(fc.constantFrom(...CHARS), { maxLength: 4 }).map((parts) => parts.join(""));
    const entry = fc.tuple(name, fc.constantFrom<PatternType>("LITERAL", "PREFIXED"));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (names) => expectChainsLikeTheScan(bindingsFor(names))),
      { numRuns: 3000 },
    );
  });

  it("mark the names whose scan passes the LITERAL `*` before reaching their longest prefix", () => {
    const flags = (names: [string, PatternType][]): Record<string, boolean> => {
      const acls = bindingsFor(names);
      expectChainsLikeTheScan(acls);
      return Object.fromEntries(
        AclIndex.build(acls)
          .section("TOPIC")
          .names.map((n) => [n.name, n.starOnTheWay]),
      );
    };
    const names: [string, PatternType][] = [
      ["*", "LITERAL"],
      ["b", "PREFIXED"],
      ["bx", "LITERAL"],
      ["c1", "LITERAL"],
      ["", "PREFIXED"],
    ];
    // `bx` stops at its prefix `b`; `c1` meets `bx` (nothing in common) and seeks straight to `""`.
    expect(flags(names)).toEqual({ c1: false, bx: false, b: true, "*": false, "": false });
    // `*z` sorts between `b` and `*`: `b` now seeks past `*` too.
    expect(flags([...names, ["*z", "LITERAL"]])).toMatchObject({ b: false });
  });
});
