import { readFile } from "node:fs/promises";
import { test, expect } from "./fixtures";
import type { APIRequestContext, Page } from "@playwright/test";

/**
 * ACLs as code, round trip in Chromium: export the ACLs as YAML, edit the file (drop one
 * binding of this run's throwaway principal, add another), import it with sync within this
 * run's throwaway resource-name prefix, see the plan (exactly one delete and one create,
 * the kafka-acls.sh commands), apply it, see the result in Kafka. Also: the refusals that
 * never delete anything, and the export formats over the API. Every ACL this spec makes
 * carries its marker and is removed at the end.
 */

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;
const admin = { Authorization: basic("admin") };
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PREFIX = `e2e-imp-${RUN}-`;
const SVC = `User:e2e-imp-${RUN}-svc`;

type Binding = {
  resourceType: string;
  resourceName: string;
  patternType: string;
  principal: string;
  host: string;
  operation: string;
  permissionType: string;
};
const acl = (over: Partial<Binding>): Binding => ({
  resourceType: "TOPIC",
  resourceName: `${PREFIX}orders`,
  patternType: "LITERAL",
  principal: SVC,
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  ...over,
});
const READ_ORDERS = acl({});
const WRITE_ORDERS = acl({ operation: "WRITE" });
const READ_GROUP = acl({ resourceType: "GROUP", resourceName: `${PREFIX}app` });
const DESCRIBE_ORDERS = acl({ operation: "DESCRIBE" });
// Same principal, outside the prefix: sync within the prefix must leave it alone.
const OUTSIDE = acl({ resourceName: `e2e-imp-${RUN}x-outside` });

async function aclsOfSvc(request: APIRequestContext): Promise<Binding[]> {
  const r = await request.get(`/api/v1/acls?${new URLSearchParams({ principal: SVC })}`, { headers: admin });
  expect(r.status(), await r.text()).toBe(200);
  const key = (b: Binding) =>
    JSON.stringify([b.resourceType, b.resourceName, b.patternType, b.operation, b.permissionType, b.host]);
  return ((await r.json()) as { acls: Binding[] }).acls.sort((a, b) => key(a).localeCompare(key(b)));
}
const sortedLike = (list: Binding[]) => {
  const key = (b: Binding) =>
    JSON.stringify([b.resourceType, b.resourceName, b.patternType, b.operation, b.permissionType, b.host]);
  return [...list].sort((a, b) => key(a).localeCompare(key(b)));
};

/**
 * The edit a person makes in the exported YAML: keep only their team's principal (the rest
 * of the cluster's ACLs belong to others), drop its WRITE on the orders topic and add a
 * DESCRIBE (the export's six-line layout per binding).
 */
function editExport(yaml: string): string {
  const lines = yaml.split("\n");
  const top = lines.indexOf("principals:");
  const head = lines.indexOf(`  - principal: "${SVC}"`);
  expect(head, "the export holds the throwaway principal's group").toBeGreaterThan(0);
  let end = head + 2;
  while (end < lines.length && lines[end]!.startsWith("      ")) end++;
  const chunks: string[][] = [];
  for (let i = head + 2; i < end; i += 6) chunks.push(lines.slice(i, i + 6));
  const kept = chunks.filter(
    (c) => !(c.includes(`        resourceName: "${PREFIX}orders"`) && c.includes("        operation: WRITE")),
  );
  expect(kept.length).toBe(chunks.length - 1);
  kept.push([
    "      - resourceType: TOPIC",
    `        resourceName: "${PREFIX}orders"`,
    "        patternType: LITERAL",
    "        operation: DESCRIBE",
    "        permissionType: ALLOW",
    '        host: "*"',
  ]);
  return [...lines.slice(0, top + 1), ...lines.slice(head, head + 2), ...kept.flat(), ""].join("\n");
}

const importForm = (page: Page) => page.getByRole("form", { name: "Import ACLs" });

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const r = await request.post("/api/v1/acls", {
    headers: admin,
    data: { bindings: [READ_ORDERS, WRITE_ORDERS, READ_GROUP, OUTSIDE] },
  });
  expect(r.status(), await r.text()).toBe(200);
});

test.afterAll(async ({ request }) => {
  const left = await aclsOfSvc(request);
  if (left.length > 0) await request.delete("/api/v1/acls", { headers: admin, data: { bindings: left } });
});

test(
  "export the ACLs as YAML, edit the file, import it with sync within a prefix, see the plan, apply it, " +
    "see the result",
  async ({ adminPage: page, request }) => {
    await page.goto("/acls/import");

    // Export: the download a person would save.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export ACLs as YAML" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^kafka-acls-\d{4}-\d\d-\d\d\.yaml$/);
    const exported = await readFile(await download.path(), "utf8");
    expect(exported).toContain(`  - principal: "${SVC}"`);

    // Import the edited file: sync within this run's prefix.
    const edited = editExport(exported);
    const form = importForm(page);
    await form
      .locator("input[name=file]")
      .setInputFiles({ name: "acls.yaml", mimeType: "application/yaml", buffer: Buffer.from(edited, "utf8") });
    await form.getByLabel("sync within the scope").check();
    await form.getByLabel("Scope: resource names starting with").fill(PREFIX);
    await form.getByRole("button", { name: "Preview" }).click();

    const plan = page.getByTestId("import-plan");
    await expect(page.getByTestId("import-source")).toContainText("acls.yaml (YAML");
    await expect(page.getByTestId("import-source")).toContainText(
      `sync within resource names starting with “${PREFIX}”`,
    );
    await expect(page.getByTestId("import-source")).toContainText("(3 ACLs in the scope now)");
    const deletes = plan.getByRole("table", { name: "Bindings to delete" });
    const creates = plan.getByRole("table", { name: "Bindings to create" });
    await expect(deletes.locator("tbody tr")).toHaveCount(1);
    await expect(deletes).toContainText("WRITE");
    await expect(creates.locator("tbody tr")).toHaveCount(1);
    await expect(creates).toContainText("DESCRIBE");
    await expect(page.getByTestId("plan-cli")).toContainText(
      `--remove --force --allow-principal ${SVC} --allow-host '*' --operation Write --topic ${PREFIX}orders`,
    );
    await expect(page.getByTestId("plan-cli")).toContainText(
      `--add --allow-principal ${SVC} --allow-host '*' --operation Describe --topic ${PREFIX}orders`,
    );
    // The fields keep what was submitted; the file's text is kept for a re-preview.
    await expect(form.getByLabel("sync within the scope")).toBeChecked();
    await expect(form.getByLabel("Scope: resource names starting with")).toHaveValue(PREFIX);
    await expect(form.locator("textarea[name=content]")).toHaveValue(edited);
    const planId = await page.getByTestId("acl-preview").getAttribute("data-plan-id");
    expect(planId).toMatch(/^[0-9a-f-]{36}$/);

    await page
      .getByRole("form", { name: "Apply the import" })
      .getByRole("button", { name: "Apply: delete 1, create 1" })
      .click();
    const result = page.getByTestId("acl-result");
    await expect(result).toContainText("success");
    await expect(result).toContainText("Deleted 1 of 1, created 1 of 1 ACLs of the plan.");
    await expect(result.getByRole("table", { name: "Per-binding results" }).locator("tbody tr")).toHaveCount(2);
    await expect(page.getByRole("form", { name: "Apply the import" })).toHaveCount(0);

    // Kafka holds the file's state inside the prefix; the ACL outside it is untouched.
    expect(await aclsOfSvc(request)).toEqual(sortedLike([READ_ORDERS, DESCRIBE_ORDERS, READ_GROUP, OUTSIDE]));

    // The progress, as the page polled it, read from the per-batch audit events.
    const progress = await page.request.get(`/api/v1/acls/import/${planId}/progress`);
    expect(await progress.json()).toEqual({
      planId,
      status: "APPLIED",
      total: 2,
      batches: { total: 2, done: 2, inFlight: 0 },
      sent: 2,
      succeeded: 2,
      failed: 0,
    });
  },
);

test("refuses, deleting nothing: sync without a scope, and an empty file; the fields keep their values", async ({
  adminPage: page,
  request,
}) => {
  const before = await aclsOfSvc(request);
  await page.goto("/acls/import");
  const form = importForm(page);
  await form.locator("textarea[name=content]").fill(JSON.stringify({ acls: [READ_ORDERS] }));
  await form.getByLabel("sync within the scope").check();
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("import-error")).toContainText("Sync deletes what the file lacks only inside a scope");
  await expect(form.getByLabel("sync within the scope")).toBeChecked();
  await expect(form.locator("textarea[name=content]")).toHaveValue(JSON.stringify({ acls: [READ_ORDERS] }));

  await form.locator("textarea[name=content]").fill("principals: []\n");
  await form.getByLabel("Scope: resource names starting with").fill(PREFIX);
  await form.locator("select[name=format]").selectOption("yaml");
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("import-error")).toContainText("The file holds no ACL binding");
  await expect(form.locator("select[name=format]")).toHaveValue("yaml");
  await expect(page.getByTestId("import-plan")).toHaveCount(0);
  expect(await aclsOfSvc(request)).toEqual(before);
});

test(
  "the export over the API: JSON (the policy CLI's shape), CSV and YAML, only for those Kafka lets " + "describe ACLs",
  async ({ request }) => {
    const json = await request.get("/api/v1/acls/export?format=json", { headers: admin });
    expect(json.status()).toBe(200);
    expect(json.headers()["content-disposition"]).toMatch(/^attachment; filename="kafka-acls-\d{4}-\d\d-\d\d\.json"$/);
    const doc = (await json.json()) as { format: string; version: number; acls: Binding[] };
    expect(doc).toMatchObject({ format: "kafka-security-console/acls", version: 1 });
    expect(doc.acls).toContainEqual(READ_ORDERS);

    const csv = await request.get("/api/v1/acls/export?format=csv", { headers: admin });
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect((await csv.text()).split("\r\n")[0]).toBe(
      "Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host",
    );

    const yaml = await request.get("/api/v1/acls/export?format=yaml", { headers: admin });
    expect(yaml.headers()["content-type"]).toBe("application/yaml; charset=utf-8");
    expect(await yaml.text()).toContain(`  - principal: "${SVC}"`);

    const bad = await request.get("/api/v1/acls/export?format=xml", { headers: admin });
    expect(bad.status()).toBe(400);
    const alice = await request.get("/api/v1/acls/export?format=yaml", { headers: { Authorization: basic("alice") } });
    expect(alice.status()).toBe(403);
  },
);
