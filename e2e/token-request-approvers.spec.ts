import { test, expect, signInAs } from "./fixtures";

/**
 * Issue #17, item 11: a token request reaches the people it is for. bob has CREATE_TOKENS on
 * USER:svc-orders but Kafka does not let him describe ACLs; the console's service principal
 * (console-service on the dev broker, DESCRIBE on the cluster, configured as npm start does)
 * reads them to tell that bob may approve alice's request. He sees it, and approves it.
 */

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const basic = (user: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`,
});

test(
  "bob sees alice's request for svc-orders on the Token requests page, judged by the service principal, " +
    "and approves it",
  async ({ page, request }) => {
    const reason = `e2e ${RUN}: orders replay`;
    const submitted = await request.post("/api/v1/token-requests", {
      headers: basic("alice"),
      data: { owner: "User:svc-orders", reason },
    });
    expect(submitted.status(), await submitted.text()).toBe(200);
    const { id } = (await submitted.json()) as { id: string };

    await signInAs(page, "bob");
    await page.goto("/token-requests");
    const row = page.getByRole("table", { name: "Requests I can decide" }).locator(`tr[data-request-id="${id}"]`);
    await expect(row).toContainText(reason);
    await expect(row).toContainText("User:alice");
    await expect(row).toHaveAttribute("data-entitled", "yes");
    await expect(row).toContainText(
      "The ACLs give you CREATE_TOKENS on USER User:svc-orders (as the console's service principal " +
        "User:console-service read them)",
    );
    await expect(page.getByTestId("approvers-limited")).toHaveCount(0);

    await row.getByRole("button", { name: "Approve" }).click();
    await expect(row.getByTestId("approve-done")).toContainText("created for User:svc-orders");

    // alice retrieves the token once; its owner expires it (the test leaves no live token behind).
    const retrieved = await request.post(`/api/v1/token-requests/${id}/retrieve`, { headers: basic("alice") });
    expect(retrieved.status(), await retrieved.text()).toBe(200);
    const { hmac } = (await retrieved.json()) as { hmac: string };
    await request.post("/api/v1/tokens/expire", { headers: basic("svc-orders"), data: { hmac, when: "now" } });
  },
);

test(
  "Requests page (#19): bob sees alice's token request beside the requests for changes, opens it from there " +
    "and approves it; it is then decided, and alice is told to retrieve it",
  async ({ page, request, browser }) => {
    const reason = `e2e ${RUN}: requests page`;
    const submitted = await request.post("/api/v1/token-requests", {
      headers: basic("alice"),
      data: { owner: "User:svc-orders", reason },
    });
    expect(submitted.status(), await submitted.text()).toBe(200);
    const { id } = (await submitted.json()) as { id: string };

    // The API lists it as kind "token", with what bob may do.
    const listed = await request.get("/api/v1/requests?filter=waiting&kind=token", { headers: basic("bob") });
    expect(listed.status(), await listed.text()).toBe(200);
    const body = (await listed.json()) as {
      requests: { id: string; kind: string; you: { mayDecide: boolean } }[];
      pendingTokens: number;
    };
    expect(body.requests.find((r) => r.id === id)).toMatchObject({ kind: "token", you: { mayDecide: true } });
    expect(body.pendingTokens).toBeGreaterThanOrEqual(1);

    await signInAs(page, "bob");
    await page.goto("/requests");
    await expect(page.getByTestId("nav-requests-pending")).toBeVisible();
    const row = page.getByRole("table", { name: "Waiting requests" }).locator(`tr[data-request-id="${id}"]`);
    await expect(row).toContainText(reason);
    await expect(row).toContainText("User:alice");
    await expect(row.getByTestId("request-kind")).toHaveText("Delegation token");
    await expect(row).toContainText("you may approve");
    // Only delegation tokens: the row stays; only changes: it goes.
    await page
      .getByRole("navigation", { name: "Which kinds" })
      .getByRole("link", { name: "Delegation tokens" })
      .click();
    await expect(page).toHaveURL(/\/requests\?filter=waiting&kind=token$/);
    await expect(row).toBeVisible();
    await page.getByRole("navigation", { name: "Which kinds" }).getByRole("link", { name: "Changes" }).click();
    await expect(page).toHaveURL(/kind=change$/);
    await expect(page.locator(`tr[data-request-id="${id}"]`)).toHaveCount(0);
    await page.goto("/requests?filter=all");
    await expect(
      page.getByRole("navigation", { name: "Which requests" }).getByRole("link", { name: "All", exact: true }),
    ).toHaveAttribute("aria-current", "page");

    // Opened from the Requests page: its row on the Token requests page, where bob approves it.
    await page
      .locator(`tr[data-request-id="${id}"]`)
      .getByRole("link", { name: /delegation token for/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/token-requests#decide-${id}$`));
    const decide = page.locator(`#decide-${id}`);
    await expect(decide).toContainText(reason);
    await decide.getByRole("button", { name: "Approve" }).click();
    await expect(decide.getByTestId("approve-done")).toContainText("created for User:svc-orders");

    await page.goto("/requests?filter=decided&kind=token");
    const decided = page.locator(`tr[data-request-id="${id}"]`);
    await expect(decided).toContainText("APPROVED");
    await page.goto("/requests?filter=waiting&kind=token");
    await expect(page.locator(`tr[data-request-id="${id}"]`)).toHaveCount(0);

    // alice sees hers approved among her requests, with its retrieval waiting; she retrieves it once.
    const alice = await (await browser.newContext()).newPage();
    await signInAs(alice, "alice");
    await alice.goto("/requests?filter=mine");
    const mine = alice.locator(`tr[data-request-id="${id}"]`);
    await expect(mine.getByTestId("request-retrievable")).toBeVisible();
    await mine.getByRole("link", { name: /delegation token for/ }).click();
    await expect(alice).toHaveURL(new RegExp(`/token-requests#mine-${id}$`));
    await expect(alice.locator(`#mine-${id}`).getByRole("button", { name: /Retrieve/ })).toBeVisible();
    const retrieved = await request.post(`/api/v1/token-requests/${id}/retrieve`, { headers: basic("alice") });
    expect(retrieved.status(), await retrieved.text()).toBe(200);
    const { hmac } = (await retrieved.json()) as { hmac: string };
    await request.post("/api/v1/tokens/expire", { headers: basic("svc-orders"), data: { hmac, when: "now" } });
    await alice.context().close();
  },
);
