import { test, expect, signInAs } from "./fixtures";
import type { APIRequestContext, Page } from "@playwright/test";
import { behindTheConsolesBack } from "./behind-the-back";

/**
 * The ACLs area against the dev broker and the demo ACLs (scripts/seed/demo-data.ts): the
 * list (/acls, read from the shared ACL snapshot) and the create page (/acls/new).
 * Changes are made only on this run's own e2e-* topic and principal, and removed again
 * in afterAll, because other specs rely on the demo ACLs.
 */

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;
const RUN = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
const PRINCIPAL = `User:e2e-${RUN}`;
const TOPIC = `e2e-acl-${RUN}`;
const ALICE_TOPIC = `e2e-acl-alice-${RUN}`;
const GRANT = {
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: PRINCIPAL,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};

/** Made straight through Kafka's admin API, never through the console. */
const BEHIND = { ...GRANT, principal: `User:e2e-behind-${RUN}`, operation: "DESCRIBE" };

/** Whether the column's texts are in order (code units, as the console sorts), and not all equal. */
function isSorted(texts: string[], order: "asc" | "desc"): boolean {
  const sorted = [...texts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (order === "desc") sorted.reverse();
  return texts.length > 1 && new Set(texts).size > 1 && texts.join("\n") === sorted.join("\n");
}

const aclTable = (page: Page) => page.getByRole("table", { name: "ACLs", exact: true });
const changes = (page: Page) => page.getByRole("table", { name: "Decisions that change" });

async function aclsOf(request: APIRequestContext, query: Record<string, string>) {
  const response = await request.get(`/api/v1/acls?${new URLSearchParams(query)}`, {
    headers: { Authorization: basic("admin") },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as {
    acls: (typeof GRANT)[];
    matching: number;
    total: number;
    snapshot: { takenAt: string; ageMs: number };
  };
}

async function lastAudit(request: APIRequestContext, principal: string, action: string) {
  const response = await request.get(`/api/v1/audit?${new URLSearchParams({ principal, action, limit: "20" })}`, {
    headers: { Authorization: basic("admin") },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { events: { target: string; outcome: string; message: string | null }[] }).events;
}

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ request }) => {
  // Whatever happened above: leave no e2e ACL behind.
  await request.delete("/api/v1/acls", {
    headers: { Authorization: basic("admin") },
    data: { bindings: [GRANT, { ...GRANT, resourceName: ALICE_TOPIC, principal: "User:alice" }, BEHIND] },
  });
});

test.describe("ACLs page", () => {
  test("browse shows the demo ACLs, filtered on the server", async ({ adminPage: page }) => {
    await page.goto("/acls?principal=User:bob");
    await expect(aclTable(page)).toContainText("payments-eu");
    await expect(aclTable(page)).toContainText("bob-");
    await expect(aclTable(page)).not.toContainText("User:alice");
    await expect(page.getByTestId("acl-count")).toContainText("matching");

    await page.goto("/acls?principal=svc-&principalMatch=contains&resourceType=TOPIC&permissionType=ALLOW");
    await expect(aclTable(page)).toContainText("User:svc-orders");
    await expect(aclTable(page)).toContainText("User:svc-billing");
    await expect(aclTable(page)).not.toContainText("User:bob");
    await expect(aclTable(page)).not.toContainText("GROUP");

    await page.goto("/acls?resourceName=payments-eu&permissionType=DENY");
    await expect(aclTable(page).locator("tbody tr")).toHaveCount(1);
    await expect(aclTable(page)).toContainText("User:bob");
    await expect(page.getByTestId("acl-lint")).toContainText("Lint:");
  });

  test("invalid input shows Kafka's rules as readable errors and creates nothing", async ({
    adminPage: page,
    request,
  }) => {
    await page.goto("/acls/new");
    const form = page.getByRole("form", { name: "New ACLs" });
    await form.getByLabel("Principal").fill("bob");
    await form.getByLabel("Resource type").selectOption("CLUSTER");
    await form.getByLabel("Resource name").fill("my-cluster");
    await form.getByLabel("Operation").selectOption("ALTER");
    await form.getByRole("button", { name: "Preview" }).click();
    await expect(form).toContainText("The only valid name for the CLUSTER resource is kafka-cluster");
    await expect(form).toContainText("Kafka cannot parse a principal without a colon");
    await expect(page.getByRole("button", { name: /^Apply/ })).toHaveCount(0);

    const api = await request.post("/api/v1/acls", {
      headers: { Authorization: basic("admin") },
      data: {
        bindings: [
          { ...GRANT, resourceType: "CLUSTER", resourceName: "my-cluster", operation: "ALTER" },
          { ...GRANT, principal: "bob" },
        ],
      },
    });
    expect(api.status()).toBe(400);
    const body = (await api.json()) as { error: string };
    expect(body.error).toContain("The only valid name for the CLUSTER resource is kafka-cluster");
    expect(body.error).toContain("Could not parse principal from `bob`");
    expect((await aclsOf(request, { principal: "bob", resourceName: TOPIC })).matching).toBe(0);
    expect((await aclsOf(request, { principal: PRINCIPAL })).matching).toBe(0);
  });

  test("create: the plan shows the decision change and the CLI, apply creates it, listed and audited", async ({
    adminPage: page,
    request,
  }) => {
    await page.goto(`/acls?principal=${encodeURIComponent(PRINCIPAL)}`);
    await expect(page.getByText("No ACL matches these filters.")).toBeVisible();
    await page.getByRole("link", { name: "Create ACLs" }).click();
    await expect(page).toHaveURL(/\/acls\/new$/);
    const form = page.getByRole("form", { name: "New ACLs" });
    await form.getByLabel("Principal").fill(PRINCIPAL);
    await form.getByLabel("Resource name").fill(TOPIC);
    await form.getByLabel("Operation").selectOption("READ");
    await form.getByRole("button", { name: "Preview" }).click();

    const read = changes(page)
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "READ", exact: true }) })
      .first();
    await expect(read).toContainText("DENIED");
    await expect(read).toContainText("ALLOWED");
    await expect(changes(page)).toContainText(`TOPIC ${TOPIC}`);
    await expect(page.getByTestId("plan-cli")).toContainText(
      `--add --allow-principal ${PRINCIPAL} --allow-host '*' --operation Read --topic ${TOPIC}`,
    );
    await page.getByRole("button", { name: "Apply: create 1 ACL" }).click();
    await expect(page.getByTestId("acl-result")).toContainText("success");
    await expect(page.getByTestId("acl-result")).toContainText(`Created 1 of 1`);
    await page.getByRole("link", { name: `The ACLs of ${PRINCIPAL}` }).click();
    await expect(aclTable(page)).toContainText(TOPIC);

    expect((await aclsOf(request, { principal: PRINCIPAL })).acls).toEqual([GRANT]);
    const events = await lastAudit(request, "User:admin", "acl.create");
    expect(events.find((e) => e.target.includes(TOPIC))?.outcome).toBe("success");
    await page.goto("/audit?action=acl.create");
    await expect(page.getByRole("table", { name: "Audit events" })).toContainText(TOPIC);
  });

  test("delete: select, preview the decision change, delete, gone and audited", async ({
    adminPage: page,
    request,
  }) => {
    await page.goto(`/acls?principal=${encodeURIComponent(PRINCIPAL)}`);
    await aclTable(page).getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Preview deletion" }).click();
    const read = changes(page)
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "READ", exact: true }) })
      .first();
    await expect(read).toContainText("ALLOWED");
    await expect(read).toContainText("DENIED");
    await expect(page.getByTestId("plan-cli")).toContainText(`--remove --force --allow-principal ${PRINCIPAL}`);
    await page.getByRole("button", { name: "Delete 1 ACL" }).click();
    await expect(page.getByTestId("acl-result")).toContainText("Deleted 1 of 1");
    await expect(page.getByText("No ACL matches these filters.")).toBeVisible();

    expect((await aclsOf(request, { principal: PRINCIPAL })).matching).toBe(0);
    const events = await lastAudit(request, "User:admin", "acl.delete");
    expect(events.find((e) => e.target.includes(TOPIC))?.outcome).toBe("success");
  });

  test("the consumer template expands into its bindings; the plan (page and ?preview=1) changes nothing", async ({
    adminPage: page,
    request,
  }) => {
    await page.goto("/acls/new");
    const form = page.getByRole("form", { name: "New ACLs" });
    await form.getByLabel("What to create").selectOption("consumer");
    await form.getByLabel("Principal").fill(PRINCIPAL);
    await form.getByLabel("Topics").fill(TOPIC);
    await form.getByLabel("Consumer group").fill(`${TOPIC}-group`);
    await form.getByRole("button", { name: "Preview" }).click();
    const bindings = page.getByRole("table", { name: "Bindings to create" });
    await expect(bindings.locator("tbody tr")).toHaveCount(3);
    await expect(bindings).toContainText(`${TOPIC}-group`);
    await expect(page.getByRole("button", { name: "Apply: create 3 ACLs" })).toBeVisible();

    const response = await request.post("/api/v1/acls?preview=1", {
      headers: { Authorization: basic("admin") },
      data: { bindings: [GRANT] },
    });
    expect(response.status()).toBe(200);
    const plan = (await response.json()) as {
      id: string;
      status: string;
      firstChanges: { principal: string; operation: string; before: string; after: string }[];
    };
    expect(plan.status).toBe("OPEN");
    expect(plan.firstChanges).toContainEqual(
      expect.objectContaining({ principal: PRINCIPAL, operation: "READ", before: "DENIED", after: "ALLOWED" }),
    );
    expect((await aclsOf(request, { principal: PRINCIPAL })).matching).toBe(0);
  });

  test("filters as you type (alice means User:alice), sorts by a column header, pages; the address follows", async ({
    adminPage: page,
  }) => {
    await page.goto("/acls");
    await expect(page.getByText("A name without a type means a user: alice is User:alice.")).toBeVisible();
    const filters = page.getByRole("form", { name: "Filter ACLs" });
    await filters.getByLabel("Principal", { exact: true }).fill("bob");
    // No Filter button pressed: the list follows the typing.
    await expect(page).toHaveURL(/principal=bob/);
    await expect(aclTable(page)).not.toContainText("User:alice");
    await expect(aclTable(page)).toContainText("payments-eu");
    const principals = aclTable(page).locator("tbody tr td:nth-child(3)");
    await expect(principals.first()).toHaveText("User:bob");

    const operations = aclTable(page).locator("tbody tr td:nth-child(4)");
    await aclTable(page).getByRole("link", { name: "Operation: sort ascending" }).click();
    await expect(page).toHaveURL(/sort=operation/);
    await expect.poll(async () => isSorted(await operations.allTextContents(), "asc")).toBe(true);
    await aclTable(page).getByRole("link", { name: "Operation: sort descending" }).click();
    await expect(page).toHaveURL(/order=desc/);
    await expect.poll(async () => isSorted(await operations.allTextContents(), "desc")).toBe(true);
    await expect(aclTable(page).getByRole("columnheader", { name: /Operation/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );

    // Reloading the address shows the same view, rendered by the server.
    await page.reload();
    expect(isSorted(await operations.allTextContents(), "desc")).toBe(true);
    await expect(filters.getByLabel("Principal", { exact: true })).toHaveValue("bob");
  });

  test("resource name: exact, names starting with, and Kafka's MATCH (what applies to a topic)", async ({
    adminPage: page,
    request,
  }) => {
    const exact = await aclsOf(request, { resourceType: "TOPIC", resourceName: "payments-eu", principal: "User:bob" });
    expect(exact.acls.map((a) => `${a.patternType} ${a.resourceName} ${a.permissionType}`)).toEqual([
      "LITERAL payments-eu DENY",
    ]);
    const prefix = await aclsOf(request, {
      resourceType: "TOPIC",
      resourceName: "payments",
      nameMatch: "prefix",
      principal: "bob",
    });
    expect(prefix.acls.map((a) => `${a.patternType} ${a.resourceName}`)).toEqual([
      "PREFIXED payments-",
      "LITERAL payments-eu",
    ]);
    // kafka-acls.sh --list --topic payments-eu --resource-pattern-type match: bob's PREFIXED payments- applies too.
    const match = await aclsOf(request, {
      resourceType: "TOPIC",
      resourceName: "payments-eu",
      nameMatch: "match",
      principal: "bob",
    });
    expect(match.acls.map((a) => `${a.patternType} ${a.resourceName} ${a.permissionType}`)).toEqual([
      "PREFIXED payments- ALLOW",
      "LITERAL payments-eu DENY",
    ]);

    await page.goto("/acls?resourceType=TOPIC&resourceName=payments-eu&nameMatch=match");
    await expect(page.getByRole("form", { name: "Filter ACLs" }).getByLabel("Name match")).toHaveValue("match");
    await expect(aclTable(page)).toContainText("User:svc-billing");
    await expect(aclTable(page)).toContainText("payments-");
    await expect(aclTable(page)).not.toContainText("payments-us");
  });

  test(
    "the list says when the ACLs were read; an ACL made behind the console's back shows after Refresh " +
      "(page and API)",
    async ({ adminPage: page, request, browser }) => {
      await page.goto(`/acls?principal=${encodeURIComponent(BEHIND.principal)}`);
      await expect(page.getByText("No ACL matches these filters.")).toBeVisible();
      await expect(page.getByTestId("acl-snapshot")).toContainText("Read from Kafka at");
      await behindTheConsolesBack("create", [BEHIND]);
      await page.getByTestId("acl-snapshot").getByRole("link", { name: "Refresh" }).click();
      await expect(aclTable(page)).toContainText(BEHIND.principal);

      const fresh = await aclsOf(request, { principal: BEHIND.principal, refresh: "true" });
      expect(fresh.acls).toEqual([BEHIND]);
      expect(Date.parse(fresh.snapshot.takenAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(fresh.snapshot.ageMs).toBeGreaterThanOrEqual(0);

      // Without JavaScript: the Refresh link and a sort header are plain links.
      await behindTheConsolesBack("delete", [BEHIND]);
      const context = await browser.newContext({ javaScriptEnabled: false });
      const plain = await context.newPage();
      await signInAs(plain, "admin");
      await plain.goto(`/acls?principal=${encodeURIComponent(BEHIND.principal)}`);
      await plain.getByTestId("acl-snapshot").getByRole("link", { name: "Refresh" }).click();
      await expect(plain.getByText("No ACL matches these filters.")).toBeVisible();
      await plain.goto("/acls?principal=bob");
      await plain
        .getByRole("table", { name: "ACLs", exact: true })
        .getByRole("link", { name: "Resource name: sort ascending" })
        .click();
      await expect(plain).toHaveURL(/sort=resourceName/);
      expect(
        isSorted(
          await plain
            .getByRole("table", { name: "ACLs", exact: true })
            .locator("tbody tr td:nth-child(7)")
            .allTextContents(),
          "asc",
        ),
      ).toBe(true);
      await context.close();
    },
  );

  test("row actions: clone into the create form, open the access check, open the principal", async ({
    adminPage: page,
  }) => {
    await page.goto("/acls?principal=User:bob&resourceName=payments-eu");
    const row = aclTable(page).locator("tbody tr").first();
    await expect(row.getByRole("link", { name: "User:bob", exact: true })).toHaveAttribute(
      "href",
      "/principals/User%3Abob",
    );
    await expect(row.getByRole("link", { name: /^Check access like/ })).toHaveAttribute(
      "href",
      /\/access-check\?principal=User%3Abob&resourceType=TOPIC&resourceName=payments-eu&operation=READ/,
    );
    await row.getByRole("link", { name: /^Clone/ }).click();
    await expect(page).toHaveURL(/\/acls\/new\?/);
    const form = page.getByRole("form", { name: "New ACLs" });
    await expect(form.getByLabel("Principal")).toHaveValue("User:bob");
    await expect(form.getByLabel("Resource name")).toHaveValue("payments-eu");
    await expect(form.getByLabel("Permission")).toHaveValue("DENY");
    await expect(form.getByLabel("Operation")).toHaveValue("READ");
  });

  test(
    "alice may not describe or alter ACLs: readable refusal on the page, 403 from the API before " + "anything is sent",
    async ({ page, request }) => {
      await signInAs(page, "alice");
      await page.goto("/acls");
      await expect(page.getByTestId("acls-error")).toContainText("Kafka refused DescribeAcls");
      await expect(page.getByTestId("acls-error")).toContainText("DESCRIBE on CLUSTER kafka-cluster");

      const response = await request.post("/api/v1/acls", {
        headers: { Authorization: basic("alice") },
        data: { bindings: [{ ...GRANT, resourceName: ALICE_TOPIC, principal: "User:alice" }] },
      });
      expect(response.status()).toBe(403);
      const body = (await response.json()) as { error: string; code: string };
      expect(body.code).toBe("DENIED");
      // The API's create is a sealed plan like the page's: making it reads the ACLs as alice, which Kafka refuses,
      // so no CreateAcls is sent; the attempt is audited as denied.
      expect(body.error).toContain("DESCRIBE on CLUSTER kafka-cluster");
      const events = await lastAudit(request, "User:alice", "acl.create");
      expect(events.find((e) => e.target.includes(ALICE_TOPIC))?.outcome).toBe("denied");
      expect((await aclsOf(request, { resourceName: ALICE_TOPIC })).matching).toBe(0);
    },
  );
});
