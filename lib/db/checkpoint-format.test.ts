/**
 * A checkpoint's bytes (checkpoint-format.ts): the whole state back, key for key; a principal's
 * part back exactly as a filter of the whole would give it; the format before sections still
 * read; damaged bytes refused, never a wrong state.
 */
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AclBinding } from "../policy/types";
import { aclKey, quotaKey, scramKey, settingKey, type Json } from "../policy/history/keys";
import { RebuildError, stateJson } from "../policy/history/state";
import { bearsOn } from "../policy/history/principal";
import { bucketOf, decodeCheckpoint, encodeCheckpoint } from "./checkpoint-format";

const acl = (principal: string, resourceName: string, operation: AclBinding["operation"] = "READ"): AclBinding => ({
  resourceType: "TOPIC",
  resourceName,
  patternType: "LITERAL",
  principal,
  host: "*",
  operation,
  permissionType: "ALLOW",
});

const PRINCIPALS = ["User:alice", "User:bob", "User:*", "User:caf\u00e9", "User:nul\u0000byte", "Group:ops", "User:z"];
const NAMES = ["orders", "payments-eu", "*", "na\u0000me", "\u{1F600}", "a,b"];

const stateArb = fc
  .record({
    acls: fc.array(
      fc.record({
        p: fc.constantFrom(...PRINCIPALS),
        n: fc.constantFrom(...NAMES),
        op: fc.constantFrom("READ" as const, "WRITE" as const, "DESCRIBE" as const),
      }),
      { maxLength: 60 },
    ),
    quota: fc.option(fc.integer({ min: 1, max: 1e9 })),
    scram: fc.option(fc.constantFrom(4096, 8192)),
    superUsers: fc.subarray(["User:admin", "User:root"]),
  })
  .map(({ acls, quota, scram, superUsers }) => {
    const state = new Map<string, Json>();
    for (const a of acls) state.set(aclKey(acl(a.p, a.n, a.op)), true);
    if (quota !== null) state.set(quotaKey({ user: "alice" }, "producer_byte_rate"), quota);
    if (scram !== null) state.set(scramKey("bob", "SCRAM-SHA-512"), scram);
    state.set(settingKey("superUsers"), superUsers);
    state.set(settingKey("allowEveryoneIfNoAclFound"), false);
    return state;
  });

describe("a checkpoint's bytes", () => {
  it("give the whole state back, key for key", () => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 1, max: 8 }), (state, buckets) => {
        const back = decodeCheckpoint(encodeCheckpoint(state, buckets));
        expect(stateJson(back)).toBe(stateJson(state));
      }),
    );
  });

  it("give a principal's part exactly as filtering the whole would", () => {
    fc.assert(
      fc.property(stateArb, fc.constantFrom(...PRINCIPALS), fc.integer({ min: 1, max: 8 }), (state, p, buckets) => {
        const bytes = encodeCheckpoint(state, buckets);
        const keep = (key: string) => bearsOn(key, p);
        const part = decodeCheckpoint(bytes, keep, [p, "User:*"]);
        const whole = decodeCheckpoint(bytes, keep);
        expect(stateJson(part)).toBe(stateJson(whole));
      }),
    );
  });

  it("decode only the sections asked for", () => {
    const state = new Map<string, Json>();
    for (let i = 0; i < 200; i++) state.set(aclKey(acl(`User:u${i}`, "orders")), true);
    state.set(settingKey("allowEveryoneIfNoAclFound"), false);
    const part = decodeCheckpoint(encodeCheckpoint(state), undefined, ["User:u7"]);
    const bucket = bucketOf("User:u7");
    expect(part.has(aclKey(acl("User:u7", "orders")))).toBe(true);
    expect(part.has(settingKey("allowEveryoneIfNoAclFound"))).toBe(true);
    // Every other ACL decoded shares u7's bucket; most of the 200 were not inflated at all.
    const others = [...part.keys()].filter((k) => k.startsWith('["acl"'));
    for (const k of others) expect(bucketOf(JSON.parse(k)[4] as string)).toBe(bucket);
    expect(others.length).toBeLessThan(40);
  });

  it("of the format before sections (one gzip of the whole text) are still read", () => {
    const state = new Map<string, Json>([
      [aclKey(acl("User:alice", "orders")), true],
      [settingKey("superUsers"), ["User:admin"]],
    ]);
    const old = gzipSync(Buffer.from(stateJson(state), "utf8"));
    expect(stateJson(decodeCheckpoint(old))).toBe(stateJson(state));
    expect([...decodeCheckpoint(old, (k) => k.startsWith('["setting"'), ["User:bob"]).keys()]).toEqual([
      settingKey("superUsers"),
    ]);
  });

  it("refuse damaged bytes instead of answering a wrong state", () => {
    const state = new Map<string, Json>([[aclKey(acl("User:alice", "orders")), true]]);
    const bytes = encodeCheckpoint(state);
    expect(() => decodeCheckpoint(bytes.subarray(0, bytes.length - 5))).toThrow(RebuildError);
    expect(() => decodeCheckpoint(bytes.subarray(0, 6))).toThrow(RebuildError);
    expect(() => decodeCheckpoint(Buffer.from("nonsense"))).toThrow(RebuildError);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 12]! ^= 0xff;
    expect(() => decodeCheckpoint(flipped)).toThrow(RebuildError);
  });
});
