import { test, expect, signInAs } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Pending UI (issue #9: "nothing moves for 2.5 s on a slow broker"). The server's answer
 * for the next page (its RSC payload, what a client-side navigation fetches) is held back
 * 2.5 s, as a slow broker would: from the click until the new page is on screen the top
 * bar shows (and says "Opening the page…" to screen readers), a GET form's button says it
 * is working, and the sidebar link being opened spins. Without JavaScript every page
 * arrives complete (no streamed part left hidden, which is why there is no loading.tsx).
 */

const SLOW_MS = 2_500;

/** Every navigation's server answer arrives SLOW_MS late (prefetches and everything else at once). */
async function slowNavigations(page: Page) {
  await page.route("**/*", async (route) => {
    const headers = route.request().headers();
    if (headers.rsc === "1" && headers["next-router-prefetch"] === undefined)
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    await route.fallback();
  });
}

const progress = (page: Page) => page.getByTestId("nav-progress");

test.describe("pending UI", () => {
  test("a dashboard number: the bar shows from the click until the filtered list is on screen", async ({
    adminPage: page,
  }) => {
    await page.goto("/");
    await expect(page.getByTestId("posture-deny")).toBeVisible();
    await expect(progress(page)).not.toHaveAttribute("data-pending");
    await slowNavigations(page);

    const clickedAt = Date.now();
    await page.getByTestId("posture-deny").click();
    await expect(progress(page)).toHaveAttribute("data-pending", "yes", { timeout: 1_000 });
    await expect(progress(page)).toContainText("Opening the page…");
    await expect(progress(page).locator(".nav-progress-bar")).toBeVisible();
    // Still the dashboard: the server has not answered yet.
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

    await expect(page.getByRole("heading", { level: 1, name: "ACLs" })).toBeVisible();
    await expect(page).toHaveURL(/\/acls\?permissionType=DENY$/);
    await expect(progress(page)).not.toHaveAttribute("data-pending");
    await expect(progress(page).locator(".nav-progress-bar")).toHaveCount(0);
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(SLOW_MS);
  });

  test("a GET form: its button and the bar say it is working until the answer is shown", async ({
    adminPage: page,
  }) => {
    await page.goto("/principals");
    await slowNavigations(page);
    const form = page.getByRole("form", { name: "Who can do what" });
    await form.getByRole("combobox", { name: /^Resource name/ }).fill("orders");
    await form.getByRole("button", { name: "Who can" }).click();
    await expect(form.getByRole("button", { name: "Deciding…" })).toBeDisabled({ timeout: 1_000 });
    await expect(progress(page)).toHaveAttribute("data-pending", "yes");
    await expect(page).toHaveURL(/resourceName=orders/);
    await expect(form.getByRole("button", { name: "Who can" })).toBeEnabled();
    await expect(progress(page)).not.toHaveAttribute("data-pending");
  });

  test("a sidebar link spins while its page is on its way", async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/");
    await slowNavigations(page);
    const tokens = page.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: "Tokens", exact: true });
    await tokens.click();
    await expect(tokens.locator(".nav-pending.is-pending")).toBeVisible({ timeout: 1_000 });
    await expect(progress(page)).toHaveAttribute("data-pending", "yes");
    await expect(page.getByRole("heading", { level: 1, name: "Tokens" })).toBeVisible();
    await expect(tokens.locator(".nav-pending.is-pending")).toHaveCount(0);
    await expect(tokens).toHaveAttribute("aria-current", "page");
  });

  test("links that change the ACL list in place do not show the bar", async ({ adminPage: page }) => {
    await page.goto("/acls");
    await page
      .getByRole("table", { name: "ACLs", exact: true })
      .getByRole("link", { name: "Principal: sort ascending" })
      .click();
    await expect(page).toHaveURL(/sort=principal/);
    await expect(progress(page)).not.toHaveAttribute("data-pending");
  });
});

test("without JavaScript every page arrives complete: nothing is left in a hidden streamed part", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  try {
    const page = await context.newPage();
    await signInAs(page, "admin");
    const pages: [string, string][] = [
      ["/", "Dashboard"],
      ["/acls?lintCode=redundant-allow", "ACLs"],
      ["/tokens?expiring=7d", "Tokens"],
      ["/principals?resourceType=TOPIC&resourceName=orders", "Principals"],
      ["/access-check?principal=User%3Abob&resourceType=TOPIC&operation=READ&resourceName=payments-eu", "Access check"],
      ["/audit", "Audit"],
    ];
    for (const [path, title] of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: title }), path).toBeVisible();
      // React's streaming puts late parts of a page in <div hidden id="S:n"> for a script to move in.
      await expect(page.locator('div[hidden][id^="S:"]'), path).toHaveCount(0);
      await expect(page.locator(".skeleton"), path).toHaveCount(0);
      await expect(progress(page), path).not.toHaveAttribute("data-pending");
    }
    await page.goto("/acls?lintCode=redundant-allow");
    await expect(page.getByTestId("acl-count")).toContainText(/of \d+ matching/);
    await expect(page.getByLabel("Lint finding")).toHaveValue("redundant-allow");
    await page.goto("/access-check?principal=User%3Abob&resourceType=TOPIC&operation=READ&resourceName=payments-eu");
    await expect(page.getByTestId("decision")).toHaveText("DENIED");
  } finally {
    await context.close();
  }
});
