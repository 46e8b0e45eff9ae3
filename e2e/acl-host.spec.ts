import { test, expect } from "./fixtures";
import { checkAclHost } from "../lib/policy/acl/host";

/**
 * One rule for the host of a new ACL: the form and POST /api/v1/acls refuse the same hosts
 * with the same message (the policy core's checkAclHost), and store IPv6 the way Kafka
 * compares it. Nothing is created: the refusals stop before Kafka, the rest is a preview.
 */

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;
const RUN = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
const PRINCIPAL = `User:e2e-host-${RUN}`;
const TOPIC = `e2e-host-${RUN}`;
const GRANT = {
  resourceType: "TOPIC",
  resourceName: TOPIC,
  patternType: "LITERAL",
  principal: PRINCIPAL,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
};
const MARKUP = "<b>h</b>";
const MESSAGE = (checkAclHost(MARKUP) as { ok: false; message: string }).message;

test("a markup host is refused by the form and by the API, with the same field error", async ({
  adminPage: page,
  request,
}) => {
  await page.goto("/acls/new");
  const form = page.getByRole("form", { name: "New ACLs" });
  await form.getByLabel("Principal").fill(PRINCIPAL);
  await form.getByLabel("Resource name").fill(TOPIC);
  await form.getByLabel("Operation").selectOption("READ");
  await form.getByLabel("Host").fill(MARKUP);
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form).toContainText(MESSAGE);
  await expect(page.getByRole("button", { name: /^Apply/ })).toHaveCount(0);

  const api = await request.post("/api/v1/acls", {
    headers: { Authorization: basic("admin") },
    data: { bindings: [{ ...GRANT, host: MARKUP }] },
  });
  expect(api.status()).toBe(400);
  expect(await api.json()).toMatchObject({ code: "VALIDATION", fieldErrors: { "bindings.0.host": [MESSAGE] } });

  const listed = await request.get(`/api/v1/acls?${new URLSearchParams({ principal: PRINCIPAL })}`, {
    headers: { Authorization: basic("admin") },
  });
  expect(((await listed.json()) as { matching: number }).matching).toBe(0);
});

test("an IPv6 host is previewed the way Kafka will compare it", async ({ request }) => {
  const response = await request.post("/api/v1/acls?preview=1", {
    headers: { Authorization: basic("admin") },
    data: { bindings: [{ ...GRANT, host: "::1" }] },
  });
  expect(response.status(), await response.text()).toBe(200);
  const plan = (await response.json()) as { create: { host: string }[] };
  expect(plan.create.map((b) => b.host)).toEqual(["0:0:0:0:0:0:0:1"]);
});
