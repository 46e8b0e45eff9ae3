import { describe, expect, it } from "vitest";
import { entityKind, formatEntity, javaEntityString, normalizeEntity, sameEntity } from "./entity";

describe("quota entities", () => {
  it.each([
    [{ user: "alice" }, "user"],
    [{ user: null, "client-id": "app" }, "user+client-id"],
    [{ "client-id": null }, "client-id"],
    [{ ip: "1.2.3.4" }, "ip"],
    [{ ip: null, user: "a" }, "invalid"],
    [{}, "invalid"],
  ] as const)("%j is a %s entity", (entity, kind) => {
    expect(entityKind(entity)).toBe(kind);
  });

  it("names the default entity <default> and keeps a client id literally called <default> apart", () => {
    expect(formatEntity({ user: "alice", "client-id": null })).toBe("user=alice, client-id=<default>");
    expect(sameEntity({ "client-id": null }, { "client-id": "<default>" })).toBe(false);
  });

  it("compares IP entities as addresses", () => {
    expect(sameEntity({ ip: "::1" }, { ip: "0:0:0:0:0:0:0:1" })).toBe(true);
    expect(sameEntity({ ip: "1.2.3.4" }, { ip: "1.2.3.5" })).toBe(false);
  });

  it("normalizes key order and drops absent keys", () => {
    expect(Object.keys(normalizeEntity({ "client-id": "c", user: "u" }))).toEqual(["user", "client-id"]);
    expect(normalizeEntity({ user: undefined, ip: null })).toEqual({ ip: null });
  });

  it("prints entities as Kafka's ClientQuotaEntity#toString over a HashMap (OpenJDK 17 order)", () => {
    expect(
      javaEntityString([
        ["user", "u"],
        ["client-id", null],
      ]),
    ).toBe("ClientQuotaEntity(entries={client-id=null, user=u})");
    expect(javaEntityString([["ip", "1.2.3.4"]])).toBe("ClientQuotaEntity(entries={ip=1.2.3.4})");
  });
});
