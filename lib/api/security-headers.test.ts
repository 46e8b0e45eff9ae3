import { describe, expect, it } from "vitest";
import {
  baseSecurityHeaders,
  FALLBACK_CONTENT_SECURITY_POLICY,
  fixedHeadersFor,
  isApiPath,
  newNonce,
  pageContentSecurityPolicy,
} from "./security-headers";

describe("security headers", () => {
  it("always nosniff, same-origin referrer and no framing; HSTS only over HTTPS (COOKIE_SECURE)", () => {
    const plain = baseSecurityHeaders({ cookieSecure: false });
    expect(plain).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "X-Frame-Options": "DENY",
    });
    expect(plain["Strict-Transport-Security"]).toBeUndefined();
    expect(baseSecurityHeaders({ cookieSecure: true })["Strict-Transport-Security"]).toMatch(/^max-age=\d{7,}/);
  });

  it("API answers (all of /api, errors included) are never cached; pages and files keep their caching", () => {
    for (const path of [
      "/api/v1/scram-users",
      "/api/v1/tokens",
      "/api/v1/no-such-route",
      "/api/v1/openapi.json",
      "/api/health",
      "/api",
    ]) {
      expect(fixedHeadersFor(path, { cookieSecure: false }), path).toMatchObject({
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      });
    }
    for (const path of ["/", "/acls", "/apis", "/c/local/scram-users", "/_next/static/chunk.js"]) {
      expect(fixedHeadersFor(path, { cookieSecure: false })["Cache-Control"], path).toBeUndefined();
      expect(isApiPath(path), path).toBe(false);
    }
  });

  it("pages: scripts only with the nonce, never inline or eval in production, no framing", () => {
    const csp = pageContentSecurityPolicy("abc123==", { cookieSecure: false });
    const script = csp.split("; ").find((d) => d.startsWith("script-src "))!;
    expect(script).toContain("'nonce-abc123=='");
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(pageContentSecurityPolicy("n", { cookieSecure: true })).toContain("upgrade-insecure-requests");
    expect(pageContentSecurityPolicy("n", { cookieSecure: false, dev: true })).toContain("'unsafe-eval'");
  });

  it("pages: forms end only at the console, or at a single sign-on provider's sign-out (#21)", () => {
    const formAction = (csp: string) => csp.split("; ").find((d) => d.startsWith("form-action "));
    expect(formAction(pageContentSecurityPolicy("n", { cookieSecure: false }))).toBe("form-action 'self'");
    expect(
      formAction(pageContentSecurityPolicy("n", { cookieSecure: false, formActionOrigins: ["https://idp.example"] })),
    ).toBe("form-action 'self' https://idp.example");
  });

  it("everything else: nothing may run or frame it", () => {
    expect(FALLBACK_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(FALLBACK_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it("nonces are fresh base64 of 128 bits", () => {
    const nonces = new Set(Array.from({ length: 100 }, () => newNonce()));
    expect(nonces.size).toBe(100);
    for (const n of nonces) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });
});
