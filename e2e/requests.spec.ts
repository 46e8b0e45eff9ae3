import type { Browser, Page } from "@playwright/test";
import { test, expect, signInAs } from "./fixtures";

/**
 * Issue #19: requests for any change. alice cannot preview an ACL change (Kafka does not let
 * her describe the cluster's ACLs), so she files one binding on the Requests page; bob opens
 * it and Kafka refuses him the review; admin reviews it (the blast radius, made as admin) and
 * approves: it is applied with the reviewed plan, and the audit trail has request.file and
 * request.apply with the plan id. A reviewer denies with a comment; a requester cancels; a
 * previewed plan becomes a request through Request approval.
 */

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const basic = (user: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`,
});
const TOPIC = `payments-eu-${RUN}`;
const BINDING = {
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: "User:alice",
  host: "*",
  operation: "WRITE",
  permissionType: "ALLOW",
};
const OTHER = { ...BINDING, resourceName: `payments-us-${RUN}`, operation: "READ" };

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ request }) => {
  for (const b of [BINDING, OTHER])
    await request.delete("/api/v1/acls", { headers: basic("admin"), data: { bindings: [b] } });
});

async function pageAs(browser: Browser, user: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, user);
  return page;
}

const idIn = (href: string | null) => /requests\/([0-9a-f-]{36})/.exec(href ?? "")?.[1] ?? "";

/** alice files a request through the API (the setup of the deny and cancel cases). */
async function fileAsAlice(page: Page, binding: typeof BINDING, reason: string): Promise<string> {
  const filed = await page.request.post("/api/v1/requests", {
    headers: basic("alice"),
    data: { change: { kind: "acl.create", bindings: [binding] }, reason },
  });
  expect(filed.status(), await filed.text()).toBe(200);
  return ((await filed.json()) as { request: { id: string } }).request.id;
}

let requestId = "";
let planId = "";

test("alice files a request for WRITE on a topic from the Requests page", async ({ browser }) => {
  const alice = await pageAs(browser, "alice");
  await alice.goto("/requests?filter=mine");
  await expect(alice.getByRole("heading", { name: "Requests", level: 1 })).toBeVisible();
  const form = alice.getByRole("form", { name: "New request" });
  await form.getByLabel("Principal").fill("User:alice");
  await form.getByLabel("Host").fill("*");
  await form.getByLabel("Resource type").selectOption("TOPIC");
  await form.getByLabel("Pattern type").selectOption("LITERAL");
  await form.getByLabel("Resource name").fill(TOPIC);
  await form.getByLabel("Operation").selectOption("WRITE");
  await form.getByLabel("Permission").selectOption("ALLOW");
  await form.getByLabel("Ends after (minutes)").fill("30");
  await form.getByLabel("Reason").fill(`e2e ${RUN}: payments replay`);
  await form.getByRole("button", { name: "File request" }).click();
  await expect(alice.getByTestId("new-request-done")).toContainText("Request filed");
  const link = alice.getByTestId("new-request-link");
  requestId = idIn(await link.getAttribute("href"));
  expect(requestId).not.toBe("");

  await link.click();
  await expect(alice.getByTestId("request-status")).toContainText("PENDING");
  await expect(alice.getByTestId("request-reason")).toHaveText(`e2e ${RUN}: payments replay`);
  await expect(alice.getByRole("heading", { level: 1 })).toContainText(requestId.slice(0, 8));
  await expect(alice.getByText(`create ALLOW WRITE on TOPIC ${TOPIC} for User:alice`).first()).toBeVisible();
  await expect(alice.getByTestId("nav-requests-pending")).toBeVisible();
  await expect(alice.getByRole("button", { name: "Cancel request" })).toBeVisible();

  await alice.goto("/requests?filter=mine");
  const row = alice.locator(`tr[data-request-id="${requestId}"]`);
  await expect(row).toContainText("User:alice");
  await expect(row).toContainText("PENDING");
  await expect(row).toContainText("0 of 1");
  await expect(row).toContainText("30 min");
  await alice.context().close();
});

test("bob opens it and cannot review it: Kafka does not let him describe the ACLs", async ({ browser }) => {
  const bob = await pageAs(browser, "bob");
  await bob.goto(`/requests/${requestId}`);
  await expect(bob.getByTestId("request-reason")).toHaveText(`e2e ${RUN}: payments replay`);
  await bob.getByRole("button", { name: "Review" }).click();
  await expect(bob.getByTestId("review-error")).toContainText("DESCRIBE on CLUSTER");
  await expect(bob.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await bob.context().close();
});

test("admin reviews it (the blast radius) and approves: applied with the reviewed plan, and audited", async ({
  adminPage: page,
}) => {
  await page.goto("/requests");
  const row = page.locator(`tr[data-request-id="${requestId}"]`);
  await expect(row).toContainText(`e2e ${RUN}: payments replay`);
  await row.getByRole("link").click();
  await page.getByRole("button", { name: "Review", exact: true }).click();
  const preview = page.getByTestId("request-review").getByTestId("acl-preview");
  await expect(preview.getByTestId("plan-counts")).toContainText("gained");
  await expect(preview.getByRole("table", { name: "Bindings to create" })).toContainText(TOPIC);
  planId = (await preview.getAttribute("data-plan-id")) ?? "";
  expect(planId).not.toBe("");

  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("approve-done")).toContainText(`Approved and applied (plan ${planId})`);
  await expect(page.getByTestId("request-status")).toContainText("APPLIED");
  await expect(page.getByTestId("request-status")).toContainText(`plan ${planId}`);
  await expect(page.getByTestId("request-approvals")).toContainText("1 of 1: User:admin");

  const acls = await page.request.get(`/api/v1/acls?${new URLSearchParams({ resourceName: TOPIC })}`, {
    headers: basic("admin"),
  });
  expect(JSON.stringify(await acls.json())).toContain('"operation":"WRITE"');

  await page.goto(`/audit?${new URLSearchParams({ action: "request.file" })}`);
  const filed = page.getByRole("table", { name: "Audit events" }).locator("tr[data-action='request.file']");
  await expect(filed.filter({ hasText: requestId }).first()).toBeVisible();
  await page.goto(`/audit?${new URLSearchParams({ action: "request.apply" })}`);
  const applied = page
    .getByRole("table", { name: "Audit events" })
    .locator("tr[data-action='request.apply']")
    .filter({ hasText: requestId })
    .first();
  await expect(applied.getByTestId("audit-plan-link")).toHaveAttribute("href", new RegExp(`/plans/${planId}$`));
});

test("alice ends her grant early: the ACL it created is removed now", async ({ browser }) => {
  const alice = await pageAs(browser, "alice");
  await alice.goto(`/requests/${requestId}`);
  await expect(alice.getByTestId("request-grant")).toContainText("Its ACLs are removed by themselves at");
  await alice.getByRole("button", { name: "End the grant now" }).click();
  await expect(alice.getByTestId("end-grant-done")).toContainText("ended early by User:alice");
  const acls = await alice.request.get(`/api/v1/acls?${new URLSearchParams({ resourceName: TOPIC })}`, {
    headers: basic("admin"),
  });
  expect(JSON.stringify(await acls.json())).not.toContain('"operation":"WRITE"');
  await alice.reload();
  await expect(alice.getByTestId("request-status")).toContainText("APPLIED");
  await expect(alice.getByTestId("request-grant")).toHaveCount(0);
  await alice.context().close();
});

test("a reviewer denies a request with a comment; the requester reads it", async ({ adminPage: page, browser }) => {
  const id = await fileAsAlice(page, OTHER, `e2e ${RUN}: to be denied`);
  await page.goto(`/requests/${id}`);
  await page.getByRole("button", { name: "Review", exact: true }).click();
  await expect(page.getByTestId("request-review")).toBeVisible();
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByText("Say why: a reason is required")).toBeVisible();
  await page.getByLabel("Comment for the requester").fill("Use the payments-eu topic instead");
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByTestId("deny-done")).toContainText("Denied: Use the payments-eu topic instead");

  const alice = await pageAs(browser, "alice");
  await alice.goto(`/requests/${id}`);
  await expect(alice.getByTestId("request-status")).toContainText("DENIED");
  await expect(alice.getByTestId("request-decision")).toContainText("User:admin");
  await expect(alice.getByTestId("request-decision")).toContainText("Use the payments-eu topic instead");
  await expect(alice.getByTestId("request-why")).toContainText("It is denied.");
  await alice.context().close();
});

test("the requester cancels a pending request", async ({ browser }) => {
  const alice = await pageAs(browser, "alice");
  const id = await fileAsAlice(alice, OTHER, `e2e ${RUN}: no longer needed`);
  await alice.goto(`/requests/${id}`);
  await alice.getByRole("button", { name: "Cancel request" }).click();
  await expect(alice.getByTestId("cancel-done")).toContainText("Cancelled.");
  await expect(alice.getByTestId("request-status")).toContainText("CANCELLED");
  await expect(alice.getByRole("button", { name: "Cancel request" })).toHaveCount(0);
  await alice.goto("/requests?filter=decided");
  await expect(alice.locator(`tr[data-request-id="${id}"]`)).toContainText("CANCELLED");
  await alice.context().close();
});

test("a previewed plan becomes a request through Request approval", async ({ adminPage: page }) => {
  const made = await page.request.post("/api/v1/plans", {
    headers: basic("admin"),
    data: { kind: "acl.create", bindings: [OTHER] },
  });
  expect(made.status(), await made.text()).toBe(200);
  const id = ((await made.json()) as { id: string }).id;
  await page.goto(`/plans/${id}`);
  const form = page.getByRole("form", { name: "Request approval" });
  await form.getByRole("button", { name: "Request approval" }).click();
  await expect(page.getByTestId("request-approval-error")).toContainText("Check the highlighted fields");
  await form.getByLabel("Reason").fill(`e2e ${RUN}: from a plan`);
  await form.getByLabel("Ends after (minutes)").fill("15");
  await form.getByRole("button", { name: "Request approval" }).click();
  await expect(page.getByTestId("request-filed")).toContainText("Request filed");
  await page.getByTestId("request-link").click();
  await expect(page.getByTestId("request-reason")).toHaveText(`e2e ${RUN}: from a plan`);
  await expect(page.getByText("15 minutes once applied")).toBeVisible();
  await page.getByRole("button", { name: "Cancel request" }).click();
  await expect(page.getByTestId("request-status")).toContainText("CANCELLED");
});
