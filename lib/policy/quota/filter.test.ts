import { describe, expect, it } from "vitest";
import type { ConfiguredQuota, QuotaEntity } from "../types";
import { describeClientQuotas, type QuotaFilterComponent } from "./filter";

// ClientQuotasRequestTest: matchUserClientEntities (request_percentage) and matchIpEntities.
const userClient: [QuotaEntity, number][] = [
  [{ user: "user-1", "client-id": "client-id-1" }, 50.5],
  [{ user: "user-2", "client-id": "client-id-1" }, 51.51],
  [{ user: "user-3", "client-id": "client-id-2" }, 52.52],
  [{ user: null, "client-id": "client-id-1" }, 53.53],
  [{ user: "user-1", "client-id": null }, 54.54],
  [{ user: "user-3", "client-id": null }, 55.55],
  [{ user: "user-1" }, 56.56],
  [{ user: "user-2" }, 57.57],
  [{ user: "user-3" }, 58.58],
  [{ user: null }, 59.59],
  [{ "client-id": "client-id-2" }, 60.6],
];
const ips: [QuotaEntity, number][] = [
  [{ ip: "1.2.3.4" }, 10],
  [{ ip: "2.3.4.5" }, 20],
];
const configured: ConfiguredQuota[] = [
  ...userClient.map(([entity, value]) => ({ entity, key: "request_percentage" as const, value })),
  ...ips.map(([entity, value]) => ({ entity, key: "connection_creation_rate" as const, value })),
];

const exact = (entityType: string, match: string): QuotaFilterComponent => ({ entityType, matchType: "EXACT", match });
const dflt = (entityType: string): QuotaFilterComponent => ({ entityType, matchType: "DEFAULT", match: null });
const any = (entityType: string): QuotaFilterComponent => ({ entityType, matchType: "SPECIFIED", match: null });

function entities(components: QuotaFilterComponent[], strict: boolean): QuotaEntity[] {
  const r = describeClientQuotas(configured, { components, strict });
  if (!r.ok) throw new Error(r.message);
  return r.entries.map((e) => e.entity);
}

describe("describeClientQuotas — ClientQuotasRequestTest.testDescribeClientQuotasMatchExact", () => {
  it.each(userClient)("strict exact filter for %j returns exactly that entity and its value", (entity, value) => {
    const components = Object.entries(entity).map(([t, n]) => (n === null ? dflt(t) : exact(t, n)));
    const r = describeClientQuotas(configured, { components, strict: true });
    expect(r).toEqual({ ok: true, entries: [{ entity, values: { request_percentage: value } }] });
  });

  it.each<QuotaEntity>([
    { user: "user-1", "client-id": "client-id-2" },
    { user: "user-3", "client-id": "client-id-1" },
    { user: "user-2", "client-id": null },
    { user: "user-4" },
    { user: null, "client-id": "client-id-2" },
    { "client-id": "client-id-1" },
    { "client-id": "client-id-3" },
  ])("strict exact filter for the unconfigured %j returns nothing", (entity) => {
    const components = Object.entries(entity).map(([t, n]) => (n === null ? dflt(t) : exact(t, n)));
    expect(entities(components, true)).toEqual([]);
  });
});

describe("describeClientQuotas — ClientQuotasRequestTest.testDescribeClientQuotasMatchPartial", () => {
  const all = configured.map((c) => c.entity);
  const has = (e: QuotaEntity, t: keyof QuotaEntity) => e[t] !== undefined;
  it.each([
    ["open-ended existing user", [exact("user", "user-1")], false, 3, (e: QuotaEntity) => e.user === "user-1"],
    ["open-ended non-existent user", [exact("user", "unknown")], false, 0, () => false],
    [
      "open-ended existing client id",
      [exact("client-id", "client-id-2")],
      false,
      2,
      (e: QuotaEntity) => e["client-id"] === "client-id-2",
    ],
    ["open-ended default user", [dflt("user")], false, 2, (e: QuotaEntity) => e.user === null],
    [
      "close-ended existing user",
      [exact("user", "user-2")],
      true,
      1,
      (e: QuotaEntity) => e.user === "user-2" && !has(e, "client-id"),
    ],
    ["close-ended client id without such entity", [exact("client-id", "client-id-1")], true, 0, () => false],
    ["close-ended all users", [any("user")], true, 4, (e: QuotaEntity) => has(e, "user") && !has(e, "client-id")],
    [
      "open-ended all users (SPECIFIED includes <default>)",
      [any("user")],
      false,
      10,
      (e: QuotaEntity) => has(e, "user"),
    ],
    [
      "close-ended all client ids",
      [any("client-id")],
      true,
      1,
      (e: QuotaEntity) => has(e, "client-id") && !has(e, "user"),
    ],
    ["open-ended all client ids", [any("client-id")], false, 7, (e: QuotaEntity) => has(e, "client-id")],
    ["open-ended all IPs", [any("ip")], false, 2, (e: QuotaEntity) => has(e, "ip")],
    ["open-ended empty filter matches all", [], false, 13, () => true],
    ["close-ended empty filter matches none", [], true, 0, () => false],
  ] as const)("%s", (_name, components, strict, size, predicate) => {
    const expected = all.filter(predicate);
    expect(expected).toHaveLength(size);
    expect(entities([...components], strict)).toEqual(expected);
  });
});

describe("describeClientQuotas — defaults, names and errors", () => {
  it(
    "a client id literally named <default> is not returned by a DEFAULT filter " + "(testClientQuotasWithDefaultName)",
    () => {
      const cfg: ConfiguredQuota[] = [
        { entity: { "client-id": "<default>" }, key: "producer_byte_rate", value: 20000 },
      ];
      expect(describeClientQuotas(cfg, { components: [dflt("client-id")], strict: true })).toEqual({
        ok: true,
        entries: [],
      });
      expect(describeClientQuotas(cfg, { components: [exact("client-id", "<default>")], strict: true })).toMatchObject({
        ok: true,
        entries: [{ entity: { "client-id": "<default>" } }],
      });
    },
  );

  it("a user name with spaces is matched as written (testClientQuotasSanitized)", () => {
    const cfg: ConfiguredQuota[] = [{ entity: { user: "user with spaces" }, key: "producer_byte_rate", value: 20000 }];
    expect(describeClientQuotas(cfg, { components: [exact("user", "user with spaces")], strict: true })).toEqual({
      ok: true,
      entries: [{ entity: { user: "user with spaces" }, values: { producer_byte_rate: 20000 } }],
    });
  });

  it("groups the keys of one entity into one entry", () => {
    const cfg: ConfiguredQuota[] = [
      { entity: { user: "a" }, key: "producer_byte_rate", value: 1 },
      { entity: { user: "a" }, key: "consumer_byte_rate", value: 2 },
    ];
    expect(describeClientQuotas(cfg, { components: [], strict: false })).toEqual({
      ok: true,
      entries: [{ entity: { user: "a" }, values: { producer_byte_rate: 1, consumer_byte_rate: 2 } }],
    });
  });

  const IP_COMBINATION =
    "Invalid entity filter component combination. IP filter component should not be used with user or clientId " +
    "filter component.";
  it.each([
    [
      "ip + user (testDescribeClientQuotasInvalidFilterCombination)",
      [any("ip"), any("user")],
      "INVALID_REQUEST",
      IP_COMBINATION,
    ],
    [
      "ip + client-id (testDescribeClientQuotasInvalidFilterCombination)",
      [any("ip"), any("client-id")],
      "INVALID_REQUEST",
      IP_COMBINATION,
    ],
    [
      "unsupported type (testClientQuotasUnsupportedEntityTypes)",
      [exact("other", "name")],
      "UNSUPPORTED_VERSION",
      "Unsupported entity type other",
    ],
    ["empty type", [exact("", "x")], "INVALID_REQUEST", "Invalid empty entity type."],
    [
      "type twice",
      [exact("user", "a"), any("user")],
      "INVALID_REQUEST",
      "Entity type user cannot appear more than once in the filter.",
    ],
    [
      "EXACT without a name",
      [{ entityType: "user", matchType: "EXACT", match: null }],
      "INVALID_REQUEST",
      "Request specified MATCH_TYPE_EXACT, but set match string to null.",
    ],
    [
      "DEFAULT with a name",
      [{ entityType: "user", matchType: "DEFAULT", match: "a" }],
      "INVALID_REQUEST",
      "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.",
    ],
    [
      "SPECIFIED with a name",
      [{ entityType: "user", matchType: "SPECIFIED", match: "a" }],
      "INVALID_REQUEST",
      "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.",
    ],
    [
      "unknown match type code",
      [{ entityType: "user", matchType: 7, match: null }],
      "INVALID_REQUEST",
      "Unknown match type 7",
    ],
  ] as const)("%s", (_name, components, error, message) => {
    expect(
      describeClientQuotas(configured, { components: [...components] as QuotaFilterComponent[], strict: false }),
    ).toEqual({ ok: false, error, message });
  });

  it("checks components in order: the first problem is reported", () => {
    expect(
      describeClientQuotas([], { components: [exact("other", "x"), exact("", "y")], strict: false }),
    ).toMatchObject({ error: "UNSUPPORTED_VERSION" });
    expect(
      describeClientQuotas([], { components: [exact("", "y"), exact("other", "x")], strict: false }),
    ).toMatchObject({ error: "INVALID_REQUEST" });
  });
});
