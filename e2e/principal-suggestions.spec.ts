import { test, expect } from "./fixtures";
import type { Locator } from "@playwright/test";

/** Issue #17 item 14: the principal fields offer the principals the cluster knows, as on /acls/new. */
async function suggestionsOf(input: Locator): Promise<string[]> {
  const list = await input.getAttribute("list");
  expect(list, "the field has suggestions").toBeTruthy();
  return input
    .page()
    .locator(`datalist[id="${list}"] option`)
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
}

test("the ACL filter, the token owner and renewers and the audit actor suggest principals", async ({
  adminPage: page,
}) => {
  await page.goto("/acls");
  expect(
    await suggestionsOf(page.getByRole("form", { name: "Filter ACLs" }).getByLabel("Principal", { exact: true })),
  ).toContain("User:svc-orders");

  await page.goto("/tokens");
  const create = page.getByRole("form", { name: "Create a token" });
  expect(await suggestionsOf(create.getByLabel("Owner"))).toContain("User:svc-orders");
  const renewers = create.getByLabel("Renewers");
  expect(await suggestionsOf(renewers)).not.toContain("User:*");
  // After a comma, the next renewer is offered after the ones typed.
  await renewers.fill("User:svc-orders,");
  await expect.poll(() => suggestionsOf(renewers)).toContain("User:svc-orders, User:admin");

  await page.goto("/audit");
  expect(await suggestionsOf(page.getByRole("form", { name: "Audit filters" }).getByLabel("Actor"))).toContain(
    "User:admin",
  );
});
