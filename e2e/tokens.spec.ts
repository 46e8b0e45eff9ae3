import { test, expect, signInAs } from "./fixtures";
import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";

/**
 * Delegation tokens against the dev broker and the demo ACLs (scripts/seed/demo-data.ts):
 * bob has CREATE_TOKENS and DESCRIBE_TOKENS on USER User:svc-orders; alice and carol have
 * no CREATE_TOKENS; admin is the super user. Every token created here is expired at the
 * end (by its owner or a renewer: only they may).
 */

const basic = (user: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`,
});
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Tokens to expire at the end: the HMAC and who may expire it. */
const created: { hmac: string; as: string }[] = [];

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ request }) => {
  for (const t of created) {
    await request.post("/api/v1/tokens/expire", { headers: basic(t.as), data: { hmac: t.hmac, when: "now" } });
  }
});

async function pageAs(browser: Browser, user: string): Promise<Page> {
  const page = await (
    await browser.newContext({
      baseURL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`,
    })
  ).newPage();
  await signInAs(page, user);
  return page;
}

async function createInForm(page: Page, f: { owner?: string; renewers?: string }) {
  const form = page.getByRole("form", { name: "Create a token" });
  await form.getByLabel("Owner").fill(f.owner ?? "");
  await form.getByLabel("Renewers").fill(f.renewers ?? "");
  await form.getByRole("button", { name: "Create token" }).click();
}

async function readHmac(page: Page): Promise<{ tokenId: string; hmac: string }> {
  const panel = page.getByTestId("hmac-once");
  await expect(panel).toContainText("it will not be shown again");
  const hmac = await panel.getByTestId("token-hmac").inputValue();
  const tokenId = (await panel.getByTestId("hmac-token-id").textContent()) ?? "";
  expect(hmac).toMatch(/^[A-Za-z0-9+/]+=*$/);
  return { tokenId, hmac };
}

async function openActions(row: Locator) {
  await row.locator("details").evaluate((d) => ((d as HTMLDetailsElement).open = true));
}

async function auditCsv(request: APIRequestContext, principal: string): Promise<string> {
  const response = await request.get(
    `/api/v1/audit?${new URLSearchParams({ principal, format: "csv", limit: "200" })}`,
    { headers: basic("admin") },
  );
  expect(response.status()).toBe(200);
  return response.text();
}

test(
  "alice: a token for herself, HMAC shown once, listed, renewed and expired with the pasted HMAC, " +
    "audited without it",
  async ({ page, request }) => {
    await signInAs(page, "alice");
    await page.goto("/tokens");
    await createInForm(page, { renewers: "User:bob" });
    const { tokenId, hmac } = await readHmac(page);
    created.push({ hmac, as: "alice" });

    const row = page.locator(`tbody[data-token-id="${tokenId}"]`);
    await expect(row).toContainText("User:alice");
    await expect(row).toContainText("User:bob");
    await expect(row).toContainText(/expires in \d+ h/);
    await expect(row).toContainText("active");
    await expect(page.getByRole("table", { name: "Delegation tokens" })).not.toContainText(hmac);

    await page.reload();
    await expect(row).toBeVisible();
    await expect(page.getByTestId("hmac-once")).toHaveCount(0);
    expect(await page.content()).not.toContain(hmac);
    const listed = await request.get("/api/v1/tokens", { headers: basic("alice") });
    expect(await listed.text()).not.toContain(hmac);

    await openActions(row);
    const renew = page.getByRole("form", { name: `Renew ${tokenId}` });
    await expect(renew.getByLabel("HMAC")).toHaveAttribute("type", "password");
    await renew.getByLabel("HMAC").fill("AAAA");
    await renew.getByRole("button", { name: "Renew" }).click();
    await expect(row.getByTestId("token-renew-error")).toContainText(`This is not the HMAC of token ${tokenId}`);
    await renew.getByLabel("HMAC").fill(hmac);
    await renew.getByLabel("Period (hours)").fill("2");
    await renew.getByRole("button", { name: "Renew" }).click();
    await expect(row.getByTestId("token-renew-done")).toContainText(`Token ${tokenId} renewed: it now expires in`);

    await openActions(row);
    const expire = page.getByRole("form", { name: `Expire ${tokenId}` });
    await expire.getByLabel("HMAC").fill(hmac);
    await expire.getByRole("button", { name: "Expire" }).click();
    await expect(page.getByTestId("token-expire-done")).toContainText(`Token ${tokenId} was expired now and removed.`);
    await page.reload();
    await expect(page.locator(`tbody[data-token-id="${tokenId}"]`)).toHaveCount(0);

    const csv = await auditCsv(request, "User:alice");
    for (const action of ["token.create", "token.renew", "token.expire"])
      expect(csv).toMatch(new RegExp(`${action.replace(".", "\\.")},token ${tokenId},success`));
    expect(csv).not.toContain(hmac);
  },
);

test(
  "alice may not create for User:svc-orders: Kafka names CREATE_TOKENS on USER User:svc-orders, and the " +
    "hint to request one",
  async ({ page, request }) => {
    await signInAs(page, "alice");
    await page.goto("/tokens");
    await createInForm(page, { owner: "User:svc-orders" });
    const error = page.getByTestId("token-create-error");
    await expect(error).toContainText(
      "Kafka refused CreateDelegationToken: User:alice needs CREATE_TOKENS on USER User:svc-orders.",
    );
    await expect(error).toContainText("ask someone entitled: submit a token request", { ignoreCase: true });
    await expect(page.getByTestId("hmac-once")).toHaveCount(0);

    const api = await request.post("/api/v1/tokens", { headers: basic("alice"), data: { owner: "User:svc-orders" } });
    expect(api.status()).toBe(403);
    expect(((await api.json()) as { error: string }).error).toContain("CREATE_TOKENS on USER User:svc-orders");
    expect(await auditCsv(request, "User:alice")).toMatch(/token\.create,token for User:svc-orders,denied/);
  },
);

test(
  "bob creates a token for User:svc-orders (KIP-373); as its requester he is offered no renew or " +
    "expire, and Kafka refuses them",
  async ({ page, request }) => {
    await signInAs(page, "bob");
    await page.goto("/tokens");
    await createInForm(page, { owner: "User:svc-orders" });
    const { tokenId, hmac } = await readHmac(page);
    created.push({ hmac, as: "svc-orders" });
    const row = page.locator(`tbody[data-token-id="${tokenId}"]`);
    await expect(row).toContainText("User:svc-orders");
    await expect(row).toContainText("User:bob");
    await expect(row).toContainText("you may not renew or expire it (only its owner and renewers may)");
    // The row says he may not: it offers neither action.
    await expect(row.locator("details")).toHaveCount(0);
    await expect(page.getByRole("form", { name: `Renew ${tokenId}` })).toHaveCount(0);
    await expect(page.getByRole("form", { name: `Expire ${tokenId}` })).toHaveCount(0);

    // The requester is neither owner nor renewer: Kafka refuses to renew or expire, and says why.
    const renew = await request.post("/api/v1/tokens/renew", { headers: basic("bob"), data: { tokenId, hmac } });
    expect(renew.status()).toBe(403);
    expect(((await renew.json()) as { error: string }).error).toContain("DELEGATION_TOKEN_OWNER_MISMATCH");
    const alice = await request.post("/api/v1/tokens/expire", { headers: basic("alice"), data: { hmac, when: "now" } });
    expect(alice.status()).toBe(403);
    expect(((await alice.json()) as { error: string }).error).toContain("DELEGATION_TOKEN_OWNER_MISMATCH");
  },
);

test("the token list and the pending-request badge update while the page is open (no reload)", async ({
  page,
  request,
}) => {
  await signInAs(page, "bob");
  await page.goto("/tokens");
  await expect(page.getByRole("heading", { level: 1, name: "Tokens" })).toBeVisible();

  // A token made elsewhere (the API, as bob) appears in the open page.
  const made = await request.post("/api/v1/tokens", { headers: basic("bob"), data: {} });
  expect(made.status(), await made.text()).toBe(200);
  const { token, hmac } = (await made.json()) as { token: { tokenId: string }; hmac: string };
  created.push({ hmac, as: "bob" });
  await expect(page.locator(`tbody[data-token-id="${token.tokenId}"]`)).toContainText("User:bob", { timeout: 40_000 });

  // A request bob may approve (he has CREATE_TOKENS on User:svc-orders) makes the badge appear.
  const before = page.getByTestId("pending-requests");
  const countOf = async () => Number(((await before.textContent()) ?? "0").match(/\d+/)?.[0] ?? 0);
  const initial = (await before.count()) ? await countOf() : 0;
  const submitted = await request.post("/api/v1/token-requests", {
    headers: basic("carol"),
    data: { owner: "User:svc-orders", reason: `e2e ${RUN}: badge` },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  const { id } = (await submitted.json()) as { id: string };
  await expect(before).toContainText(`${initial + 1} token request`, { timeout: 40_000 });
  await expect(before).toHaveAttribute("href", "/token-requests");
  // Leave nothing pending behind.
  const withdrawn = await request.post(`/api/v1/token-requests/${id}/deny`, {
    headers: basic("carol"),
    data: { reason: "e2e cleanup" },
  });
  expect(withdrawn.status(), await withdrawn.text()).toBe(200);
});

test(
  "token request: carol asks for svc-orders, alice's approval is refused by Kafka, bob approves, carol " +
    "retrieves the HMAC once",
  async ({ browser, request }) => {
    const reason = `e2e ${RUN}: nightly export`;
    const carol = await pageAs(browser, "carol");
    await carol.goto("/token-requests");
    const form = carol.getByRole("form", { name: "Request a token" });
    await form.getByLabel("Owner").fill("User:svc-orders");
    await form.getByLabel("Renewers").fill("User:carol");
    await form.getByLabel("Max lifetime").fill("12");
    await form.getByLabel("Unit").selectOption("hours");
    await form.getByLabel("Reason").fill(reason);
    await form.getByRole("button", { name: "Submit request" }).click();
    await expect(carol.getByTestId("request-submitted")).toContainText("PENDING");
    const mine = carol.getByRole("table", { name: "My requests" }).locator("tr", { hasText: reason });
    await expect(mine.getByTestId("request-status")).toHaveText("PENDING");
    const id = (await mine.getAttribute("data-request-id")) ?? "";
    expect(id).not.toBe("");

    // carol cannot approve her own request: the page offers only to withdraw it, and the API refuses.
    const ownRow = carol.getByRole("table", { name: "Requests I can decide" }).locator(`tr[data-request-id="${id}"]`);
    await expect(ownRow.getByTestId("entitlement")).toHaveText("your request");
    await expect(ownRow.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await expect(ownRow.getByRole("button", { name: "Withdraw" })).toBeVisible();
    const own = await request.post(`/api/v1/token-requests/${id}/approve`, { headers: basic("carol") });
    expect(own.status()).toBe(403);
    expect(((await own.json()) as { error: string }).error).toContain("You cannot approve your own request");

    // alice is not entitled: the request (and its reason) is not listed to her, and Kafka refuses
    // when the console creates the token as her; the request stays PENDING.
    const alice = await pageAs(browser, "alice");
    await alice.goto("/token-requests");
    await expect(alice.getByRole("heading", { name: "Requests I can decide" })).toBeVisible();
    await expect(alice.locator(`tr[data-request-id="${id}"]`)).toHaveCount(0);
    const aliceApproval = await request.post(`/api/v1/token-requests/${id}/approve`, { headers: basic("alice") });
    expect(aliceApproval.status()).toBe(403);
    const aliceError = ((await aliceApproval.json()) as { error: string }).error;
    expect(aliceError).toContain("User:alice needs CREATE_TOKENS on USER User:svc-orders");
    expect(aliceError).toContain("stays PENDING");
    await carol.reload();
    await expect(mine.getByTestId("request-status")).toHaveText("PENDING");

    // bob may approve (he has created tokens for svc-orders; Kafka lets him).
    const bob = await pageAs(browser, "bob");
    await bob.goto("/token-requests");
    const bobRow = bob.getByRole("table", { name: "Requests I can decide" }).locator(`tr[data-request-id="${id}"]`);
    await expect(bobRow).toHaveAttribute("data-entitled", "yes");
    await expect(bobRow.getByTestId("entitlement")).toHaveText("you may approve");
    await bobRow.getByRole("button", { name: "Approve" }).click();
    await expect(bobRow.getByTestId("approve-done")).toContainText("created for User:svc-orders");

    await carol.reload();
    await expect(mine.getByTestId("request-status")).toHaveText("APPROVED");
    await mine.getByRole("button", { name: "Retrieve token" }).click();
    const { hmac, tokenId } = await readHmac(carol);
    created.push({ hmac, as: "carol" });
    expect(tokenId).not.toBe("");

    await carol.reload();
    await expect(mine.getByTestId("request-status")).toHaveText("RETRIEVED");
    await expect(mine.getByRole("button", { name: "Retrieve token" })).toHaveCount(0);
    expect(await carol.content()).not.toContain(hmac);
    const again = await request.post(`/api/v1/token-requests/${id}/retrieve`, { headers: basic("carol") });
    expect(again.status()).toBe(409);
    expect(((await again.json()) as { error: string }).error).toContain("already retrieved");

    // The token is real: carol (a renewer) sees it and may renew it.
    const tokens = (await (await request.get("/api/v1/tokens", { headers: basic("carol") })).json()) as {
      tokens: { tokenId: string; owner: string; requester: string; mayRenew: boolean }[];
    };
    expect(tokens.tokens.find((t) => t.tokenId === tokenId)).toMatchObject({
      owner: "User:svc-orders",
      requester: "User:bob",
      mayRenew: true,
    });

    const csv = await auditCsv(request, "User:bob");
    expect(csv).toMatch(new RegExp(`token\\.request\\.approve,token request ${id},success`));
    expect(csv).not.toContain(hmac);
    const carolCsv = await auditCsv(request, "User:carol");
    expect(carolCsv).toMatch(new RegExp(`token\\.request\\.retrieve,token request ${id},success`));
    expect(carolCsv).not.toContain(hmac);
  },
);

test("deny with a reason: the requester sees it", async ({ browser, request }) => {
  const reason = `e2e ${RUN}: deny me`;
  const submitted = await request.post("/api/v1/token-requests", {
    headers: basic("carol"),
    data: { owner: "User:svc-orders", reason },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  const { id } = (await submitted.json()) as { id: string };

  const admin = await pageAs(browser, "admin");
  await admin.goto("/token-requests");
  const row = admin.getByRole("table", { name: "Requests I can decide" }).locator(`tr[data-request-id="${id}"]`);
  await expect(row.getByTestId("entitlement")).toHaveText("you may approve");
  await row.getByLabel("Reason for denying").fill("use the shared export token instead");
  await row.getByRole("button", { name: "Deny" }).click();
  await expect(row.getByTestId("deny-done")).toBeVisible();

  const carol = await pageAs(browser, "carol");
  await carol.goto("/token-requests");
  const mine = carol.getByRole("table", { name: "My requests" }).locator(`tr[data-request-id="${id}"]`);
  await expect(mine.getByTestId("request-status")).toHaveText("DENIED");
  await expect(mine.getByTestId("decision-reason")).toContainText("use the shared export token instead");
  const late = await request.post(`/api/v1/token-requests/${id}/approve`, { headers: basic("bob") });
  expect(late.status()).toBe(409);
});

test("the token list is sorted soonest-to-stop first and sorts by any column in the browser", async ({
  page,
  request,
}) => {
  const ids: Record<number, string> = {};
  // Max lifetimes shorter than the expiry period (24 h), so each stops working at its max; the later one made first.
  for (const hours of [6, 2]) {
    const r = await request.post("/api/v1/tokens", {
      headers: basic("alice"),
      data: { renewers: [], maxLifetimeMs: hours * 3_600_000 },
    });
    expect(r.status(), await r.text()).toBe(200);
    const body = (await r.json()) as { hmac: string; token: { tokenId: string } };
    created.push({ hmac: body.hmac, as: "alice" });
    ids[hours] = body.token.tokenId;
  }
  await signInAs(page, "alice");
  await page.goto("/tokens");
  const table = page.getByRole("table", { name: "Delegation tokens" });
  const order = () =>
    table.locator("tbody[data-token-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-token-id")!));
  await expect(table.getByRole("columnheader", { name: /^Expiry/ })).toHaveAttribute("aria-sort", "ascending");
  const soonest = await order();
  expect(soonest.indexOf(ids[2]!)).toBeGreaterThanOrEqual(0);
  expect(soonest.indexOf(ids[2]!)).toBeLessThan(soonest.indexOf(ids[6]!));

  await table.getByRole("button", { name: "Token id: sort ascending" }).click();
  await expect(table.getByRole("columnheader", { name: /^Token id/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(table.getByRole("columnheader", { name: /^Expiry/ })).toHaveAttribute("aria-sort", "none");
  const ascending = await order();
  await table.getByRole("button", { name: "Token id: sort descending" }).click();
  await expect(table.getByRole("columnheader", { name: /^Token id/ })).toHaveAttribute("aria-sort", "descending");
  expect(await order()).toEqual([...ascending].reverse());
});

test(
  "right after creation, renew and expire use the HMAC still on screen (the page's memory), and after a " +
    "reload ask for it again",
  async ({ page }) => {
    await signInAs(page, "alice");
    await page.goto("/tokens");
    await createInForm(page, {});
    const { tokenId, hmac } = await readHmac(page);
    created.push({ hmac, as: "alice" });

    const row = page.locator(`tbody[data-token-id="${tokenId}"]`);
    await expect(row).toBeVisible();
    await openActions(row);
    const renew = page.getByRole("form", { name: `Renew ${tokenId}` });
    await expect(renew.getByLabel("HMAC")).toHaveValue(hmac);
    await expect(renew).toContainText("the HMAC shown above (on this page only)");
    await renew.getByRole("button", { name: "Renew" }).click();
    await expect(row.getByTestId("token-renew-done")).toContainText(`Token ${tokenId} renewed`);

    // Nothing of it survives the page: after a reload the HMAC is asked for again.
    await page.reload();
    await openActions(row);
    await expect(page.getByRole("form", { name: `Renew ${tokenId}` }).getByLabel("HMAC")).toHaveValue("");
    expect(
      await page.evaluate(
        () => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie,
      ),
    ).not.toContain(hmac);

    await page.goto("/tokens");
    await createInForm(page, {});
    const second = await readHmac(page);
    created.push({ hmac: second.hmac, as: "alice" });
    const secondRow = page.locator(`tbody[data-token-id="${second.tokenId}"]`);
    await openActions(secondRow);
    await page
      .getByRole("form", { name: `Expire ${second.tokenId}` })
      .getByRole("button", { name: "Expire" })
      .click();
    await expect(page.getByTestId("token-expire-done")).toContainText(
      `Token ${second.tokenId} was expired now and removed.`,
    );
  },
);
