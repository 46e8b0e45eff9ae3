import { randomBytes } from "node:crypto";
import { test, expect } from "./fixtures";

/**
 * Attacks from the hardening review (issue #6) replayed over HTTP and in the browser.
 * The throttle's own rules are proven in lib/auth/sign-in.integration.test.ts; here only
 * what needs the real server: the redirect after sign-in and the client address.
 */

test.describe("sign-in hardening", () => {
  const escapes = [
    { name: "a backslash (/\\host)", next: "/\\evil.example" },
    { name: "an encoded tab (/%09/host)", next: "/\t/evil.example" },
    { name: "a protocol-relative URL", next: "//evil.example" },
    { name: "an absolute URL", next: "https://evil.example/" },
    { name: "a javascript: URL", next: "javascript:alert(1)" },
  ];
  for (const c of escapes) {
    test(`after sign-in, next with ${c.name} stays on the console`, async ({ page, baseURL }) => {
      let leftTheConsole = false;
      // Only requests to the attacker's host (the console's own URL names it in ?next=).
      await page.route(
        (url) => url.hostname === "evil.example",
        async (route) => {
          leftTheConsole = true;
          await route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" });
        },
      );
      await page.goto(`/sign-in?next=${encodeURIComponent(c.next)}`);
      await page.getByLabel("Username").fill("alice");
      await page.getByLabel("Password").fill("alice-secret");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByTestId("principal")).toHaveText("User:alice");
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
      expect(new URL(page.url()).pathname).toBe("/");
      expect(leftTheConsole).toBe(false);
    });
  }

  test("after sign-in, a path of the console in next is honoured", async ({ page }) => {
    await page.goto(`/sign-in?next=${encodeURIComponent("/audit?action=session.sign-in")}`);
    await page.getByLabel("Username").fill("alice");
    await page.getByLabel("Password").fill("alice-secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/audit\?action=session\.sign-in$/);
  });

  test("a new X-Forwarded-For per guess neither escapes the sign-in throttle nor lifts a lock-out", async ({
    request,
  }) => {
    const username = `e2e-nobody-${randomBytes(4).toString("hex")}`;
    const guess = (i: number) =>
      request.post("/api/v1/session", {
        data: { username, password: `guess-${i}` },
        headers: { "x-forwarded-for": `198.51.100.${i}`, "x-real-ip": `198.51.100.${i}` },
      });
    const statuses = (await Promise.all(Array.from({ length: 10 }, (_, i) => guess(i)))).map((r) => r.status());
    // 3 free guesses (one more only if a wait elapsed during the burst), then 429.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(6);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);

    // Locked out now: ten more guesses, each with yet another address. Before the fix every
    // one of them reached Kafka; now at most one more gets through per elapsed wait.
    const again = await Promise.all(Array.from({ length: 10 }, (_, i) => guess(100 + i)));
    expect(again.filter((r) => r.status() === 429).length).toBeGreaterThanOrEqual(8);
    const locked = again.find((r) => r.status() === 429)!;
    expect((await locked.json()).error).toMatch(/Too many failed sign-ins\. Try again in \d+ s\./);
  });
});
