import { test, expect, signInAs } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Access check against the dev broker and the demo ACLs (scripts/seed/demo-data.ts):
 * bob reads payments-* except payments-eu (DENY), alice reads orders, carol reads
 * audit-log only from 127.0.0.1, User:* may not DELETE audit-log, admin is the super user.
 */

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;

type Question = { principal: string; operation: string; resourceType: string; resourceName?: string; host?: string };

async function check(page: Page, q: Question) {
  await page.goto(`/access-check?${new URLSearchParams(q)}`);
}

const decision = (page: Page) => page.getByTestId("decision");
const reason = (page: Page) => page.getByTestId("reason");
const aclTable = (page: Page) => page.getByRole("table", { name: "Applicable ACLs" });
const decidingRow = (page: Page) => aclTable(page).locator("tr[data-match=decides]");
/** The ACL rows whose cells are exactly these values (principal, pattern type, host...). */
const aclRow = (page: Page, ...cells: string[]) =>
  cells.reduce(
    (rows, cell) => rows.filter({ has: page.getByRole("cell", { name: cell, exact: true }) }),
    aclTable(page).getByRole("row"),
  );

test.describe("Access check page", () => {
  test("bob READ payments-eu is DENIED by the DENY ACL, which beats his prefixed ALLOW", async ({
    adminPage: page,
  }) => {
    await check(page, { principal: "User:bob", operation: "READ", resourceType: "TOPIC", resourceName: "payments-eu" });
    await expect(decision(page)).toHaveText("DENIED");
    await expect(reason(page)).toContainText("DENY ACL: User:bob may not READ on TOPIC payments-eu (LITERAL) from *");
    await expect(decidingRow(page)).toHaveCount(1);
    await expect(decidingRow(page)).toContainText("DENY");
    await expect(decidingRow(page)).toContainText("payments-eu");
    // the MATCH filter brought the prefixed and wildcard ACLs that apply too
    await expect(aclRow(page, "User:bob", "PREFIXED")).toContainText("Matches, but the DENY wins");
    await expect(aclRow(page, "User:svc-billing", "PREFIXED")).toContainText("other principal");
    await expect(aclRow(page, "User:carol", "*")).toContainText("other principal");
    await expect(page.getByRole("list", { name: "Notes" })).toContainText("The DENY on READ does not deny DESCRIBE");
    await expect(page.getByTestId("assumptions")).toContainText("super.users = User:admin");
    await expect(page.getByTestId("assumptions")).toContainText("allow.everyone.if.no.acl.found = false");
  });

  test("alice READ orders is ALLOWED, with the deciding ACL highlighted", async ({ adminPage: page }) => {
    await check(page, {
      principal: "User:alice",
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "orders",
      host: "127.0.0.1",
    });
    await expect(decision(page)).toHaveText("ALLOWED");
    await expect(reason(page)).toHaveText("Why: ALLOW ACL: User:alice may READ on TOPIC orders (LITERAL) from *.");
    await expect(decidingRow(page)).toHaveCount(1);
    await expect(decidingRow(page)).toContainText("User:alice");
    await expect(decidingRow(page)).toContainText("READ");
    await expect(decidingRow(page)).toContainText("orders");
  });

  test("a principal with no ACL on a resource that has ACLs is DENIED: no ACL matched", async ({ adminPage: page }) => {
    await check(page, { principal: "User:carol", operation: "READ", resourceType: "TOPIC", resourceName: "orders" });
    await expect(decision(page)).toHaveText("DENIED");
    await expect(reason(page)).toContainText("No ACL on this resource matched this principal/operation/host");
    await expect(reason(page)).toContainText("and the resource has ACLs, so Kafka denies");
    await expect(decidingRow(page)).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Notes" })).toContainText(
      "To allow it, add an ACL such as ALLOW ACL: User:carol may READ on TOPIC orders",
    );
  });

  test("DESCRIBE is allowed through READ, and the DENY on READ does not take it away", async ({ adminPage: page }) => {
    await check(page, {
      principal: "User:bob",
      operation: "DESCRIBE",
      resourceType: "TOPIC",
      resourceName: "payments-eu",
    });
    await expect(decision(page)).toHaveText("ALLOWED");
    await expect(reason(page)).toContainText(
      "ALLOW ACL: User:bob may READ on TOPIC payments- (PREFIXED) from *. An ALLOW for READ also allows DESCRIBE.",
    );
    await expect(aclRow(page, "User:bob", "DENY")).toContainText(
      "DENY READ does not deny DESCRIBE: a DENY never implies",
    );
  });

  test("hosts match as exact IP strings: carol reads audit-log from 127.0.0.1 only", async ({ adminPage: page }) => {
    await check(page, {
      principal: "User:carol",
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "audit-log",
      host: "127.0.0.1",
    });
    await expect(decision(page)).toHaveText("ALLOWED");
    await check(page, {
      principal: "User:carol",
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "audit-log",
      host: "10.0.0.7",
    });
    await expect(decision(page)).toHaveText("DENIED");
    await expect(aclRow(page, "User:carol", "127.0.0.1")).toContainText("Only from 127.0.0.1, not 10.0.0.7");
  });

  test("super user, User:* DENY and the no-ACL default are named", async ({ adminPage: page }) => {
    await check(page, {
      principal: "User:admin",
      operation: "DELETE",
      resourceType: "TOPIC",
      resourceName: "audit-log",
    });
    await expect(decision(page)).toHaveText("ALLOWED");
    await expect(reason(page)).toContainText("Super user");

    await check(page, {
      principal: "User:svc-billing",
      operation: "DELETE",
      resourceType: "TOPIC",
      resourceName: "audit-log",
    });
    await expect(decision(page)).toHaveText("DENIED");
    await expect(reason(page)).toContainText("DENY ACL: User:* may not DELETE on TOPIC audit-log (LITERAL) from *");

    await check(page, {
      principal: "User:alice",
      operation: "READ",
      resourceType: "GROUP",
      resourceName: "e2e-access-check-no-acls",
    });
    await expect(decision(page)).toHaveText("DENIED");
    await expect(reason(page)).toHaveText(
      "Why: No ACLs on this resource: allow.everyone.if.no.acl.found=false denies.",
    );
    await expect(page.getByText("No ACL applies to this resource.")).toBeVisible();
  });

  test("the form submits as a linkable GET; CLUSTER needs no name", async ({ adminPage: page }) => {
    await page.goto("/access-check");
    await expect(page.getByLabel("Principal")).toHaveValue("User:admin");
    // No host prefilled: the check asks from any host no ACL names, as the principal and resource pages do.
    await expect(page.getByLabel("Host")).toHaveValue("");
    await expect(page.getByLabel("Host")).toHaveAttribute("placeholder", "any host no ACL names");
    await page.getByLabel("Principal").fill("User:svc-orders");
    // The type first: the operation list then holds the operations Kafka checks on CLUSTER.
    await page.getByRole("combobox", { name: /^Resource type/ }).selectOption("CLUSTER");
    await expect(page.getByRole("combobox", { name: /^Operation/ }).locator('option[value="READ"]')).toHaveCount(0);
    await page.getByRole("combobox", { name: /^Operation/ }).selectOption("IDEMPOTENT_WRITE");
    await page.getByRole("button", { name: "Check" }).click();
    await expect(decision(page)).toHaveText("ALLOWED");
    await expect(page).toHaveURL(/principal=User%3Asvc-orders&resourceType=CLUSTER&operation=IDEMPOTENT_WRITE/);
    await expect(reason(page)).toContainText(
      "ALLOW ACL: User:svc-orders may IDEMPOTENT_WRITE on CLUSTER kafka-cluster (LITERAL) from *",
    );
  });

  test("bad input shows every field error and no decision", async ({ adminPage: page }) => {
    await check(page, {
      principal: "alice",
      operation: "CREATE_TOKENS",
      resourceType: "TOPIC",
      resourceName: "",
      host: "localhost",
    });
    await expect(page.getByText("Write the principal as Type:name, e.g. User:alice")).toBeVisible();
    await expect(page.getByText("CREATE_TOKENS does not apply to TOPIC resources")).toBeVisible();
    await expect(page.getByText("Enter the TOPIC name")).toBeVisible();
    await expect(page.getByText("Enter an IP address")).toBeVisible();
    await expect(page.getByLabel("Principal")).toHaveAttribute("aria-invalid", "true");
    await expect(decision(page)).toHaveCount(0);
  });

  test("as alice, who may not describe ACLs, the page shows Kafka's reason", async ({ page }) => {
    await signInAs(page, "alice");
    await check(page, { principal: "User:alice", operation: "READ", resourceType: "TOPIC", resourceName: "orders" });
    await expect(page.getByTestId("access-error")).toHaveText(
      "Kafka refused DescribeAcls: User:alice needs DESCRIBE on CLUSTER kafka-cluster.",
    );
    await expect(decision(page)).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1, name: "Access check" })).toBeVisible();
  });
});

test.describe("GET /api/v1/access-check", () => {
  test("answers with the decision, the deciding ACL and the applicable ACLs", async ({ request }) => {
    const res = await request.get(
      "/api/v1/access-check?principal=User:bob&operation=READ&resourceType=TOPIC&resourceName=payments-eu",
      {
        headers: { authorization: basic("admin") },
      },
    );
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      request: { principal: "User:bob", operation: "READ", resourceType: "TOPIC", resourceName: "payments-eu" },
      hosts: { assumed: "unnamed", statement: "host: any host no ACL names", differing: [] },
      decision: "DENIED",
      rule: {
        kind: "acl",
        acl: {
          principal: "User:bob",
          operation: "READ",
          permissionType: "DENY",
          patternType: "LITERAL",
          resourceName: "payments-eu",
          host: "*",
        },
      },
      assumptions: { superUsers: ["User:admin"], allowEveryoneIfNoAclFound: false },
    });
    expect(body.reason).toContain("DENY ACL: User:bob may not READ on TOPIC payments-eu (LITERAL) from *");
    expect(body.acls.filter((a: { match: string }) => a.match === "decides")).toHaveLength(1);
    expect(body.acls).toContainEqual(
      expect.objectContaining({
        patternType: "PREFIXED",
        resourceName: "payments-",
        principal: "User:bob",
        match: "matches",
      }),
    );
  });

  const bad = [
    { name: "no question at all", query: "", fields: ["principal", "operation", "resourceType", "resourceName"] },
    {
      name: "a principal without a type",
      query: "principal=bob&operation=READ&resourceType=TOPIC&resourceName=orders",
      fields: ["principal"],
    },
    {
      name: "an operation the type does not have",
      query: "principal=User:bob&operation=WRITE&resourceType=GROUP&resourceName=g",
      fields: ["operation"],
    },
    {
      name: "ALL as the operation",
      query: "principal=User:bob&operation=ALL&resourceType=TOPIC&resourceName=orders",
      fields: ["operation"],
    },
    {
      name: "a CLUSTER with another name",
      query: "principal=User:bob&operation=DESCRIBE&resourceType=CLUSTER&resourceName=prod",
      fields: ["resourceName"],
    },
    {
      name: "a host name instead of an IP",
      query: "principal=User:bob&operation=READ&resourceType=TOPIC&resourceName=orders&host=localhost",
      fields: ["host"],
    },
  ];
  for (const c of bad) {
    test(`400 with field errors for ${c.name}`, async ({ request }) => {
      const res = await request.get(`/api/v1/access-check?${c.query}`, { headers: { authorization: basic("admin") } });
      expect(res.status()).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("VALIDATION");
      expect(Object.keys(body.fieldErrors).sort()).toEqual([...c.fields].sort());
    });
  }

  test("403 with Kafka's reason for a caller who may not describe ACLs, 401 for nobody", async ({ request }) => {
    const q = "principal=User:alice&operation=READ&resourceType=TOPIC&resourceName=orders";
    const denied = await request.get(`/api/v1/access-check?${q}`, { headers: { authorization: basic("alice") } });
    expect(denied.status()).toBe(403);
    expect(await denied.json()).toMatchObject({
      code: "DENIED",
      error: "Kafka refused DescribeAcls: User:alice needs DESCRIBE on CLUSTER kafka-cluster.",
    });
    expect((await request.get(`/api/v1/access-check?${q}`)).status()).toBe(401);
  });
});
