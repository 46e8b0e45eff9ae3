/**
 * Single sign-on (#21) in Chromium, through the development provider's own sign-in page
 * (scripts/oidc/dev-provider.ts, started with the dev broker) and the broker's OAUTHBEARER
 * listener: the person is the same principal as with their password, Kafka decides the same, the
 * token is refreshed while the page is open, and sign-out ends the provider's session too.
 */
import type { Browser, Page } from "@playwright/test";
import * as client from "openid-client";
import { readFileSync } from "node:fs";
import { test, expect, signInAs } from "./fixtures";
import { topicBinding } from "./behind-the-back";
import { devOidcEnv } from "../scripts/oidc/dev-settings";
import { tokensFor } from "../test/oidc/sign-in";

const sso = devOidcEnv(process.cwd(), { ...process.env, KAFKA_OIDC_ISSUER: undefined });

test.skip(!sso, "the development OpenID provider is not running (bash scripts/kafka.sh start starts it)");

/** From the console's sign-in page through the provider's form, back signed in. */
async function signInWithProvider(page: Page, user: string, password = `${user}-secret`, from = "/") {
  await page.goto(from);
  await page.getByRole("link", { name: "Sign in with the local provider" }).click();
  await expect(page.getByRole("heading", { name: "Development identity provider" })).toBeVisible();
  await page.getByLabel("Username").fill(user);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** The page's main content as text, without what differs between two visits (times, ids). */
async function mainText(page: Page, path: string): Promise<string> {
  await page.goto(path);
  await expect(page.getByRole("main")).toBeVisible();
  return (await page.getByRole("main").innerText())
    .replace(/\d{4}-\d{2}-\d{2}[T ][\d:.]+Z?/g, "<time>")
    .replace(/\d+(\.\d+)? ?ms/g, "<ms>");
}

test("alice signs in with the provider's own page and is User:alice; the console behaves as with her password", async ({
  browser,
}) => {
  const page = await newPage(browser);
  await signInWithProvider(page, "alice", "alice-secret", "/acls");
  await expect(page).toHaveURL(/\/acls$/);
  await expect(page.getByTestId("principal")).toHaveText("User:alice");

  const withPassword = await newPage(browser);
  await signInAs(withPassword, "alice");
  for (const path of [
    "/acls",
    "/access-check?principal=User%3Aalice&operation=READ&resourceType=TOPIC&resourceName=orders",
    "/principals/User%3Aalice",
  ]) {
    expect(await mainText(page, path), path).toBe(await mainText(withPassword, path));
  }

  // A change: Kafka decides, as for alice with her password (she may not alter the cluster's ACLs).
  const acl = topicBinding(`sso-e2e-${Date.now()}`, "User:alice", "READ");
  const bySso = await page.request.post("/api/v1/acls", { data: { bindings: [acl] } });
  const byPassword = await withPassword.request.post("/api/v1/acls", { data: { bindings: [acl] } });
  expect(bySso.status(), await bySso.text()).toBe(byPassword.status());
  expect(bySso.status()).toBe(403);
  expect(await bySso.text()).toBe(await byPassword.text());
  expect(await bySso.text()).toContain("User:alice needs DESCRIBE on CLUSTER");

  // The sign-in is on the audit trail with its method and the provider's subject (admin reads it).
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  const audit = await admin.request.get("/api/v1/audit?action=session.sign-in&principal=User%3Aalice&limit=20");
  const events = ((await audit.json()) as { events: { request: Record<string, unknown> | null }[] }).events;
  expect(
    events.some((e) => e.request?.method === "single sign-on (OIDC)" && typeof e.request.subject === "string"),
  ).toBe(true);
});

test("admin (single sign-on) makes a change Kafka allows, then signs out of the console and the provider", async ({
  browser,
}) => {
  const page = await newPage(browser);
  await signInWithProvider(page, "admin");
  await expect(page.getByTestId("principal")).toHaveText("User:admin");
  const acl = topicBinding(`sso-e2e-admin-${Date.now()}`, "User:alice", "READ");
  const created = await page.request.post("/api/v1/acls", { data: { bindings: [acl] } });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const removed = await page.request.delete("/api/v1/acls", { data: { bindings: [acl] } });
  expect(removed.status(), await removed.text()).toBeLessThan(300);

  await page.getByRole("button", { name: "Sign out" }).click();
  // The provider asks to confirm its own sign-out, then sends the browser back to the console.
  await page.getByRole("button", { name: /sign me out/i }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  // Signed out of both: the console sends to sign-in, and the provider asks for the password again.
  await page.goto("/acls");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByRole("link", { name: "Sign in with the local provider" }).click();
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("a wrong password stays on the provider's page; a replayed answer is refused with a clear page", async ({
  browser,
}) => {
  const page = await newPage(browser);
  await signInWithProvider(page, "alice", "not-her-password");
  await expect(page.getByRole("alert")).toHaveText("Wrong username or password.");

  const second = await newPage(browser);
  let answer = "";
  second.on("request", (r) => {
    if (r.url().includes("/api/auth/oidc/callback")) answer = r.url();
  });
  await signInWithProvider(second, "alice");
  await expect(second.getByTestId("principal")).toHaveText("User:alice");
  // The same answer again (a reload, the back button, or someone who got hold of the address).
  await second.goto(answer);
  await expect(second).toHaveURL(/\/sign-in\?sso=no-pending/);
  await expect(second.locator(".alert.error")).toContainText("does not belong to a sign-in this browser started");
  // Still signed in as before: the page says so and leads back.
  await second.getByRole("link", { name: "Continue as User:alice" }).click();
  await expect(second.getByTestId("principal")).toHaveText("User:alice");
  // A third party's browser with the address: nothing either.
  const stranger = await newPage(browser);
  await stranger.goto(answer);
  await expect(stranger.locator(".alert.error")).toContainText("Nobody was signed in");
  expect((await stranger.context().cookies()).some((c) => c.name.startsWith("ksc_session"))).toBe(false);
});

/** Tokens for `user` straight from the provider (its sign-in form), as a script would get them. */
async function providerTokens(user: string) {
  const config = await client.discovery(
    new URL(sso!.KAFKA_OIDC_ISSUER),
    sso!.KAFKA_OIDC_CLIENT_ID,
    readFileSync(sso!.KAFKA_OIDC_CLIENT_SECRET_FILE, "utf8").trim(),
    undefined,
    { execute: [client.allowInsecureRequests] },
  );
  return tokensFor(
    config,
    "http://127.0.0.1:3000/api/auth/oidc/callback",
    { scope: sso!.KAFKA_OIDC_SCOPES, resource: sso!.KAFKA_OIDC_RESOURCE },
    user,
    `${user}-secret`,
  );
}

test("API callers send the provider's access token as a Bearer token: Kafka decides as for the person", async ({
  playwright,
}) => {
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const bearer = async (user: string) => ({ authorization: `Bearer ${(await providerTokens(user)).access_token}` });
  const asAdmin = await api.get("/api/v1/acls?principal=User%3Aalice", { headers: await bearer("admin") });
  expect(asAdmin.status(), await asAdmin.text()).toBe(200);
  const asAlice = await api.get("/api/v1/acls?principal=User%3Aalice", { headers: await bearer("alice") });
  expect(asAlice.status()).toBe(403);
  expect(await asAlice.text()).toContain("User:alice needs DESCRIBE on CLUSTER");
  const forged = await api.get("/api/v1/acls", { headers: { authorization: "Bearer not.a.token" } });
  expect(forged.status()).toBe(401);
  expect(await forged.text()).toContain("The access token was refused");
  await api.dispose();
});

test("a token that expires while the page is open is refreshed without the user noticing", async ({ browser }) => {
  // How long the provider's access tokens live (the test runs set 60 s; a provider started by hand may say 300).
  const probe = await providerTokens("bob");
  const lifetime = probe.expires_in ?? 300;
  test.skip(lifetime > 90, `the provider's tokens live ${lifetime} s; the test runs start it with 60 s`);
  test.setTimeout((lifetime + 60) * 1000);

  const page = await newPage(browser);
  await signInWithProvider(page, "bob", "bob-secret", "/");
  await expect(page.getByTestId("principal")).toHaveText("User:bob");
  const brokers = page.getByRole("table", { name: "Brokers" });
  await expect(brokers.getByRole("row")).toHaveCount(2);
  // Past the first token's expiry: every page still reaches Kafka as bob, without a sign-in.
  await page.waitForTimeout((lifetime + 5) * 1000);
  await page.reload();
  await expect(page.getByTestId("principal")).toHaveText("User:bob");
  await expect(brokers.getByRole("row")).toHaveCount(2);
  await expect(page.locator(".alert.error")).toHaveCount(0);
});

test("a sign-in never ends on another site, and a page cannot pile up sign-ins in the browser", async ({ browser }) => {
  const page = await newPage(browser);
  const start = (next: string) => `/api/auth/oidc/start?${new URLSearchParams({ cluster: "default", next })}`;
  // Six sign-ins started (six tabs, or a page opening the link again and again): the browser keeps four.
  for (let i = 0; i < 6; i++) {
    await page.goto(start("/"));
    await expect(page.getByRole("heading", { name: "Development identity provider" })).toBeVisible();
  }
  const pending = (await page.context().cookies()).filter((c) => c.name.startsWith("ksc_oidc_"));
  expect(pending).toHaveLength(4);
  expect(pending.every((c) => c.httpOnly && c.path === "/api/auth/oidc")).toBe(true);

  // `next` naming another site is not followed: the sign-in ends on the console's own page.
  await page.goto(start("https://attacker.example/steal"));
  await page.getByLabel("Username").fill("alice");
  await page.getByLabel("Password").fill("alice-secret");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("principal")).toHaveText("User:alice");
  expect(new URL(page.url()).origin).toBe(new URL(test.info().project.use.baseURL!).origin);
});
