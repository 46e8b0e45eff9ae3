import { test, expect } from "./fixtures";

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;

/**
 * With no host given, every page asks from a host no ACL names and says so (issue 17, items 8
 * and 9), against the dev broker and the demo ACLs (scripts/seed/demo-data.ts): carol may READ
 * audit-log only from 127.0.0.1, so from any other host Kafka finds no matching ACL on a topic
 * that has ACLs and denies; 127.0.0.1 is listed beside the answer as the host where it differs.
 * admin is the super user: the resource page gives it its own row, every operation ALLOWED.
 * Read-only: nothing is created or deleted on the broker.
 */

const UNNAMED = "host: any host no ACL names";

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test(
      "carol READ TOPIC audit-log: the same answer on the access check, principal and resource pages, " +
        "each stating the host it assumes",
      async ({ adminPage: page }) => {
        // The Access check as a user fills it in: the host left as it comes (empty).
        await page.goto("/access-check");
        await expect(page.getByLabel("Host")).toHaveValue("");
        await page.getByLabel("Principal").fill("User:carol");
        await page.getByRole("combobox", { name: /^Resource type/ }).selectOption("TOPIC");
        await page.getByRole("combobox", { name: /^Operation/ }).selectOption("READ");
        await page.getByLabel("Resource name").fill("audit-log");
        await page.getByRole("button", { name: "Check" }).click();
        await expect(page).toHaveURL(/principal=User%3Acarol/);
        await expect(page.getByTestId("decision")).toHaveText("DENIED");
        await expect(page.getByTestId("assumed-host")).toContainText(UNNAMED);
        await expect(page.getByTestId("differing-hosts").locator('[data-host="127.0.0.1"]')).toContainText("ALLOWED");
        await expect(page.getByTestId("reason")).toContainText("No ACL on this resource matched");

        // The principal page: the same answer, the same host stated, 127.0.0.1 beside it.
        await page.goto("/principals/User%3Acarol");
        await expect(page.getByTestId("assumed-host")).toContainText(UNNAMED);
        const onPrincipal = page
          .getByRole("table", { name: "Topics: what User:carol can do" })
          .locator('tr[data-resource="audit-log"] td[data-operation="READ"]');
        await expect(onPrincipal).toHaveAttribute("data-decision", "DENIED");
        await expect(onPrincipal.locator('[data-host="127.0.0.1"]')).toContainText("ALLOWED");

        // The resource page: the same, and the super user's row.
        await page.goto(`/resources?${new URLSearchParams({ type: "TOPIC", name: "audit-log" })}`);
        await expect(page.getByTestId("assumed-host")).toContainText(UNNAMED);
        const matrix = page.getByRole("table", { name: "Effective permissions" });
        const onResource = matrix.locator('tr[data-principal="User:carol"] td[data-operation="READ"]');
        await expect(onResource).toHaveAttribute("data-decision", "DENIED");
        await expect(onResource.locator('[data-host="127.0.0.1"]')).toContainText("ALLOWED");

        const admin = matrix.locator('tr[data-principal="User:admin"]');
        await expect(admin.getByRole("rowheader")).toContainText("super user");
        await expect(admin.locator('td[data-operation="READ"]')).toHaveAttribute("data-decision", "ALLOWED");
        // Every operation, DELETE included (which User:* is denied).
        await expect(admin.locator('td[data-decision="DENIED"]')).toHaveCount(0);
        await expect(admin.locator('td[data-operation="DELETE"]')).toHaveAttribute("data-decision", "ALLOWED");
        await expect(admin.locator('td[data-operation="READ"] > a')).toHaveAttribute(
          "title",
          "Super user: User:admin is in super.users, so Kafka allows every operation without looking at ACLs.",
        );
        await expect(matrix.locator('tr[data-principal="User:*"]').getByRole("rowheader")).toContainText(
          "any other principal no ACL here names, super users aside",
        );
        await expect(matrix.locator('tr[data-principal="User:*"] td[data-operation="DELETE"]')).toHaveAttribute(
          "data-decision",
          "DENIED",
        );

        // The super user's cell opens the Access check on the same question, with the same answer.
        await admin.locator('td[data-operation="READ"] > a').click();
        await expect(page).toHaveURL(/\/access-check\?.*principal=User%3Aadmin/);
        await expect(page.getByTestId("decision")).toHaveText("ALLOWED");
      },
    );
  });
}

test(
  "GET /api/v1/access-check without a host: the same default, the host it assumed and the named host " +
    "where the answer differs",
  async ({ request }) => {
    const q = new URLSearchParams({
      principal: "User:carol",
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "audit-log",
    });
    const res = await request.get(`/api/v1/access-check?${q}`, { headers: { authorization: basic("admin") } });
    expect(res.status(), await res.text()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      decision: "DENIED",
      rule: { kind: "noAclMatched" },
      hosts: { assumed: "unnamed", statement: UNNAMED },
    });
    expect(body.hosts.differing).toContainEqual(
      expect.objectContaining({
        host: "127.0.0.1",
        decision: "ALLOWED",
        rule: expect.objectContaining({ kind: "acl" }),
      }),
    );
    // Asked again from the address it names, the answer is the same.
    const again = await request.get(`/api/v1/access-check?${q}&host=${encodeURIComponent(body.request.host)}`, {
      headers: { authorization: basic("admin") },
    });
    expect((await again.json()).decision).toBe("DENIED");
  },
);
