import { test, expect } from "./fixtures";

test.describe("sign-in", () => {
  test("an unauthenticated visit is sent to sign-in and comes back after signing in", async ({ page }) => {
    await page.goto("/audit");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Faudit$/);
    await expect(page.getByRole("heading", { name: "Kafka Security Console" })).toBeVisible();
  });

  test("admin signs in, sees the cluster, moves between areas and signs out", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin-secret");
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page.getByRole("heading", { name: "Cluster" })).toBeVisible();
    await expect(page.getByTestId("principal")).toHaveText("User:admin");
    await expect(page.getByTestId("cluster-id")).not.toHaveText("unknown");
    await expect(page.getByTestId("cluster-id")).not.toBeEmpty();
    const brokers = page.getByRole("table", { name: "Brokers" });
    await expect(brokers.getByRole("row")).toHaveCount(2); // header + the single dev broker
    // KRaft: a broker that forwards them, not the controller.
    await expect(brokers).toContainText("takes admin requests");

    for (const area of ["Resources", "ACLs", "Access check", "Quotas", "Tokens", "Token requests", "Audit"]) {
      await page.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: area, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: area })).toBeVisible();
    }
    // the sign-in itself is on the audit trail
    await expect(page.getByRole("table", { name: "Audit events" })).toContainText("session.sign-in");

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test("a wrong password shows the error and creates no session", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Kafka rejected these credentials" })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in/);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "ksc_session")).toBeUndefined();
  });

  test("an empty form names every missing field", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Enter your Kafka username")).toBeVisible();
    await expect(page.getByText("Enter your password")).toBeVisible();
  });

  test("a session that ends: the sign-in returns to the page with its query (a GET form's input kept)", async ({
    page,
    request,
  }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin-secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("principal")).toHaveText("User:admin");

    // Signed out elsewhere: this browser still holds the (now dead) session cookie.
    const cookie = (await page.context().cookies()).find((c) => c.name === "ksc_session");
    expect(
      (await request.delete("/api/v1/session", { headers: { cookie: `ksc_session=${cookie!.value}` } })).status(),
    ).toBe(200);

    await page.goto("/quotas?user=svc-orders&clientId=orders-api");
    await expect(page).toHaveURL(/\/sign-in\?ended=1&next=%2Fquotas%3Fuser%3Dsvc-orders%26clientId%3Dorders-api$/);
    await expect(page.getByRole("status").filter({ hasText: "to return to the page you were on" })).toBeVisible();
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin-secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/quotas\?user=svc-orders&clientId=orders-api$/);
    const form = page.getByRole("form", { name: "Which quota applies" });
    await expect(form.getByLabel("User")).toHaveValue("svc-orders");
    await expect(form.getByLabel("Client id")).toHaveValue("orders-api");
  });
});
