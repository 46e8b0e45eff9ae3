import { test, expect } from "./fixtures";
import type { Page } from "@playwright/test";

/** An operation of the reference, opened (each is folded to its summary line). */
async function openOperation(page: Page, title: string) {
  const operation = page.getByRole("region", { name: title, exact: true });
  await operation.locator("summary").first().click();
  return operation;
}

test.describe("API reference page", () => {
  test("runs GET /api/v1/cluster from the browser with the session and shows the cluster id", async ({
    adminPage: page,
  }) => {
    const cluster = await (await page.request.get("/api/v1/cluster")).json();
    expect(cluster.clusterId).toEqual(expect.any(String));

    await page.goto("/");
    await page.getByRole("navigation", { name: "Developers" }).getByRole("link", { name: "API reference" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

    const operation = await openOperation(page, "GET /api/v1/cluster");
    await operation.getByRole("button", { name: "Send request" }).click();
    await expect(operation.getByLabel("Status")).toHaveText(/HTTP 200/);
    const answer = operation.getByLabel("Answer of GET /api/v1/cluster", { exact: true });
    await expect(answer).toContainText(`"clusterId": "${cluster.clusterId}"`);
    await expect(answer).toContainText(`"principal": "User:admin"`);
  });

  test(
    "fills a GET form from a documented example, marks what is required, and shows the refusal of a bad " + "value",
    async ({ adminPage: page }) => {
      await page.goto("/api-reference");
      const operation = await openOperation(page, "GET /api/v1/access-check");
      const parameters = operation.getByRole("table", { name: "Parameters of GET /api/v1/access-check" });
      await expect(parameters.getByRole("row", { name: /^operation required/ })).toBeVisible();
      // One of principal, certificateDn and kerberosPrincipal names the client, so none of them alone is required.
      await expect(parameters.getByRole("row", { name: /^principal / })).not.toContainText("required");
      await expect(parameters.getByRole("row", { name: /^host / })).not.toContainText("required");

      const form = operation.getByRole("form", { name: "Try GET /api/v1/access-check" });
      await form.getByRole("button", { name: "cluster" }).click();
      await expect(form.getByLabel("resourceType")).toHaveValue("CLUSTER");
      await form.getByRole("button", { name: "Send request" }).click();
      await expect(form.getByLabel("Status")).toHaveText(/HTTP 200/);
      await expect(form.getByLabel("Answer of GET /api/v1/access-check", { exact: true })).toContainText(
        '"resourceName": "kafka-cluster"',
      );

      await form.getByLabel("principal", { exact: true }).fill("alice");
      await form.getByRole("button", { name: "Send request" }).click();
      await expect(form.getByLabel("Status")).toHaveText(/HTTP 400/);
      await expect(form.getByLabel("Answer of GET /api/v1/access-check", { exact: true })).toContainText("Type:name");
    },
  );

  test("a page of one line per operation, grouped by area; the table of contents opens the operation it names", async ({
    adminPage: page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/api-reference");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(12_000);
    await expect(page.getByRole("button", { name: "Send request" }).first()).toBeHidden();

    await page
      .getByRole("navigation", { name: "API areas" })
      .getByRole("link", { name: "GET /api/v1/cluster" })
      .click();
    const operation = page.getByRole("region", { name: "GET /api/v1/cluster", exact: true });
    await expect(operation.getByRole("button", { name: "Send request" })).toBeVisible();
    await expect(operation.getByRole("button", { name: "Send request" })).toBeInViewport();
  });

  test("shows changes as curl commands, never as a live button", async ({ adminPage: page }) => {
    await page.goto("/api-reference");
    const operation = await openOperation(page, "POST /api/v1/acls");
    await expect(operation.getByRole("button", { name: "Send request" })).toHaveCount(0);
    const curl = operation.getByLabel(/^curl: Create that binding/);
    await expect(curl).toContainText("curl -X POST");
    await expect(curl).toContainText("/api/v1/acls");
    await expect(curl).toContainText('-u "$KAFKA_USER:$KAFKA_PASSWORD"');
    await expect(curl).toContainText('"resourceName":"ksc-api-example"');
    await expect(operation.getByRole("table", { name: "Request body of POST /api/v1/acls" })).toContainText(
      "bindings[].resourceType",
    );
  });
});
