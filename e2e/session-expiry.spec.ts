import { createHash } from "node:crypto";
import pg from "pg";
import { test, expect, signInAs } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Issue #17 item 7: a session that ends while a form is being filled in. Pressing the
 * form's button goes to the sign-in page (never "Something went wrong", never a top bar
 * still saying "Signed in as"), and the sign-in comes back to the form with its input.
 * Both ways a session ends: the browser drops the cookie when it expires, or the console's
 * database says the session is over while the cookie is still there.
 */

async function signInAgain(page: Page, username: string) {
  await expect(page.getByRole("status").filter({ hasText: "Your session has ended" })).toBeVisible();
  await expect(page.getByText("Signed in as")).toHaveCount(0);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(`${username}-secret`);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test(
  "an ACL form whose session cookie expired: Preview goes to the sign-in and back to the form, every " +
    "field as typed",
  async ({ page }) => {
    await signInAs(page, "alice");
    await page.goto("/acls/new");
    const form = page.getByRole("form", { name: "New ACLs" });
    await form.getByLabel("Principal").fill("User:e2e-expiry");
    await form.getByLabel("Host").fill("10.0.0.7");
    await form.getByLabel("Resource type").selectOption("GROUP");
    await form.getByLabel("Pattern type").selectOption("PREFIXED");
    await form.getByLabel("Resource name").fill("expiry-");
    await form.getByLabel("Operation").selectOption("DESCRIBE");
    await form.getByLabel("Permission").selectOption("DENY");

    // The cookie expires with the session: the browser no longer sends it.
    await page.context().clearCookies({ name: "ksc_session" });
    await form.getByRole("button", { name: "Preview" }).click();

    await expect(page).toHaveURL(/\/sign-in\?ended=1&next=%2Facls%2Fnew$/);
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    await signInAgain(page, "alice");

    await expect(page).toHaveURL(/\/acls\/new$/);
    await expect(page.getByTestId("draft-restored")).toBeVisible();
    await expect(form.getByLabel("Principal")).toHaveValue("User:e2e-expiry");
    await expect(form.getByLabel("Host")).toHaveValue("10.0.0.7");
    await expect(form.getByLabel("Resource type")).toHaveValue("GROUP");
    await expect(form.getByLabel("Pattern type")).toHaveValue("PREFIXED");
    await expect(form.getByLabel("Resource name")).toHaveValue("expiry-");
    await expect(form.getByLabel("Operation")).toHaveValue("DESCRIBE");
    await expect(form.getByLabel("Permission")).toHaveValue("DENY");

    // Signed in again, the same Preview answers (whatever Kafka lets alice see: an answer, not a crash).
    await form.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("draft-restored")).toHaveCount(0);
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    await expect(form.getByLabel("Resource name")).toHaveValue("expiry-");

    // The draft served once: a reload shows the empty form.
    await page.reload();
    await expect(form.getByLabel("Principal")).toHaveValue("");
  },
);

test(
  "a quota form whose session ended in the console's database: Preview goes to the sign-in and back " +
    "with the input kept",
  async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/quotas");
    const form = page.getByRole("form", { name: "Change a quota" });
    await form.locator("select[name=kind]").selectOption("user+client-id");
    await form.getByLabel("User", { exact: true }).fill("svc-orders");
    await form.getByLabel("Client id", { exact: true }).fill("e2e-expiry");
    await form.locator("select[name=key]").selectOption("consumer_byte_rate");
    await form.getByLabel("Value").fill("12345");

    // The session expires in the database; the browser still holds its cookie.
    const cookie = (await page.context().cookies()).find((c) => c.name === "ksc_session");
    expect(cookie).toBeDefined();
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      const idHash = createHash("sha256").update(cookie!.value, "utf8").digest("hex");
      const expired = await db.query("update session set expires_at = now() - interval '1 minute' where id_hash = $1", [
        idHash,
      ]);
      expect(expired.rowCount).toBe(1);
    } finally {
      await db.end();
    }

    await form.getByRole("button", { name: "Preview" }).click();
    await expect(page).toHaveURL(/\/sign-in\?ended=1&next=%2Fquotas$/);
    await signInAgain(page, "admin");

    await expect(page).toHaveURL(/\/quotas$/);
    await expect(page.getByTestId("draft-restored")).toBeVisible();
    await expect(form.locator("select[name=kind]")).toHaveValue("user+client-id");
    await expect(form.getByLabel("User", { exact: true })).toHaveValue("svc-orders");
    await expect(form.getByLabel("Client id", { exact: true })).toHaveValue("e2e-expiry");
    await expect(form.locator("select[name=key]")).toHaveValue("consumer_byte_rate");
    await expect(form.getByLabel("Value")).toHaveValue("12345");
    await form.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("quota-preview")).toContainText("user=svc-orders, client-id=e2e-expiry");
  },
);
