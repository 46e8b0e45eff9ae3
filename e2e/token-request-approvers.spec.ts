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
