import { readFileSync } from "node:fs";
import { test, expect, signInAs } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

/**
 * The principal view and the auditor views (issue #9) against the dev broker and the demo
 * ACLs (scripts/seed/demo-data.ts): svc-orders reads and writes `orders` by its own LITERAL
 * ACLs, has no ACL for WRITE on `audit-log` (where svc-billing writes and User:* may not
 * DELETE), and its own DENY on READ `inventory` wins over the User:* ALLOW. Read-only:
 * nothing is created or deleted on the broker.
 */

const basic = (user: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`,
});

function cell(page: Page, table: string, resource: string, operation: string): Locator {
  return page
    .getByRole("table", { name: table })
    .locator(`tr[data-resource="${resource}"] td[data-operation="${operation}"]`);
}

const TOPICS = "Topics: what User:svc-orders can do";

test(
  "admin: what svc-orders can do, by resource type, with the deciding ACL, a DENY that wins, its ACLs " + "and quotas",
  async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // A bare name means User:<name>.
    await page.goto("/principals/svc-orders");
    await expect(page.getByTestId("principal-name")).toHaveText("User:svc-orders");
    await expect(page.getByTestId("acl-snapshot")).toContainText(/ACLs as of \d{4}-\d\d-\d\dT/);

    // READ on orders: allowed by its own LITERAL ACL; DESCRIBE implied by READ or WRITE.
    const read = cell(page, TOPICS, "orders", "READ");
    await expect(read).toHaveAttribute("data-decision", "ALLOWED");
    await expect(read.getByRole("link")).toHaveAttribute(
      "title",
      "ALLOW ACL: User:svc-orders may READ on TOPIC orders (LITERAL) from *.",
    );
    await expect(cell(page, TOPICS, "orders", "DESCRIBE")).toContainText(/implied by (READ|WRITE)/);

    // WRITE on audit-log: the topic has ACLs (svc-billing's WRITE, the User:* DENY), none for svc-orders.
    const write = cell(page, TOPICS, "audit-log", "WRITE");
    await expect(write).toHaveAttribute("data-decision", "DENIED");
    await expect(write).toContainText("no ACL matched");
    const del = cell(page, TOPICS, "audit-log", "DELETE");
    await expect(del).toHaveAttribute("data-decision", "DENIED");
    await expect(del).toContainText("DENY wins · User:*");

    // inventory: User:* may READ, but svc-orders' own DENY wins; DESCRIBE is not denied by a DENY on READ, and nothing
    // else allows it.
    const inventory = cell(page, TOPICS, "inventory", "READ");
    await expect(inventory).toHaveAttribute("data-decision", "DENIED");
    await expect(inventory).toContainText("DENY wins");
    await expect(inventory.getByRole("link")).toHaveAttribute(
      "title",
      /DENY ACL: User:svc-orders may not READ on TOPIC inventory.*A matching DENY wins/,
    );

    // Other types: its transactional ids through PREFIXED orders-tx-, IDEMPOTENT_WRITE on the cluster.
    await expect(
      cell(page, "Cluster: what User:svc-orders can do", "kafka-cluster", "IDEMPOTENT_WRITE"),
    ).toHaveAttribute("data-decision", "ALLOWED");
    await expect(page.getByRole("table", { name: "Pattern grants of User:svc-orders" })).toContainText(
      'every TRANSACTIONAL_ID starting with "orders-tx-"',
    );

    // The ACLs that name it, and those for User:* that apply to it too.
    await expect(
      page.getByRole("table", { name: "ACLs of User:svc-orders" }).getByRole("row").filter({ hasText: "inventory" }),
    ).toContainText("DENY");
    await expect(
      page.getByRole("table", { name: "ACLs for User:*" }).getByRole("row").filter({ hasText: "inventory" }),
    ).toContainText("ALLOW");

    // The quotas Kafka applies: its orders-api sub-quota, and its user quota for any other client id.
    const quotas = page.getByRole("table", { name: "Quotas of User:svc-orders" });
    await expect(
      quotas.getByRole("row").filter({ hasText: "orders-api" }).filter({ hasText: "producer_byte_rate" }),
    ).toContainText("512 KiB/s");
    await expect(
      quotas.getByRole("row").filter({ hasText: "any other" }).filter({ hasText: "producer_byte_rate" }),
    ).toContainText("1 MiB/s");
    await page.screenshot({ path: ".data/test-results/screens/principal-svc-orders-1440.png", fullPage: true });

    // Each decision opens the Access check on the same question, which gives the same answer.
    await inventory.getByRole("link").click();
    await expect(page).toHaveURL(/\/access-check\?.*principal=User%3Asvc-orders/);
    await expect(page.getByTestId("decision")).toHaveText("DENIED");
    await page.goBack();
    await cell(page, TOPICS, "orders", "READ").getByRole("link").click();
    await expect(page.getByTestId("decision")).toHaveText("ALLOWED");
  },
);

test(
  "a host-pinned grant: carol reads audit-log only from 127.0.0.1, shown beside the answer for other " +
    "hosts and asked for with the host field",
  async ({ adminPage: page }) => {
    await page.goto("/principals/User%3Acarol");
    const read = cell(page, "Topics: what User:carol can do", "audit-log", "READ");
    await expect(read).toHaveAttribute("data-decision", "DENIED");
    await expect(read.locator('[data-host="127.0.0.1"]')).toContainText("ALLOWED");
    await page.getByRole("textbox", { name: "Client host" }).fill("127.0.0.1");
    await page.getByRole("button", { name: "Decide" }).click();
    await expect(page).toHaveURL(/host=127\.0\.0\.1/);
    await expect(cell(page, "Topics: what User:carol can do", "audit-log", "READ")).toHaveAttribute(
      "data-decision",
      "ALLOWED",
    );
  },
);

test(
  "exports: what svc-orders can do as CSV and JSON from the page's links, computed from one snapshot " +
    "that they name",
  async ({ adminPage: page }) => {
    await page.goto("/principals/User%3Asvc-orders");
    const [csvDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export what User:svc-orders can do as CSV" }).click(),
    ]);
    const csv = readFileSync(await csvDownload.path(), "utf8").split("\r\n");
    expect(csv[0]).toBe(
      "principal,resource_type,resource_name,resource,operation,host,decision,rule,via,acl_permission,acl_princip" +
        "al,acl_operation,acl_pattern_type,acl_resource_name,acl_host,snapshot_taken_at",
    );
    expect(csv).toContainEqual(
      expect.stringMatching(
        /^User:svc-orders,TOPIC,orders,listed\+acl,READ,,ALLOWED,acl,,ALLOW,User:svc-orders,READ,LITERAL,orders,\*,\d{4}-/,
      ),
    );
    expect(csv).toContainEqual(
      expect.stringMatching(
        /^User:svc-orders,TOPIC,inventory,listed\+acl,READ,,DENIED,acl,DENY wins,DENY,User:svc-orders,READ,LITERAL,inventory,\*,/,
      ),
    );
    expect(csv).toContainEqual(
      expect.stringMatching(
        /^User:svc-orders,TOPIC,audit-log,listed\+acl,DELETE,,DENIED,acl,DENY wins; User:\*,DENY,User:\*,DELETE,LITERAL,audit-log,\*,/,
      ),
    );
    // One snapshot: every row names the same time.
    expect(new Set(csv.slice(1, -1).map((line) => line.split(",").at(-1))).size).toBe(1);

    const [jsonDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export what User:svc-orders can do as JSON" }).click(),
    ]);
    const json = JSON.parse(readFileSync(await jsonDownload.path(), "utf8")) as {
      question: unknown;
      aclSnapshot: { takenAt: string; size: number };
      rows: {
        resourceType: string;
        resourceName: string;
        operation: string;
        decision: string;
        host: string | null;
        rule: { kind: string };
      }[];
    };
    expect(json.question).toEqual({ kind: "principal", principal: "User:svc-orders" });
    expect(json.aclSnapshot.size).toBeGreaterThan(20);
    const row = (name: string, op: string) =>
      json.rows.find(
        (r) => r.resourceType === "TOPIC" && r.resourceName === name && r.operation === op && r.host === null,
      );
    expect(row("orders", "WRITE")?.decision).toBe("ALLOWED");
    expect(row("inventory", "READ")).toMatchObject({ decision: "DENIED", rule: { kind: "acl" } });
    // "relevant": no row says DENIED for want of an ACL.
    expect(json.rows.some((r) => r.decision === "DENIED" && r.rule.kind !== "acl")).toBe(false);
  },
);

test("auditor view: who can do what on audit-log, on the page and as CSV, hosts included", async ({
  adminPage: page,
  request,
}) => {
  await page.goto("/principals");
  await page.getByLabel("Resource type").selectOption("TOPIC");
  await page.getByLabel("Resource name").fill("audit-log");
  await page.getByRole("button", { name: "Who can" }).click();
  await expect(page).toHaveURL(/resourceName=audit-log/);
  const table = page.getByRole("table", { name: "Who can do what: TOPIC audit-log" });
  await expect(table.locator('tr[data-principal="User:svc-billing"] td[data-operation="WRITE"]')).toHaveAttribute(
    "data-decision",
    "ALLOWED",
  );
  await expect(table.locator('tr[data-principal="User:svc-billing"] td[data-operation="DELETE"]')).toHaveAttribute(
    "data-decision",
    "DENIED",
  );
  await expect(table.locator('tr[data-principal="User:admin"] td[data-operation="DELETE"]')).toHaveAttribute(
    "data-decision",
    "ALLOWED",
  );
  await expect(table.locator('tr[data-principal="User:*"] td[data-operation="WRITE"]')).toHaveAttribute(
    "data-decision",
    "DENIED",
  );
  await expect(page.getByTestId("who-can-snapshot")).toContainText("From the ACLs as of");
  // Principals keep their case and open their own view.
  await table
    .locator('tr[data-principal="User:svc-billing"] th')
    .getByRole("link", { name: "User:svc-billing" })
    .click();
  await expect(page).toHaveURL(/\/principals\/User%3Asvc-billing$/);

  const csv = await request.get(
    `/api/v1/effective-permissions?` +
      `${new URLSearchParams({ resourceType: "TOPIC", resourceName: "audit-log", format: "csv" })}`,
    { headers: basic("admin") },
  );
  expect(csv.status(), await csv.text()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(csv.headers()["content-disposition"]).toMatch(/attachment; filename="effective-permissions-TOPIC-audit-log-/);
  const lines = (await csv.text()).split("\r\n");
  expect(lines).toContainEqual(
    expect.stringMatching(/^User:carol,TOPIC,audit-log,listed\+acl,READ,,DENIED,noAclMatched,/),
  );
  expect(lines).toContainEqual(
    expect.stringMatching(
      /^User:carol,TOPIC,audit-log,listed\+acl,READ,127\.0\.0\.1,ALLOWED,acl,from 127\.0\.0\.1,ALLOW,User:carol,READ,LITERAL,audit-log,127\.0\.0\.1,/,
    ),
  );

  // A prefix: every known payments- topic and any other name under it.
  const prefix = await request.get(
    `/api/v1/effective-permissions?${new URLSearchParams({ resourceType: "TOPIC", prefix: "payments-" })}`,
    { headers: basic("admin") },
  );
  const body = (await prefix.json()) as {
    rows: {
      principal: string;
      resourceName: string;
      resource: string;
      operation: string;
      decision: string;
      host: string | null;
    }[];
  };
  const bob = (name: string, resource?: string) =>
    body.rows.find(
      (r) =>
        r.principal === "User:bob" &&
        r.resourceName === name &&
        r.operation === "READ" &&
        r.host === null &&
        (resource === undefined || r.resource === resource),
    )?.decision;
  expect([bob("payments-eu"), bob("payments-us"), bob("payments-", "unseen")]).toEqual([
    "DENIED",
    "ALLOWED",
    "ALLOWED",
  ]);

  const bad = await request.get("/api/v1/effective-permissions?principal=alice&resourceType=TOPIC&resourceName=x", {
    headers: basic("admin"),
  });
  expect(bad.status()).toBe(400);
});

test("alice sees only what Kafka lets her: no ACLs or quotas (she may not describe them), only her own tokens", async ({
  page,
  request,
}) => {
  await signInAs(page, "alice");
  await page.goto("/principals/svc-orders");
  await expect(page.getByTestId("permissions-unavailable")).toContainText(/DESCRIBE|authoriz/i);
  await expect(page.getByTestId("quotas-unavailable")).toBeVisible();
  await expect(page.getByRole("table", { name: TOPICS })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Export what User:svc-orders/ }).first()).toBeVisible();

  const api = await request.get("/api/v1/effective-permissions?principal=svc-orders", { headers: basic("alice") });
  expect(api.status()).toBe(403);
  const view = await request.get("/api/v1/principals/User%3Asvc-orders", { headers: basic("alice") });
  expect(view.status(), await view.text()).toBe(200);
  const body = (await view.json()) as {
    principal: string;
    permissions: { error?: string };
    quotas: { error?: string };
    tokens: { tokens?: unknown[] };
  };
  expect(body.principal).toBe("User:svc-orders");
  expect(body.permissions.error).toBeTruthy();
  expect(body.quotas.error).toBeTruthy();
  // Kafka describes to alice only tokens she owns, requested or renews: none of svc-orders'.
  expect(body.tokens.tokens).toEqual([]);

  // admin, the super user, sees the same principal's ACLs.
  const admin = await request.get("/api/v1/principals/svc-orders", { headers: basic("admin") });
  const adminBody = (await admin.json()) as { permissions: { acls?: { own: unknown[] } } };
  expect(adminBody.permissions.acls?.own.length).toBeGreaterThanOrEqual(7);
});

test("at 390 px the principal view does not scroll sideways (its tables scroll in their own box)", async ({
  adminPage: page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/principals/User%3Asvc-orders");
  await expect(cell(page, TOPICS, "orders", "READ")).toHaveAttribute("data-decision", "ALLOWED");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: ".data/test-results/screens/principal-svc-orders-390.png", fullPage: true });
});
