import { describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE, crossSiteRefusal, type OriginPolicy } from "./same-origin";

const policy: OriginPolicy = { allowedOrigins: [], trustProxy: false };
const headers = (h: Record<string, string>) => new Headers(h);
const console3000 = { host: "127.0.0.1:3000" };

describe("crossSiteRefusal", () => {
  it("never refuses GET, HEAD or OPTIONS", () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "get"]) {
      expect(crossSiteRefusal(method, headers({ ...console3000, origin: "https://evil.example" }), policy)).toBeNull();
    }
  });

  it("refuses a page on another port of the same host (same site, so the Lax cookie is sent)", () => {
    const h = headers({ ...console3000, origin: "http://127.0.0.1:4000", "sec-fetch-site": "same-site" });
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      expect(crossSiteRefusal(method, h, policy)).toBe(CROSS_SITE_MESSAGE);
  });

  it("refuses other sites, Origin null and malformed origins", () => {
    for (const origin of [
      "https://evil.example",
      "null",
      "",
      "not a url",
      "file://",
      "http://127.0.0.1:3000.evil.example",
    ]) {
      expect(crossSiteRefusal("POST", headers({ ...console3000, origin }), policy), origin).toBe(CROSS_SITE_MESSAGE);
    }
  });

  it("allows the console's own origin, default ports included", () => {
    expect(crossSiteRefusal("POST", headers({ ...console3000, origin: "http://127.0.0.1:3000" }), policy)).toBeNull();
    expect(
      crossSiteRefusal("POST", headers({ host: "console.example", origin: "https://console.example" }), policy),
    ).toBeNull();
    expect(
      crossSiteRefusal("POST", headers({ host: "console.example:80", origin: "http://console.example" }), policy),
    ).toBeNull();
    expect(
      crossSiteRefusal("POST", headers({ host: "Console.Example", origin: "http://console.example" }), policy),
    ).toBeNull();
  });

  it("without Origin, goes by Sec-Fetch-Site; without either (scripts, curl) allows", () => {
    expect(crossSiteRefusal("POST", headers({ ...console3000, "sec-fetch-site": "same-origin" }), policy)).toBeNull();
    expect(crossSiteRefusal("POST", headers({ ...console3000, "sec-fetch-site": "none" }), policy)).toBeNull();
    expect(crossSiteRefusal("POST", headers({ ...console3000, "sec-fetch-site": "same-site" }), policy)).toBe(
      CROSS_SITE_MESSAGE,
    );
    expect(crossSiteRefusal("POST", headers({ ...console3000, "sec-fetch-site": "cross-site" }), policy)).toBe(
      CROSS_SITE_MESSAGE,
    );
    expect(
      crossSiteRefusal("POST", headers({ ...console3000, authorization: "Basic YWRtaW46YWRtaW4tc2VjcmV0" }), policy),
    ).toBeNull();
  });

  it("behind a reverse proxy: the public origin from ALLOWED_ORIGINS, X-Forwarded-Host only with TRUST_PROXY", () => {
    const proxied = headers({
      host: "10.0.0.5:3000",
      origin: "https://kafka-console.example.com",
      "x-forwarded-host": "kafka-console.example.com",
    });
    expect(crossSiteRefusal("POST", proxied, policy)).toBe(CROSS_SITE_MESSAGE);
    expect(
      crossSiteRefusal("POST", proxied, { allowedOrigins: ["https://kafka-console.example.com"], trustProxy: false }),
    ).toBeNull();
    expect(crossSiteRefusal("POST", proxied, { allowedOrigins: [], trustProxy: true })).toBeNull();
    // An allowed origin is a whole origin: another scheme or port is not it.
    expect(
      crossSiteRefusal("POST", headers({ host: "10.0.0.5:3000", origin: "http://kafka-console.example.com" }), {
        allowedOrigins: ["https://kafka-console.example.com"],
        trustProxy: false,
      }),
    ).toBe(CROSS_SITE_MESSAGE);
  });
});
