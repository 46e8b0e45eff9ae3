import { test, expect, signInAs } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

/**
 * Fields narrowed by the resource type chosen in the same form (issue #9: "Select narrowed
 * by context", "Combobox with suggestions"): on every form with a resource type, the
 * resource name suggests the names of that type the cluster's ACLs use, and the operation
 * (where the form has one) lists what Kafka accepts on it. Demo ACLs
 * (scripts/seed/demo-data.ts): topic orders, group orders-service, transactional id
 * prefix orders-tx-.
 */

/** The values a text field's <datalist> offers. */
async function suggestions(field: Locator): Promise<string[]> {
  const list = await field.getAttribute("list");
  expect(list).toBeTruthy();
  return field
    .page()
    .locator(`datalist[id="${list}"] option`)
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
}

async function operations(select: Locator): Promise<string[]> {
  return select.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
}

const FORMS: { name: string; path: string; scope: (page: Page) => Locator; nameField: RegExp; operation: boolean }[] = [
  {
    name: "Create ACLs",
    path: "/acls/new",
    scope: (page) => page.getByRole("form", { name: "New ACLs" }),
    nameField: /^Resource name/,
    operation: true,
  },
  {
    name: "Access check",
    path: "/access-check",
    scope: (page) => page.locator("main"),
    nameField: /^Resource name/,
    operation: true,
  },
  {
    name: "Who can (one resource)",
    path: "/principals",
    scope: (page) => page.getByRole("form", { name: "Who can do what" }),
    nameField: /^Resource name/,
    operation: false,
  },
  {
    name: "Who can (a prefix)",
    path: "/principals",
    scope: (page) => page.getByRole("form", { name: "Who can do what" }),
    nameField: /^or a name prefix/,
    operation: false,
  },
];

for (const form of FORMS) {
  test(
    `${form.name}: the resource name suggests names of the chosen ` +
      `type${form.operation ? ", the operation lists its operations" : ""}`,
    async ({ adminPage: page }) => {
      await page.goto(form.path);
      const scope = form.scope(page);
      const type = scope.getByRole("combobox", { name: /^Resource type/ });
      const name = scope.getByRole("combobox", { name: form.nameField });
      const operation = scope.getByRole("combobox", { name: /^Operation/ });

      await type.selectOption("TOPIC");
      await expect(name).toHaveAttribute("data-narrowed-to", "TOPIC");
      expect(await suggestions(name)).toContain("orders");
      expect(await suggestions(name)).not.toContain("orders-service");
      expect(await suggestions(name)).not.toContain("orders-tx-");

      await type.selectOption("GROUP");
      await expect(name).toHaveAttribute("data-narrowed-to", "GROUP");
      expect(await suggestions(name)).toContain("orders-service");
      expect(await suggestions(name)).not.toContain("orders");
      if (form.operation) {
        expect(await operations(operation)).toContain("READ");
        expect(await operations(operation)).not.toContain("WRITE");
      }

      await type.selectOption("TRANSACTIONAL_ID");
      expect(await suggestions(name)).toEqual(expect.arrayContaining(["orders-tx-"]));
      expect(await suggestions(name)).not.toContain("orders-service");
      if (form.operation) {
        expect(await operations(operation)).toEqual(expect.arrayContaining(["WRITE", "DESCRIBE"]));
        expect(await operations(operation)).not.toContain("READ");
      }

      await type.selectOption("CLUSTER");
      expect(await suggestions(name)).toEqual(["kafka-cluster"]);
      if (form.operation) expect(await operations(operation)).toContain("IDEMPOTENT_WRITE");
    },
  );
}

test(
  "Create ACLs templates: the topic fields suggest topics, the group field groups, the transactional.id " +
    "field transactional ids",
  async ({ adminPage: page }) => {
    await page.goto("/acls/new");
    const form = page.getByRole("form", { name: "New ACLs" });
    await form.getByRole("combobox", { name: "What to create" }).selectOption("consumer");
    const topics = await suggestions(form.getByRole("combobox", { name: /^Topics/ }));
    expect(topics).toContain("orders");
    expect(topics).not.toContain("orders-service");
    const groups = await suggestions(form.getByRole("combobox", { name: /^Consumer group/ }));
    expect(groups).toContain("orders-service");
    expect(groups).not.toContain("orders");
    await form.getByRole("combobox", { name: "What to create" }).selectOption("transactional");
    const ids = await suggestions(form.getByRole("combobox", { name: /^transactional\.id/ }));
    expect(ids).toContain("orders-tx-");
    expect(ids).not.toContain("orders");
  },
);

test("without JavaScript the resource name offers the names of every type (a changed type cannot narrow it)", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  try {
    const page = await context.newPage();
    await signInAs(page, "admin");
    await page.goto("/access-check");
    const offered = await suggestions(page.getByRole("combobox", { name: /^Resource name/ }));
    expect(offered).toEqual(expect.arrayContaining(["orders", "orders-service", "orders-tx-", "kafka-cluster"]));
  } finally {
    await context.close();
  }
});
