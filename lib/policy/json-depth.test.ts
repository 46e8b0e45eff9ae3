import { describe, expect, it } from "vitest";
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from "./json-depth";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("jsonNestsDeeperThan", () => {
  it("counts arrays and objects inside one another, up to the limit included", () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonNestsDeeperThan(nested(64))).toBe(false);
    expect(jsonNestsDeeperThan(nested(65))).toBe(true);
    expect(jsonNestsDeeperThan('{"acls":[{"principal":"User:a"}]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"acls":[{"principal":"User:a"}]}', 2)).toBe(true);
    // Siblings do not add up.
    expect(jsonNestsDeeperThan(`[${Array(1000).fill("[[]]").join(",")}]`, 3)).toBe(false);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ name: "[{".repeat(1000) }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ name: 'a\\"[[[[', next: ["x"] }), 2)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ name: 'a\\"', next: [[["x"]]] }), 3)).toBe(true);
  });

  it("reads a document 1,000,000 levels deep quickly and without recursion", () => {
    const started = performance.now();
    expect(jsonNestsDeeperThan(nested(1_000_000))).toBe(true);
    expect(jsonNestsDeeperThan(`{"a":${nested(1_000_000)}}`, 2_000_000)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
