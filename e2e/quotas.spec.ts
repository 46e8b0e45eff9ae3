import { test, expect, signInAs } from "./fixtures";
import type { APIRequestContext, Page } from "@playwright/test";

/**
 * Quotas against the dev broker and the demo quotas (scripts/seed/demo-data.ts): svc-orders
 * 1 MiB/s produce with orders-api (512 KiB/s) and orders-batch (256 KiB/s) sub-quotas;
 * svc-billing 512 KiB/s with a 1 MiB/s billing-export sub-quota (a KIP-55 finding);
 * <default> user 2 MiB/s produce; <default> client id 4 MiB/s consume; ip 203.0.113.10.
 * Edits only touch this run's own e2e-q-* user, removed again at the end.
 */

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;
const admin = { Authorization: basic("admin") };
const USER = `e2e-q-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

const appliedRow = (page: Page, key: string) =>
  page.getByRole("table", { name: "Applied quota" }).locator(`tr[data-key=${key}]`);
const editForm = (page: Page) => page.getByRole("form", { name: "Change a quota" });

async function fillEdit(
  page: Page,
  f: { kind: string; user?: string; clientId?: string; key: string; value?: string; remove?: boolean },
) {
  const form = editForm(page);
  await form.locator("select[name=kind]").selectOption(f.kind);
  await form.getByLabel("User", { exact: true }).fill(f.user ?? "");
  await form.getByLabel("Client id", { exact: true }).fill(f.clientId ?? "");
  await form.locator("select[name=key]").selectOption(f.key);
  await form.getByLabel("Value").fill(f.value ?? "");
  await form.getByLabel("remove the key").setChecked(f.remove ?? false);
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("quota-preview")).toContainText(`user=${f.user}, client-id=${f.clientId}`);
}

async function removeOwnQuotas(request: APIRequestContext) {
  for (const clientId of ["c1", "c2", "c3"]) {
    await request.post("/api/v1/quotas", {
      headers: admin,
      data: { entity: { user: USER, "client-id": clientId }, key: "producer_byte_rate", value: null },
    });
  }
}

test.describe("Quotas", () => {
  test.afterAll(async ({ request }) => removeOwnQuotas(request));

  test("lists the configured entities by group, byte rates readable, and svc-billing's KIP-55 finding", async ({
    adminPage: page,
  }) => {
    await page.goto("/quotas");
    const users = page.getByRole("table", { name: "Users", exact: true });
    await expect(users.locator('tr[data-entity="user=svc-orders"]').first()).toContainText("1 MiB/s");
    await expect(users.locator('tr[data-entity="user=svc-orders"]').first()).toContainText("1048576");
    const subs = page.getByRole("table", { name: "User + client id (sub-quotas)" });
    await expect(subs.locator('tr[data-entity="user=svc-orders, client-id=orders-api"]')).toContainText("512 KiB/s");
    await expect(subs.locator('tr[data-entity="user=svc-orders, client-id=orders-batch"]')).toContainText("256 KiB/s");
    const defaults = page.getByRole("table", { name: "Defaults" });
    await expect(defaults.locator('tr[data-entity="user=<default>"]')).toContainText("2 MiB/s");
    await expect(defaults.locator('tr[data-entity="client-id=<default>"]')).toContainText("4 MiB/s");
    await expect(
      page.getByRole("table", { name: "IP addresses" }).locator('tr[data-entity="ip=203.0.113.10"]'),
    ).toContainText("20 connections/s");

    const finding = page.getByTestId("budget-finding").filter({ hasText: "svc-billing" });
    await expect(finding).toHaveCount(1);
    await expect(finding).toContainText("console rule (KIP-55), Kafka does not enforce this");
    await expect(finding).toContainText("billing-export");
    await expect(finding).toContainText("producer_byte_rate");

    const orders = page
      .getByRole("table", { name: "KIP-55 budget of svc-orders" })
      .locator("tr[data-key=producer_byte_rate]");
    await expect(orders).toContainText("orders-api");
    await expect(orders).toContainText("768 KiB/s");
    await expect(orders).toContainText("256 KiB/s");
    await expect(orders).toContainText("75% used");
    await expect(
      page.getByRole("table", { name: "KIP-55 budget of svc-billing" }).locator("tr[data-key=producer_byte_rate]"),
    ).toContainText("over budget");
  });

  test("which quota applies: own sub-quota, the user's shared quota, the <default> user", async ({
    adminPage: page,
  }) => {
    await page.goto("/quotas?user=svc-orders&clientId=orders-api");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("512 KiB/s");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("level 1");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("no other client shares it");
    await expect(page.getByRole("region", { name: "KIP-55 budget for this user" })).toContainText("orders-batch");

    await page.goto("/quotas?user=svc-orders&clientId=some-other-client");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("1 MiB/s");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("level 3");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("user=svc-orders");

    await page.goto("/quotas?user=alice&clientId=x");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("2 MiB/s");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("level 6");
    await expect(appliedRow(page, "producer_byte_rate")).toContainText("user=<default>");
    await expect(appliedRow(page, "request_percentage")).toContainText("unlimited");

    await page.goto("/quotas?ip=203.0.113.10");
    await expect(appliedRow(page, "connection_creation_rate")).toContainText("20 connections/s");
    await expect(appliedRow(page, "connection_creation_rate")).toContainText("ip=203.0.113.10");
  });

  test(
    "edit: a sub-quota within budget is applied and audited; past the total is the KIP-55 rejection; " +
      "Kafka's own validation",
    async ({ adminPage: page }) => {
      await page.goto("/quotas");
      // Within the budget: the <default> user's 2 MiB/s is this new user's total.
      await fillEdit(page, {
        kind: "user+client-id",
        user: USER,
        clientId: "c1",
        key: "producer_byte_rate",
        value: "524288",
      });
      await expect(page.getByTestId("budget-check")).toContainText("within budget");
      await expect(page.getByTestId("applied-before")).toContainText("2 MiB/s");
      await expect(page.getByTestId("applied-after")).toContainText("512 KiB/s");
      await editForm(page).getByRole("button", { name: "Apply" }).click();
      await expect(page.getByTestId("quota-applied")).toContainText(
        `Set producer_byte_rate of user=${USER}, client-id=c1 to 524288.`,
      );

      const applied = await page.request.get(`/api/v1/quotas/applied?user=${USER}&clientId=c1`);
      expect(applied.status()).toBe(200);
      const producer = ((await applied.json()) as { keys: { key: string; value: number; level: number }[] }).keys.find(
        (k) => k.key === "producer_byte_rate",
      );
      expect(producer).toMatchObject({ value: 524_288, level: 1 });

      const audit = await page.request.get("/api/v1/audit?action=quota.alter&principal=User:admin");
      const events = (
        (await audit.json()) as { events: { target: string; outcome: string; after: unknown; before: unknown }[] }
      ).events;
      expect(events.find((e) => e.target === `user=${USER}, client-id=c1` && e.outcome === "success")).toMatchObject({
        before: {},
        after: { producer_byte_rate: 524_288 },
      });

      // Past the total: 512 KiB/s + 2 MiB/s > 2 MiB/s.
      await fillEdit(page, {
        kind: "user+client-id",
        user: USER,
        clientId: "c2",
        key: "producer_byte_rate",
        value: "2097152",
      });
      await expect(page.getByTestId("kafka-check")).toContainText("accepted");
      await expect(page.getByTestId("budget-check")).toContainText("rejected by the console");
      await expect(page.getByTestId("budget-check")).toContainText(
        `user ${USER} for producer_byte_rate sum to 2.5 MiB/s`,
      );
      await expect(page.getByTestId("budget-check")).toContainText("c1, c2");
      await expect(page.getByTestId("preview-summary")).toContainText("Kafka itself would accept this change");
      await expect(editForm(page).getByRole("button", { name: "Apply" })).toHaveCount(0);
      const forced = await page.request.post("/api/v1/quotas", {
        data: { entity: { user: USER, "client-id": "c2" }, key: "producer_byte_rate", value: 2_097_152 },
      });
      expect(forced.status()).toBe(409);
      expect(((await forced.json()) as { error: string }).error).toContain("console's KIP-55 rule");
      const notApplied = await page.request.get(`/api/v1/quotas/applied?user=${USER}&clientId=c2`);
      expect(
        ((await notApplied.json()) as { keys: { key: string; level: number }[] }).keys.find(
          (k) => k.key === "producer_byte_rate",
        )?.level,
      ).toBe(6);

      // Kafka's own validation, Kafka's words.
      await fillEdit(page, {
        kind: "user+client-id",
        user: USER,
        clientId: "c3",
        key: "producer_byte_rate",
        value: "0",
      });
      await expect(page.getByTestId("kafka-check")).toContainText("Quota producer_byte_rate must be greater than 0");
      await fillEdit(page, {
        kind: "user+client-id",
        user: USER,
        clientId: "c3",
        key: "producer_byte_rate",
        value: "1.5",
      });
      await expect(page.getByTestId("kafka-check")).toContainText("producer_byte_rate cannot be a fractional value.");

      // The API's dry run is the same preview.
      const dry = await page.request.post("/api/v1/quotas", {
        data: { entity: { user: USER, "client-id": "c3" }, key: "producer_byte_rate", value: 1024, dryRun: true },
      });
      expect(dry.status()).toBe(200);
      // A sealed plan (the same answer as POST /api/v1/plans): nothing applied until POST /api/v1/plans/{id}/apply.
      expect(await dry.json()).toMatchObject({
        kind: "quota.alter",
        status: "OPEN",
        applicable: true,
        allowed: true,
        kafka: { ok: true },
        value: 1024,
      });

      // Clean up through the form: remove the key.
      await fillEdit(page, {
        kind: "user+client-id",
        user: USER,
        clientId: "c1",
        key: "producer_byte_rate",
        remove: true,
      });
      await editForm(page).getByRole("button", { name: "Apply" }).click();
      await expect(page.getByTestId("quota-applied")).toContainText(
        `Removed producer_byte_rate from user=${USER}, client-id=c1.`,
      );
    },
  );

  test("Change on a configured row opens the edit form filled in; the preview shows the current value", async ({
    adminPage: page,
  }) => {
    await page.goto("/quotas");
    await page
      .getByRole("link", { name: "Change producer_byte_rate of user=svc-orders, client-id=orders-api" })
      .click();
    const form = editForm(page);
    await expect(form.locator("input[name=user]")).toHaveValue("svc-orders");
    await expect(form.locator("input[name=clientId]")).toHaveValue("orders-api");
    await expect(form.locator("input[name=value]")).toHaveValue("524288");
    await form.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("quota-preview")).toContainText(
      "user=svc-orders, client-id=orders-api: producer_byte_rate 524288 → 524288",
    );
    await expect(page.getByTestId("budget-check")).toContainText("within budget");
  });

  test(
    "issue #7: Change svc-orders/orders-batch, Key consumer_byte_rate, Value 100000: the preview keeps " +
      "every field, Apply sends exactly it",
    async ({ adminPage: page }) => {
      const entity = { user: "svc-orders", "client-id": "orders-batch" };
      const appliedKey = async (key: string) => {
        const r = await page.request.get("/api/v1/quotas/applied?user=svc-orders&clientId=orders-batch");
        return ((await r.json()) as { keys: { key: string; value: number | null; level: number | null }[] }).keys.find(
          (k) => k.key === key,
        );
      };
      expect(await appliedKey("consumer_byte_rate")).toMatchObject({ value: 2_097_152, level: 3 });
      try {
        await page.goto("/quotas");
        await page
          .getByRole("link", { name: "Change producer_byte_rate of user=svc-orders, client-id=orders-batch" })
          .click();
        const form = editForm(page);
        await form.locator("select[name=key]").selectOption("consumer_byte_rate");
        await form.getByLabel("Value").fill("100000");
        await form.getByRole("button", { name: "Preview" }).click();
        await expect(page.getByTestId("quota-preview")).toContainText(
          "user=svc-orders, client-id=orders-batch: consumer_byte_rate (not set) → 100000",
        );

        // Every field, the selects included, shows what was previewed.
        await expect(form.locator("select[name=kind]")).toHaveValue("user+client-id");
        await expect(form.locator("select[name=key]")).toHaveValue("consumer_byte_rate");
        await expect(form.locator("input[name=user]")).toHaveValue("svc-orders");
        await expect(form.locator("input[name=clientId]")).toHaveValue("orders-batch");
        await expect(form.locator("input[name=value]")).toHaveValue("100000");

        // The plan: the pair before and after, the user's budget, the CLI.
        const row = page.getByTestId("quota-impact").locator('tr[data-pair="svc-orders/orders-batch"]');
        await expect(row).toContainText("2 MiB/s");
        await expect(row).toContainText("level 3");
        await expect(row).toContainText("97.66 KiB/s");
        await expect(row).toContainText("level 1");
        await expect(row).toContainText("0 B/s of 2 MiB/s");
        await expect(row).toContainText("97.66 KiB/s of 2 MiB/s");
        await expect(
          page.getByTestId("quota-impact").locator('tr[data-pair="svc-orders/another client id"]'),
        ).toContainText("unchanged");
        await expect(page.getByTestId("quota-cli")).toContainText(
          "--command-config <admin.properties> --alter --entity-type users --entity-name svc-orders " +
            "--entity-type clients --entity-name orders-batch --add-config consumer_byte_rate=100000",
        );

        await form.getByRole("button", { name: "Apply" }).click();
        await expect(page.getByTestId("quota-applied")).toContainText(
          "Set consumer_byte_rate of user=svc-orders, client-id=orders-batch to 100000.",
        );
        await expect(form.locator("select[name=key]")).toHaveValue("consumer_byte_rate");
        expect(await appliedKey("consumer_byte_rate")).toMatchObject({ value: 100_000, level: 1 });
        expect(await appliedKey("producer_byte_rate")).toMatchObject({ value: 262_144, level: 1 });
        await expect(form.getByRole("button", { name: "Apply" })).toHaveCount(0);
      } finally {
        await page.request.post("/api/v1/quotas", {
          headers: admin,
          data: { entity, key: "consumer_byte_rate", value: null },
        });
      }
      expect(await appliedKey("consumer_byte_rate")).toMatchObject({ value: 2_097_152, level: 3 });
    },
  );

  test(
    "Apply takes only the plan: fields edited after the preview hide Apply, and a quota changed " +
      "elsewhere since the preview is a 409",
    async ({ adminPage: page }) => {
      await page.goto("/quotas");
      await fillEdit(page, {
        kind: "user+client-id",
        user: USER,
        clientId: "c3",
        key: "producer_byte_rate",
        value: "4096",
      });
      const form = editForm(page);
      await expect(form.getByRole("button", { name: "Apply" })).toBeVisible();
      await form.getByLabel("Value").fill("8192");
      await expect(form.getByRole("button", { name: "Apply" })).toHaveCount(0);
      await expect(page.getByTestId("quota-edited")).toContainText("Preview again");
      await form.getByLabel("Value").fill("4096");
      await form.getByRole("button", { name: "Preview" }).click();
      await expect(form.getByRole("button", { name: "Apply" })).toBeVisible();

      // Someone changes this user's total outside the page (here: the API, as kafka-configs.sh would).
      const outside = await page.request.post("/api/v1/quotas", {
        headers: admin,
        data: { entity: { user: USER }, key: "producer_byte_rate", value: 1_048_576 },
      });
      expect(outside.status()).toBe(200);
      try {
        await form.getByRole("button", { name: "Apply" }).click();
        await expect(page.getByTestId("quota-error")).toHaveText(
          "The quotas changed since this preview; preview again.",
        );
        await expect(form.locator("input[name=value]")).toHaveValue("4096");
        await expect(form.getByRole("button", { name: "Apply" })).toHaveCount(0);
        const notApplied = await page.request.get(`/api/v1/quotas/applied?user=${USER}&clientId=c3`);
        expect(
          ((await notApplied.json()) as { keys: { key: string; level: number }[] }).keys.find(
            (k) => k.key === "producer_byte_rate",
          )?.level,
        ).toBe(3);
      } finally {
        await page.request.post("/api/v1/quotas", {
          headers: admin,
          data: { entity: { user: USER }, key: "producer_byte_rate", value: null },
        });
      }
    },
  );

  test("without JavaScript the preview keeps every field too (server-rendered)", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      const page = await context.newPage();
      await signInAs(page, "admin");
      await page.goto("/quotas");
      const form = editForm(page);
      await form.locator("select[name=kind]").selectOption("user");
      await form.getByLabel("User", { exact: true }).fill(USER);
      await form.locator("select[name=key]").selectOption("request_percentage");
      await form.getByLabel("Value").fill("25");
      await form.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByTestId("quota-preview")).toContainText(`user=${USER}: request_percentage (not set) → 25`);
      await expect(form.locator("select[name=kind]")).toHaveValue("user");
      await expect(form.locator("select[name=key]")).toHaveValue("request_percentage");
      await expect(form.locator("input[name=user]")).toHaveValue(USER);
      await expect(form.locator("input[name=value]")).toHaveValue("25");
    } finally {
      await context.close();
    }
  });

  test("alice may not describe quotas: Kafka's readable refusal, on the page and in the API", async ({
    page,
    request,
  }) => {
    await signInAs(page, "alice");
    await page.goto("/quotas");
    await expect(page.getByTestId("quotas-error")).toContainText("DESCRIBE_CONFIGS on CLUSTER");
    const api = await request.get("/api/v1/quotas", { headers: { Authorization: basic("alice") } });
    expect(api.status()).toBe(403);
    expect(((await api.json()) as { error: string }).error).toContain("DESCRIBE_CONFIGS");
  });
});

test.describe("/api/v1/quotas", () => {
  test("GET lists the entities and the KIP-55 findings; GET /applied answers per key", async ({ request }) => {
    const list = await request.get("/api/v1/quotas", { headers: admin });
    expect(list.status()).toBe(200);
    const body = (await list.json()) as {
      groups: { group: string; entities: { label: string }[] }[];
      findings: { violations: { user: string }[]; rule: string };
    };
    expect(body.groups.find((g) => g.group === "defaults")?.entities.map((e) => e.label)).toEqual(
      expect.arrayContaining(["user=<default>", "client-id=<default>"]),
    );
    expect(body.findings.violations.map((v) => v.user)).toContain("svc-billing");
    expect(body.findings.rule).toBe("console rule (KIP-55), Kafka does not enforce this");

    const applied = await request.get("/api/v1/quotas/applied?user=alice&clientId=x", { headers: admin });
    const keys = (
      (await applied.json()) as {
        keys: { key: string; value: number | null; level: number | null; entityLabel: string | null }[];
      }
    ).keys;
    expect(keys.find((k) => k.key === "producer_byte_rate")).toMatchObject({
      value: 2_097_152,
      level: 6,
      entityLabel: "user=<default>",
    });
  });

  const badRequests: { name: string; data: unknown; status: number; field?: string; error?: string }[] = [
    {
      name: "an unknown entity type",
      data: { entity: { group: "x" }, key: "producer_byte_rate", value: 1 },
      status: 400,
      field: "entity",
    },
    { name: "an unknown key", data: { entity: { user: USER }, key: "bytes", value: 1 }, status: 400, field: "key" },
    {
      name: "a value that is not a number",
      data: { entity: { user: USER }, key: "producer_byte_rate", value: "fast" },
      status: 400,
      field: "value",
    },
    {
      name: "a value of 0 (Kafka's rule)",
      data: { entity: { user: USER }, key: "producer_byte_rate", value: 0 },
      status: 400,
      error: "Quota producer_byte_rate must be greater than 0",
    },
    {
      name: "an ip key on a user (Kafka's rule)",
      data: { entity: { user: USER }, key: "connection_creation_rate", value: 5 },
      status: 400,
      error: "Invalid configuration key connection_creation_rate",
    },
  ];
  for (const c of badRequests) {
    test(`POST refuses ${c.name}`, async ({ request }) => {
      const r = await request.post("/api/v1/quotas", { headers: admin, data: c.data });
      expect(r.status()).toBe(c.status);
      const json = (await r.json()) as { error: string; fieldErrors?: Record<string, string[]> };
      if (c.field) expect(Object.keys(json.fieldErrors ?? {}).some((k) => k.startsWith(c.field!))).toBe(true);
      if (c.error) expect(json.error).toContain(c.error);
    });
  }

  test("POST as alice is refused with Kafka's readable reason (DESCRIBE_CONFIGS on CLUSTER)", async ({ request }) => {
    const r = await request.post("/api/v1/quotas", {
      headers: { Authorization: basic("alice") },
      data: { entity: { user: USER }, key: "producer_byte_rate", value: 1024 },
    });
    expect(r.status()).toBe(403);
    expect(((await r.json()) as { error: string }).error).toContain("DESCRIBE_CONFIGS");
  });
});
