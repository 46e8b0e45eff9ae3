import { test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = (user: string) => `${user}-secret`;

/** Signs in through the JSON API (not by clicking) and hands the test a signed-in page. */
export async function signInAs(page: Page, username: string, password = DEMO_PASSWORD(username)) {
  const response = await page.request.post("/api/v1/session", {
    data: { username, password, mechanism: "SCRAM-SHA-512" },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export const test = base.extend<{ adminPage: Page }>({
  adminPage: async ({ page }, use) => {
    await signInAs(page, "admin");
    await use(page);
  },
});
export { expect };
