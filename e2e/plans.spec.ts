import { test, expect, signInAs } from "./fixtures";
import { behindTheConsolesBack, type Binding } from "./behind-the-back";
import type { APIRequestContext, Locator, Page } from "@playwright/test";

/**
 * "Changes you can trust" (issue 7), on the ACL pages (create: /acls/new) against the dev broker and the demo
 * ACLs (scripts/seed/demo-data.ts: svc-orders may WRITE `orders` and `orders-dlq`):
 *
 * (a) the form keeps every field through preview, errors and re-preview, with and
 *     without JavaScript, in raw and template mode;
 * (b) the preview shows the whole blast radius: a DENY for `User:*` or on a PREFIXED name
 *     shows who loses what, and deleting a wildcard DENY shows what is regained;
 * (c) Apply carries out exactly the previewed plan: not the form as edited since, not
 *     after an ACL changed behind the console's back (409, nothing applied), not twice.
 *
 * Nothing here is applied to the demo ACLs except one DENY for `User:*` limited to a host
 * no client uses (this run's own address), deleted again at once; the rest of the changes
 * are on this run's own principal and names, all removed in afterAll.
 */

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;
const RUN = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
const PRINCIPAL = `User:e2e-plan-${RUN}`;
const OTHER = `User:e2e-plan-other-${RUN}`;
const TOPIC = `e2e-plan-${RUN}`;
const octet = () => 1 + Math.floor(Math.random() * 250);
const HOST = `10.${octet()}.${octet()}.${octet()}`;
const RARE_HOST = `10.${octet()}.${octet()}.${octet()}`;

const binding = (b: Partial<Binding>): Binding => ({
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: PRINCIPAL,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  ...b,
});
const WILDCARD_DENY = binding({
  resourceName: "orders",
  principal: "User:*",
  host: RARE_HOST,
  operation: "WRITE",
  permissionType: "DENY",
});

const form = (page: Page) => page.getByRole("form", { name: "New ACLs" });
const decisions = (page: Page) => page.getByRole("table", { name: "Decisions that change" });

/** Every body row of a table, as the text of its cells. */
async function rowsOf(table: Locator): Promise<string[][]> {
  return table
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())));
}

async function aclsOf(request: APIRequestContext, query: Record<string, string>): Promise<Binding[]> {
  const response = await request.get(`/api/v1/acls?${new URLSearchParams(query)}`, {
    headers: { Authorization: basic("admin") },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { acls: Binding[] }).acls;
}

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ request }) => {
  const ours = [
    ...(await aclsOf(request, { principal: PRINCIPAL })),
    ...(await aclsOf(request, { principal: OTHER })),
    ...(await aclsOf(request, { principal: "User:*", resourceName: "orders" })).filter((b) => b.host === RARE_HOST),
  ];
  if (ours.length > 0)
    await request.delete("/api/v1/acls", { headers: { Authorization: basic("admin") }, data: { bindings: ours } });
});

async function fillRaw(page: Page, b: Binding) {
  const f = form(page);
  await f.getByLabel("What to create").selectOption("raw");
  await f.getByLabel("Principal").fill(b.principal);
  await f.getByLabel("Host").fill(b.host);
  await f.getByLabel("Resource type").selectOption(b.resourceType);
  await f.getByLabel("Pattern type").selectOption(b.patternType);
  await f.getByLabel("Resource name").fill(b.resourceName);
  await f.getByLabel("Operation").selectOption(b.operation);
  await f.getByLabel("Permission").selectOption(b.permissionType);
}

async function expectRawFields(page: Page, b: Binding) {
  const f = form(page);
  await expect(f.getByLabel("Principal")).toHaveValue(b.principal);
  await expect(f.getByLabel("Host")).toHaveValue(b.host);
  await expect(f.getByLabel("Resource type")).toHaveValue(b.resourceType);
  await expect(f.getByLabel("Pattern type")).toHaveValue(b.patternType);
  await expect(f.getByLabel("Resource name")).toHaveValue(b.resourceName);
  await expect(f.getByLabel("Operation")).toHaveValue(b.operation);
  await expect(f.getByLabel("Permission")).toHaveValue(b.permissionType);
}

const cells = (b: Binding) => [
  b.permissionType,
  b.principal,
  b.operation,
  b.resourceType,
  b.patternType,
  b.resourceName,
  b.host,
];

test.describe("(a) the form keeps every field", () => {
  const deny = binding({
    resourceType: "GROUP",
    patternType: "PREFIXED",
    resourceName: `e2e-plan-group-${RUN}`,
    operation: "DELETE",
    permissionType: "DENY",
  });

  test(
    "preview DENY DELETE GROUP PREFIXED, change only the host, preview again: still DENY DELETE GROUP " +
      "PREFIXED; also after a field error",
    async ({ adminPage: page }) => {
      await page.goto("/acls/new");
      await fillRaw(page, deny);
      await form(page).getByRole("button", { name: "Preview" }).click();
      const toCreate = page.getByRole("table", { name: "Bindings to create" });
      await expect(toCreate).toContainText("DENY");
      expect(await rowsOf(toCreate)).toEqual([cells(deny)]);
      await expectRawFields(page, deny);

      await form(page).getByLabel("Host").fill(HOST);
      await form(page).getByRole("button", { name: "Preview" }).click();
      await expect(toCreate).toContainText(HOST);
      await expect.poll(() => rowsOf(toCreate)).toEqual([cells({ ...deny, host: HOST })]);
      await expectRawFields(page, { ...deny, host: HOST });

      // A field error keeps every field too, and the corrected preview is still the same binding.
      await form(page).getByLabel("Principal").fill("no-colon");
      await form(page).getByRole("button", { name: "Preview" }).click();
      await expect(form(page)).toContainText("Kafka cannot parse a principal without a colon");
      await expectRawFields(page, { ...deny, host: HOST, principal: "no-colon" });
      await form(page).getByLabel("Principal").fill(PRINCIPAL);
      await form(page).getByRole("button", { name: "Preview" }).click();
      await expect(toCreate).toContainText(PRINCIPAL);
      expect(await rowsOf(toCreate)).toEqual([cells({ ...deny, host: HOST })]);
    },
  );

  test("template mode: change only the host and preview again; the template, its names and checkboxes stay", async ({
    adminPage: page,
  }) => {
    await page.goto("/acls/new");
    const f = form(page);
    await f.getByLabel("What to create").selectOption("consumer");
    await f.getByLabel("Principal").fill(PRINCIPAL);
    await f.getByLabel("Topics").fill(`${TOPIC}-a, ${TOPIC}-b`);
    await f.getByLabel("Consumer group").fill(`${TOPIC}-g`);
    await f.getByLabel("Names are prefixes (PREFIXED)").check();
    await f.getByRole("button", { name: "Preview" }).click();
    const toCreate = page.getByRole("table", { name: "Bindings to create" });
    await expect(toCreate.locator("tbody tr")).toHaveCount(5);

    await form(page).getByLabel("Host").fill(HOST);
    await form(page).getByRole("button", { name: "Preview" }).click();
    await expect(toCreate).toContainText(HOST);
    await expect(form(page).getByLabel("What to create")).toHaveValue("consumer");
    await expect(form(page).getByLabel("Topics")).toHaveValue(`${TOPIC}-a, ${TOPIC}-b`);
    await expect(form(page).getByLabel("Consumer group")).toHaveValue(`${TOPIC}-g`);
    await expect(form(page).getByLabel("Names are prefixes (PREFIXED)")).toBeChecked();
    const rows = await rowsOf(toCreate);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row[0]).toBe("ALLOW");
      expect(row[4]).toBe("PREFIXED");
      expect(row[6]).toBe(HOST);
    }
    expect(rows.map((r) => `${r[3]} ${r[5]} ${r[2]}`).sort()).toEqual(
      [
        `GROUP ${TOPIC}-g READ`,
        `TOPIC ${TOPIC}-a DESCRIBE`,
        `TOPIC ${TOPIC}-a READ`,
        `TOPIC ${TOPIC}-b DESCRIBE`,
        `TOPIC ${TOPIC}-b READ`,
      ].sort(),
    );
  });

  test("without JavaScript: the server-rendered form keeps every field through preview and re-preview", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signInAs(page, "admin");
    await page.goto("/acls/new");
    await fillRaw(page, deny);
    await form(page).getByRole("button", { name: "Preview" }).click();
    const toCreate = page.getByRole("table", { name: "Bindings to create" });
    // Without JavaScript the preview is a whole new page: wait for it rather than read the old one.
    await expect.poll(() => rowsOf(toCreate)).toEqual([cells(deny)]);
    await expectRawFields(page, deny);
    await form(page).getByLabel("Host").fill(HOST);
    await form(page).getByRole("button", { name: "Preview" }).click();
    expect(await rowsOf(toCreate)).toEqual([cells({ ...deny, host: HOST })]);
    await expectRawFields(page, { ...deny, host: HOST });
    await context.close();
  });
});

test.describe("(b) the preview shows the whole blast radius", () => {
  test(
    "DENY User:* WRITE TOPIC LITERAL orders: User:svc-orders loses WRITE on orders, and the rule for " +
      "every principal not yet seen",
    async ({ adminPage: page }) => {
      await page.goto("/acls/new");
      await fillRaw(
        page,
        binding({ resourceName: "orders", principal: "User:*", operation: "WRITE", permissionType: "DENY" }),
      );
      await form(page).getByRole("button", { name: "Preview" }).click();
      await expect(decisions(page)).toBeVisible();
      expect(await rowsOf(decisions(page))).toContainEqual([
        "User:svc-orders",
        "any other host",
        "TOPIC orders",
        "WRITE",
        "ALLOWED",
        "DENIED",
      ]);
      await expect(page.getByRole("table", { name: "Changes by principal" })).toContainText("User:svc-orders");
      await expect(page.getByTestId("plan-rules")).toContainText("and every principal not yet seen");
      await expect(page.getByTestId("acl-no-change")).toHaveCount(0);
      await expect(page.getByTestId("plan-cli")).toContainText(
        "--deny-principal 'User:*' --deny-host '*' --operation Write --topic orders --resource-pattern-type literal",
      );
    },
  );

  test("DENY User:svc-orders WRITE PREFIXED orders: loses WRITE on orders and orders-dlq", async ({
    adminPage: page,
  }) => {
    await page.goto("/acls/new");
    await fillRaw(
      page,
      binding({
        resourceName: "orders",
        patternType: "PREFIXED",
        principal: "User:svc-orders",
        operation: "WRITE",
        permissionType: "DENY",
      }),
    );
    await form(page).getByRole("button", { name: "Preview" }).click();
    await expect(decisions(page)).toBeVisible();
    const rows = await rowsOf(decisions(page));
    expect(rows).toContainEqual(["User:svc-orders", "any other host", "TOPIC orders", "WRITE", "ALLOWED", "DENIED"]);
    expect(rows).toContainEqual([
      "User:svc-orders",
      "any other host",
      "TOPIC orders-dlq",
      "WRITE",
      "ALLOWED",
      "DENIED",
    ]);
    await expect(page.getByTestId("plan-rules")).toContainText(
      "and every TOPIC not yet seen whose name starts with `orders`",
    );
  });

  test("deleting the wildcard DENY previews the decisions regained, then deletes it", async ({
    adminPage: page,
    request,
  }) => {
    // The DENY only for a client address no one uses, so no other test loses WRITE on orders meanwhile.
    const made = await request.post("/api/v1/acls", {
      headers: { Authorization: basic("admin") },
      data: { bindings: [WILDCARD_DENY] },
    });
    expect(made.status(), await made.text()).toBe(200);
    await page.goto(
      `/acls?${new URLSearchParams({ principal: "User:*", resourceName: "orders", permissionType: "DENY" })}`,
    );
    await page
      .getByRole("checkbox", { name: `Select DENY User:* WRITE on TOPIC orders (LITERAL) from ${RARE_HOST}` })
      .check();
    await page.getByRole("button", { name: "Preview deletion" }).click();
    await expect(decisions(page)).toBeVisible();
    expect(await rowsOf(decisions(page))).toContainEqual([
      "User:svc-orders",
      RARE_HOST,
      "TOPIC orders",
      "WRITE",
      "DENIED",
      "ALLOWED",
    ]);
    await expect(page.getByTestId("plan-rules")).toContainText("Deleted: DENY User:* WRITE on TOPIC orders");
    await page.getByRole("button", { name: "Delete 1 ACL" }).click();
    await expect(page.getByTestId("acl-result")).toContainText("Deleted 1 of 1");
    expect(
      (await aclsOf(request, { principal: "User:*", resourceName: "orders" })).filter((b) => b.host === RARE_HOST),
    ).toEqual([]);
  });

  test("the link to every decision change opens the plan page with all rows", async ({ adminPage: page }) => {
    await page.goto("/acls/new");
    await fillRaw(
      page,
      binding({
        resourceName: "orders",
        patternType: "PREFIXED",
        principal: "User:*",
        operation: "ALL",
        permissionType: "DENY",
      }),
    );
    await form(page).getByRole("button", { name: "Preview" }).click();
    const link = page.getByTestId("plan-all-rows");
    const text = (await link.textContent()) ?? "";
    const total = Number(/All ([\d,]+) decision changes/.exec(text)?.[1]?.replace(/,/g, ""));
    expect(total).toBeGreaterThan(0);
    await link.click();
    await expect(page.getByRole("heading", { name: /Every decision change/ })).toContainText(
      total.toLocaleString("en"),
    );
    await expect(page.getByRole("table", { name: "All decisions that change" }).locator("tbody tr")).toHaveCount(
      Math.min(total, 100),
    );
    await expect(page.getByTestId("plan-status")).toContainText("OPEN");
  });
});

test.describe("(c) Apply carries out exactly the previewed plan", () => {
  test(
    "the form changed after the preview: what is applied is the previewed plan, and the form keeps what " + "was typed",
    async ({ adminPage: page, request }) => {
      const previewed = binding({});
      await page.goto("/acls/new");
      await fillRaw(page, previewed);
      await form(page).getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("table", { name: "Bindings to create" })).toContainText(TOPIC);
      const edited = binding({ resourceName: `${TOPIC}-edited`, operation: "WRITE" });
      await form(page).getByLabel("Resource name").fill(edited.resourceName);
      await form(page).getByLabel("Operation").selectOption("WRITE");
      await page.getByRole("button", { name: "Apply: create 1 ACL" }).click();
      await expect(page.getByTestId("acl-result")).toContainText("Created 1 of 1");
      expect(await rowsOf(page.getByRole("table", { name: "Per-binding results" }))).toEqual([
        ["created", ...cells(previewed)],
      ]);
      expect(await aclsOf(request, { principal: PRINCIPAL })).toEqual([previewed]);
      await expectRawFields(page, edited);
    },
  );

  test(
    "an ACL changed behind the console's back between preview and apply: 409 asking for a new preview, " +
      "nothing applied",
    async ({ adminPage: page, request }) => {
      const describe = binding({ operation: "DESCRIBE" });
      await page.goto("/acls/new");
      await fillRaw(page, describe);
      await form(page).getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("table", { name: "Bindings to create" })).toContainText("DESCRIBE");
      await behindTheConsolesBack("create", [binding({ principal: OTHER })]);
      await page.getByRole("button", { name: "Apply: create 1 ACL" }).click();
      await expect(page.getByTestId("create-error")).toContainText("The ACLs changed since this preview");
      await expect(page.getByTestId("create-error")).toContainText("Preview again");
      await expect(page.getByTestId("acl-result")).toHaveCount(0);
      expect(await aclsOf(request, { principal: PRINCIPAL })).not.toContainEqual(describe);

      // A new preview sees the change and can be applied.
      await expectRawFields(page, describe);
      await form(page).getByRole("button", { name: "Preview" }).click();
      await page.getByRole("button", { name: "Apply: create 1 ACL" }).click();
      await expect(page.getByTestId("acl-result")).toContainText("Created 1 of 1");
      expect(await aclsOf(request, { principal: PRINCIPAL })).toContainEqual(describe);
      await behindTheConsolesBack("delete", [binding({ principal: OTHER })]);
    },
  );

  test(
    "API: a plan is applied once (two at the same time: one 200, one 409), only by its principal, every " + "row paged",
    async ({ request }) => {
      const grant = binding({ operation: "WRITE" });
      const made = await request.post("/api/v1/plans", {
        headers: { Authorization: basic("admin") },
        data: { kind: "acl.create", bindings: [grant] },
      });
      expect(made.status(), await made.text()).toBe(200);
      const plan = (await made.json()) as {
        id: string;
        status: string;
        create: Binding[];
        counts: { changes: number };
        cli: { command: string }[];
      };
      expect(plan).toMatchObject({ status: "OPEN", create: [grant] });
      expect(plan.cli[0]?.command).toContain(
        `--add --allow-principal ${PRINCIPAL} --allow-host '*' --operation Write --topic ${TOPIC} ` +
          `--resource-pattern-type literal`,
      );

      const page1 = await request.get(`/api/v1/plans/${plan.id}?page=1&pageSize=1`, {
        headers: { Authorization: basic("admin") },
      });
      expect(page1.status()).toBe(200);
      const paged = (await page1.json()) as {
        changes: { rows: unknown[]; total: number; pages: number; complete: boolean };
      };
      expect(paged.changes).toMatchObject({ total: plan.counts.changes, pages: plan.counts.changes, complete: true });
      expect(paged.changes.rows).toHaveLength(1);
      expect(
        (await request.get(`/api/v1/plans/${plan.id}`, { headers: { Authorization: basic("alice") } })).status(),
      ).toBe(403);
      expect(
        (await request.post(`/api/v1/plans/${plan.id}/apply`, { headers: { Authorization: basic("alice") } })).status(),
      ).toBe(403);
      expect(
        (
          await request.post("/api/v1/plans/00000000-0000-4000-8000-000000000000/apply", {
            headers: { Authorization: basic("admin") },
          })
        ).status(),
      ).toBe(404);

      const applies = await Promise.all(
        [0, 1].map(() =>
          request.post(`/api/v1/plans/${plan.id}/apply`, { headers: { Authorization: basic("admin") } }),
        ),
      );
      expect(applies.map((r) => r.status()).sort()).toEqual([200, 409]);
      const again = await request.post(`/api/v1/plans/${plan.id}/apply`, {
        headers: { Authorization: basic("admin") },
      });
      expect(again.status()).toBe(409);
      expect(((await again.json()) as { error: string }).error).toContain("already applied");
      expect((await aclsOf(request, { principal: PRINCIPAL })).filter((b) => b.operation === "WRITE")).toEqual([grant]);
    },
  );
});
