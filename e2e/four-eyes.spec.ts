/**
 * Four-eyes (#19), in Chromium, on a second console over the same broker and database with
 * KAFKA_REQUIRED_APPROVALS=1:
 *
 *   - admin previews an ACL change and Apply is refused with the four-eyes message;
 *   - admin files it as a request (with a grant of an hour) and may not review or approve
 *     their own (409 with the reason);
 *   - dana (the demo's security officer, ALTER on the cluster) reviews and approves it: the
 *     ACL exists; the dashboard lists the live grant and the principal's page its time left,
 *     where admin (its requester) ends it now: the ACL is removed;
 *   - alice requests a SCRAM user on the Users page (no direct form there); dana reviews and
 *     approves it and sees no password; alice sees the generated password once, and Kafka
 *     accepts it; a second look is refused;
 *   - admin applies another plan by break-glass with a reason, and the dashboard flags it;
 *     admin may not review it; dana reviews it after the fact with a comment, and the
 *     dashboard shows it reviewed by her instead of flagging it; a second review is a 409.
 *
 * The ACLs are for a principal of this spec only, removed afterwards through the main console
 * (which needs no approvals): the broker is shared.
 */
import { test, expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { startInstance, type Instance } from "./console-instance";

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;
const PRINCIPAL = `User:e2e-four-eyes-${Date.now().toString(36)}`;
const TOPIC = "e2e-four-eyes";
const SCRAM_USER = `e2e-four-eyes-${Date.now().toString(36)}`;

interface Binding {
  resourceType: string;
  resourceName: string;
  patternType: string;
  principal: string;
  host: string;
  operation: string;
  permissionType: string;
}

const binding = (operation: string): Binding => ({
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: PRINCIPAL,
  host: "*",
  operation,
  permissionType: "ALLOW",
});

async function aclsOf(request: APIRequestContext, url = ""): Promise<Binding[]> {
  const response = await request.get(`${url}/api/v1/acls?${new URLSearchParams({ principal: PRINCIPAL })}`, {
    headers: { Authorization: basic("admin") },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { acls: Binding[] }).acls;
}

async function signedIn(browser: Browser, instance: Instance, username: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.url })).newPage();
  const response = await page.request.post(`${instance.url}/api/v1/session`, {
    data: { username, password: `${username}-secret`, mechanism: "SCRAM-SHA-512" },
  });
  expect(response.status(), await response.text()).toBe(200);
  return page;
}

async function json<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

test.describe.serial("four-eyes: requests, approvals, grants and break-glass", () => {
  let instance: Instance;

  test.beforeAll(async () => {
    test.setTimeout(200_000);
    instance = await startInstance("four-eyes", { KAFKA_REQUIRED_APPROVALS: "1", LOG_LEVEL: "info" });
  });

  test.afterAll(async ({ request }) => {
    const ours = await aclsOf(request);
    if (ours.length > 0)
      await request.delete("/api/v1/acls", { headers: { Authorization: basic("admin") }, data: { bindings: ours } });
    await request.delete("/api/v1/scram-users", {
      headers: { Authorization: basic("admin") },
      data: { user: SCRAM_USER },
    });
    if (instance && instance.child.exitCode === null) instance.child.kill("SIGKILL");
  });

  test(
    "Apply is refused; admin's request is approved by dana, not by admin; the grant is listed and ended " +
      "early by its requester",
    async ({ browser }) => {
      test.setTimeout(120_000);
      const admin = await signedIn(browser, instance, "admin");
      const read = binding("READ");

      // admin previews the change; Apply on its page is refused: four-eyes.
      const plan = await json<{ id: string }>(
        await admin.request.post("/api/v1/plans", { data: { kind: "acl.create", bindings: [read] } }),
      );
      await admin.goto(`/plans/${plan.id}`);
      await admin.getByRole("button", { name: /^Apply/ }).click();
      await expect(admin.getByTestId("apply-error")).toContainText("(four-eyes)");
      expect(await aclsOf(admin.request)).toEqual([]);

      // admin files it as a request, with a grant of an hour; admin may not review it.
      const filed = await json<{ request: { id: string; status: string } }>(
        await admin.request.post("/api/v1/requests", {
          data: { change: { kind: "acl.create", bindings: [read] }, reason: "e2e: four-eyes", grantMinutes: 60 },
        }),
      );
      expect(filed.request.status).toBe("PENDING");
      const id = filed.request.id;
      const own = await json<{ error: string }>(await admin.request.post(`/api/v1/requests/${id}/review`), 409);
      expect(own.error).toContain("someone other than the requester");

      // dana reviews and approves: the ACL exists.
      const dana = await signedIn(browser, instance, "dana");
      const reviewed = await json<{ id: string }>(await dana.request.post(`/api/v1/requests/${id}/review`));
      const approved = await json<{ request: { status: string; grantId: string | null } }>(
        await dana.request.post(`/api/v1/requests/${id}/approve`, { data: { planId: reviewed.id } }),
      );
      expect(approved.request.status).toBe("APPLIED");
      expect(approved.request.grantId).not.toBeNull();
      expect(await aclsOf(admin.request)).toEqual([read]);

      // The dashboard lists the live grant; the principal's page its time left, and End now for admin.
      await admin.goto("/");
      const grantRow = admin.locator(
        `[data-testid="grants-live-list"] tr[data-grant-id="${approved.request.grantId}"]`,
      );
      await expect(grantRow).toContainText(PRINCIPAL);
      await expect(grantRow).toContainText("User:dana");
      await admin.goto(`/principals/${encodeURIComponent(PRINCIPAL)}`);
      const row = admin.getByTestId("principal-grants").locator(`tr[data-grant-id="${approved.request.grantId}"]`);
      await expect(row).toContainText(/ends in (59 min|60 min|1 h)/);
      await row.getByRole("button", { name: "End now" }).click();
      await expect(admin.getByTestId("grant-ended")).toBeVisible();
      await expect.poll(() => aclsOf(admin.request)).toEqual([]);
    },
  );

  test("a SCRAM user is requested, approved by someone else, and its password shown once to its requester", async ({
    browser,
  }) => {
    const alice = await signedIn(browser, instance, "alice");
    await alice.goto("/users");
    await expect(alice.getByRole("form", { name: "Create" })).toHaveCount(0);
    const form = alice.getByRole("form", { name: "Request a SCRAM change" });
    await form.getByLabel("User name").fill(SCRAM_USER);
    await form.getByLabel("Reason").fill("e2e: the billing job's account");
    await form.getByRole("button", { name: "Request…" }).click();
    await expect(alice.getByTestId("scram-request-done")).toBeVisible();
    await alice.getByTestId("scram-request-link").click();
    await expect(alice.getByTestId("request-status")).toContainText("PENDING");
    const requestUrl = new URL(alice.url()).pathname;

    const dana = await signedIn(browser, instance, "dana");
    await dana.goto(requestUrl);
    await dana.getByRole("button", { name: "Review", exact: true }).click();
    await expect(dana.getByTestId("scram-plan-summary")).toContainText(`Create the SCRAM user ${SCRAM_USER}`);
    await dana.getByRole("button", { name: "Approve" }).click();
    await expect(dana.getByTestId("approve-done")).toContainText("Approved and applied");
    const approverSaw = await dana.locator("main").innerText();
    await dana.reload();
    await expect(dana.getByTestId("request-password-status")).toContainText("waits for User:alice");
    await expect(dana.getByTestId("request-password-value")).toHaveCount(0);

    await alice.reload();
    await alice.getByRole("button", { name: "Show the password once" }).click();
    const password = await alice.getByTestId("request-password-value").inputValue();
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(approverSaw).not.toContain(password);
    // Kafka accepts it: a sign-in as the new user, in a context of its own.
    const probe = await browser.newContext({ baseURL: instance.url });
    const session = await probe.request.post(`${instance.url}/api/v1/session`, {
      data: { username: SCRAM_USER, password, mechanism: "SCRAM-SHA-512" },
    });
    expect(session.status(), await session.text()).toBe(200);
    await probe.close();
    await alice.reload();
    await expect(alice.getByTestId("request-password-status")).toContainText("was shown to User:alice");
    const again = await alice.request.post(
      `${instance.url}/api/v1${requestUrl.replace(/^.*\/requests/, "/requests")}/password`,
    );
    expect(again.status()).toBe(409);
  });

  test("a super user's break-glass apply needs a reason, applies, and the dashboard flags it", async ({ browser }) => {
    test.setTimeout(120_000);
    const admin = await signedIn(browser, instance, "admin");
    const write = binding("WRITE");
    const plan = await json<{ id: string }>(
      await admin.request.post("/api/v1/plans", { data: { kind: "acl.create", bindings: [write] } }),
    );
    await admin.goto(`/plans/${plan.id}`);
    const form = admin.getByTestId("break-glass");
    await form.getByLabel("Reason").fill("e2e: incident 1234, cannot wait");
    await form.getByRole("button", { name: "Break-glass apply" }).click();
    await expect(admin.getByTestId("acl-result")).toBeVisible();
    expect(await aclsOf(admin.request)).toEqual([write]);

    await admin.goto("/");
    const flagged = admin.getByTestId("break-glass-list").locator(`li[data-plan-id="${plan.id}"]`);
    await expect(flagged).toContainText("break-glass");
    await expect(flagged).toContainText("e2e: incident 1234, cannot wait");

    // The applier cannot review it: the break-glass page says why and offers no form.
    await flagged.getByTestId("break-glass-review-link").click();
    await expect(admin.getByTestId("break-glass-review-why")).toContainText("someone else must review it");
    await expect(admin.getByTestId("break-glass-review-form")).toHaveCount(0);
    await admin.goto(`/plans/${plan.id}`);
    await expect(admin.getByTestId("plan-break-glass")).toContainText("Not reviewed yet");

    // dana (ALTER on the cluster) reviews it after the fact from the dashboard, with a comment.
    const dana = await signedIn(browser, instance, "dana");
    await dana.goto("/");
    const hersToReview = dana.getByTestId("break-glass-list").locator(`li[data-plan-id="${plan.id}"]`);
    await hersToReview.getByTestId("break-glass-review-link").click();
    await expect(dana.getByTestId("break-glass-applied-by")).toHaveText("User:admin");
    await expect(dana.getByTestId("break-glass-reason")).toHaveText("e2e: incident 1234, cannot wait");
    await expect(dana.getByTestId("break-glass-changes")).toContainText("acl.create");
    await dana.getByLabel("Comment").fill("e2e: checked with the on-call, incident 1234");
    await dana.getByRole("button", { name: "Reviewed after the fact" }).click();
    await expect(dana.getByTestId("break-glass-review-done")).toContainText("Reviewed after the fact");
    await dana.reload();
    await expect(dana.getByTestId("break-glass-review")).toContainText("reviewed by User:dana");

    await admin.goto("/");
    await expect(admin.getByTestId("card-break-glass").locator(`li[data-plan-id="${plan.id}"]`)).toHaveCount(1);
    const reviewed = admin.getByTestId("break-glass-reviewed").locator(`li[data-plan-id="${plan.id}"]`);
    await expect(reviewed).toContainText("Reviewed by User:dana");
    await expect(reviewed).toContainText("e2e: checked with the on-call, incident 1234");
    await expect(admin.getByTestId("break-glass-list").locator(`li[data-plan-id="${plan.id}"]`)).toHaveCount(0);
    const again = await dana.request.post(`/api/v1/plans/${plan.id}/break-glass/review`, {
      data: { comment: "twice" },
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain("User:dana");

    // dana is no super user: no break-glass form on her own plan.
    const hers = await json<{ id: string }>(
      await dana.request.post("/api/v1/plans", { data: { kind: "acl.create", bindings: [binding("DESCRIBE")] } }),
    );
    await dana.goto(`/plans/${hers.id}`);
    await expect(dana.getByTestId("plan-status")).toBeVisible();
    await expect(dana.getByTestId("break-glass")).toHaveCount(0);
  });
});
