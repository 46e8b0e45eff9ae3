import { test, expect, signInAs } from "./fixtures";
import type { APIRequestContext, Page } from "@playwright/test";

/**
 * The dashboard per viewer (issue #9), against the dev broker and the demo data
 * (scripts/seed/demo-data.ts): admin, the super user, sees the ACL posture, and each number
 * is what the filtered ACL list behind its link holds; alice, who may not describe ACLs
 * or client quotas, is told so on those cards; the token request carol makes for
 * svc-orders waits for admin's decision, not alice's; alice's own token is on her timeline;
 * the requests, grants and break-glass cards (#19) answer as the API does (e2e/four-eyes.spec.ts
 * fills them on a cluster that needs approvals).
 */

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const basic = (user: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`,
});

let requestId = "";
const tokens: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  // The list shows the oldest requests waiting: deny what an interrupted earlier run of the
  // suite left waiting (e2e reasons only), or carol's request below would not be among them.
  const waiting = await request.get("/api/v1/token-requests", { headers: basic("admin") });
  if (waiting.ok()) {
    const body = (await waiting.json()) as { pending?: { id: string; reason: string; status: string }[] };
    for (const r of body.pending ?? []) {
      if (r.status === "PENDING" && r.reason.startsWith("e2e "))
        await request.post(`/api/v1/token-requests/${r.id}/deny`, {
          headers: basic("admin"),
          data: { reason: "e2e leftover" },
        });
    }
  }
  const submitted = await request.post("/api/v1/token-requests", {
    headers: basic("carol"),
    data: { owner: "User:svc-orders", reason: `e2e dashboard ${RUN}` },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  requestId = ((await submitted.json()) as { id: string }).id;
  const token = await request.post("/api/v1/tokens", { headers: basic("alice"), data: { renewers: [] } });
  expect(token.status(), await token.text()).toBe(200);
  tokens.push(((await token.json()) as { hmac: string }).hmac);
});

test.afterAll(async ({ request }) => {
  if (requestId)
    await request.post(`/api/v1/token-requests/${requestId}/deny`, {
      headers: basic("admin"),
      data: { reason: "e2e dashboard test done" },
    });
  for (const hmac of tokens)
    await request.post("/api/v1/tokens/expire", { headers: basic("alice"), data: { hmac, when: "now" } });
});

/** How many ACLs the ACL list (GET /api/v1/acls) holds for these filters, as admin. */
async function listed(request: APIRequestContext, filters: Record<string, string>): Promise<number> {
  const r = await request.get(`/api/v1/acls?${new URLSearchParams(filters)}`, { headers: basic("admin") });
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { matching: number }).matching;
}

async function stat(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).locator("span").first().textContent();
  return Number((text ?? "").replace(/,/g, ""));
}

const POSTURE: [string, Record<string, string>][] = [
  ["posture-total", {}],
  ["posture-deny", { permissionType: "DENY" }],
  ["posture-wildcard-principal", { principal: "User:*" }],
  ["posture-wildcard-resource", { resourceName: "*", patternType: "LITERAL" }],
  ["posture-prefixed", { patternType: "PREFIXED" }],
];

test(
  "admin: the ACL posture counts are the ACL list's, with the demo ACLs among them, and each number " +
    "opens that list",
  async ({ adminPage: page, request }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // Other tests may change ACLs meanwhile: compare one rendering with the list read right after it.
    await expect(async () => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      for (const [testId, filters] of POSTURE)
        expect(await stat(page, testId), testId).toBe(await listed(request, filters));
    }).toPass({ timeout: 60_000 });

    // The demo ACLs: DENY on payments-eu for bob and DELETE on audit-log for User:*; User:* reads inventory.
    expect(await stat(page, "posture-deny")).toBeGreaterThanOrEqual(2);
    expect(await stat(page, "posture-wildcard-principal")).toBeGreaterThanOrEqual(2);
    expect(await stat(page, "posture-prefixed")).toBeGreaterThanOrEqual(5);
    expect(await stat(page, "posture-wildcard-resource")).toBeGreaterThanOrEqual(1);
    const chart = page.getByTestId("acl-chart");
    await expect(chart.getByRole("link", { name: /DENY ACLs on TOPIC/ })).toHaveAttribute(
      "href",
      "/acls?resourceType=TOPIC&permissionType=DENY",
    );
    await expect(page.getByTestId("posture-lint")).toContainText("Lint");
    await expect(page.getByTestId("super-users").getByRole("link", { name: "User:admin" })).toHaveAttribute(
      "href",
      "/principals/User%3Aadmin",
    );

    // KIP-55: svc-billing's billing-export sub-quota exceeds its user total.
    expect(await stat(page, "quotas-violations")).toBeGreaterThanOrEqual(1);
    await expect(page.locator("li[data-user='svc-billing'][data-key='producer_byte_rate']")).toHaveAttribute(
      "data-over",
      "yes",
    );

    // carol's request for svc-orders waits for admin (a super user may create tokens for anyone).
    await expect(page.getByTestId("decisions-list").locator(`li[data-request-id="${requestId}"]`)).toBeVisible();
    expect(await stat(page, "decisions-pending")).toBeGreaterThanOrEqual(1);

    await expect(page.getByTestId("cluster-id")).not.toHaveText("unknown");
    await expect(page.getByRole("table", { name: "Brokers" })).toContainText("takes admin requests");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: ".data/test-results/screens/dashboard-admin-1440.png", fullPage: true });

    await page.getByTestId("posture-deny").click();
    await expect(page).toHaveURL(/\/acls\?permissionType=DENY$/);
  },
);

/**
 * ACLs lint flags: an ALLOW a DENY makes dead (the DENY is its cause, not flagged) and an
 * ALLOW a broader ALLOW makes redundant. The demo ACLs have no finding.
 */
const LINTED = (() => {
  const b = (resourceName: string, operation: string, permissionType = "ALLOW", patternType = "LITERAL") => ({
    resourceType: "TOPIC",
    resourceName,
    patternType,
    principal: `User:e2e-lint-${RUN}`,
    host: "*",
    operation,
    permissionType,
  });
  return [
    b(`e2e-lint-dead-${RUN}`, "READ"),
    // Denies all a READ grants (READ and the DESCRIBE it implies) on every name under the prefix.
    b(`e2e-lint-dead-`, "ALL", "DENY", "PREFIXED"),
    b(`e2e-lint-redundant-${RUN}`, "ALL"),
    b(`e2e-lint-redundant-${RUN}`, "WRITE"),
  ];
})();

test("admin: each lint code's number opens the ACL list filtered by that code, holding exactly that many ACLs", async ({
  adminPage: page,
  request,
}) => {
  test.setTimeout(180_000);
  const made = await request.post("/api/v1/acls", { headers: basic("admin"), data: { bindings: LINTED } });
  expect(made.status(), await made.text()).toBe(200);
  try {
    // Other tests may change ACLs meanwhile: the numbers of one rendering against the lists read right after it.
    await expect(async () => {
      await page.goto("/");
      const codes = page.getByTestId("posture-lint").locator("li[data-code]");
      await expect(page.getByTestId("posture-lint").locator('li[data-code="dead-allow"]')).toBeVisible();
      const shown: { code: string; count: number; href: string }[] = [];
      for (const item of await codes.all()) {
        const link = item.getByRole("link");
        shown.push({
          code: (await item.getAttribute("data-code"))!,
          count: Number(await link.locator(".badge").textContent()),
          href: (await link.getAttribute("href"))!,
        });
      }
      expect(shown.map((c) => c.code)).toEqual(expect.arrayContaining(["dead-allow", "redundant-allow"]));
      for (const { code, count, href } of shown) {
        expect(href).toBe(`/acls?lintCode=${code}`);
        expect(await listed(request, { lintCode: code }), code).toBe(count);
      }
      // The pages themselves, for the two codes this test made.
      for (const { code, count, href } of shown.filter(
        (c) => c.code === "dead-allow" || c.code === "redundant-allow",
      )) {
        await page.goto(href);
        await expect(page.getByTestId("acl-count"), code).toContainText(`of ${count} matching`);
        await expect(page.getByRole("table", { name: "ACLs", exact: true }).locator("tbody tr"), code).toHaveCount(
          Math.min(count, 200),
        );
        await expect(page.getByLabel("Lint finding")).toHaveValue(code);
        await expect(page.getByTestId("acl-lint")).toContainText(code);
      }
    }).toPass({ timeout: 90_000 });
    // The dead ALLOW is listed, not the DENY that kills it; the redundant WRITE, not the ALL that covers it.
    await page.goto(`/acls?lintCode=dead-allow&principal=User:e2e-lint-${RUN}`);
    await expect(page.getByTestId("acl-count")).toContainText("of 1 matching");
    await expect(page.getByRole("table", { name: "ACLs", exact: true })).toContainText("ALLOW");
    await expect(page.getByRole("table", { name: "ACLs", exact: true })).not.toContainText("DENY");
    await page.goto(`/acls?lintCode=redundant-allow&principal=User:e2e-lint-${RUN}`);
    await expect(page.getByTestId("acl-count")).toContainText("of 1 matching");
    await expect(page.getByRole("table", { name: "ACLs", exact: true })).toContainText("WRITE");
  } finally {
    await request.delete("/api/v1/acls", { headers: basic("admin"), data: { bindings: LINTED } });
  }
});

test(
  "alice: the ACL and quota cards say Kafka does not let her read them; no decision waits for her; her " +
    "token is on her timeline",
  async ({ page, request }) => {
    await signInAs(page, "alice");
    await page.goto("/");
    await expect(page.getByTestId("acl-posture-unavailable")).toContainText("Kafka does not let you describe ACLs");
    await expect(page.getByTestId("posture-total")).toHaveCount(0);
    await expect(page.getByTestId("acl-chart")).toHaveCount(0);
    await expect(page.getByTestId("quotas-unavailable")).toBeVisible();
    await expect(page.locator(`li[data-request-id="${requestId}"]`)).toHaveCount(0);
    expect(await stat(page, "decisions-pending")).toBe(0);
    expect(await stat(page, "tokens-owned")).toBeGreaterThanOrEqual(1);
    expect(await stat(page, "tokens-7d")).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId("token-timeline").getByRole("link").first()).toHaveAttribute("href", "/tokens");
    await page.screenshot({ path: ".data/test-results/screens/dashboard-alice-1440.png", fullPage: true });

    // Each token number opens the token list filtered to exactly the tokens it counted.
    const windows: [string, string][] = [
      ["tokens-owned", "/tokens?role=owner"],
      ["tokens-renewable", "/tokens?role=renewer"],
      ["tokens-24h", "/tokens?expiring=24h"],
      ["tokens-7d", "/tokens?expiring=7d"],
    ];
    const counted = new Map<string, number>();
    for (const [testId, href] of windows) {
      await expect(page.getByTestId(testId)).toHaveAttribute("href", href);
      counted.set(testId, await stat(page, testId));
    }
    for (const [testId, href] of windows) {
      await page.goto(href);
      await expect(page.getByTestId("token-filter")).toBeVisible();
      await expect(page.locator("tbody[data-token-id]"), testId).toHaveCount(counted.get(testId)!);
    }
    // alice's own new token (default lifetime 24 h) is among those that stop working within 24 h.
    expect(counted.get("tokens-24h")).toBeGreaterThanOrEqual(1);

    // The same through the API: each card answers on its own.
    const api = await request.get("/api/v1/dashboard", { headers: basic("alice") });
    expect(api.status()).toBe(200);
    const body = (await api.json()) as {
      principal: string;
      acls: { ok: boolean; code?: string };
      tokens: { ok: boolean };
    };
    expect(body).toMatchObject({ principal: "User:alice", acls: { ok: false, code: "DENIED" }, tokens: { ok: true } });
    const admin = (await (await request.get("/api/v1/dashboard", { headers: basic("admin") })).json()) as {
      acls: { ok: boolean };
    };
    expect(admin.acls.ok).toBe(true);
  },
);

test("without JavaScript the dashboard is complete on first paint", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await signInAs(page, "admin");
  await page.goto("/");
  await expect(page.getByTestId("posture-total")).toBeVisible();
  await expect(page.getByTestId("decisions-pending")).toBeVisible();
  await context.close();
});

test(
  "requests and grants (#19): the waiting count opens the requests, each number equals the API's, and this " +
    "cluster says it needs no approvals",
  async ({ adminPage: page, request }) => {
    const api = await request.get("/api/v1/dashboard", { headers: basic("admin") });
    expect(api.status(), await api.text()).toBe(200);
    const body = (await api.json()) as {
      requests: { ok: boolean; data?: { approvals: number; waiting: number; live: number; overdue: number } };
      breakGlass: { ok: boolean; data?: { days: number } };
    };
    expect(body.requests.ok).toBe(true);
    expect(body.breakGlass).toMatchObject({ ok: true, data: { days: 30 } });
    await page.goto("/");
    await expect(page.getByTestId("requests-approvals")).toContainText("needs no approvals");
    // Other specs may file requests or end grants meanwhile: the page's numbers are within a moment of the API's.
    expect(await stat(page, "grants-overdue")).toBe(body.requests.data!.overdue);
    await expect(page.getByTestId("card-break-glass")).toBeVisible();
    await expect(page.getByTestId("requests-waiting")).toHaveAttribute("href", "/requests");
  },
);
