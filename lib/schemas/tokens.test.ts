import { describe, expect, it } from "vitest";
import {
  splitRenewers,
  tokenCreateFormSchema,
  tokenCreateSchema,
  tokenExpireSchema,
  tokenRenewSchema,
  tokenRequestCreateSchema,
  tokenRequestFormSchema,
} from "./tokens";

const fieldsOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? {} : Object.fromEntries((r.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

const HMAC = "cx96Dkqz9lAlyXgHmGwanR8Q3mJtLrON5piE/VKrpBJ1gC6rmD2r8JvnyoM5lHWBonkXxTv+z0h8hPnVacZAEQ==";

describe("splitRenewers", () => {
  it("splits at commas and new lines, trims, drops empties and duplicates", () => {
    expect(splitRenewers(" User:bob, User:carol,,\nUser:bob ")).toEqual(["User:bob", "User:carol"]);
    expect(splitRenewers("")).toEqual([]);
  });
});

describe("tokenCreateFormSchema", () => {
  it("defaults to yourself, no renewers and the broker's max lifetime", () => {
    expect(tokenCreateFormSchema.parse({})).toEqual({ owner: null, renewers: [], maxLifetimeMs: null });
  });
  it("reads the owner, renewers and a lifetime in hours or days", () => {
    expect(
      tokenCreateFormSchema.parse({
        owner: " User:svc-orders ",
        renewers: "User:bob, User:carol",
        maxLifetime: "2",
        maxLifetimeUnit: "days",
      }),
    ).toEqual({
      owner: "User:svc-orders",
      renewers: ["User:bob", "User:carol"],
      maxLifetimeMs: 2 * 86_400_000,
    });
    expect(tokenCreateFormSchema.parse({ maxLifetime: "1.5", maxLifetimeUnit: "hours" }).maxLifetimeMs).toBe(5_400_000);
  });
  it("names every bad field", () => {
    const r = fieldsOf(tokenCreateFormSchema.safeParse({ owner: "svc-orders", renewers: "bob", maxLifetime: "-1" }));
    expect(Object.keys(r).sort()).toEqual(["maxLifetime", "owner", "renewers"]);
  });
});

describe("tokenCreateSchema (API)", () => {
  it("accepts the minimal body and rejects a non-principal renewer", () => {
    expect(tokenCreateSchema.parse({})).toEqual({ owner: null, renewers: [], maxLifetimeMs: null });
    expect(tokenCreateSchema.safeParse({ renewers: ["bob"] }).success).toBe(false);
    expect(tokenCreateSchema.safeParse({ maxLifetimeMs: 0 }).success).toBe(false);
  });
});

describe("tokenRenewSchema / tokenExpireSchema", () => {
  it("needs a Base64 HMAC", () => {
    expect(fieldsOf(tokenRenewSchema.safeParse({ hmac: "" }))).toHaveProperty("hmac");
    expect(fieldsOf(tokenRenewSchema.safeParse({ hmac: "not base64!" }))).toHaveProperty("hmac");
    expect(tokenRenewSchema.parse({ hmac: HMAC, tokenId: "abc" })).toEqual({
      hmac: HMAC,
      tokenId: "abc",
      periodHours: 24,
    });
    expect(tokenRenewSchema.parse({ hmac: HMAC, periodHours: "2" }).periodHours).toBe(2);
  });
  it("expires now (negative period) or in N hours", () => {
    expect(tokenExpireSchema.parse({ hmac: HMAC })).toEqual({ tokenId: "", hmac: HMAC, periodMs: -1 });
    expect(tokenExpireSchema.parse({ hmac: HMAC, when: "in", hours: "3" }).periodMs).toBe(3 * 3_600_000);
    expect(fieldsOf(tokenExpireSchema.safeParse({ hmac: HMAC, when: "in", hours: "" }))).toHaveProperty("hours");
  });
});

describe("token request schemas", () => {
  it("needs an owner principal and a reason", () => {
    expect(Object.keys(fieldsOf(tokenRequestCreateSchema.safeParse({ owner: "svc", reason: " " }))).sort()).toEqual([
      "owner",
      "reason",
    ]);
  });
  it("reads the form like the create form", () => {
    expect(
      tokenRequestFormSchema.parse({
        owner: "User:svc-orders",
        renewers: "User:carol",
        maxLifetime: "12",
        maxLifetimeUnit: "hours",
        reason: "batch job",
      }),
    ).toEqual({
      owner: "User:svc-orders",
      renewers: ["User:carol"],
      maxLifetimeMs: 12 * 3_600_000,
      reason: "batch job",
    });
    expect(
      fieldsOf(tokenRequestFormSchema.safeParse({ owner: "User:x", renewers: "carol", reason: "r" })),
    ).toHaveProperty("renewers");
  });
});

describe("lifetime fields: a clear field error, never an internal error", () => {
  const form = (maxLifetime: string, maxLifetimeUnit: "hours" | "days" = "days") =>
    tokenCreateFormSchema.safeParse({ maxLifetime, maxLifetimeUnit });

  it.each([
    ["1e308", "days", /^Too long: at most 104,249,991 days/],
    ["1e308", "hours", /^Too long: at most 2,501,999,792 hours/],
    ["1e400", "days", /positive number/],
    ["Infinity", "days", /positive number/],
    ["NaN", "days", /positive number/],
    ["0x10", "days", /positive number/],
    ["0", "days", /positive number/],
    ["-2", "hours", /positive number/],
    ["1e-12", "hours", /^Too short/],
  ] as const)("the create form refuses %s %s on maxLifetime", (value, unit, message) => {
    const r = form(value, unit);
    expect(r.success).toBe(false);
    expect(fieldsOf(r)).toEqual({ maxLifetime: expect.stringMatching(message) });
  });

  it("accepts the longest lifetime that fits, in whole milliseconds", () => {
    expect(form("104249991", "days").data?.maxLifetimeMs).toBe(104_249_991 * 86_400_000);
    expect(Number.isSafeInteger(form("104249991", "days").data?.maxLifetimeMs)).toBe(true);
    expect(fieldsOf(form("104249992", "days"))).toEqual({ maxLifetime: expect.stringMatching(/^Too long/) });
    expect(form(" 1e2 ", "hours").data?.maxLifetimeMs).toBe(100 * 3_600_000);
  });

  it("the request form puts the error on its maxLifetime field too", () => {
    const r = tokenRequestFormSchema.safeParse({
      owner: "User:svc-orders",
      maxLifetime: "1e308",
      maxLifetimeUnit: "days",
      reason: "x",
    });
    expect(r.success).toBe(false);
    expect(fieldsOf(r)).toEqual({ maxLifetime: expect.stringMatching(/^Too long/) });
  });

  it.each([
    [1e308, /^Too long: at most 9007199254740991 ms/],
    [2 ** 63, /^Too long/],
    [0, /positive number of milliseconds/],
    [-1, /positive number of milliseconds/],
    [1.5, /Whole milliseconds/],
    ["1e308", /A number of milliseconds/],
  ])("the API refuses maxLifetimeMs %s with one message naming the field", (maxLifetimeMs, message) => {
    for (const schema of [tokenCreateSchema, tokenRequestCreateSchema]) {
      const r = schema.safeParse({ owner: "User:svc-orders", reason: "x", maxLifetimeMs });
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["maxLifetimeMs", expect.stringMatching(message)],
      ]);
    }
  });

  it("renew and expire refuse periods beyond their bound, and non-finite ones", () => {
    expect(fieldsOf(tokenRenewSchema.safeParse({ hmac: HMAC, periodHours: 1e308 }))).toEqual({
      periodHours: "Too long",
    });
    expect(fieldsOf(tokenRenewSchema.safeParse({ hmac: HMAC, periodHours: "Infinity" }))).toEqual({
      periodHours: "Enter a number of hours",
    });
    expect(fieldsOf(tokenExpireSchema.safeParse({ hmac: HMAC, when: "in", hours: "1e308" }))).toEqual({
      hours: expect.any(String),
    });
  });
});
