import { test, expect } from "./fixtures";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";

/**
 * Issue #17 items 10, 13 and the dark theme: what a daily user of the lists sees, at 1440
 * and 390 px. Names keep their case, a value is never cut inside a token, rows stay one
 * line, and a wide table scrolls in its own region instead of the page.
 */

/** How many lines the element's text takes (one rectangle per line box). */
const linesOf = (cell: Locator) =>
  cell.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size;
  });

async function settled(page: Page, url: string) {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
}

test.describe("at 1440 px", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test(
    "the ACL list: every row is one line, operations and principals are never cut, and seven rows or " +
      "more fit above the fold (about five did)",
    async ({ adminPage: page }) => {
      await settled(page, "/acls");
      const table = page.getByRole("table", { name: "ACLs" });
      const rows = table.locator("tbody tr");
      const count = await rows.count();
      expect(count).toBeGreaterThan(7);
      const heights = await rows.evaluateAll((trs) => trs.map((tr) => Math.round(tr.getBoundingClientRect().height)));
      // One line of text plus the row's padding: no row is taller than the shortest one.
      expect(Math.max(...heights)).toBeLessThanOrEqual(Math.min(...heights));
      const bottoms = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().bottom));
      expect(bottoms.filter((b) => b <= 900).length).toBeGreaterThanOrEqual(7);

      for (const text of ["IDEMPOTENT_WRITE", "User:svc-billing", "User:console-service"]) {
        const cell = table.locator("tbody td", { hasText: text }).first();
        expect(await linesOf(cell), `${text} on one line`).toBe(1);
      }
      // The row actions sit on the row's one line, still named for what they act on.
      const actions = rows.first().locator(".row-actions");
      expect(await actions.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(40);
      await expect(rows.first().getByRole("link", { name: /^Check access like/ })).toBeVisible();
      // However wide the table (a long name scrolls it sideways), each row's actions stay in view.
      const region = page.getByRole("region", { name: "ACLs (scrolls sideways)" });
      const regionRight = await region.evaluate((r) => r.getBoundingClientRect().right);
      const linkRights = await rows
        .locator(".row-actions a:last-child")
        .evaluateAll((as) => as.map((a) => a.getBoundingClientRect().right));
      for (const right of linkRights) expect(right).toBeLessThanOrEqual(regionRight + 1);
    },
  );

  test("names keep their case: row headers and cells are shown as Kafka holds them", async ({ adminPage: page }) => {
    await settled(page, `/principals/${encodeURIComponent("User:carol")}`);
    const rowHeaders = page.locator("table.data tbody th");
    expect(await rowHeaders.count()).toBeGreaterThan(0);
    const transforms = await rowHeaders.evaluateAll((ths) => [
      ...new Set(ths.map((th) => getComputedStyle(th).textTransform)),
    ]);
    expect(transforms).toEqual(["none"]);
    // innerText is the text as rendered (after any text-transform).
    const shown = await page.locator("main").innerText();
    expect(shown).toContain("audit-log");
    expect(shown).not.toContain("AUDIT-LOG");

    await settled(page, "/quotas");
    const quotaText = await page.locator("main").innerText();
    expect(quotaText).toContain("svc-orders");
    expect(quotaText).not.toContain("SVC-ORDERS");
    const headerTransforms = await page
      .locator("table.data th")
      .evaluateAll((ths) => [...new Set(ths.map((th) => getComputedStyle(th).textTransform))]);
    expect(headerTransforms).toEqual(["none"]);
  });
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test(
    "the resource page and the quotas do not scroll sideways; their tables scroll in their own region " +
      "and keys stay whole",
    async ({ adminPage: page }) => {
      for (const url of ["/resources?type=TOPIC&name=audit-log", "/quotas", "/acls", "/tokens"]) {
        await settled(page, url);
        const widths = await page.evaluate(() => ({
          scroll: document.scrollingElement!.scrollWidth,
          inner: window.innerWidth,
        }));
        expect(widths.scroll, `${url} scrolls sideways`).toBeLessThanOrEqual(widths.inner);
      }
      await settled(page, "/quotas");
      const key = page.locator("table.data td", { hasText: /^producer_byte_rate$/ }).first();
      expect(await linesOf(key)).toBe(1);
      await settled(page, "/resources?type=TOPIC&name=audit-log");
      const name = page.locator("table.data td", { hasText: /^audit-log$/ }).first();
      expect(await linesOf(name)).toBe(1);
    },
  );
});

/** The first five nodes of each contrast violation axe finds on the page, with why. */
async function contrastFailures(page: Page) {
  const results = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`),
  );
}

test.describe("dark theme", () => {
  test.use({ colorScheme: "dark", viewport: { width: 1440, height: 900 } });

  test("follows the system setting", async ({ page }) => {
    await settled(page, "/sign-in");
    const background = await page.evaluate(
      () =>
        getComputedStyle(document.body).backgroundColor || getComputedStyle(document.documentElement).backgroundColor,
    );
    const dark = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--bg").trim());
    expect(dark, `background ${background}`).toBe("#10151c");
  });

  // One test per page: axe's contrast rule weighs every text node, so each page has its own
  // time budget and a failure names the page.
  for (const url of [
    "/",
    "/acls",
    "/quotas",
    "/access-check?principal=User%3Acarol&resourceType=TOPIC&resourceName=audit-log&operation=READ",
    "/audit",
    "/tokens",
    "/drift",
  ]) {
    test(`${url.split("?")[0]} keeps WCAG AA contrast`, async ({ adminPage: page }) => {
      await settled(page, url);
      expect(await contrastFailures(page), `${url} in the dark theme`).toEqual([]);
    });
  }

  test("/sign-in keeps WCAG AA contrast", async ({ page }) => {
    await settled(page, "/sign-in");
    expect(await contrastFailures(page), "/sign-in in the dark theme").toEqual([]);
  });
});
