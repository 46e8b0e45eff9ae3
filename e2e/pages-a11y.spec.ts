import { test, expect, signInAs } from "./fixtures";
import AxeBuilder from "@axe-core/playwright";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";

/**
 * Every console page, as admin, at 1440 and 390 px: no sideways page scroll (wide tables
 * scroll in their own box), no serious or critical accessibility violation (axe, WCAG 2.1
 * A/AA), and a full-page screenshot in .data/test-results/screens/<page>-<width>.png for
 * a reviewer. The pages are read from app/c/[cluster]/(console)/**\/page.tsx when the spec runs, so a
 * new page is checked without editing this file (a new dynamic segment needs a sample).
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const CONSOLE = path.join(ROOT, "app", "c", "[cluster]", "(console)");
const SCREENS = path.join(ROOT, ".data", "test-results", "screens");
const WIDTHS = [1440, 390] as const;
const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;

/** Sample values for dynamic segments. */
const SAMPLES: Record<string, (request: APIRequestContext) => Promise<string>> = {
  "[...missing]": async () => "no-such-page",
  "[principal]": async () => encodeURIComponent("User:svc-orders"),
  "[id]": async (request) => {
    // A plan that is previewed, never applied (it expires on its own).
    const binding = {
      resourceType: "TOPIC",
      resourceName: "e2e-a11y-never-applied",
      patternType: "LITERAL",
      principal: "User:e2e-a11y",
      host: "*",
      operation: "READ",
      permissionType: "ALLOW",
    };
    const made = await request.post("/api/v1/plans", {
      headers: { Authorization: basic("admin") },
      data: { kind: "acl.create", bindings: [binding] },
    });
    expect(made.status(), await made.text()).toBe(200);
    return ((await made.json()) as { id: string }).id;
  },
};

/** The console's pages as route patterns ("/", "/acls/new", "/plans/[id]"), from the files. */
function consoleRoutes(dir = CONSOLE, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      const segment = /^\(.*\)$/.test(entry) ? "" : `/${entry}`; // route groups add nothing to the URL
      out.push(...consoleRoutes(full, prefix + segment));
    } else if (entry === "page.tsx") out.push(prefix || "/");
  }
  return out.sort();
}

const slug = (route: string) =>
  route === "/"
    ? "home"
    : route
        .slice(1)
        .replace(/\[\.\.\.|\[|\]/g, "")
        .replace(/\//g, "-");

async function urlOf(route: string, request: APIRequestContext): Promise<string> {
  const parts = await Promise.all(
    route.split("/").map(async (segment) => {
      if (!segment.startsWith("[")) return segment;
      const sample = SAMPLES[segment];
      if (!sample)
        throw new Error(
          `No sample value for the dynamic segment ${segment} of ${route}: add one to SAMPLES in ` +
            `e2e/pages-a11y.spec.ts`,
        );
      return sample(request);
    }),
  );
  return parts.join("/") || "/";
}

/**
 * Violations known in pages this spec's author does not own, keyed "route rule", with the
 * reason. A listed violation that no longer occurs fails the test, so the list cannot rot:
 * remove the entry when the page is fixed.
 */
const KNOWN: Record<string, string> = {};

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".skeleton[aria-busy=true]")).toHaveCount(0, { timeout: 30_000 });
}

async function check(page: Page, route: string, url: string, width: number) {
  await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
  await page.goto(url);
  await settle(page);

  const overflow = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  // The outermost elements past the right edge that no narrower scrolling box clips.
  const wide =
    overflow.scrollWidth > overflow.innerWidth
      ? await page.evaluate(() => {
          const limit = window.innerWidth + 1;
          const clipped = (e: Element) => {
            for (let a = e.parentElement; a; a = a.parentElement) {
              if (
                /(auto|scroll|hidden|clip)/.test(getComputedStyle(a).overflowX) &&
                a.getBoundingClientRect().right <= limit
              )
                return true;
            }
            return false;
          };
          return Array.from(document.querySelectorAll("body *"))
            .filter(
              (e) =>
                e.getBoundingClientRect().right > limit &&
                !(
                  e.parentElement &&
                  e.parentElement.getBoundingClientRect().right > limit &&
                  !clipped(e.parentElement)
                ) &&
                !clipped(e),
            )
            .slice(0, 5)
            .map(
              (e) =>
                `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}` +
                `${[...e.classList].map((c) => `.${c}`).join("")} in ${e.parentElement?.tagName.toLowerCase()}` +
                `${[...(e.parentElement?.classList ?? [])].map((c) => `.${c}`).join("")} right=` +
                `${Math.round(e.getBoundingClientRect().right)}`,
            );
        })
      : [];
  expect
    .soft(overflow.scrollWidth, `${route} at ${width}px scrolls sideways; widest: ${wide.join(", ")}`)
    .toBeLessThanOrEqual(overflow.innerWidth);

  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const unexpected = serious.filter((v) => !(`${route} ${v.id}` in KNOWN));
  expect
    .soft(
      unexpected.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} — ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join(" | ")}`,
      ),
      `${route} at ${width}px`,
    )
    .toEqual([]);
  for (const key of Object.keys(KNOWN).filter((k) => k.startsWith(`${route} `))) {
    expect
      .soft(
        serious.map((v) => `${route} ${v.id}`),
        `${key} is listed as known but no longer occurs: remove it from KNOWN`,
      )
      .toContain(key);
  }

  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${slug(route)}-${width}.png`), fullPage: true });
}

test.describe("every console page at 1440 and 390 px", () => {
  // Two widths, each with axe and a full-page screenshot, on a loaded 2-core machine (the API reference is a large
  // page).
  test.describe.configure({ timeout: 360_000 });
  const routes = consoleRoutes();

  test("the page list is read from the files", () => {
    expect(routes).toEqual(expect.arrayContaining(["/", "/acls", "/quotas", "/tokens", "/token-requests", "/audit"]));
  });

  for (const route of routes) {
    test(`${route}: no sideways scroll, no serious accessibility violation, screenshots`, async ({ page, request }) => {
      await signInAs(page, "admin");
      const url = await urlOf(route, request);
      for (const width of WIDTHS) await check(page, route, url, width);
    });
  }

  test("/sign-in: no sideways scroll, no serious accessibility violation, screenshots", async ({ page }) => {
    for (const width of WIDTHS) await check(page, "/sign-in", "/sign-in", width);
  });
});

test.describe("the console's frame", () => {
  test("icons are served without a session, and every page names them", async ({ page, request }) => {
    for (const [file, type] of [
      ["/favicon.ico", "image/"],
      ["/icons/icon.svg", "image/svg+xml"],
      ["/icons/apple-icon.png", "image/png"],
    ] as const) {
      const response = await request.get(file);
      expect(response.status(), file).toBe(200);
      expect(response.headers()["content-type"]).toContain(type);
    }
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto("/sign-in");
    await expect(page.locator('link[rel="icon"][href="/icons/icon.svg"]')).toHaveCount(1);
    await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute("href", "/icons/apple-icon.png");
    await page.waitForLoadState("networkidle");
    expect(failed).toEqual([]);
  });

  test("at 390 px the sidebar is a Menu that opens and closes; at 1440 px the areas are always shown", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/tokens");
    const areas = page.getByRole("navigation", { name: "Areas" });
    await expect(areas).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(areas).toBeVisible();
    await areas.getByRole("link", { name: "Quotas", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Quotas" })).toBeVisible();
    await expect(areas).toBeHidden();

    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(areas).toBeVisible();
    await expect(page.getByText("Menu", { exact: true })).toBeHidden();
  });

  test("the menu works without JavaScript", async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      baseURL,
      viewport: { width: 390, height: 844 },
    });
    try {
      const page = await context.newPage();
      await signInAs(page, "admin");
      await page.goto("/audit");
      const areas = page.getByRole("navigation", { name: "Areas" });
      await expect(areas).toBeHidden();
      await page.getByText("Menu", { exact: true }).click();
      await expect(areas.getByRole("link", { name: "Tokens", exact: true })).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("the first Tab reaches the skip link, which moves to the content; focus is visible on the dark sidebar", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/quotas");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#content")).toBeFocused();

    await page.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: "Tokens", exact: true }).focus();
    const outline = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor };
    });
    expect(outline.style).toBe("solid");
    expect(outline.width).toBeGreaterThanOrEqual(2);
    expect(outline.color).toBe("rgb(156, 194, 255)");
  });

  test("an unknown address is a not-found page inside the console, with the menu", async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/no-such-page/at-all");
    await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
    await expect(page.getByTestId("principal")).toHaveText("User:admin");
    await expect(page.getByRole("navigation", { name: "Areas" })).toBeVisible();
  });
});
