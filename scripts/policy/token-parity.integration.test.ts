/**
 * Parity of the policy core's token module with Apache Kafka's KRaft
 * DelegationTokenControlManager (the controller half of create / renew / expire), on random
 * cases: same error, same timestamps (Java long arithmetic, saturation and overflow
 * included) and, for created tokens, the same HMAC for Kafka's token id. Driven by
 * scripts/policy/TokenParity.java with a fixed clock. The broker half (KafkaApis: connection
 * restrictions, CREATE_TOKENS, the renewer type check before forwarding) is not in these
 * classes; the one broker check that reorders errors here — a renewer that is not a User is
 * refused before the controller looks at the secret key — is applied to Kafka's answer below.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileJavaAgainstKafka, ROOT } from "../java-harness";
import { tokenHmac } from "../../lib/policy/crypto/sha512";
import { createToken, describeTokens, expireToken, renewToken, type TokenContext } from "../../lib/policy/token/token";
import type { DelegationToken } from "../../lib/policy/types";

const SOURCE = path.join(ROOT, "scripts", "policy", "TokenParity.java");
const CLASSES = path.join(ROOT, ".kafka", "token-parity");
const RUNS = Number(process.env.TOKEN_PARITY_RUNS ?? 1500);
const SEED = Number(process.env.TOKEN_PARITY_SEED ?? Date.now() % 2 ** 31);
const LONG_MAX = 2n ** 63n - 1n;

let classpath = "";

beforeAll(() => {
  classpath = compileJavaAgainstKafka(SOURCE, CLASSES).classpath;
}, 180_000);

/** Longs as exact decimal strings for Java; as the JS numbers the policy core sees. */
const asNumber = (v: bigint) => Number(v);
const longArb = fc.oneof(
  fc.constantFrom(-1n, 0n, 1n, 1000n, 86_400_000n, 604_800_000n, 2n ** 62n, LONG_MAX),
  fc.bigInt({ min: 1n, max: 2n ** 40n }),
);
const positiveLongArb = fc.oneof(
  fc.constantFrom(1n, 1000n, 86_400_000n, 604_800_000n, 2n ** 62n, LONG_MAX),
  fc.bigInt({ min: 1n, max: 2n ** 40n }),
);
const nowArb = fc.bigInt({ min: 0n, max: 2n ** 45n });
const secretArb = fc.constantFrom<string | null>("k", "k", "k", "testKey", "", null);

interface KafkaAnswer {
  error: string;
  visible?: boolean;
  issue?: string;
  expiry?: string;
  max?: string;
  tokenId?: string;
  hmac?: string;
  owner?: string;
  requester?: string;
}

function kafka(cases: object[]): KafkaAnswer[] {
  const input =
    cases.map((c) => JSON.stringify(c, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))).join("\n") +
    "\n";
  const r = spawnSync("java", ["-cp", classpath, "TokenParity"], {
    input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`TokenParity failed: ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as KafkaAnswer);
}

const num = (s: string | undefined) => (s === undefined ? undefined : Number(BigInt(s)));

function compare<C>(cases: C[], ours: unknown[], theirs: unknown[]): void {
  expect(theirs).toHaveLength(cases.length);
  const diffs = cases
    .map((c, i) => ({ c, ours: ours[i], kafka: theirs[i] }))
    .filter((d) => JSON.stringify(d.ours) !== JSON.stringify(d.kafka))
    .slice(0, 5);
  expect(diffs, `seed ${SEED}: first cases where the policy core and Kafka differ`).toEqual([]);
}

const ctxOf = (c: {
  secretKey: string | null;
  maxLifetimeMs: bigint;
  expiryTimeMs: bigint;
  now: bigint;
  principal: string;
}): TokenContext => ({
  config: { secretKey: c.secretKey, maxLifetimeMs: asNumber(c.maxLifetimeMs), expiryTimeMs: asNumber(c.expiryTimeMs) },
  connection: { principal: c.principal, securityProtocol: "SASL_SSL", tokenAuthenticated: false },
  isAllowed: () => true, // the controller does not authorize; KafkaApis did before forwarding
  now: asNumber(c.now),
});

describe("token parity with Kafka's DelegationTokenControlManager", () => {
  it("create: error, issue / expiry / max timestamps, owner, requester and HMAC", () => {
    const cases = fc.sample(
      fc.record({
        op: fc.constant("create"),
        secretKey: secretArb,
        maxLifetimeMs: positiveLongArb,
        expiryTimeMs: positiveLongArb,
        now: nowArb,
        principal: fc.constant("User:a"),
        owner: fc.option(fc.constantFrom("User:b", "User:a", "Service:s"), { nil: undefined }),
        renewers: fc.subarray(["User:r", "Group:g", "User:s"]),
        maxLifetime: longArb,
      }),
      { numRuns: RUNS, seed: SEED },
    );
    const answers = kafka(cases);
    const theirs = answers.map((k, i) => {
      // KafkaApis refuses a non-User renewer before forwarding to the controller.
      if (cases[i]!.renewers.some((r) => !r.startsWith("User:"))) return { error: "INVALID_PRINCIPAL_TYPE" };
      return k.error !== "NONE"
        ? { error: k.error }
        : {
            error: k.error,
            issue: num(k.issue),
            expiry: num(k.expiry),
            max: num(k.max),
            owner: k.owner,
            requester: k.requester,
            hmac: k.hmac,
          };
    });
    const kafkaIds = answers.map((k) => k.tokenId);
    const ours = cases.map((c, i) => {
      const r = createToken(ctxOf(c), [], {
        owner: c.owner ?? null,
        renewers: c.renewers,
        maxLifetimeMs: asNumber(c.maxLifetime),
        tokenId: kafkaIds[i] ?? "none",
      });
      if (r.error !== "NONE") return { error: r.error };
      const t = r.token!;
      return {
        error: r.error,
        issue: t.issueTimestamp,
        expiry: t.expiryTimestamp,
        max: t.maxTimestamp,
        owner: t.owner,
        requester: t.requester,
        hmac: t.hmac,
      };
    });
    compare(cases, ours, theirs);
  }, 120_000);

  it("renew and expire: error order and the new expiry", () => {
    const cases = fc.sample(
      fc
        .record({
          op: fc.constantFrom("renew", "expire"),
          secretKey: secretArb,
          maxLifetimeMs: positiveLongArb,
          expiryTimeMs: positiveLongArb,
          now: nowArb,
          principal: fc.constantFrom("User:owner", "User:requester", "User:renewer", "User:stranger"),
          issueAgo: fc.bigInt({ min: 0n, max: 2n ** 30n }),
          expiryIn: fc.oneof(fc.constantFrom(-1n, 0n, 1n), fc.bigInt({ min: -(2n ** 30n), max: 2n ** 30n })),
          maxIn: fc.oneof(fc.constantFrom(-1n, 0n, 1n, 2n ** 40n), fc.bigInt({ min: -(2n ** 30n), max: 2n ** 31n })),
          sameHmac: fc.integer({ min: 0, max: 9 }).map((n) => n < 8),
          period: longArb,
        })
        .map((c) => ({
          ...c,
          token: {
            tokenId: "tok",
            owner: "User:owner",
            requester: "User:requester",
            renewers: ["User:renewer"],
            issue: c.now - c.issueAgo,
            expiry: c.now + c.expiryIn,
            max: c.now + c.maxIn,
          },
          hmacOf: c.sameHmac ? "tok" : "other",
        })),
      { numRuns: RUNS, seed: SEED + 1 },
    );
    const theirs = kafka(cases).map((k) =>
      k.error !== "NONE" ? { error: k.error } : { error: k.error, expiry: num(k.expiry) },
    );
    const ours = cases.map((c) => {
      const key = c.secretKey ?? "";
      const token: DelegationToken = {
        tokenId: "tok",
        hmac: tokenHmac(key, "tok"),
        owner: "User:owner",
        requester: "User:requester",
        renewers: ["User:renewer"],
        issueTimestamp: asNumber(c.token.issue),
        expiryTimestamp: asNumber(c.token.expiry),
        maxTimestamp: asNumber(c.token.max),
      };
      const hmac = tokenHmac(key, c.hmacOf);
      const r =
        c.op === "renew"
          ? renewToken(ctxOf(c), [token], { hmac, renewPeriodMs: asNumber(c.period) })
          : expireToken(ctxOf(c), [token], { hmac, expiryTimePeriodMs: asNumber(c.period) });
      return r.error !== "NONE" ? { error: r.error } : { error: r.error, expiry: r.expiryTimestamp };
    });
    compare(cases, ours, theirs);
  }, 120_000);

  it("describe: the owners filter and who may see a token (DelegationTokenManager.filterToken)", () => {
    const who = fc.constantFrom("User:owner", "User:requester", "User:renewer", "User:other", "Service:owner");
    const cases = fc.sample(
      fc.record({
        op: fc.constant("describe"),
        principal: who,
        owners: fc.option(fc.uniqueArray(who, { maxLength: 3 }), { nil: null }),
        token: fc.record({
          tokenId: fc.constantFrom("t1", "t2"),
          owner: fc.constantFrom("User:owner", "User:other"),
          requester: fc.constantFrom("User:requester", "User:owner"),
          renewers: fc.subarray(["User:renewer", "User:other"]),
        }),
        describableTokenIds: fc.subarray(["t1", "t2"]),
        describableOwners: fc.subarray(["User:owner", "User:other"]),
      }),
      { numRuns: RUNS, seed: SEED + 2 },
    );
    const theirs = kafka(cases).map((k) => k.visible);
    const ours = cases.map((c) => {
      const token: DelegationToken = { ...c.token, hmac: "h", issueTimestamp: 0, expiryTimestamp: 0, maxTimestamp: 0 };
      const ctx: TokenContext = {
        config: { secretKey: "k", maxLifetimeMs: 1, expiryTimeMs: 1 },
        connection: { principal: c.principal, securityProtocol: "SASL_SSL", tokenAuthenticated: false },
        now: 0,
        isAllowed: (_p, operation, resourceType, name) =>
          (operation === "DESCRIBE" && resourceType === "DELEGATION_TOKEN" && c.describableTokenIds.includes(name)) ||
          (operation === "DESCRIBE_TOKENS" && resourceType === "USER" && c.describableOwners.includes(name)),
      };
      // Kafka answers an empty owners list without looking at any token.
      return describeTokens(ctx, [token], { owners: c.owners }).tokens.length === 1;
    });
    const expected = theirs.map((v, i) => (cases[i]!.owners?.length === 0 ? false : v));
    compare(cases, ours, expected);
  }, 120_000);
});
