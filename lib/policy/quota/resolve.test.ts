import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { ClientQuotaKey, ConfiguredQuota, QuotaEntity } from "../types";
import { CLIENT_QUOTA_KEYS } from "../types";
import {
  QUOTA_LEVELS,
  QuotaIndex,
  quotaUserOf,
  resolveClientQuota,
  resolveClientQuotas,
  resolveIpQuota,
  sanitizeUser,
} from "./resolve";

const P: ClientQuotaKey = "producer_byte_rate";
const q = (entity: QuotaEntity, value: number, key: ConfiguredQuota["key"] = P): ConfiguredQuota => ({
  entity,
  key,
  value,
});
const D = null; // <default>

describe("resolveClientQuota — ClientQuotaManagerTest.testQuotaConfigPrecedence", () => {
  // The configuration of the Kafka test, before its removals.
  const base: ConfiguredQuota[] = [
    q({ user: D }, 1000),
    q({ "client-id": D }, 2000),
    q({ user: D, "client-id": D }, 3000),
    q({ user: "userA" }, 4000),
    q({ user: "userA", "client-id": "client1" }, 5000),
    q({ user: "userB" }, 6000),
    q({ user: "userB", "client-id": "client1" }, 7000),
    q({ user: "userB", "client-id": D }, 8000),
    q({ user: "userC" }, 10000),
    q({ "client-id": "client1" }, 9000),
  ];
  const without = (cfg: ConfiguredQuota[], entity: QuotaEntity) =>
    cfg.filter((c) => JSON.stringify(c.entity) !== JSON.stringify(entity));
  const afterDefaultUserClientRemoved = without(base, { user: D, "client-id": D });
  const afterDefaultUserRemoved = without(afterDefaultUserClientRemoved, { user: D });

  it.each<[ConfiguredQuota[], string, string, number, QuotaEntity, string]>([
    // [configuration, user, client, expected bound, expected deciding entity, comment from the Kafka test]
    [
      base,
      "userA",
      "client1",
      5000,
      { user: "userA", "client-id": "client1" },
      "<user, client> quota takes precedence over <user>",
    ],
    [base, "userA", "client2", 4000, { user: "userA" }, "<user> quota takes precedence over <client> and defaults"],
    [base, "userB", "client1", 7000, { user: "userB", "client-id": "client1" }, "<user, client>"],
    [base, "userB", "client2", 8000, { user: "userB", "client-id": D }, "default per-client quota of userB"],
    [base, "userD", "client1", 3000, { user: D, "client-id": D }, "default <user, client> quota"],
    [base, "userE", "client1", 3000, { user: D, "client-id": D }, "default <user, client> quota"],
    [afterDefaultUserClientRemoved, "userD", "client1", 1000, { user: D }, "reverts to <user> default"],
    [afterDefaultUserClientRemoved, "userF", "client4", 1000, { user: D }, "default <user> quota"],
    [afterDefaultUserRemoved, "userF", "client4", 2000, { "client-id": D }, "reverts to <client-id> default"],
    [afterDefaultUserRemoved, "userG", "client5", 2000, { "client-id": D }, "default <client-id> quota"],
    [afterDefaultUserRemoved, "userF", "client1", 9000, { "client-id": "client1" }, "<client-id> quota"],
  ])("%#: (%s, %s) -> %d", (cfg, user, client, bound, entity) => {
    const r = resolveClientQuota(cfg, user, client, P);
    expect(r.value).toBe(bound);
    expect(r.entity).toEqual(entity);
  });

  it("<default user> (level 6) beats an explicit <client-id> quota (level 7)", () => {
    const r = resolveClientQuota(afterDefaultUserClientRemoved, "userF", "client1", P);
    expect(r).toMatchObject({ value: 1000, level: 6, entity: { user: null } });
  });

  it(
    "<user> quota is shared across the user's clients; <user, client> is exclusive (same / different " + "metric tags)",
    () => {
      const a2 = resolveClientQuota(base, "userA", "client2", P).metricTags;
      const a3 = resolveClientQuota(base, "userA", "client3", P).metricTags;
      const a1 = resolveClientQuota(base, "userA", "client1", P).metricTags;
      expect(a2).toEqual({ user: "userA", "client-id": "" });
      expect(a3).toEqual(a2);
      expect(a1).toEqual({ user: "userA", "client-id": "client1" });
    },
  );

  it("<user, default client-id> gives each client its own bucket", () => {
    const b2 = resolveClientQuota(base, "userB", "client2", P).metricTags;
    const b3 = resolveClientQuota(base, "userB", "client3", P).metricTags;
    expect(b2).toEqual({ user: "userB", "client-id": "client2" });
    expect(b3).toEqual({ user: "userB", "client-id": "client3" });
  });

  it(
    "removing <default, default> changes userD's tags from (userD, client1) to (userD, '') — 'Metrics tags " +
      "changed, restart counter'",
    () => {
      expect(resolveClientQuota(base, "userD", "client1", P).metricTags).toEqual({
        user: "userD",
        "client-id": "client1",
      });
      expect(resolveClientQuota(afterDefaultUserClientRemoved, "userD", "client1", P).metricTags).toEqual({
        user: "userD",
        "client-id": "",
      });
    },
  );

  it("default <client-id> quota is shared across users with the same client id", () => {
    const f = resolveClientQuota(afterDefaultUserRemoved, "userF", "client5", P).metricTags;
    const g = resolveClientQuota(afterDefaultUserRemoved, "userG", "client5", P).metricTags;
    expect(f).toEqual({ user: "", "client-id": "client5" });
    expect(g).toEqual(f);
  });

  it("a sub-quota larger than the user quota is applied as is (Kafka has no KIP-55 check)", () => {
    expect(resolveClientQuota(base, "userA", "client1", P).value).toBeGreaterThan(
      resolveClientQuota(base, "userA", "client2", P).value!,
    );
  });
});

describe("resolveClientQuota — ClientQuotaManagerTest.testQuotaParsing variants", () => {
  it.each([
    // [test, client1 config entity, default config entity, (user, client) of client1, random client]
    [
      "testClientIdQuotaParsing",
      { "client-id": "p1" },
      { "client-id": D },
      ["ANONYMOUS", "p1"],
      ["ANONYMOUS", "random-client-id"],
    ],
    ["testUserQuotaParsing", { user: "User1" }, { user: D }, ["User1", "p1"], ["RandomUser", "random-client-id"]],
    [
      "testUserClientIdQuotaParsing",
      { user: "User1", "client-id": "p1" },
      { user: D, "client-id": D },
      ["User1", "p1"],
      ["RandomUser", "random-client-id"],
    ],
  ] as const)("%s", (_name, entity1, defaultEntity, [u1, c1], [ru, rc]) => {
    let cfg = [q(entity1, 2000)];
    expect(resolveClientQuota(cfg, ru, rc, P).value).toBeNull(); // Long.MaxValue: unlimited
    expect(resolveClientQuota(cfg, u1, c1, P).value).toBe(2000);
    cfg = [q(entity1, 3000)];
    expect(resolveClientQuota(cfg, u1, c1, P).value).toBe(3000);
    cfg = [q(defaultEntity, 4000)]; // client1's override removed, a default set
    expect(resolveClientQuota(cfg, u1, c1, P)).toMatchObject({ value: 4000, entity: defaultEntity });
  });

  it.each([
    ["testSetAndRemoveDefaultUserQuota", { user: D }],
    ["testSetAndRemoveUserQuota", { user: "userA" }],
    ["testSetAndRemoveUserClientQuota", { user: "userA", "client-id": "client1" }],
  ] as const)("%s: set gives 10, removal gives unlimited", (_name, entity) => {
    expect(resolveClientQuota([q(entity, 10)], "userA", "client1", P).value).toBe(10);
    expect(resolveClientQuota([], "userA", "client1", P).value).toBeNull();
  });
});

describe("resolveClientQuota — per key, tags and edge cases", () => {
  it("an entity that lacks the key does not shadow lower levels", () => {
    const cfg = [q({ user: "alice" }, 50, "consumer_byte_rate"), q({ "client-id": "app" }, 70)];
    expect(resolveClientQuota(cfg, "alice", "app", "producer_byte_rate")).toMatchObject({ value: 70, level: 7 });
    expect(resolveClientQuota(cfg, "alice", "app", "consumer_byte_rate")).toMatchObject({ value: 50, level: 3 });
  });

  it("with only one kind of entity configured for the key, Kafka tags by that kind even when nothing applies", () => {
    // QuotaTypes.UserQuotaEnabled: tags (user, "") for everyone
    expect(resolveClientQuota([q({ user: "alice" }, 1)], "bob", "app", P).metricTags).toEqual({
      user: "bob",
      "client-id": "",
    });
    // NoQuotas: ("", client-id)
    expect(resolveClientQuota([], "bob", "app", P).metricTags).toEqual({ user: "", "client-id": "app" });
    // UserClientIdQuotaEnabled: (user, client-id)
    expect(resolveClientQuota([q({ user: "alice", "client-id": "x" }, 1)], "bob", "app", P).metricTags).toEqual({
      user: "bob",
      "client-id": "app",
    });
  });

  it(
    "the user tag is Kafka's URL-encoded (sanitized) user name; the client id is raw " + "(testClientIdNotSanitized)",
    () => {
      const r = resolveClientQuota(
        [q({ user: "user with spaces" }, 5), q({ "client-id": "c" }, 6)],
        "user with spaces",
        "client@#$%",
        P,
      );
      expect(r.metricTags).toEqual({ user: "user%20with%20spaces", "client-id": "" });
      expect(resolveClientQuota([q({ "client-id": D }, 500)], "ANONYMOUS", "client@#$%", P).metricTags).toEqual({
        user: "",
        "client-id": "client@#$%",
      });
      expect(sanitizeUser("a*b+c/é")).toBe("a%2Ab%2Bc%2F%C3%A9");
    },
  );

  it("with an empty client id, <user, default client-id> tags (U, '') and then does not apply", () => {
    const cfg = [q({ user: "alice", "client-id": D }, 10), q({ user: D }, 20)];
    expect(resolveClientQuota(cfg, "alice", "", P)).toMatchObject({ value: 20, entity: { user: null } });
  });

  it("a client id literally named <default> is an ordinary client id", () => {
    const cfg = [q({ "client-id": "<default>" }, 1), q({ "client-id": D }, 2)];
    expect(resolveClientQuota(cfg, "u", "<default>", P).value).toBe(1);
    expect(resolveClientQuota(cfg, "u", "other", P).value).toBe(2);
  });

  it("resolves every key at once, for the principal's name", () => {
    const all = resolveClientQuotas(
      [q({ user: "alice" }, 5), q({ user: "alice" }, 6, "request_percentage")],
      quotaUserOf("User:alice"),
      "app",
    );
    expect(all.producer_byte_rate.value).toBe(5);
    expect(all.request_percentage.value).toBe(6);
    expect(all.consumer_byte_rate.value).toBeNull();
    expect(quotaUserOf("User:CN=a:b")).toBe("CN=a:b");
  });

  it("lists all eight levels as candidates, with what each configures", () => {
    const r = resolveClientQuota([q({ user: D }, 7)], "alice", "app", P);
    expect(r.candidates.map((c) => c.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(r.candidates.find((c) => c.level === 6)?.value).toBe(7);
  });
});

describe("property: the most specific configured quota wins", () => {
  const users = ["alice", "bob"];
  const clients = ["app", "cli"];
  const entityArb = fc.constantFrom<QuotaEntity>(
    ...users.flatMap((u) => clients.map((c) => ({ user: u, "client-id": c }))),
    ...users.map((u) => ({ user: u, "client-id": null })),
    ...users.map((u) => ({ user: u })),
    ...clients.map((c) => ({ user: null, "client-id": c })),
    { user: null, "client-id": null },
    { user: null },
    ...clients.map((c) => ({ "client-id": c })),
    { "client-id": null },
  );
  const cfgArb = fc.array(
    fc.record({
      entity: entityArb,
      key: fc.constantFrom(...CLIENT_QUOTA_KEYS),
      value: fc.integer({ min: 1, max: 1_000_000 }),
    }),
    { maxLength: 25 },
  );

  it("equals the value of the first of the eight levels that configures the key, or unlimited", () => {
    fc.assert(
      fc.property(
        cfgArb,
        fc.constantFrom(...users, "carol"),
        fc.constantFrom(...clients, "other"),
        fc.constantFrom(...CLIENT_QUOTA_KEYS),
        (cfg, user, client, key) => {
          const index = new QuotaIndex(cfg);
          const r = resolveClientQuota(index, user, client, key);
          const last = (e: QuotaEntity) =>
            [...cfg].reverse().find((c) => c.key === key && JSON.stringify(c.entity) === JSON.stringify(e));
          const winner = QUOTA_LEVELS.map((l) => ({ l, c: last(l.entity(user, client)) })).find((x) => x.c);
          expect(r.value).toBe(winner?.c?.value ?? null);
          expect(r.level).toBe(winner?.l.level ?? null);
          // no configured entity of a more specific level has the key
          for (const cand of r.candidates) if (r.level !== null && cand.level < r.level) expect(cand.value).toBeNull();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("clients in the same bucket get the same limit", () => {
    fc.assert(
      fc.property(
        cfgArb,
        fc.constantFrom(...users),
        fc.constantFrom(...clients),
        fc.constantFrom(...clients, "other"),
        (cfg, user, c1, c2) => {
          const r1 = resolveClientQuota(cfg, user, c1, P);
          const r2 = resolveClientQuota(cfg, user, c2, P);
          if (JSON.stringify(r1.metricTags) === JSON.stringify(r2.metricTags)) expect(r1.value).toBe(r2.value);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe(
  "resolveIpQuota — ConnectionQuotas.connectionRateForIp " + "(ClientQuotasRequestTest.testAlterIpQuotasRequest)",
  () => {
    const C = "connection_creation_rate" as const;
    it("per-IP override, else ip <default>, else unlimited", () => {
      const cfg = [q({ ip: "1.2.3.4" }, 150, C), q({ ip: null }, 200, C)];
      expect(resolveIpQuota(cfg, "1.2.3.4")).toEqual({ value: 150, entity: { ip: "1.2.3.4" }, source: "ip" });
      expect(resolveIpQuota(cfg, "2.3.4.5")).toEqual({ value: 200, entity: { ip: null }, source: "default" });
      expect(resolveIpQuota([q({ ip: "1.2.3.4" }, 150, C)], "2.3.4.5")).toEqual({
        value: null,
        entity: null,
        source: null,
      });
    });
    it("compares addresses, not strings (Kafka keys IP quotas by InetAddress)", () => {
      const cfg = [q({ ip: "::1" }, 5, C), q({ ip: "010.0.0.1" }, 6, C)];
      expect(resolveIpQuota(cfg, "0:0:0:0:0:0:0:1").value).toBe(5);
      expect(resolveIpQuota(cfg, "10.0.0.1").value).toBe(6);
      expect(resolveIpQuota([q({ ip: "1.2.3.4" }, 7, C)], "::ffff:1.2.3.4").value).toBe(7);
    });
  },
);
