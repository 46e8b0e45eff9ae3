import { test, expect } from "./fixtures";

/**
 * Issue #17 item 14: "Check access" on a PREFIXED ACL checks the prefix as a name and says a name under it may be
 * checked instead.
 */
test(
  "Check access from a PREFIXED row: the prefix is checked as a name it covers, and the page says any " +
    "name under it can be",
  async ({ adminPage: page }) => {
    await page.goto("/acls?principal=User%3Abob&resourceType=TOPIC&resourceName=payments-&patternType=PREFIXED");
    const row = page.getByRole("row").filter({ hasText: "payments-" }).filter({ hasText: "PREFIXED" }).first();
    await row.getByRole("link", { name: /^Check access like/ }).click();

    await expect(page).toHaveURL(/\/access-check\?.*prefix=payments-/);
    const form = page.getByRole("form", { name: "Access check" });
    await expect(form.getByLabel("Resource name")).toHaveValue("payments-");
    await expect(form.getByText("Checked: the prefix payments- itself, a name its PREFIXED ACL covers.")).toBeVisible();
    await expect(page.getByTestId("decision")).toHaveText(/ALLOWED/);

    // Another name under the prefix: checked as asked, without the note.
    await form.getByLabel("Resource name").fill("payments-apac");
    await form.getByRole("button", { name: "Check" }).click();
    await expect(page).toHaveURL(/resourceName=payments-apac/);
    await expect(form.getByText("Checked: the prefix")).toHaveCount(0);
  },
);
