import { test, expect, signInAs } from "./fixtures";
import type { APIRequestContext } from "@playwright/test";

/**
 * Who sees what (docs/audit.md, "Who sees which audit events"), against the dev broker, the demo
 * ACLs (scripts/seed/demo-data.ts) and this run's own database: alice has no cluster
 * permission; bob has CREATE_TOKENS and DESCRIBE_TOKENS on USER User:svc-orders but may not
 * describe ACLs; admin is the super user. The outside tester's findings, replayed: alice
 * read admin's ACL changes, others' token-request reasons and failed sign-ins with client
 * addresses; pending requests were listed to everyone; ten approvals made ten tokens.
 */

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const basic = (user: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`,
});
const TOPIC = `e2e-av-${RUN}`;
const GRANT = {
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: "User:svc-orders",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};
const REASON = `e2e ${RUN}: carol's private reason`;
const RACE_MARKER = `User:e2e-av-race-${RUN}`;

type Event = {
  principal: string;
  action: string;
  target: string;
  outcome: string;
  request: unknown;
  subjects?: string[];
};

/** Tokens to expire at the end, with who may (owner or renewer). */
const created: { hmac: string; as: string }[] = [];

test.describe.configure({ mode: "serial" });

let requestId = "";

test.afterAll(async ({ request }) => {
  // carol's request is decided, so that it does not wait on later runs' dashboards.
  if (requestId)
    await request.post(`/api/v1/token-requests/${requestId}/deny`, {
      headers: basic("admin"),
      data: { reason: "e2e audit visibility done" },
    });
  await request.delete("/api/v1/acls", { headers: basic("admin"), data: { bindings: [GRANT] } });
  for (const t of created)
    await request.post("/api/v1/tokens/expire", { headers: basic(t.as), data: { hmac: t.hmac, when: "now" } });
});

async function auditAs(request: APIRequestContext, user: string): Promise<{ events: Event[]; visibility: string[] }> {
  const r = await request.get("/api/v1/audit?limit=1000", { headers: basic(user) });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as { events: Event[]; visibility: string[] };
}

async function csvAs(request: APIRequestContext, user: string): Promise<string> {
  const r = await request.get("/api/v1/audit?format=csv&limit=1000", { headers: basic(user) });
  expect(r.status()).toBe(200);
  return r.text();
}

test(
  "the events happen: a failed sign-in, admin's ACL change, alice's refused one, alice's token with bob " +
    "as renewer, carol's request",
  async ({ playwright, request }) => {
    // A failed sign-in from another client: its row carries the client address.
    const stranger = await playwright.request.newContext({
      baseURL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`,
    });
    const failed = await stranger.post("/api/v1/session", {
      data: { username: "alice", password: "not-alice-secret", mechanism: "SCRAM-SHA-512" },
    });
    expect(failed.status()).toBe(401);
    await stranger.dispose();

    expect(
      (await request.post("/api/v1/acls", { headers: basic("admin"), data: { bindings: [GRANT] } })).status(),
    ).toBe(200);
    expect(
      (
        await request.post("/api/v1/acls", {
          headers: basic("alice"),
          data: { bindings: [{ ...GRANT, resourceName: `e2e-alice-${RUN}`, principal: "User:alice" }] },
        })
      ).status(),
    ).toBe(403);

    const token = await request.post("/api/v1/tokens", { headers: basic("alice"), data: { renewers: ["User:bob"] } });
    expect(token.status(), await token.text()).toBe(200);
    created.push({ hmac: ((await token.json()) as { hmac: string }).hmac, as: "alice" });

    const submitted = await request.post("/api/v1/token-requests", {
      headers: basic("carol"),
      data: { owner: "User:svc-orders", reason: REASON },
    });
    expect(submitted.status(), await submitted.text()).toBe(200);
    requestId = ((await submitted.json()) as { id: string }).id;
  },
);

test(
  "alice sees her own actions only: not admin's ACLs, not carol's reason, not failed sign-ins (not even " +
    "on her name)",
  async ({ page, request }) => {
    const { events, visibility } = await auditAs(request, "alice");
    expect(events.some((e) => e.action === "acl.create" && e.outcome === "denied")).toBe(true);
    expect(events.some((e) => e.action === "token.create" && e.outcome === "success")).toBe(true);
    for (const e of events)
      expect(e.principal === "User:alice" || (e.subjects ?? []).includes("User:alice"), JSON.stringify(e)).toBe(true);
    expect(events.filter((e) => e.action.startsWith("session.sign-in") && e.outcome !== "success")).toEqual([]);
    const text = JSON.stringify(events) + (await csvAs(request, "alice"));
    for (const hidden of [TOPIC, REASON, "not-alice-secret", requestId]) expect(text).not.toContain(hidden);
    expect(visibility.join(" ")).toContain("Kafka does not let you describe ACLs");

    await signInAs(page, "alice");
    await page.goto("/audit");
    await expect(page.getByRole("table", { name: "Audit events" })).toContainText("acl.create");
    await expect(page.getByRole("table", { name: "Audit events" })).not.toContainText(TOPIC);
    await expect(page.getByTestId("audit-visibility")).toContainText("What you can see here");

    // Nor is carol's pending request, or its reason, listed to her.
    await page.goto("/token-requests");
    await expect(page.getByRole("heading", { name: "Requests I can decide" })).toBeVisible();
    expect(await page.content()).not.toContain(REASON);
    const listed = await request.get("/api/v1/token-requests", { headers: basic("alice") });
    expect(await listed.text()).not.toContain(REASON);
  },
);

test(
  "bob sees the token he renews; carol's request once Kafka has let him create for svc-orders; never " +
    "admin's ACLs or failed sign-ins",
  async ({ page, request }) => {
    const before = await auditAs(request, "bob");
    expect(
      before.events.some(
        (e) => e.action === "token.create" && e.principal === "User:alice" && (e.subjects ?? []).includes("User:bob"),
      ),
    ).toBe(true);
    expect(JSON.stringify(before.events)).not.toContain(TOPIC);
    expect(before.events.filter((e) => e.action.startsWith("session.sign-in") && e.outcome !== "success")).toEqual([]);

    // Kafka lets bob create for svc-orders: from then on he is someone who may decide its requests.
    const token = await request.post("/api/v1/tokens", { headers: basic("bob"), data: { owner: "User:svc-orders" } });
    expect(token.status(), await token.text()).toBe(200);
    created.push({ hmac: ((await token.json()) as { hmac: string }).hmac, as: "svc-orders" });

    const after = await auditAs(request, "bob");
    expect(after.events.some((e) => e.action === "token.request.create" && e.target.includes(requestId))).toBe(true);
    await signInAs(page, "bob");
    await page.goto("/token-requests");
    const row = page
      .getByRole("table", { name: "Requests I can decide" })
      .locator(`tr[data-request-id="${requestId}"]`);
    await expect(row).toContainText(REASON);
    await expect(row).toHaveAttribute("data-entitled", "yes");
  },
);

test("admin sees everything, including the failed sign-in with its client address", async ({ request }) => {
  const { events, visibility } = await auditAs(request, "admin");
  const failure = events.find(
    (e) => e.action === "session.sign-in" && e.outcome !== "success" && e.principal === "User:alice",
  );
  expect(failure, "alice's failed sign-in").toBeDefined();
  expect(JSON.stringify(failure?.request)).toMatch(/\d+\.\d+\.\d+\.\d+|::/);
  expect(events.some((e) => e.action === "acl.create" && e.target.includes(TOPIC))).toBe(true);
  expect(JSON.stringify(events)).toContain(REASON);
  expect(visibility).toEqual(["Every event: you are a super user."]);
});

test("ten approvals at once create exactly one token; the others are told who holds the request", async ({
  request,
}) => {
  const submitted = await request.post("/api/v1/token-requests", {
    headers: basic("carol"),
    data: { owner: "User:svc-orders", renewers: ["User:carol", RACE_MARKER], reason: `e2e ${RUN}: race` },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  const { id } = (await submitted.json()) as { id: string };
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      request.post(`/api/v1/token-requests/${id}/approve`, { headers: basic(i % 2 ? "bob" : "admin") }),
    ),
  );
  const statuses = results.map((r) => r.status()).sort();
  expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);

  const tokens = (await (await request.get("/api/v1/tokens", { headers: basic("admin") })).json()) as {
    tokens: { tokenId: string; renewers: string[] }[];
  };
  const mine = tokens.tokens.filter((t) => t.renewers.includes(RACE_MARKER));
  expect(mine).toHaveLength(1);
  const retrieved = await request.post(`/api/v1/token-requests/${id}/retrieve`, { headers: basic("carol") });
  expect(retrieved.status()).toBe(200);
  const { hmac, tokenId } = (await retrieved.json()) as { hmac: string; tokenId: string };
  created.push({ hmac, as: "carol" });
  expect(tokenId).toBe(mine[0]!.tokenId);
});

test("a lifetime of 1e308 days is a field error, in the form and in the API", async ({ page, request }) => {
  await signInAs(page, "carol");
  await page.goto("/token-requests");
  const form = page.getByRole("form", { name: "Request a token" });
  await form.getByLabel("Owner").fill("User:svc-orders");
  await form.getByLabel("Max lifetime").fill("1e308");
  await form.getByLabel("Unit").selectOption("days");
  await form.getByLabel("Reason").fill("too long");
  await form.getByRole("button", { name: "Submit request" }).click();
  await expect(form).toContainText("Too long: at most 104,249,991 days");

  const api = await request.post("/api/v1/token-requests", {
    headers: basic("carol"),
    data: { owner: "User:svc-orders", reason: "too long", maxLifetimeMs: 1e308 },
  });
  expect(api.status()).toBe(400);
  expect(((await api.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.maxLifetimeMs?.[0]).toContain(
    "Too long",
  );
});
