import { test, expect, signInAs } from "./fixtures";

/**
 * The Audit page as an auditor reads it (issue #9): each change as a diff (bindings created
 * and deleted, quota fields changed) instead of raw JSON, an action dropdown, a sentence
 * saying what the filters match, links to the resource, the principal and the plan,
 * failed sign-ins folded per client and hour, and no sideways scrolling at 1440 px.
 */

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const basic = (user: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`,
});
const TOPIC = `e2e-audit-${RUN}`;
const PRINCIPAL = `User:e2e-audit-${RUN}`;
const GRANT = {
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: PRINCIPAL,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};
const QUOTA_USER = `e2e-audit-${RUN}`;
const STRANGER = `e2e-nobody-${RUN}`;

let planId = "";

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ request }) => {
  await request.delete("/api/v1/acls", { headers: basic("admin"), data: { bindings: [GRANT] } });
  await request.post("/api/v1/quotas", {
    headers: basic("admin"),
    data: { entity: { user: QUOTA_USER }, key: "consumer_byte_rate", value: null },
  });
});

test(
  "the changes happen: an ACL created through a plan and deleted, a quota set and changed, failed " +
    "sign-ins from one client",
  async ({ request, playwright }) => {
    const made = await request.post("/api/v1/plans", {
      headers: basic("admin"),
      data: { kind: "acl.create", bindings: [GRANT] },
    });
    expect(made.status(), await made.text()).toBe(200);
    planId = ((await made.json()) as { id: string }).id;
    const applied = await request.post(`/api/v1/plans/${planId}/apply`, { headers: basic("admin") });
    expect(applied.status(), await applied.text()).toBe(200);
    expect(
      (await request.delete("/api/v1/acls", { headers: basic("admin"), data: { bindings: [GRANT] } })).status(),
    ).toBe(200);

    for (const value of [1_048_576, 2_097_152]) {
      const r = await request.post("/api/v1/quotas", {
        headers: basic("admin"),
        data: { entity: { user: QUOTA_USER }, key: "consumer_byte_rate", value },
      });
      expect(r.status(), await r.text()).toBe(200);
    }

    const stranger = await playwright.request.newContext({
      baseURL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`,
    });
    for (let i = 0; i < 3; i++) {
      const failed = await stranger.post("/api/v1/session", {
        data: { username: STRANGER, password: "wrong", mechanism: "SCRAM-SHA-512" },
      });
      expect([401, 429]).toContain(failed.status());
    }
    await stranger.dispose();
  },
);

test(
  "ACL events: bindings created and deleted as a diff, linked to the resource, the principal and the " +
    "plan; the filters say what they match",
  async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/audit?${new URLSearchParams({ principal: "User:admin", action: "acl.create" })}`);
    await expect(page.getByTestId("audit-match")).toContainText(
      /events? match(es)? actor User:admin, action acl\.create/,
    );
    const created = page
      .getByRole("table", { name: "Audit events" })
      .locator("tr[data-action='acl.create']")
      .filter({ hasText: TOPIC })
      .first();
    await expect(created.getByTestId("audit-change")).toContainText("1 binding created");
    await expect(created.getByTestId("audit-change")).toContainText(`ALLOW READ on TOPIC:${TOPIC} for ${PRINCIPAL}`);
    await expect(created).not.toContainText('"resourceType"'); // no raw JSON
    await expect(created.getByRole("link", { name: `TOPIC:${TOPIC}`, exact: true })).toHaveAttribute(
      "href",
      `/resources?type=TOPIC&name=${TOPIC}`,
    );
    await expect(created.getByRole("link", { name: PRINCIPAL, exact: true })).toHaveAttribute(
      "href",
      `/principals/${encodeURIComponent(PRINCIPAL)}`,
    );
    await expect(created.getByRole("link", { name: "User:admin", exact: true })).toHaveAttribute(
      "href",
      "/principals/User%3Aadmin",
    );
    await expect(created.getByTestId("audit-plan-link")).toHaveAttribute("href", `/plans/${planId}`);

    // The action dropdown lists the actions that exist; choosing one filters by it.
    const action = page.getByLabel("Action");
    await expect(action.locator("option")).toContainText([
      "any",
      "acl.create — ACLs created",
      "acl.delete — ACLs deleted",
      "quota.alter — quota changed",
    ]);
    await action.selectOption("acl.delete");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/action=acl\.delete/);
    await expect(page.getByTestId("audit-match")).toContainText(/match(es)? actor User:admin, action acl\.delete/);
    const deleted = page
      .getByRole("table", { name: "Audit events" })
      .locator("tr[data-action='acl.delete']")
      .filter({ hasText: TOPIC })
      .first();
    await expect(deleted.getByTestId("audit-change")).toContainText("1 binding deleted");

    // Long values wrap or truncate: the page never scrolls sideways at 1440 px.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: ".data/test-results/screens/audit-1440.png", fullPage: true });
  },
);

test("quota events: the value changed, before -> after in its unit", async ({ adminPage: page }) => {
  await page.goto(`/audit?${new URLSearchParams({ action: "quota.alter", principal: "User:admin" })}`);
  const rows = page
    .getByRole("table", { name: "Audit events" })
    .locator("tr[data-action='quota.alter']")
    .filter({ hasText: `user=${QUOTA_USER}` });
  const changed = rows.filter({ has: page.locator("[data-kind='changed']") }).first();
  await expect(changed.locator("[data-kind='changed']")).toContainText("consumer_byte_rate");
  await expect(changed.locator("del")).toHaveText("1 MiB/s (1048576)");
  await expect(changed.locator("ins")).toHaveText("2 MiB/s (2097152)");
  const added = rows.filter({ has: page.locator("[data-kind='added']") }).first();
  await expect(added.locator("[data-kind='added']")).toContainText("consumer_byte_rate");
  await expect(changed.getByRole("link", { name: `user=${QUOTA_USER}`, exact: true })).toHaveAttribute(
    "href",
    `/quotas?user=${QUOTA_USER}#applied`,
  );
});

test("failed sign-ins are folded into one line per client and hour, and can be shown one by one", async ({
  adminPage: page,
}) => {
  await page.goto(`/audit?${new URLSearchParams({ action: "session.sign-in", outcome: "denied" })}`);
  const folded = page.getByTestId("sign-in-noise").filter({ hasText: STRANGER }).first();
  await expect(folded).toContainText(/\d+ failed sign-ins? from /);
  await expect(folded.getByText(`User:${STRANGER}`)).toBeHidden();
  await folded.locator("summary").click();
  await expect(folded.getByRole("link", { name: `User:${STRANGER}` })).toBeVisible();
  // Every row in the table is a folded line.
  await expect(
    page.getByRole("table", { name: "Audit events" }).locator("tr[data-action='session.sign-in']"),
  ).toHaveCount(0);

  await page.getByTestId("sign-in-toggle").click();
  await expect(page).toHaveURL(/signIns=show/);
  await expect(
    page
      .getByRole("table", { name: "Audit events" })
      .locator("tr[data-action='session.sign-in']")
      .filter({ hasText: STRANGER })
      .first(),
  ).toBeVisible();
});

test("alice sees her own events only, with the same diff view", async ({ page }) => {
  await signInAs(page, "alice");
  await page.goto("/audit");
  await expect(page.getByTestId("audit-match")).toContainText("you may see");
  await expect(page.getByRole("table", { name: "Audit events" })).not.toContainText(TOPIC);
  await expect(page.getByTestId("sign-in-noise")).toHaveCount(0);
});
