/**
 * Conformance of the policy CLI with Apache Kafka 4.x, client quotas: quota, quota-filter,
 * quota-alter and quota-budget. How the cases are translated from Kafka's own tests: ./cli.ts.
 */
import { describe, expect, it } from "vitest";
import { cli, T } from "./cli";

// ---- client quotas ----------------------------------------------------------------------

const q = (entity: Record<string, string | null>, key: string, value: number) => ({ entity, key, value });
const need = (user: string, clientId: string, key = "producer_byte_rate") => ({ user, clientId, key });
const tags = (user: string, clientId: string) => ({ user, "client-id": clientId });

describe.concurrent("quota (ClientQuotaManager: 8 levels, per key, metric tags)", () => {
  // ClientQuotaManagerTest.testQuotaConfigPrecedence, initial configuration (ZooKeeperInternals.DEFAULT_STRING = null
  // here)
  const precedence = [
    q({ user: null }, "producer_byte_rate", 1000),
    q({ "client-id": null }, "producer_byte_rate", 2000),
    q({ user: null, "client-id": null }, "producer_byte_rate", 3000),
    q({ user: "userA" }, "producer_byte_rate", 4000),
    q({ user: "userA", "client-id": "client1" }, "producer_byte_rate", 5000),
    q({ user: "userB" }, "producer_byte_rate", 6000),
    q({ user: "userB", "client-id": "client1" }, "producer_byte_rate", 7000),
    q({ user: "userB", "client-id": null }, "producer_byte_rate", 8000),
    q({ user: "userC" }, "producer_byte_rate", 10000),
    q({ "client-id": "client1" }, "producer_byte_rate", 9000),
  ];

  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence (initial configuration); " +
      "ClientQuotasRequestTest.testAlterIpQuotasRequest (ConnectionQuotas.connectionRateForIp)",
    async () => {
      const out = await cli("quota", {
        configured: [
          ...precedence,
          q({ ip: "1.2.3.4" }, "connection_creation_rate", 150),
          q({ ip: null }, "connection_creation_rate", 200),
        ],
        requests: [
          need("userA", "client1"),
          need("userA", "client2"),
          need("userA", "client3"),
          need("userB", "client1"),
          need("userB", "client2"),
          need("userB", "client3"),
          need("userD", "client1"),
          need("userD", "client2"),
          need("userE", "client1"),
          need("userA", "client1", "consumer_byte_rate"),
          { ip: "1.2.3.4", key: "connection_creation_rate" },
          { ip: "2.3.4.5", key: "connection_creation_rate" },
        ],
      });
      expect(out.results).toEqual([
        // <user, client> quota takes precedence over <user>; exclusive use (its own bucket)
        { value: 5000, entity: { user: "userA", "client-id": "client1" }, metricTags: tags("userA", "client1") },
        // <user> quota takes precedence over <client> and defaults, shared across the user's clients
        { value: 4000, entity: { user: "userA" }, metricTags: tags("userA", "") },
        { value: 4000, entity: { user: "userA" }, metricTags: tags("userA", "") },
        { value: 7000, entity: { user: "userB", "client-id": "client1" }, metricTags: tags("userB", "client1") },
        // default per-client quota for exclusive use of <user, client>
        { value: 8000, entity: { user: "userB", "client-id": null }, metricTags: tags("userB", "client2") },
        { value: 8000, entity: { user: "userB", "client-id": null }, metricTags: tags("userB", "client3") },
        // default <user, client> quota
        { value: 3000, entity: { user: null, "client-id": null }, metricTags: tags("userD", "client1") },
        { value: 3000, entity: { user: null, "client-id": null }, metricTags: tags("userD", "client2") },
        { value: 3000, entity: { user: null, "client-id": null }, metricTags: tags("userE", "client1") },
        // quotas are per key: nothing configures consumer_byte_rate
        { value: null, entity: null, metricTags: tags("", "client1") },
        { value: 150, entity: { ip: "1.2.3.4" } },
        { value: 200, entity: { ip: null } },
      ]);
    },
    T,
  );

  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence after removing <default user, default client-id>: " +
      "<default user> is shared per user",
    async () => {
      const configured = precedence.filter((x) => !(x.entity.user === null && x.entity["client-id"] === null));
      const out = await cli("quota", {
        configured,
        requests: [
          need("userD", "client1"),
          need("userE", "client4"),
          need("userF", "client4"),
          need("userF", "client5"),
        ],
      });
      expect(out.results).toEqual(
        ["userD", "userE", "userF", "userF"].map((u) => ({
          value: 1000,
          entity: { user: null },
          metricTags: tags(u, ""),
        })),
      );
    },
    T,
  );

  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence after also removing <default user>: <default client-id> " +
      "is shared across users; later updates of userA",
    async () => {
      const configured = precedence.filter((x) => x.entity.user !== null);
      // The "Update quotas" steps, one user per step (they only change that user's entities).
      configured.push(
        q({ user: "userA1" }, "producer_byte_rate", 8000),
        q({ user: "userA1", "client-id": "client1" }, "producer_byte_rate", 10000),
        q({ user: "userA2" }, "producer_byte_rate", 8000), // <userA, client1> removed again
        q({ user: "userA3" }, "producer_byte_rate", 8000),
        q({ user: "userA3", "client-id": "client6" }, "producer_byte_rate", 11000),
        q({ user: "userA4" }, "producer_byte_rate", 8000),
        q({ user: "userA4", "client-id": null }, "producer_byte_rate", 12000), // <userA, client6> removed
      );
      const out = await cli("quota", {
        configured,
        requests: [
          need("userF", "client4"),
          need("userF", "client5"),
          need("userG", "client5"),
          need("userA1", "client2"),
          need("userA1", "client1"),
          need("userA2", "client6"),
          need("userA3", "client6"),
          need("userA4", "client6"),
        ],
      });
      expect(out.results).toEqual([
        { value: 2000, entity: { "client-id": null }, metricTags: tags("", "client4") },
        { value: 2000, entity: { "client-id": null }, metricTags: tags("", "client5") },
        { value: 2000, entity: { "client-id": null }, metricTags: tags("", "client5") },
        { value: 8000, entity: { user: "userA1" }, metricTags: tags("userA1", "") },
        { value: 10000, entity: { user: "userA1", "client-id": "client1" }, metricTags: tags("userA1", "client1") },
        { value: 8000, entity: { user: "userA2" }, metricTags: tags("userA2", "") },
        { value: 11000, entity: { user: "userA3", "client-id": "client6" }, metricTags: tags("userA3", "client6") },
        { value: 12000, entity: { user: "userA4", "client-id": null }, metricTags: tags("userA4", "client6") },
      ]);
    },
    T,
  );

  it(
    "ClientQuotaManagerTest: testSetAndRemoveDefaultUserQuota, testSetAndRemoveUserClientQuota, " +
      "testClientIdQuotaParsing, no quota (one key each)",
    async () => {
      const out = await cli("quota", {
        configured: [
          q({ user: null }, "producer_byte_rate", 10),
          q({ user: "userA", "client-id": "client1" }, "consumer_byte_rate", 10),
          q({ "client-id": "p1" }, "request_percentage", 2000),
          q({ "client-id": "p2" }, "request_percentage", 4000),
        ],
        requests: [
          need("userA", "client1", "producer_byte_rate"),
          need("userA", "client1", "consumer_byte_rate"),
          need("userA", "client2", "consumer_byte_rate"),
          need("ANONYMOUS", "p1", "request_percentage"),
          need("ANONYMOUS", "p2", "request_percentage"),
          need("ANONYMOUS", "random-client-id", "request_percentage"),
          need("userA", "client1", "controller_mutation_rate"),
        ],
      });
      expect(out.results).toEqual([
        { value: 10, entity: { user: null }, metricTags: tags("userA", "") },
        { value: 10, entity: { user: "userA", "client-id": "client1" }, metricTags: tags("userA", "client1") },
        // only <user, client-id> quotas exist for this key: the bucket is (user, client-id), unlimited
        { value: null, entity: null, metricTags: tags("userA", "client2") },
        { value: 2000, entity: { "client-id": "p1" }, metricTags: tags("", "p1") },
        { value: 4000, entity: { "client-id": "p2" }, metricTags: tags("", "p2") },
        { value: null, entity: null, metricTags: tags("", "random-client-id") },
        { value: null, entity: null, metricTags: tags("", "client1") },
      ]);
    },
    T,
  );

  it(
    "ClientQuotaManagerTest: testUserQuotaParsing (case 4), testUserClientIdQuotaParsing, testQuotaViolation / " +
      'testExpireQuotaSensors ("Produce-:client1"), sanitized user in the tags',
    async () => {
      const out = await cli("quota", {
        configured: [
          q({ "client-id": null }, "producer_byte_rate", 500),
          q({ user: "User2" }, "consumer_byte_rate", 4000),
          q({ user: null }, "consumer_byte_rate", 4000),
          q({ user: "User1", "client-id": "p1" }, "request_percentage", 2000),
          q({ user: "User2", "client-id": "p2" }, "request_percentage", 4000),
          q({ user: null }, "controller_mutation_rate", 7),
        ],
        requests: [
          need("ANONYMOUS", "client1", "producer_byte_rate"),
          need("User1", "p1", "consumer_byte_rate"),
          need("RandomUser", "random-client-id", "consumer_byte_rate"),
          need("User1", "p1", "request_percentage"),
          need("RandomUser", "random-client-id", "request_percentage"),
          need("user with spaces", "c", "controller_mutation_rate"),
          need("user@example.com", "c", "controller_mutation_rate"),
        ],
      });
      expect(out.results).toEqual([
        { value: 500, entity: { "client-id": null }, metricTags: tags("", "client1") },
        { value: 4000, entity: { user: null }, metricTags: tags("User1", "") },
        { value: 4000, entity: { user: null }, metricTags: tags("RandomUser", "") },
        { value: 2000, entity: { user: "User1", "client-id": "p1" }, metricTags: tags("User1", "p1") },
        { value: null, entity: null, metricTags: tags("RandomUser", "random-client-id") },
        // Sanitizer.sanitize(principal.getName) (URL encoding, space as %20)
        { value: 7, entity: { user: null }, metricTags: tags("user%20with%20spaces", "") },
        { value: 7, entity: { user: null }, metricTags: tags("user%40example.com", "") },
      ]);
    },
    T,
  );
});

describe.concurrent("quota-filter (DescribeClientQuotas, ClientQuotasImage.describe)", () => {
  // ClientQuotasRequestTest: matchUserClientEntities and matchIpEntities
  const uc = (user: string | null | undefined, clientId: string | null | undefined) => {
    const entity: Record<string, string | null> = {};
    if (user !== undefined) entity.user = user;
    if (clientId !== undefined) entity["client-id"] = clientId;
    return entity;
  };
  const entities = [
    uc("user-1", "client-id-1"),
    uc("user-2", "client-id-1"),
    uc("user-3", "client-id-2"),
    uc(null, "client-id-1"),
    uc("user-1", null),
    uc("user-3", null),
    uc("user-1", undefined),
    uc("user-2", undefined),
    uc("user-3", undefined),
    uc(null, undefined),
    uc(undefined, "client-id-2"),
  ];
  const configured = [
    ...entities.map((entity, i) => q(entity, "request_percentage", 50.5 + i * 1.01)),
    q({ ip: "1.2.3.4" }, "connection_creation_rate", 10),
    q({ ip: "2.3.4.5" }, "connection_creation_rate", 20),
  ];
  const sameSet = (actual: unknown[], expected: unknown[]) => {
    const key = (e: unknown) => JSON.stringify(Object.entries(e as object).sort());
    expect(actual.map(key).sort()).toEqual(expected.map(key).sort());
  };

  it.each([
    [
      "contains [user=user-1] (open-ended existing user)",
      [{ entityType: "user", matchType: "EXACT", match: "user-1" }],
      false,
      [entities[0], entities[4], entities[6]],
    ],
    [
      "contains [user=<default>] (open-ended default user)",
      [{ entityType: "user", matchType: "DEFAULT", match: null }],
      false,
      [entities[3], entities[9]],
    ],
    [
      "containsOnly [user] (close-ended, any name incl. default)",
      [{ entityType: "user", matchType: "SPECIFIED", match: null }],
      true,
      [entities[6], entities[7], entities[8], entities[9]],
    ],
    [
      "contains [client-id] (open-ended)",
      [{ entityType: "client-id", matchType: "SPECIFIED", match: null }],
      false,
      entities.filter((e) => "client-id" in e),
    ],
    [
      "containsOnly [user=user-1, client-id=<default>] (testDescribeClientQuotasMatchExact)",
      [
        { entityType: "user", matchType: "EXACT", match: "user-1" },
        { entityType: "client-id", matchType: "DEFAULT", match: null },
      ],
      true,
      [entities[4]],
    ],
    ["contains [] (matches all 13)", [], false, [...entities, { ip: "1.2.3.4" }, { ip: "2.3.4.5" }]],
  ])(
    "ClientQuotasRequestTest.testDescribeClientQuotasMatchPartial/Exact: %s",
    async (_name, components, strict, expected) => {
      const out = await cli("quota-filter", { configured, filter: { components, strict } });
      sameSet(out.entities, expected);
    },
    T,
  );

  it(
    "ClientQuotasRequestTest.testDescribeClientQuotasInvalidFilterCombination",
    async () => {
      const out = await cli("quota-filter", {
        configured,
        filter: {
          components: [
            { entityType: "ip", matchType: "SPECIFIED", match: null },
            { entityType: "user", matchType: "SPECIFIED", match: null },
          ],
          strict: false,
        },
      });
      expect(out).toEqual({
        error:
          "INVALID_REQUEST: Invalid entity filter component combination. IP filter component should not be " +
          "used with user or clientId filter component.",
      });
    },
    T,
  );

  it(
    "ClientQuotasRequestTest.testClientQuotasWithDefaultName: a client-id literally named <default> is not the default",
    async () => {
      const out = await cli("quota-filter", {
        configured: [q({ "client-id": "<default>" }, "producer_byte_rate", 20000)],
        filter: { components: [{ entityType: "client-id", matchType: "DEFAULT", match: null }], strict: true },
      });
      expect(out).toEqual({ entities: [] });
    },
    T,
  );
});

describe.concurrent("quota-alter (AlterClientQuotas, ClientQuotaControlManager)", () => {
  const invalid = (message: string) => ({ ok: false, error: "INVALID_REQUEST", message });
  it.each([
    // ClientQuotasRequestTest.testAlterClientQuotasRequest, "Perform a mixed update"
    [
      "testAlterClientQuotasRequest mixed update",
      { user: "user", "client-id": "client-id" },
      [
        { key: "producer_byte_rate", value: 20000 },
        { key: "consumer_byte_rate", value: null },
        { key: "request_percentage", value: 12.3 },
      ],
      { ok: true },
    ],
    [
      "testAlterClientQuotasInvalidRequests: empty user",
      { user: "" },
      [{ key: "request_percentage", value: 12.34 }],
      invalid("Empty user not supported"),
    ],
    [
      "testAlterClientQuotasInvalidRequests: empty entity type",
      { "": "name" },
      [{ key: "request_percentage", value: 12.34 }],
      invalid("Unhandled client quota entity type: "),
    ],
    [
      "testAlterClientQuotasInvalidRequests: fractional LONG",
      { user: "user" },
      [{ key: "producer_byte_rate", value: 10000.5 }],
      invalid("producer_byte_rate cannot be a fractional value."),
    ],
    [
      "testAlterClientQuotasInvalidRequests: unknown key",
      { user: "user" },
      [{ key: "bad", value: 1 }],
      invalid("Invalid configuration key bad"),
    ],
    [
      "testAlterClientQuotasInvalidEntityCombination",
      { user: "user", ip: "1.2.3.4" },
      [{ key: "request_percentage", value: 12.34 }],
      invalid("Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId"),
    ],
    [
      "testAlterClientQuotasBadIp",
      { ip: "not a valid host because it has spaces" },
      [{ key: "connection_creation_rate", value: 50 }],
      invalid("not a valid host because it has spaces is not a valid IP or resolvable host."),
    ],
    // ClientQuotaControlManagerTest.testIsValidIpEntityWithLocalhost: InetAddress.getByName resolves the name
    [
      "ClientQuotaControlManagerTest: localhost is a resolvable ip entity",
      { ip: "localhost" },
      [{ key: "connection_creation_rate", value: 50 }],
      { ok: true },
    ],
    // ClientQuotaControlManager.alterClientQuotas: a duplicate key marks the entity, which is then reported as a
    // duplicate entity
    [
      "ClientQuotaControlManager: duplicate key",
      { user: "user-1" },
      [
        { key: "producer_byte_rate", value: 1 },
        { key: "producer_byte_rate", value: 2 },
      ],
      invalid("Ignoring duplicate entity ClientQuotaEntity(entries={user=user-1})"),
    ],
  ])(
    "ClientQuotasRequestTest / ClientQuotaControlManagerTest: %s",
    async (_name, entity, ops, expected) => {
      expect(await cli("quota-alter", { entity, ops })).toEqual(expected);
    },
    T,
  );
});

describe.concurrent("quota-budget (the console's KIP-55 rule)", () => {
  it(
    "ClientQuotaManagerTest.testQuotaConfigPrecedence's userA (sub-quota 5000 over a total of 4000): Kafka " +
      "accepts it, the console budget reports it",
    async () => {
      const out = await cli("quota-budget", {
        configured: [q({ user: "userA" }, "producer_byte_rate", 4000)],
        change: [{ entity: { user: "userA", "client-id": "client1" }, key: "producer_byte_rate", value: 5000 }],
      });
      expect(out).toEqual({
        ok: false,
        violations: [{ user: "userA", key: "producer_byte_rate", total: 4000, sum: 5000, clients: ["client1"] }],
      });
    },
    T,
  );
});
