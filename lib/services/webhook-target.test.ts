import { describe, expect, it } from "vitest";
import { checkWebhookTarget, isNonPublicAddress, type Resolver } from "./webhook-target";

const settings = { allowHttp: false, allowedHosts: [] as string[], ownOrigins: ["https://console.example.com"] };
const resolvesTo =
  (...addresses: string[]): Resolver =>
  () =>
    Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));

describe("where a webhook may point", () => {
  it("takes a public https URL and the address it resolved to", async () => {
    const t = await checkWebhookTarget("https://hooks.example.org/kafka", settings, resolvesTo("93.184.216.34"));
    expect(t).toMatchObject({ ok: true, address: "93.184.216.34", family: 4 });
  });

  it.each([
    ["ftp://hooks.example.org/x", "https URL, not ftp"],
    ["javascript:alert(1)", "https URL, not javascript"],
    ["http://hooks.example.org/x", "must use https"],
    ["not a url", "absolute URL"],
    ["https://user:pw@hooks.example.org/x", "user name or password"],
    ["https://console.example.com/api/v1/requests", "point back at the console"],
  ])("refuses %s", async (url, message) => {
    const t = await checkWebhookTarget(url, settings, resolvesTo("93.184.216.34"));
    expect(t).toEqual({ ok: false, message: expect.stringContaining(message) });
  });

  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "224.0.0.1",
  ])("refuses a host that resolves to %s (checked after DNS)", async (address) => {
    const t = await checkWebhookTarget(
      "https://innocent.example.org/hook",
      settings,
      resolvesTo("93.184.216.34", address),
    );
    expect(t).toEqual({ ok: false, message: expect.stringContaining("loopback, private, link-local or metadata") });
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it("refuses an address literal in the URL, IPv6 in brackets too", async () => {
    for (const url of ["https://127.0.0.1:8443/x", "https://[::1]/x", "https://169.254.169.254/latest/meta-data"]) {
      expect(await checkWebhookTarget(url, settings)).toMatchObject({ ok: false });
    }
  });

  it("allows what the operator lists, and http when allowed", async () => {
    const allowed = { ...settings, allowHttp: true, allowedHosts: ["hooks.internal", "10.0.0.5"] };
    expect(await checkWebhookTarget("http://hooks.internal/x", allowed, resolvesTo("10.0.0.9"))).toMatchObject({
      ok: true,
    });
    expect(await checkWebhookTarget("https://10.0.0.5/x", allowed)).toMatchObject({ ok: true, address: "10.0.0.5" });
    expect(await checkWebhookTarget("https://10.0.0.6/x", allowed)).toMatchObject({ ok: false });
  });

  it("refuses a host that does not resolve", async () => {
    const t = await checkWebhookTarget("https://nowhere.invalid/x", settings, () =>
      Promise.reject(new Error("ENOTFOUND")),
    );
    expect(t).toEqual({ ok: false, message: expect.stringContaining("does not resolve") });
  });

  it("public addresses pass", () => {
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) expect(isNonPublicAddress(a)).toBe(false);
  });
});
