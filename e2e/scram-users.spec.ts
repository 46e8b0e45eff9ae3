import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, signInAs } from "./fixtures";

/**
 * SCRAM users end to end in Chromium against the dev broker: admin creates a user on the
 * /users page (password typed twice), the user signs in on the sign-in page, admin rotates
 * the password to a generated one (shown once), the old password is refused and the new one
 * accepted, admin deletes the user and the sign-in is refused. alice (no DESCRIBE on
 * CLUSTER) is told Kafka's refusal. Unique user names; removed again at the end.
 */

const user = `e2e-scram-${randomBytes(4).toString("hex")}`;
const typed = `typed-${randomBytes(6).toString("hex")}`;

async function signInStatus(request: APIRequestContext, password: string): Promise<number> {
  const response = await request.post("/api/v1/session", {
    data: { username: user, password, mechanism: "SCRAM-SHA-512" },
  });
  return response.status();
}

test.afterAll(async ({ playwright, baseURL }) => {
  const admin = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Basic ${Buffer.from("admin:admin-secret").toString("base64")}` },
  });
  await admin.delete("/api/v1/scram-users", { data: { user } }).catch(() => undefined);
  await admin.dispose();
});

test.describe.serial("SCRAM users page", () => {
  let generated = "";

  test("admin creates a user with a typed password; the command is shown with the password masked", async ({
    adminPage: page,
  }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: "SCRAM users" }).click();
    const table = page.getByRole("table", { name: "SCRAM users" });
    await expect(table.locator('[data-user="admin"]')).toContainText("SCRAM-SHA-512");
    await expect(table.locator('[data-user="alice"]')).toBeVisible();

    const form = page.getByRole("form", { name: "Create" });
    await form.getByLabel("User name").fill(user);
    await form.getByLabel("Iterations").fill("4096");
    await form.getByLabel("type it").check();
    await form.getByLabel("New password", { exact: true }).fill(typed);
    await form.getByLabel("New password again").fill(`${typed}-typo`);
    await form.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("The two passwords differ")).toBeVisible();

    await form.getByLabel("New password", { exact: true }).fill(typed);
    await form.getByLabel("New password again").fill(typed);
    await form.getByRole("button", { name: "Create" }).click();
    const done = page.getByTestId("scram-new-result-done");
    await expect(done).toContainText(`Created User:${user}: SCRAM-SHA-512 (4096 iterations).`);
    await expect(done.getByTestId("scram-cli")).toContainText(
      `--alter --entity-type users --entity-name ${user} --add-config ` +
        `'SCRAM-SHA-512=[iterations=4096,password=<password>]'`,
    );
    await expect(done).not.toContainText(typed);
    await expect(done.getByTestId("generated-password")).toHaveCount(0);
    await page.reload();
    const row = page.getByRole("table", { name: "SCRAM users" }).locator(`[data-user="${user}"]`);
    await expect(row).toContainText("SCRAM-SHA-512, 4096 iterations");
    await row.getByRole("link", { name: "tokens" }).click();
    await expect(page.getByTestId("principal-name")).toHaveText(`User:${user}`);
    await expect(page).toHaveURL(/#tokens$/);
    await expect(page.getByRole("region", { name: "Tokens", exact: true })).toContainText(
      `No token of User:${user} that you may describe.`,
    );
  });

  test("the new user signs in on the sign-in page", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Username").fill(user);
    await page.getByLabel("Password").fill(typed);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`User:${user}`).first()).toBeVisible();
    await context.close();
  });

  test("Create with the name of an existing user changes nothing and says so; the user's password still works", async ({
    adminPage: page,
  }) => {
    await page.goto("/users");
    const form = page.getByRole("form", { name: "Create" });
    await form.getByLabel("User name").fill(user);
    await form.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText(`Nothing was changed: ${user} already has a SCRAM-SHA-512 credential.`)).toBeVisible();
    await expect(page.getByTestId("generated-password")).toHaveCount(0);
    expect(await signInStatus(page.request, typed)).toBe(200);
    await signInAs(page, "admin");
  });

  test("admin rotates to a generated password, shown once; the old one is refused, the new one accepted", async ({
    adminPage: page,
  }) => {
    await page.goto("/users");
    const row = page.getByRole("table", { name: "SCRAM users" }).locator(`[data-user="${user}"]`);
    await row.getByText("Rotate password or add a mechanism").click();
    const form = row.getByRole("form", { name: "Set password" });
    await form.getByLabel("Iterations").fill("8192");
    await form.getByRole("button", { name: "Set password" }).click();
    const done = row.getByTestId(`scram-${user}-result-done`);
    await expect(done).toContainText(`Password changed for User:${user}: SCRAM-SHA-512 (8192 iterations).`);
    generated = await done.getByTestId("generated-password").inputValue();
    expect(generated).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await expect(done.getByTestId("scram-cli")).not.toContainText(generated);

    expect(await signInStatus(page.request, typed)).toBe(401);
    expect(await signInStatus(page.request, generated)).toBe(200);
    await signInAs(page, "admin");
    await page.reload();
    await expect(page.getByTestId("generated-password")).toHaveCount(0);
  });

  test("admin deletes the user: gone from the list, sign-in refused", async ({ adminPage: page }) => {
    await page.goto("/users");
    const row = page.getByRole("table", { name: "SCRAM users" }).locator(`[data-user="${user}"]`);
    await row.getByText("Delete…").click();
    await row.getByRole("button", { name: "Delete user" }).click();
    await expect(page.getByTestId(`delete-${user}-result-done`)).toContainText(
      `Deleted credentials of User:${user}: no SCRAM credential left.`,
    );
    await page.reload();
    await expect(page.getByRole("table", { name: "SCRAM users" }).locator(`[data-user="${user}"]`)).toHaveCount(0);
    expect(await signInStatus(page.request, generated)).toBe(401);
  });

  test("alice, without DESCRIBE on CLUSTER, is told Kafka's refusal", async ({ page }) => {
    await signInAs(page, "alice");
    await page.goto("/users");
    await expect(page.getByTestId("scram-list-error")).toContainText("DESCRIBE on CLUSTER");
  });
});
