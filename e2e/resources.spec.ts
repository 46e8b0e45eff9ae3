import { test, expect, signInAs } from "./fixtures";

/**
 * The Resources area against the dev broker and the demo ACLs (scripts/seed/demo-data.ts).
 * Read-only: nothing is created or deleted on the broker.
 */

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;

test("as admin, the index lists topics with the number of ACLs that apply to each", async ({ adminPage: page }) => {
  await page.goto("/resources");
  const topics = page.getByRole("table", { name: "Topics list" });
  const row = topics.getByRole("row").filter({ has: page.getByRole("link", { name: "payments-eu", exact: true }) });
  // bob's DENY, the PREFIXED payments- ALLOWs for bob and svc-billing, carol's LITERAL * (other specs may add their own
  // ACLs elsewhere).
  const count = Number(await row.getByTestId("acl-count").innerText());
  expect(count).toBeGreaterThanOrEqual(4);
  await expect(topics.getByRole("link", { name: "orders", exact: true })).toBeVisible();
  await expect(page.getByTestId("acl-counts-unavailable")).toHaveCount(0);
  await expect(
    page.getByRole("table", { name: "Users list" }).getByRole("link", { name: "User:svc-orders" }),
  ).toBeVisible();

  await page.getByLabel("Name contains").fill("payments");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/q=payments/);
  await expect(topics.getByRole("link", { name: "orders", exact: true })).toHaveCount(0);
  await topics.getByRole("link", { name: "payments-eu", exact: true }).click();
  await expect(page).toHaveURL(/\/resources\?type=TOPIC&name=payments-eu$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("payments-eu");
});

test("the detail of payments-eu groups the ACLs by why they apply, and the matrix decides like Kafka", async ({
  adminPage: page,
}) => {
  await page.goto(`/resources?${new URLSearchParams({ type: "TOPIC", name: "payments-eu" })}`);

  const literal = page.getByRole("table", { name: 'ACLs: LITERAL "payments-eu": ACLs on exactly this name' });
  await expect(literal.getByRole("row").filter({ hasText: "User:bob" })).toContainText("DENY");
  const prefixed = page.getByRole("table", { name: /^ACLs: PREFIXED "payments-"/ });
  await expect(prefixed.getByRole("row").filter({ hasText: "User:svc-billing" })).toContainText("READ");
  await expect(prefixed.getByRole("row").filter({ hasText: "User:bob" })).toContainText("ALLOW");
  await expect(
    page
      .getByRole("table", { name: /^ACLs: LITERAL "\*"/ })
      .getByRole("row")
      .filter({ hasText: "User:carol" }),
  ).toContainText("DESCRIBE");
  // The order: exact name, prefixes, then *.
  const reasons = await page
    .locator("section.apply-group")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-reason")));
  expect(reasons[0]).toBe("literal");
  expect(reasons[reasons.length - 1]).toBe("wildcard");

  const matrix = page.getByRole("table", { name: "Effective permissions" });
  const bobRead = matrix.locator('tr[data-principal="User:bob"] td[data-operation="READ"] > a');
  await expect(bobRead).toHaveText("DENIED");
  await expect(bobRead).toHaveAttribute("title", /A matching DENY wins/);
  const billingRead = matrix.locator('tr[data-principal="User:svc-billing"] td[data-operation="READ"] > a');
  await expect(billingRead).toHaveText("ALLOWED");
  await expect(billingRead).toHaveAttribute("title", /PREFIXED/);
  await expect(page.getByTestId("matrix-assumptions")).toContainText("host no ACL names");

  // Each cell opens the Access check, prefilled, with the full explanation.
  await bobRead.click();
  await expect(page).toHaveURL(/\/access-check\?/);
  await expect(page.getByTestId("decision")).toHaveText("DENIED");
});

test("GET /api/v1/resources returns the detail as JSON", async ({ request }) => {
  const response = await request.get(
    `/api/v1/resources?${new URLSearchParams({ type: "TOPIC", name: "payments-eu" })}`,
    { headers: { Authorization: basic("admin") } },
  );
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as {
    groups: { reason: string; pattern: string }[];
    rows: { principal: string; cells: { operation: string; decision: string }[] }[];
  };
  expect(body.groups.map((g) => g.reason)).toEqual(expect.arrayContaining(["literal", "prefixed", "wildcard"]));
  const decision = (p: string, op: string) =>
    body.rows.find((r) => r.principal === p)?.cells.find((c) => c.operation === op)?.decision;
  expect(decision("User:bob", "READ")).toBe("DENIED");
  expect(decision("User:svc-billing", "READ")).toBe("ALLOWED");
  const bad = await request.get("/api/v1/resources?type=TABLE&name=x", { headers: { Authorization: basic("admin") } });
  expect(bad.status()).toBe(400);
});

test("as alice, who may not describe ACLs, the index shows Kafka's reason instead of counts", async ({ page }) => {
  await signInAs(page, "alice");
  await page.goto("/resources");
  await expect(page.getByTestId("acl-counts-unavailable")).toContainText(/DESCRIBE|authoriz/i);
  await expect(
    page.getByRole("table", { name: "Topics list" }).getByRole("link", { name: "orders", exact: true }),
  ).toBeVisible();
  await expect(page.getByTestId("acl-count")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Users" })).toContainText(
    "USER resources named in ACLs, which could not be read",
  );
});

test(
  "the matrix keeps principals' case and links each to its view; a DENIED cell's Access check says " +
    "DENIED too (carol on audit-log)",
  async ({ adminPage: page }) => {
    await page.goto(`/resources?${new URLSearchParams({ type: "TOPIC", name: "audit-log" })}`);
    const matrix = page.getByRole("table", { name: "Effective permissions" });
    // Kafka names are case-sensitive: what is shown (after CSS) is the principal as written.
    const header = matrix
      .locator('tr[data-principal="User:svc-billing"] th')
      .getByRole("link", { name: "User:svc-billing" });
    expect(await header.innerText()).toBe("User:svc-billing");

    // carol may READ audit-log only from 127.0.0.1; the matrix answers for a host no ACL names.
    const carolRead = matrix.locator('tr[data-principal="User:carol"] td[data-operation="READ"] > a');
    await expect(carolRead).toHaveText("DENIED");
    await expect(carolRead).not.toHaveAttribute("href", /host=127\.0\.0\.1/);
    await carolRead.click();
    await expect(page).toHaveURL(/\/access-check\?/);
    await expect(page.getByTestId("decision")).toHaveText("DENIED");

    await page.goBack();
    await header.click();
    await expect(page).toHaveURL(/\/principals\/User%3Asvc-billing$/);
  },
);

test("a topic Kafka does not list gets a notice, and the ACLs that would apply to it", async ({ adminPage: page }) => {
  await page.goto(`/resources?${new URLSearchParams({ type: "TOPIC", name: "no-such-topic-e2e" })}`);
  await expect(page.getByTestId("resource-not-listed")).toContainText("does not list a TOPIC named no-such-topic-e2e");
  // carol's LITERAL * DESCRIBE still applies to the name.
  await expect(page.getByRole("table", { name: /^ACLs: LITERAL "\*"/ })).toContainText("User:carol");
  await page.goto(`/resources?${new URLSearchParams({ type: "TOPIC", name: "orders" })}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("orders");
  await expect(page.getByTestId("resource-not-listed")).toHaveCount(0);
});
